"""An image whose tag names only its build day is judged at the newest release published by that day,
and its command line is read with that release's grammar, not the newest's. AIBrix's KV-cache
regression deployment (https://github.com/vllm-project/aibrix/blob/main/test/regression/v0.2.1/aibrix_kvcache_0.6.1.yaml)
runs aibrix/vllm-openai:v0.6.1-edb07092-20250118 with `--enable-chunked-prefill "false"`: up to 0.6.x the
flag takes that value (StoreBoolean, nargs='?'); read with 0.34.0's switch it became True plus a stray
positional, and `--model` beside it was then called "both a positional model and --model"."""
from __future__ import annotations

import json

IMAGE = "aibrix/vllm-openai:v0.6.1-edb07092-20250118"

DEPLOY = """apiVersion: apps/v1
kind: Deployment
metadata: {{name: m}}
spec:
  template:
    spec:
      containers:
      - name: vllm-openai
        image: {image}
        command: [vllm, serve, {model}--max-model-len, "8192", --enable-chunked-prefill, "false"{tail}]
"""


def _site(cli, write_project, **kw):
    root = write_project({"deploy.yaml": DEPLOY.format(**{"image": IMAGE, "model": "", "tail": "", **kw})})
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "-q", "--format", "json")
    (site,) = json.loads(out)["sites"]
    return site


def test_a_dated_images_argv_is_read_with_the_release_it_is_judged_at(cli, write_project):
    site = _site(cli, write_project, model="/models/llama, ")
    assert site["vllm"]["basis"] == "image-dated" and site["vllm"]["version"] == "0.6.6.post1"
    assert [s["value"] for s in site["settings"] if s["name"] == "enable_chunked_prefill"] == [False]
    assert not [r for r in site["recommendations"] if "positional" in json.dumps(r)]


def test_model_given_only_as_an_option_is_the_missing_positional_at_that_release(cli, write_project):
    site = _site(cli, write_project, tail=", --model, /models/llama")
    (l33,) = [r for r in site["recommendations"] if r["check"] == "L33"]
    assert "model_tag" in l33["reason"] and "Both a positional" not in l33["reason"]


def test_a_released_tag_is_still_read_by_its_own_grammar(cli, write_project):
    site = _site(cli, write_project, image="vllm/vllm-openai:v0.10.0", model="/models/llama, ")
    assert site["vllm"]["version"] == "0.10.0"
