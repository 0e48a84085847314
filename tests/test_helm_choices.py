"""A chart template rendered only under a value values.yaml does not choose (`{{- if eq
.Values.servingTopology "multiNode" }}` with `servingTopology: singleNode`): the launch is one setting
away, so it is a site, rendered with that value, whose refusals are P1 — the default install does not
run it. redhat-ai-services/helm-charts' vllm-kserve chart keeps its multi-node ServingRuntime so (eval97); a
public chart in the code corpus picks its LeaderWorkerSet through a variable (`$app := .Values.vllm`,
`eq $app.workload.type "leaderWorkerSet"`)."""
from __future__ import annotations

import json

CHART = "apiVersion: v2\nname: llm\nversion: 0.1.0\nappVersion: \"0.9.2\"\n"
VALUES = """\
deploy: {topology: single}
image: vllm/vllm-openai:v0.9.2
model: org/chat-model
"""
SINGLE = """\
{{- if eq .Values.deploy.topology "single" }}
apiVersion: apps/v1
kind: Deployment
metadata: {name: one}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: {{ .Values.image }}
          args: ["--model", "{{ .Values.model }}", "--max-model-len", "4096"]
{{- end }}
"""
MULTI = """\
{{- $t := .Values.deploy -}}
{{- if eq "multi" $t.topology }}
apiVersion: apps/v1
kind: Deployment
metadata: {name: many}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: {{ .Values.image }}
          args: ["--model", "{{ .Values.model }}", "--pipeline-parallel-size", "2", "--no-such-flag"]
{{- end }}
"""


def _chart(write_project):
    return write_project({"chart/Chart.yaml": CHART, "chart/values.yaml": VALUES,
                          "chart/templates/single.yaml": SINGLE, "chart/templates/multi.yaml": MULTI})


def test_the_other_topology_is_a_site_rendered_with_its_value(scanned, write_project):
    got = scanned({}, _chart(write_project))
    assert [(s.file, s.launch.get("values_choice")) for s in got] == [
        ("chart/templates/multi.yaml", "deploy.topology=multi"), ("chart/templates/single.yaml", None)]
    assert got[0].settings["pipeline_parallel_size"].value == 2


def test_its_refusals_are_p1(cli, write_project):
    root = _chart(write_project)
    code, out, _ = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    sites = {s["file"]: s for s in json.loads(out)["sites"]}
    multi = sites["chart/templates/multi.yaml"]
    items = [*multi["recommendations"], *(multi.get("findings") or [])]
    assert "P0" not in [x["priority"] for x in items] and code == 0
    assert any("deploy.topology=multi" in json.dumps(x) for x in items if x["priority"] == "P1")
