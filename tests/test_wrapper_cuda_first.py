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
