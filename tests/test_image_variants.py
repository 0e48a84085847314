"""The project's images for other platforms (vllm/vllm-openai-rocm, vllm/vllm-openai-cpu): tagged with
vLLM's releases and started by `vllm serve`, so `docker run IMAGE MODEL --flags` is a vLLM site
(engine/scan/images.py). vllm#52768 ran the 0.27.1 ROCm image that way and no site was read."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.images import entrypoint_for, image_version, is_variant_image

# https://github.com/vllm-project/vllm/issues/52768 (the model first, as the image's `vllm serve` takes it)
RUN = """#!/bin/bash
docker run --rm --network host --ipc host --device /dev/kfd --device /dev/dri \\
  vllm/vllm-openai-rocm:v0.27.1 \\
  RedHatAI/gemma-4-31B-it-FP8-block \\
  --max-model-len 32768 \\
  --kv-cache-dtype fp8
"""


def test_the_variants_are_the_projects_images():
    assert is_variant_image("vllm/vllm-openai-rocm:v0.27.1") and is_variant_image("docker.io/vllm/vllm-openai-cpu:v0.20.0")
    assert not is_variant_image("vllm/vllm-openai:v0.27.1") and not is_variant_image("rocm/vllm:latest")
    assert image_version("vllm/vllm-openai-rocm:v0.27.1") == "0.27.1"
    assert entrypoint_for("vllm/vllm-openai-rocm:v0.27.1", "0.34.0") == ["vllm", "serve"]


def test_a_rocm_image_given_a_model_first_is_a_site(write_project):
    rep = audit(write_project({"run.sh": RUN}), gpu="MI300X")
    (sr,) = rep.sites
    assert sr.site.model.value == "RedHatAI/gemma-4-31B-it-FP8-block"
    assert sr.version.version == "0.27.1" and sr.version.basis == "image"
    assert sr.site.settings["max_model_len"].value in (32768, "32768")


def test_an_unknown_image_given_a_model_first_stays_no_site(write_project):
    rep = audit(write_project({"run.sh": RUN.replace("vllm/vllm-openai-rocm:v0.27.1", "acme/vllm-tools:v1")}), gpu="MI300X")
    assert not rep.sites


COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai-rocm:v0.27.1
    command: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]
"""

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata: {name: v}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai-rocm:v0.27.1
        args: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]
"""


def test_a_rocm_image_in_compose_and_kubernetes_given_a_model_first_is_a_site(write_project, tmp_path):
    for name, text in (("docker-compose.yml", COMPOSE), ("deploy.yaml", DEPLOYMENT)):
        (sr,) = audit(write_project({name: text}, tmp_path / name), gpu="MI300X").sites
        assert sr.site.model.value == "Qwen/Qwen3-8B" and sr.version.version == "0.27.1", name
    (sr,) = audit(write_project({"docker-compose.yml": COMPOSE.replace('["Qwen/Qwen3-8B", ', '["vllm", "serve", "Qwen/Qwen3-8B", ')},
                                tmp_path / "p"), gpu="MI300X").sites
    assert sr.site.model.value == "Qwen/Qwen3-8B"  # a command that names the program runs as written
