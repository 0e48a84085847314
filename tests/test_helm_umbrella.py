"""An umbrella Helm chart installs a local vLLM subchart with its own values (engine/scan/deploy/
helm_umbrella.py). The shape is opea-project/GenAIInfra's (https://github.com/opea-project/GenAIInfra,
helm-charts/codetrans, chatqna, financeagent …): each umbrella's Chart.yaml depends on
`file://../common/vllm` with `condition: vllm.enabled`, and its values.yaml sets `vllm.LLM_MODEL_ID`
and `vllm.extraCmdArgs`. eval90 counted six such launches the audit missed: only the subchart with
its own defaults was a site."""
from __future__ import annotations

import contextlib
import io
import json

import pytest

SUB_CHART = "apiVersion: v2\nname: vllm\nversion: 0-latest\nappVersion: v1.0\n"
SUB_VALUES = """\
image:
  repository: vllm/vllm-openai
  tag: v0.10.2
port: 2080
extraCmdArgs: []
LLM_MODEL_ID: meta-llama/Meta-Llama-3-8B-Instruct
global:
  modelUsePVC: ""
"""
SUB_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Chart.Name }}
spec:
  template:
    spec:
      containers:
        - name: {{ .Chart.Name }}
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
          args:
          {{- if .Values.extraCmdArgs }}
            {{- range .Values.extraCmdArgs }}
            - {{ . | quote }}
            {{- end }}
          {{- end }}
            - "--model"
            - {{ .Values.LLM_MODEL_ID | quote }}
            - "--port"
            - {{ .Values.port | quote }}
          {{- if .Values.global.modelUsePVC }}
          volumeMounts:
            - {mountPath: /data, name: model}
          {{- end }}
"""


def _umbrella(name: str, dep: str) -> str:
    return f"apiVersion: v2\nname: {name}\nversion: 0-latest\ndependencies:\n{dep}"


CODETRANS_DEP = """\
  - name: tgi
    version: 0-latest
    repository: "file://../common/tgi"
    condition: tgi.enabled
  - name: vllm
    version: 0-latest
    repository: "file://../common/vllm"
    condition: vllm.enabled
"""
CODETRANS_VALUES = """\
replicaCount: 1
tgi:
  enabled: false
vllm:
  enabled: true
  LLM_MODEL_ID: Qwen/Qwen2.5-Coder-7B-Instruct
  extraCmdArgs: ["--max-seq-len-to-capture", "16384"]
global:
  modelUsePVC: model-volume
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    from vllm_kb.cli.main import main

    root = tmp_path_factory.mktemp("umbrella")
    files = {
        "charts/common/vllm/Chart.yaml": SUB_CHART,
        "charts/common/vllm/values.yaml": SUB_VALUES,
        "charts/common/vllm/templates/deployment.yaml": SUB_DEPLOYMENT,
        "charts/common/tgi/Chart.yaml": "apiVersion: v2\nname: tgi\nversion: 0-latest\n",
        # enabled, model and arguments of its own, a global the subchart reads
        "charts/codetrans/Chart.yaml": _umbrella("codetrans", CODETRANS_DEP),
        "charts/codetrans/values.yaml": CODETRANS_VALUES,
        # an alias, no condition (financeagent's shape): installed
        "charts/agent/Chart.yaml": _umbrella("agent", '  - name: vllm\n    alias: llm\n    version: 0-latest\n    repository: "file://../common/vllm"\n'),
        "charts/agent/values.yaml": "llm:\n  LLM_MODEL_ID: mistralai/Mistral-7B-Instruct-v0.3\n",
        # the condition reads false (agentqna's shape): not installed
        "charts/off/Chart.yaml": _umbrella("off", '  - name: vllm\n    version: 0-latest\n    repository: "file://../common/vllm"\n    condition: vllm.enabled\n'),
        "charts/off/values.yaml": "vllm:\n  enabled: false\n  LLM_MODEL_ID: Qwen/Qwen2.5-72B-Instruct\n",
        # enabled by tags the install picks: not known here, no site
        "charts/tagged/Chart.yaml": _umbrella("tagged", '  - name: vllm\n    version: 0-latest\n    repository: "file://../common/vllm"\n    tags: [llm]\n'),
        "charts/tagged/values.yaml": "vllm:\n  LLM_MODEL_ID: Qwen/Qwen2.5-32B-Instruct\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["audit", str(root), "--isolated", "-q", "--format", "json"])
    assert code in (0, 1)
    return json.loads(out.getvalue())


def _by_file(report) -> dict:
    return {s["file"]: s for s in report["sites"]}


def test_each_enabled_umbrella_is_a_site_at_its_subchart_key(report):
    sites = _by_file(report)
    assert set(sites) == {"charts/common/vllm/templates/deployment.yaml", "charts/codetrans/values.yaml", "charts/agent/values.yaml"}
    trans = sites["charts/codetrans/values.yaml"]
    assert trans["line"] == 4 and trans["model"]["name"] == "Qwen/Qwen2.5-Coder-7B-Instruct"
    assert sites["charts/agent/values.yaml"]["model"]["name"] == "mistralai/Mistral-7B-Instruct-v0.3"
    # the subchart's own site keeps its defaults
    assert sites["charts/common/vllm/templates/deployment.yaml"]["model"]["name"] == "meta-llama/Meta-Llama-3-8B-Instruct"


def test_the_umbrellas_arguments_are_judged_and_told_not_written(report):
    trans = _by_file(report)["charts/codetrans/values.yaml"]
    assert trans["vllm"]["version"] == "0.10.2"  # the subchart's image tag, the umbrella leaving it
    got = {s["name"]: s for s in trans["settings"]}
    assert got["max_seq_len_to_capture"]["value"] == 16384 and got["max_seq_len_to_capture"]["line"] == 7  # its extraCmdArgs line
    assert "max_seq_len_to_capture" not in {s["name"] for s in _by_file(report)["charts/common/vllm/templates/deployment.yaml"]["settings"]}


def test_an_added_argument_is_told_in_the_umbrellas_values_list(report):
    """The subchart's args range over `.Values.extraCmdArgs`: the umbrella adds one under its key there."""
    trans = _by_file(report)["charts/codetrans/values.yaml"]
    told = [c["after"] for r in trans["recommendations"] for c in r.get("changes") or [] if c.get("op") == "set" and c.get("after")]
    assert any(t.startswith('vllm.extraCmdArgs: ["--max-model-len"') for t in told)  # B2: its 32K context
    assert "charts/common/vllm/templates/deployment.yaml:" in trans["mode_evidence"]  # where the command is written
