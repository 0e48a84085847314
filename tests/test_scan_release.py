"""engine/scan/context.py `release`: once every site's facts are built the scan's texts and the
modules it followed are let go (engine/audit.py), and what is read afterwards is what the disk
or the overlay says — the report is the same as when everything was kept."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.report import model
from vllm_kb.engine.scan.project import begin


def test_release_keeps_the_overlay_and_reads_the_rest_again(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve m --max-model-len 4096\n")
    (tmp_path / "other.sh").write_text("echo hi\n")
    sc = begin(tmp_path, overlay={"serve.sh": "vllm serve m --max-model-len 8192\n"})
    ctx = sc.ctx
    assert ctx.read("other.sh") == "echo hi\n"
    ctx.__dict__["_py_modules"] = {"x.py": None}
    ctx.release()
    assert "_py_modules" not in ctx.__dict__ and "other.sh" not in ctx._cache
    assert ctx.read("serve.sh") == "vllm serve m --max-model-len 8192\n"  # not the disk's
    assert ctx.read("other.sh") == "echo hi\n"


def test_the_report_is_the_same_whether_the_texts_are_kept_or_not(tmp_path, monkeypatch):
    (tmp_path / "run.py").write_text(
        "from vllm import LLM\n\nMAX = 4096\n\n\ndef make(n=MAX):\n    return LLM(model='meta-llama/Llama-3.1-8B-Instruct', max_model_len=n)\n\n\n"
        "a = LLM(model='meta-llama/Llama-3.1-8B-Instruct', gpu_memory_utilization=0.5)\n"
        "b = LLM(model='meta-llama/Llama-3.1-8B-Instruct', gpu_memory_utilization=0.5)\n")
    (tmp_path / "serve.sh").write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --swap-space 8\n")
    released = model.build(audit(tmp_path, gpu="H100-80GB x8"), "en")
    from vllm_kb.engine.scan.context import ScanContext

    monkeypatch.setattr(ScanContext, "release", lambda self: None)
    kept = model.build(audit(tmp_path, gpu="H100-80GB x8"), "en")
    assert released == kept and released["sites"]
