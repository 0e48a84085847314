"""One verdict per site on a KV cache estimated within its own error of zero (memory.kv_cache_near_zero):
the check whose error vLLM most likely raises gives it (L16 below zero, L15 above), the other is not
applicable instead of a P1 that reads as "may start" beside the P0. Real case: hzhang57/Option-R1
examples/train/grpo/internal/moe_full.sh (https://github.com/hzhang57/Option-R1), an ms-swift GRPO
colocate of Qwen3-30B-A3B at TP 2 and vllm_gpu_memory_utilization 0.4 on 80 GB, which got L16 P0 and
an L15 P1 saying the same -0.39 GiB was "within the estimate's error"."""
from vllm_kb.engine.audit import audit

SWIFT = """\
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 NPROC_PER_NODE=8 swift rlhf --rlhf_type grpo \\
    --model Qwen/Qwen3-30B-A3B-Instruct-2507 --use_vllm true --vllm_mode colocate \\
    --vllm_gpu_memory_utilization 0.4 --vllm_tensor_parallel_size 2 --vllm_max_model_len 16384 \\
    --train_type full --torch_dtype bfloat16 --dataset AI-MO/NuminaMath-TIR#1000 --deepspeed zero3_offload --sleep_level 1
"""


def test_near_zero_kv_gets_one_verdict(tmp_path):
    (tmp_path / "requirements.txt").write_text("ms-swift==3.10.2\nvllm==0.11.0\n")
    (tmp_path / "moe_full.sh").write_text(SWIFT)
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    said = {r.check.id: r for r in sr.results if r.check.id in ("L15", "L16")}
    assert sr.facts["memory"].get("kv_cache_near_zero") and sr.facts["memory"]["kv_cache_gib"] <= 0
    assert said["L16"].status == "recommended" and said["L16"].priority == "P0"
    assert said["L15"].status == "not_applicable" and "L16" in said["L15"].reason_text("en")
    assert "L16" in said["L15"].reason_text("zh")
