"""A `docker run` of a vLLM CUDA image that hands the container no GPU (check L278 container-no-gpu),
and images of other makers whose tag names the vLLM release they are built on (engine/scan/images.py
tagged_vllm): dots.ocr #11, vLLM #27268."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.images import entrypoint_for, image_version, is_vllm_like_image

IMAGE = "vllm/vllm-openai:v0.9.1"


def _l278(tmp_path, line: str, extra: dict | None = None):
    (tmp_path / "run.sh").write_text("#!/usr/bin/env bash\n" + line + "\n")
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(text)
    sites = audit(tmp_path, gpu="A100-80GB").sites
    return next((r for sr in sites for r in sr.results if r.check.id == "L278"), None)


@pytest.mark.parametrize("line", [
    f"docker run -p 8000:8000 {IMAGE} --model Qwen/Qwen2.5-7B-Instruct",
    f"docker run --ipc=host -e HF_TOKEN=$HF_TOKEN {IMAGE} --model Qwen/Qwen2.5-7B-Instruct",
    f"sudo docker run -d --name vllm {IMAGE} --model Qwen/Qwen2.5-7B-Instruct",
])
def test_no_gpu_handed_to_the_container_is_a_p0(tmp_path, line):
    r = _l278(tmp_path, line)
    assert (r.status, r.priority) == ("recommended", "P0")
    assert "Failed to infer device type" in r.reason_text("en")


def test_before_0_6_2_the_worker_stops_instead(tmp_path):
    r = _l278(tmp_path, "docker run vllm/vllm-openai:v0.5.5 --model Qwen/Qwen2-7B-Instruct")
    assert (r.status, r.priority) == ("recommended", "P0") and "Found no NVIDIA driver" in r.reason_text("en")


@pytest.mark.parametrize("opts", [
    "--gpus all", "--gpus '\"device=0\"'", "--runtime nvidia", "--runtime=nvidia", "--device nvidia.com/gpu=all",
    "--device /dev/nvidia0", "--privileged", "-e NVIDIA_VISIBLE_DEVICES=all", "--env-file .env", "$GPU_FLAGS",
    "\"${DOCKER_ARGS[@]}\"",
])
def test_anything_that_may_hand_it_a_gpu_is_not_judged(tmp_path, opts):
    r = _l278(tmp_path, f"docker run {opts} -p 8000:8000 {IMAGE} --model Qwen/Qwen2.5-7B-Instruct")
    assert r is None or r.status == "not_applicable"  # `$GPU_FLAGS` unset here: the line is not read as a site


@pytest.mark.parametrize("line", [
    # podman may run the NVIDIA OCI hook for every container; nvidia-docker is the NVIDIA runtime
    f"podman run -p 8000:8000 {IMAGE} --model Qwen/Qwen2.5-7B-Instruct",
    f"nvidia-docker run -p 8000:8000 {IMAGE} --model Qwen/Qwen2.5-7B-Instruct",
    # vLLM's CPU image needs no GPU
    "docker run -p 8000:8000 vllm/vllm-openai-cpu:v0.12.0 --model Qwen/Qwen2.5-0.5B-Instruct",
])
def test_other_programs_and_the_cpu_image_are_not_judged(tmp_path, line):
    assert _l278(tmp_path, line).status == "not_applicable"


def test_a_makers_image_tagged_with_the_vllm_openai_release_is_a_site():
    """rednotehilab/dots.ocr:vllm-openai-v0.9.1 is `FROM vllm/vllm-openai:v0.9.1` with its model code added."""
    image = "rednotehilab/dots.ocr:vllm-openai-v0.9.1"
    assert image_version(image) == "0.9.1" and is_vllm_like_image(image)
    assert entrypoint_for(image, "0.34.0") == ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    assert entrypoint_for("acme/ocr:vllm-openai-v0.12.0", "0.34.0") == ["vllm", "serve"]


@pytest.mark.parametrize("image, version, site", [
    ("acme/app:cu124-vllm0.8.5", "0.8.5", False),  # the release read, but its entrypoint may be anything
    ("acme/app:vllm0.8.5-vllm0.9.1", None, False),  # two releases: none
    ("acme/app:v0.9.1", None, False),  # a release of the maker's own
    ("acme/app:vllm-openai-v9.9.9", None, False),  # no such vLLM release
    ("verlai/verl:app-verl0.5-transformers4.55.4-vllm0.10.0-mcore0.13.0-te2.2", "0.10.0", False),  # its own table
])
def test_tags_that_name_vllm(image, version, site):
    assert image_version(image) == version and is_vllm_like_image(image) is site
