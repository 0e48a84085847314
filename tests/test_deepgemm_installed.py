"""L160's missing DeepGEMM (vLLM #29943): DeepSeek-V3.2's sparse-attention indexer runs only on the deep_gemm
package in vLLM 0.11.0-0.19.x, whose PyPI wheel lacks it. A pip pin of such a release with nothing that installs
DeepGEMM is a P0; vLLM's image (which builds it in), a project that installs DeepGEMM, 0.20.0+ (whose wheel vendors
it) and a model without the indexer say nothing (engine/check/deepgemm_installed.py)."""
from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.deepgemm_installed import needs_deepgemm


def _l160(tmp_path: Path, files: dict[str, str], gpu: str = "H200 x8"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu=gpu)
    (sr,) = rep.sites
    (res,) = [r for r in sr.results if r.check.id == "L160"]
    return res, sr


SERVE = "vllm serve deepseek-ai/DeepSeek-V3.2 --tensor-parallel-size 8\n"


def test_pip_release_without_deepgemm_is_a_p0(tmp_path: Path):
    res, sr = _l160(tmp_path, {"requirements.txt": "vllm==0.11.2\n", "serve.sh": SERVE})
    assert (res.status, res.priority) == ("recommended", "P0")
    assert sr.facts["launch"]["deepgemm_pin_at"] == "requirements.txt:1"
    assert any(ch.op == "pin" and ch.value == ">=0.20.0" for ch in sr.changes if "L160" in ch.checks)


def test_a_deepgemm_install_clears_it(tmp_path: Path):
    res, _ = _l160(tmp_path, {"requirements.txt": "vllm==0.11.2\n", "serve.sh": SERVE,
                              "setup.sh": "pip install git+https://github.com/deepseek-ai/DeepGEMM.git --no-build-isolation\n"})
    assert res.status == "not_applicable"


def test_the_image_ships_it(tmp_path: Path):
    res, _ = _l160(tmp_path, {"compose.yaml": "services:\n  vllm:\n    image: vllm/vllm-openai:v0.11.2\n"
                                              "    command: [\"--model\", \"deepseek-ai/DeepSeek-V3.2\", \"--tensor-parallel-size\", \"8\"]\n"})
    assert res.status == "not_applicable"


def test_the_releases_and_models_it_holds_for():
    v32 = {"index_topk": 2048}
    assert needs_deepgemm(v32, "0.11.0") and needs_deepgemm(v32, "0.19.1")
    assert not needs_deepgemm(v32, "0.20.0") and not needs_deepgemm(v32, "0.10.2")
    assert not needs_deepgemm({"name": "deepseek-ai/DeepSeek-V3"}, "0.11.2")
