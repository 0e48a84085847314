"""A check that needs the memory estimate, when there is none, says why in words a person can act
on (no GPU, a sizing argument the audit cannot read, a model whose size is not known) rather than
the name of the missing fact."""
from vllm_kb.engine.audit import audit


def _reason(tmp_path, script, gpu, check="L15"):
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "run.sh").write_text(script)
    rep = audit(tmp_path, gpu=gpu)
    (sr,) = rep.sites
    r = next(r for r in sr.results if r.check.id == check)
    assert r.status == "unknown"
    return r.reason_text("en"), r.reason_text("zh")


def test_a_model_the_audit_cannot_size_is_named(tmp_path):
    en, zh = _reason(tmp_path, "vllm serve some-lab/private-finetune-v1\n", "A10G")
    assert "some-lab/private-finetune-v1" in en and "config.json" in en and "config.json" in zh


def test_no_gpu_asks_for_one(tmp_path):
    en, _ = _reason(tmp_path, "vllm serve Qwen/Qwen2.5-7B-Instruct\n", "none", check="L16")
    assert "--gpu" in en


def test_an_unread_sizing_argument_is_named(tmp_path):
    en, _ = _reason(tmp_path, "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size $TP\n", "H100-80GB x8", check="L16")
    assert "tensor_parallel_size" in en and "Needs facts" not in en
