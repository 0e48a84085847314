"""A manifest an operator or a chart renders later keeps its Go-template actions (`{{ .Spec.x }}`,
`{{- if … -}}--flag{{- end }}`): what they become is unknown to a static read, so they make the
setting unknown instead of a stray positional or an unknown option; and the marks the shell model
puts around unknown text (engine/scan/shell_expand.py holes) never reach an output."""
from __future__ import annotations

import json

from vllm_kb.engine.kb.safe_text import HOLE_CLOSE, HOLE_OPEN

POD = """\
apiVersion: v1
kind: Pod
metadata: {name: m}
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.11.0
      command: ["vllm", "serve", "/mnt/models"]
      args:
        - "--tensor-parallel-size"
        - "{{ .Spec.Parallelism.Tensor }}"
        - "{{ if .Spec.Expert }}--enable-expert-parallel{{ end }}"
        - "--max-model-len"
        - "4096"
"""
WORKFLOW = """\
on: push
jobs:
  serve:
    runs-on: gpu
    steps:
      - run: vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size ${{ vars.TP }}
"""


def _audit(cli, root, *fmt):
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", *fmt)
    assert code in (0, 1), err
    return out


def test_template_actions_in_an_argv_list_are_unknown_settings(cli, write_project):
    root = write_project({"pod.yaml": POD})
    (site,) = json.loads(_audit(cli, root, "--format", "json"))["sites"]
    settings = {s["name"]: s for s in site["settings"]}
    assert settings["tensor_parallel_size"]["resolved"] is False
    assert settings["max_model_len"]["value"] == 4096
    assert not [r for r in site["recommendations"] if r["priority"] == "P0"]


def test_no_output_shows_the_hole_marks(cli, write_project):
    root = write_project({"pod.yaml": POD, ".github/workflows/serve.yml": WORKFLOW})
    for fmt in (("--format", "json"), ("--format", "text"), ("--format", "markdown"), ("--format", "sarif")):
        out = _audit(cli, root, *fmt)
        assert HOLE_OPEN not in out and HOLE_CLOSE not in out, fmt
    assert "vars.TP" in _audit(cli, root, "--format", "json")
