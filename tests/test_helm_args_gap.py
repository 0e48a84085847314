"""A chart whose container `args:` come from a named template (`{{- include "vllm.serverArgs" . | nindent 12 }}`,
which ranges over `.Values.vllm.args` through `tpl`) leaves them unknown: no "no model is given" (L33) P1
(gsampaio-rh/llm-benchmark-app helm/vllm, https://github.com/gsampaio-rh/llm-benchmark-app)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

CHART = "apiVersion: v2\nname: vllm\nversion: 0.1.0\nappVersion: latest\n"
VALUES = """vllm:
  model: Qwen/Qwen2.5-7B
  args:
    - --model={{ .Values.vllm.model }}
    - --max-model-len=4096
"""
HELPERS = """{{- define "vllm.serverArgs" -}}
{{- range .Values.vllm.args }}
- {{ tpl . $ | quote }}
{{- end }}
{{- end }}
"""
DEPLOY = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "vllm/vllm-openai:{{ .Chart.AppVersion }}"
          args:
            {{- include "vllm.serverArgs" . | nindent 12 }}
          ports:
            - containerPort: 8000
"""


def test_included_args_are_unknown_not_absent(write_project):
    root = write_project({"chart/Chart.yaml": CHART, "chart/values.yaml": VALUES,
                          "chart/templates/_helpers.tpl": HELPERS, "chart/templates/deployment.yaml": DEPLOY})
    (sr,) = audit(root).sites
    assert any(o["code"] == "forwards-args" for o in sr.site.opaque)
    assert not [r for r in sr.results if r.check.id == "L33" and r.status == "recommended"]
