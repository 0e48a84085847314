"""A TP change for a framework that starts several vLLM engines of that TP keeps the rollout's GPUs:
OpenRLHF asks Ray for vllm_num_engines × vllm_tensor_parallel_size GPUs, so TP 2 → 4 with 8 engines kept
would need 32 GPUs instead of 16 (eval109: R1-Searcher
https://github.com/RUCAIBox/R1-Searcher/blob/631167cbb3c2464f805730e3e364a690f5b136d4/OpenRLHF-RAG/examples/scripts/train_ppo_llama_ray_70b.sh).
The engine count moves with TP, or no TP change is written."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.fix import apply

SCRIPT = """ray job submit --address="http://127.0.0.1:8265" \\
    -- python3 -m openrlhf.cli.train_ppo_ray \\
    --actor_num_nodes 1 \\
    --actor_num_gpus_per_node 8 \\
    --vllm_num_engines {engines} \\
    --vllm_tensor_parallel_size 2 \\
    --pretrain meta-llama/Meta-Llama-3-70B-Instruct \\
    --generate_max_len 1024 \\
    --bf16
"""


def _fix(root):
    return apply.run(lambda overlay: audit(root, gpu="H100-80GB x8", overlay=overlay), unsafe=True)


def test_tp_and_engine_count_move_together(write_project):
    root = write_project({"train.sh": SCRIPT.format(engines=8), "requirements.txt": "openrlhf==0.5.7\n"})
    text = _fix(root).texts["train.sh"]
    assert "--vllm_tensor_parallel_size 4" in text and "--vllm_num_engines 4" in text


def test_no_tp_change_where_no_engine_count_keeps_the_gpus(write_project):
    # 1 engine at TP 2 holds 2 GPUs; TP 4 cannot keep them with a whole number of engines
    root = write_project({"train.sh": SCRIPT.format(engines=1), "requirements.txt": "openrlhf==0.5.7\n"})
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    tp = [c for c in sr.changes if c.target == "tensor_parallel_size"]
    assert tp and all(c.blocked == "engine_count" for c in tp)
    assert "--vllm_tensor_parallel_size 2" in _fix(root).texts.get("train.sh", SCRIPT)
