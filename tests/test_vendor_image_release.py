"""The vLLM release of an image another maker built from vLLM, read where its tag certainly names it
(engine/scan/images.py; a vendor's dotted suffix: tests/test_image_tags.py), and "not said" where it
does not: `latest`, `nightly`, a commit or the version of an image that is not vLLM (`pytorch:2.4.0`,
`cuda:12.4.0`) name no vLLM release, and the site is then judged as an image of unknown release
(engine/check/unpinned.py), never as a pin, unless the container's own command installs one."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report.model import version_text
from vllm_kb.engine.scan.images import image_version


@pytest.mark.parametrize("image, vllm", [
    ("myorg/vllm:0.6.3.post1.cu121", "0.6.3.post1"),
    ("myorg/vllm:0.9.0.1.ubuntu22", "0.9.0.1"),
    ("myorg/vllm-openai:v0.7.1-custom", "0.7.1"),
    ("myorg/vllm:v0.7.1.g1a2b3c4", None),  # a build of a later commit
    ("myorg/vllm:latest", None),
    ("myorg/vllm:nightly", None),
    ("myorg/vllm:sha-4f1e2d3", None),
    ("pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime", None),  # torch's release, not vLLM's
    ("nvidia/cuda:12.4.0-devel-ubuntu22.04", None),
    ("myorg/llm-server:1.2.3", None),  # an image not named for vLLM counts its own releases
])
def test_a_tag_names_a_vllm_release_only_where_it_certainly_does(image, vllm):
    assert image_version(image) == vllm


RUN = ("docker run -d --gpus all --ipc=host -e VLLM_FLASH_ATTN_VERSION=2 {image} "
       "vllm serve Qwen/Qwen2.5-7B-Instruct --gpu-memory-utilization 0.5\n")


def _site(tmp_path, image: str):
    (tmp_path / "run.sh").write_text(RUN.format(image=image))
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    return sr


def test_a_vendor_build_suffix_is_judged_as_the_release_it_names(tmp_path):
    # VLLM_FLASH_ATTN_VERSION is read by 0.7.x (envs.py): judged at the newest release instead, F1 said
    # it was removed and that the change was to drop it
    sr = _site(tmp_path, "registry.example.cn/ai/vllm:0.7.1.v1.iaas")
    assert (str(sr.version.version), sr.version.pinned, sr.version.basis) == ("0.7.1", True, "image")
    assert not [r for r in sr.results if r.needs_change and r.check.id == "F1"]


@pytest.mark.parametrize("image", ["registry.example.cn/ai/vllm:latest", "pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime",
                                   "nvidia/cuda:12.4.0-devel-ubuntu22.04"])
def test_an_image_that_names_no_release_is_said_to_be_unknown(tmp_path, image):
    sr = _site(tmp_path, image)
    assert not sr.version.pinned and sr.version.basis == "image-untagged"
    kb = load()
    assert "does not say which vLLM release it holds" in version_text(kb, sr.version, "en")
    assert "未标明其 vLLM 版本" in version_text(kb, sr.version, "zh")
    assert not [r for r in sr.results if r.needs_change and r.priority == "P0" and r.check.id == "F1"]


def test_a_cmd_of_flags_on_a_vendor_vllm_image_runs_its_server(tmp_path):
    # `docker run myorg/vllm-openai:v0.7.1 --model …` is read as vLLM's server; the same arguments
    # written as the CMD of a Dockerfile FROM that image are too
    (tmp_path / "Dockerfile").write_text('FROM myorg/vllm-openai:v0.7.1\n'
                                         'CMD ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "8192"]\n')
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert str(sr.version.version) == "0.7.1" and sr.site.settings["max_model_len"].value == 8192


@pytest.mark.parametrize("dockerfile", [
    'FROM ghcr.io/ggml-org/llama.cpp:server\nCMD ["--model", "/models/m.gguf"]\n',  # not a vLLM image
    'FROM myorg/vllm-openai:v0.7.1\nCMD ["/usr/bin/supervisord"]\n',  # a program, not flags
])
def test_a_cmd_is_not_taken_for_vllm_flags_elsewhere(tmp_path, dockerfile):
    (tmp_path / "Dockerfile").write_text(dockerfile)
    assert not audit(tmp_path, gpu="H100-80GB").sites


@pytest.mark.parametrize("name, text", [
    ("run.sh", 'docker run --gpus all pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime bash -c '
               '"pip install vllm==0.6.3 && vllm serve Qwen/Qwen2.5-7B-Instruct"\n'),
    ("compose.yaml", 'services:\n  llm:\n    image: nvidia/cuda:12.4.0-devel-ubuntu22.04\n'
                     '    command: bash -c "pip install vllm==0.6.3 && vllm serve Qwen/Qwen2.5-7B-Instruct"\n'),
])
def test_a_container_that_installs_vllm_itself_serves_that_release(tmp_path, name, text):
    # the image (torch's, CUDA's) names no vLLM; the container's own command installs 0.6.3 before it serves
    (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert (str(sr.version.version), sr.version.pinned) == ("0.6.3", True)
    assert "vllm==0.6.3" in version_text(load(), sr.version, "en")


def test_a_bare_install_in_the_container_names_no_release(tmp_path):
    (tmp_path / "run.sh").write_text('docker run --gpus all pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime bash -c '
                                     '"pip install vllm && vllm serve Qwen/Qwen2.5-7B-Instruct"\n')
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert not sr.version.pinned and sr.version.basis == "image-untagged"
