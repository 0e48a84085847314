"""A public wrapper known to touch CUDA before it builds vLLM (knowledge/deploy/llm_wrappers.yaml
cuda_first: nnsight's VLLM): built at module level, the engine core started with spawn re-imports
the script (L35 spawn-main-guard); under the main guard it starts."""
from vllm_kb.engine.audit import audit

_SRC = ("from nnsight.modeling.vllm import VLLM\n\n{indent}model = VLLM('meta-llama/Llama-3.2-1B', dispatch=True, "
        "gpu_memory_utilization=0.5)\n")


def _l35(tmp_path, guarded: bool):
    (tmp_path / "requirements.txt").write_text("vllm==0.11.0\nnnsight\n")
    body = _SRC.format(indent="if __name__ == '__main__':\n    " if guarded else "")
    (tmp_path / "probe.py").write_text(body)
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert sr.site.model.value == "meta-llama/Llama-3.2-1B"
    assert "dispatch" not in sr.site.settings and not [f for f in sr.site.remarks if f.subject == "dispatch"]
    return next(r for r in sr.results if r.check.id == "L35")


def test_nnsight_vllm_at_module_level_needs_the_main_guard(tmp_path):
    r = _l35(tmp_path, guarded=False)
    assert (r.status, r.priority) == ("recommended", "P0")


def test_nnsight_vllm_under_the_main_guard_starts(tmp_path):
    assert _l35(tmp_path, guarded=True).priority != "P0"


_COSY = ("from cosyvoice.cli.cosyvoice import CosyVoice2\n\n"
         "cosyvoice = CosyVoice2('pretrained_models/CosyVoice2-0.5B', load_jit=False, load_vllm={vllm}, fp16=False)\n")


def _cosy(tmp_path, release: str, vllm: str = "True"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={release}\n")
    (tmp_path / "tts.py").write_text(_COSY.format(vllm=vllm))
    sites = audit(tmp_path, gpu="A100-80GB").sites
    return [r for sr in sites for r in sr.results if r.check.id == "L35"]


def test_cosyvoice_with_vllm_at_module_level_fails_where_its_engine_is_v1(tmp_path):
    # its prompt embeddings keep 0.9–0.10 on the in-process V0 engine; 0.11 has only V1's engine-core process
    (r,) = _cosy(tmp_path, "0.11.0")
    assert (r.status, r.priority) == ("recommended", "P0")


def test_cosyvoice_with_vllm_on_the_v0_fallback_is_no_p0(tmp_path):
    (r,) = _cosy(tmp_path, "0.9.0")
    assert r.priority != "P0"


def test_cosyvoice_without_vllm_builds_no_engine(tmp_path):
    assert _cosy(tmp_path, "0.11.0", vllm="False") == []


def test_async_cosyvoice_turns_v1_on_in_073(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.7.3\n")
    (tmp_path / "run.py").write_text("from async_cosyvoice.async_cosyvoice import AsyncCosyVoice2\n\n"
                                     "cosyvoice = AsyncCosyVoice2('./pretrained_models/CosyVoice2-0.5B', fp16=True)\n")
    (sr,) = audit(tmp_path, gpu="RTX-4090").sites
    assert sr.site.env["VLLM_USE_V1"].value == "1"
    r = next(r for r in sr.results if r.check.id == "L35")
    assert (r.status, r.priority) == ("recommended", "P0")


def test_orpheus_loads_its_decoder_on_the_gpu_at_import(tmp_path):
    # importing orpheus_tts puts SNAC on the GPU; OrpheusModel() builds the engine at once
    src = "from orpheus_tts import OrpheusModel\n\nmodel = OrpheusModel(model_name='canopylabs/orpheus-tts-0.1-finetune-prod')\n"
    (tmp_path / "main.py").write_text(src)
    for release, p0 in (("0.8.0", True), ("0.7.3", False)):
        (tmp_path / "requirements.txt").write_text(f"vllm=={release}\n")
        (sr,) = audit(tmp_path, gpu="A100-80GB").sites
        r = next(r for r in sr.results if r.check.id == "L35")
        assert (r.priority == "P0") is p0, release
