"""L16's last-resort P0 on a checkpoint already quantized to about 4 bits (memory.weights_four_bit): no
"quantize the weights" lever. Real case: `vllm serve openai/gpt-oss-120b` on one H100-80GB with the defaults
(vLLM #23278 logged -2.14 GiB of KV memory; the gpt-oss recipe's known limitation for TP 1 on H100), whose
MXFP4 experts cannot shrink further; the launch that started (#33155, 0.11.2) lowered max_num_seqs and
max_model_len and raised gpu_memory_utilization."""
from vllm_kb.engine.audit import audit


def _l16(tmp_path, pin: str, line: str, gpu: str = "H100-80GB"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"#!/bin/bash\n{line}\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sr, next(r for r in sr.results if r.check.id == "L16")


def test_four_bit_checkpoint_gets_the_profile_levers(tmp_path):
    sr, l16 = _l16(tmp_path, "0.13.0", "vllm serve openai/gpt-oss-120b")
    assert sr.facts["memory"].get("weights_four_bit") and sr.facts["memory"]["kv_cache_gib"] <= 0
    assert l16.status == "recommended" and l16.priority == "P0"
    en, zh = l16.reason_text("en"), l16.reason_text("zh")
    assert "Quantize the weights" not in en and "max_num_seqs" in en and "max_model_len" in en
    assert "量化权重" not in zh and "max_num_seqs" in zh


def test_sixteen_bit_checkpoint_keeps_quantize(tmp_path):
    sr, l16 = _l16(tmp_path, "0.13.0", "vllm serve Qwen/Qwen2.5-72B-Instruct", gpu="A100-80GB")
    assert not sr.facts["memory"].get("weights_four_bit")
    assert l16.status != "recommended" or "4 bits" not in l16.reason_text("en")


def _c2(tmp_path, model: str):
    (tmp_path / "requirements.txt").write_text("vllm==0.13.0\n")
    (tmp_path / "serve.sh").write_text(f"#!/bin/bash\nvllm serve {model}\n")
    (sr,) = audit(tmp_path, gpu="L40S").sites
    return next(r for r in sr.results if r.check.id == "C2")


def test_pipeline_advice_on_a_four_bit_checkpoint_does_not_say_quantize(tmp_path):
    # gpt-oss-120b (MXFP4) needs more than one 48 GB GPU: spanning nodes or larger GPUs are the levers
    c2 = _c2(tmp_path, "openai/gpt-oss-120b")
    assert c2.status == "recommended" and c2.priority == "P1"
    assert "quantize the weights" not in c2.reason_text("en") and "量化权重" not in c2.reason_text("zh")
    assert "4 bits" in c2.reason_text("en")


def test_pipeline_advice_on_a_sixteen_bit_checkpoint_keeps_quantize(tmp_path):
    assert "quantize the weights" in _c2(tmp_path, "Qwen/Qwen2.5-72B-Instruct").reason_text("en")
