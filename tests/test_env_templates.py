"""A `.env` a launch script sources that the project does not ship: the template its user copies
to it (engine/scan/env_templates.py) — the script's own `cp TEMPLATE .env` line, or the one
`.env.example` beside it."""
from vllm_kb.engine.audit import audit

# wutonglab/spark-llm-deployment-evaluation (https://github.com/wutonglab/spark-llm-deployment-evaluation, eval83):
# case-studies/*/reproduce/launch.sh sources $SCRIPT_DIR/.env, made by `cp env-templates/with-mtp1.env .env`
_LAUNCH = ('#!/usr/bin/env bash\n# Usage:\n#   cp env-templates/{name} .env\n#   bash launch.sh\nset -euo pipefail\n'
           'SCRIPT_DIR="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"\nENV_FILE="${{ENV_FILE:-$SCRIPT_DIR/.env}}"\n'
           'set -a; source "$ENV_FILE"; set +a\n'
           'docker run -d --gpus all --ipc=host --entrypoint python3 "${{VLLM_IMAGE}}" \\\n'
           '    -m vllm.entrypoints.openai.api_server --model "${{MODEL_ID}}" --max-model-len "${{MAX_LEN:-8192}}"\n')
_NGC = "VLLM_IMAGE=nvcr.io/nvidia/vllm:26.03.post1-py3\nMODEL_ID=Qwen/Qwen3-8B\nMAX_LEN=32768\n"
_NIGHTLY = "VLLM_IMAGE=vllm/vllm-openai:nightly\nMODEL_ID=Qwen/Qwen3-8B\nMAX_LEN=16384\n"


def _site(root):
    (sr,) = audit(root).sites
    return sr


def test_the_template_the_script_says_to_copy(write_project):
    sr = _site(write_project({"reproduce/launch.sh": _LAUNCH.format(name="with-mtp1.env"),
                              "reproduce/env-templates/with-mtp1.env": _NGC, "reproduce/env-templates/other.env": _NIGHTLY}))
    assert (sr.version.basis, str(sr.version.version)) == ("image", "0.17.1")
    assert sr.site.settings["max_model_len"].value == 32768


def test_two_templates_named_or_none_there_read_nothing(write_project, tmp_path):
    two = _LAUNCH.format(name="with-mtp1.env").replace("#   bash", "#   (or) cp env-templates/other.env .env\n#   bash")
    sr = _site(write_project({"a/launch.sh": two, "a/env-templates/with-mtp1.env": _NGC, "a/env-templates/other.env": _NIGHTLY}, tmp_path / "a"))
    assert sr.version.basis == "none"
    sr = _site(write_project({"b/launch.sh": _LAUNCH.format(name="gone.env")}, tmp_path / "b"))
    assert sr.version.basis == "none"


def test_a_lone_example_beside_and_a_shipped_env_first(write_project, tmp_path):
    plain = _LAUNCH.format(name="x").replace("#   cp env-templates/x .env\n", "")
    sr = _site(write_project({"c/launch.sh": plain, "c/.env.example": _NGC}, tmp_path / "c"))
    assert str(sr.version.version) == "0.17.1"
    root = write_project({"d/launch.sh": _LAUNCH.format(name="with-mtp1.env"), "d/env-templates/with-mtp1.env": _NGC,
                          "d/.env": _NIGHTLY}, tmp_path / "d")
    sr = _site(root)  # the project's own .env is what the script sources
    assert sr.version.basis == "image-untagged" and sr.site.settings["max_model_len"].value == 16384


def test_an_env_exported_with_xargs_reads_its_template_too(write_project):
    launch = ('#!/bin/bash\n# cp .env.example .env, then fill in HF_TOKEN\nexport $(grep -v "^#" .env | xargs)\n'
              'docker run --gpus all --entrypoint python3 "$VLLM_IMAGE" -m vllm.entrypoints.openai.api_server --model "$MODEL_ID"\n')
    sr = _site(write_project({"serve.sh": launch, ".env.example": _NGC}))
    assert str(sr.version.version) == "0.17.1" and sr.site.model.value == "Qwen/Qwen3-8B"
