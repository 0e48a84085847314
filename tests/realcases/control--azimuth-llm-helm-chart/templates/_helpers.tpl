{{- define "azimuth-llm.chatTemplate" -}}
{{- if .Values.huggingface.chatTemplate }}
- --chat-template
- {{ quote .Values.huggingface.chatTemplate }}
{{- end -}}
{{- end }}
