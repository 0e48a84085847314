"""Triton's vLLM backend (the rYY.MM branch of triton-inference-server/vllm_backend, read into
knowledge/frameworks/vllm_imports.yaml by tools/triton_vllm_imports.py) imports vLLM names when Triton
loads it: a vLLM installed over the image's own that lacks one stops the model from loading (L43)."""
import pytest

from vllm_kb.engine.audit import audit


def _l43(tmp_path, tag: str, install: str | None):
    (tmp_path / "model_repository" / "m" / "1").mkdir(parents=True)
    (tmp_path / "model_repository" / "m" / "config.pbtxt").write_text('backend: "vllm"\n')
    (tmp_path / "model_repository" / "m" / "1" / "model.json").write_text('{"model": "Qwen/Qwen2.5-7B-Instruct"}\n')
    (tmp_path / "Dockerfile").write_text(f"FROM nvcr.io/nvidia/tritonserver:{tag}-vllm-python-py3\n"
                                         + (f"RUN pip install -U vllm=={install}\n" if install else ""))
    (tmp_path / "serve.sh").write_text("tritonserver --model-repository ./model_repository\n")
    (sr,) = audit(tmp_path, gpu="L4 x1").sites
    return next(r for r in sr.results if r.check.id == "L43"), sr


def test_a_newer_vllm_over_the_26_01_backend_misses_the_module_it_imports(tmp_path):
    r, sr = _l43(tmp_path, "26.01", "0.19.0")
    assert r.status == "recommended" and r.priority == "P0"
    assert "No module named 'vllm.inputs.data'" in sr.facts["launch"]["host_problem_text"]
    assert sr.facts["launch"]["host_fit_vllm"] == "==0.18.1"


def test_an_older_vllm_under_the_26_01_backend_misses_a_name(tmp_path):
    r, sr = _l43(tmp_path, "26.01", "0.11.0")
    assert r.priority == "P0" and "cannot import name" in sr.facts["launch"]["host_problem_text"]


@pytest.mark.parametrize("tag,install", [("24.12", None), ("26.01", "0.18.1"), ("26.03", "0.19.0")])
def test_the_image_own_vllm_a_matching_one_or_a_release_no_branch_tells_is_not_judged(tmp_path, tag, install):
    # 24.12 runs the vLLM its build installs (0.5.5); no branch after r26.01 was read
    r, _ = _l43(tmp_path, tag, install)
    assert not (r.status == "recommended" and r.priority == "P0")


def test_a_backend_release_the_audit_cannot_pair_is_not_called_direct_use(tmp_path):
    # eval104 (triton#8578): with the container's tag unread, L43 said "vLLM is used directly" of a site it calls
    # framework-integrated; it names the host and says its pairing with vLLM is not judged
    (tmp_path / "model_repository" / "m" / "1").mkdir(parents=True)
    (tmp_path / "model_repository" / "m" / "config.pbtxt").write_text('backend: "vllm"\n')
    (tmp_path / "model_repository" / "m" / "1" / "model.json").write_text('{"model": "facebook/opt-125m"}\n')
    (tmp_path / "requirements.txt").write_text("vllm==0.11.0\n")
    (tmp_path / "serve.sh").write_text("tritonserver --model-repository ./model_repository\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L43")
    assert sr.site.mode == "framework_integrated" and r.status == "not_applicable"
    assert "triton" in r.reason_text("en").lower() and "directly" not in r.reason_text("en")
    assert r.reason_text("zh") != r.reason_text("en")
