"""The report's memory line says "will not start" only where the estimate leaves no KV cache: weights
under the 15 % headroom C1 asks for still start when a cache remains (GPUStack #1800's shape:
Qwen2.5-VL-7B on one RTX 3090, about 1.3 GiB of cache left)."""
from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.report.markdown import render as render_md
from vllm_kb.engine.report.model import build


def _report(tmp_path: Path, lang: str = "en"):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.4\n")
    (tmp_path / "serve.sh").write_text("export VLLM_USE_V1=0\nvllm serve Qwen/Qwen2.5-VL-7B-Instruct --max-model-len 8192\n")
    return build(audit(tmp_path, gpu="RTX-3090"), lang)


def test_tight_weights_are_not_called_a_refusal(tmp_path):
    rep = _report(tmp_path)
    mem = rep["sites"][0]["memory"]
    assert not mem["fits"] and mem["kv_cache_gib"] > 0
    md = render_md(rep)
    assert "leave little room for the KV cache" in md and "will not start" not in md
    assert "留给 KV Cache 的空间很少" in render_md(_report(tmp_path, "zh"))


def test_weights_over_the_gpu_still_say_it_will_not_start(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve meta-llama/Llama-3.1-70B-Instruct\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.8.4\n")
    md = render_md(build(audit(tmp_path, gpu="RTX-3090"), "en"))
    assert "The weights do not fit: vLLM will not start" in md


def test_text_report_agrees(tmp_path):
    from vllm_kb.engine.report.text import render as render_text

    out = render_text(_report(tmp_path))
    assert "leave little room for the KV cache" in " ".join(out.split()) and "will not start" not in out
