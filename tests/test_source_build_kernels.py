"""A vLLM compiled from its sources holds the kernels that build compiled (TORCH_CUDA_ARCH_LIST, the
CUDA of the container it was built in), not the release wheel's: L6's "no sm_120 code in the 0.9.1
wheel" is no fact about it, even where --vllm-version or the image tag names the release
(https://github.com/vllm-project/vllm/issues/14452: the RTX 5080/5090 steps build a clone in place)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_build import build_facts
from vllm_kb.engine.kb.knowledge import load

TABLE = load().doc("vllm", "cuda_builds.yaml").data
CLONE = ("RUN git clone https://github.com/vllm-project/vllm.git /vllm && cd /vllm && \\\n"
         "    python3 use_existing_torch.py && TORCH_CUDA_ARCH_LIST=\"12.0\" pip install --no-build-isolation -e .\n")


def _l6(tmp_path, files, version=None, gpu="RTX 5090"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu=gpu, vllm_version=version).sites
    return next(r for r in sr.results if r.check.id == "L6")


def test_a_dev_or_local_version_is_no_release_wheel():
    gpu = {"gpu": {"compute_capability": 12.0}}
    assert build_facts(gpu, TABLE, "0.9.1", "cli")["build_kernels_ok"] is False
    assert build_facts(gpu, TABLE, "0.9.1.dev300+g1311913f5", "cli") == {}
    assert build_facts(gpu, TABLE, "0.8.5.dev126+g1311913f5.d20250425.cu128", "build") == {}
    assert build_facts(gpu, TABLE, "0.9.0+cu128", "cli") == {}


def test_a_checkout_built_in_the_image_with_the_release_given(tmp_path):
    files = {"Dockerfile": "FROM nvcr.io/nvidia/pytorch:25.02-py3\n" + CLONE + 'CMD ["vllm", "serve", "Qwen/Qwen3-8B"]\n'}
    r = _l6(tmp_path, files, version="0.9.1")
    assert not (r.needs_change and r.priority == "P0")


def test_a_vllm_image_rebuilt_from_a_checkout(tmp_path):
    files = {"Dockerfile": "FROM vllm/vllm-openai:v0.9.1\n" + CLONE + 'CMD ["--model", "Qwen/Qwen3-8B"]\n'}
    r = _l6(tmp_path, files)
    assert not (r.needs_change and r.priority == "P0")


def test_the_release_wheel_still_fails(tmp_path):
    files = {"requirements.txt": "vllm==0.9.1\n", "serve.sh": "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n"}
    assert _l6(tmp_path, dict(files)).priority == "P0"
    r = _l6(tmp_path, dict(files), version="0.9.1")
    assert r.needs_change and r.priority == "P0"
    image = {"Dockerfile": 'FROM vllm/vllm-openai:v0.9.1\nCMD ["--model", "Qwen/Qwen3-8B"]\n'}
    for f in ("requirements.txt", "serve.sh"):
        (tmp_path / f).unlink()
    r = _l6(tmp_path, image)
    assert r.needs_change and r.priority == "P0"
