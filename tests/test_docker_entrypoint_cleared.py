"""`docker run --entrypoint="" IMAGE bash -c "… && vllm serve M"`: an empty --entrypoint clears the
image's own, so the arguments after the image are the command, and the `vllm serve` in the shell
string is a launch site judged at the image's release (eval101: a Whisper server started from
vLLM's image after installing its audio extra)."""
from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("flag", ['--entrypoint=""', "--entrypoint ''", '--entrypoint ""'])
def test_a_cleared_entrypoint_runs_the_arguments(cli, write_project, flag):
    root = write_project({"run.sh": f'docker run --gpus all -p 8000:8000 {flag} vllm/vllm-openai:v0.9.1 bash -c '
                                    '"pip install vllm[audio] && vllm serve openai/whisper-small --max-model-len 448"\n'})
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    assert (site["kind"], site["model"]["name"], site["vllm"]["version"]) == ("vllm serve", "openai/whisper-small", "0.9.1")


def test_an_entrypoint_given_still_leads(cli, write_project):
    root = write_project({"run.sh": 'docker run --gpus all --entrypoint vllm vllm/vllm-openai:v0.9.1 serve Qwen/Qwen2.5-7B-Instruct\n'})
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"
