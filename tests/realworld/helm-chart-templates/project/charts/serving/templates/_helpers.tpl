{{- define "serving.name" -}}
{{ .Release.Name }}-serving
{{- end }}
{{- define "serving.model" -}}
{{ .Values.model.id }}
{{- end }}
