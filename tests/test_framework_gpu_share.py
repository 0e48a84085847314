"""B1 on an RL framework's rollout: removing `gpu_memory_utilization` there gives the framework's own
share (verl's rollout.yaml: 0.5), not vLLM 0.34's unset default with the extensible KV cache, so the
change raises the share instead (linmumu009/qwen3.6-27b-GRPO-veRL, eval64: a standalone verl rollout,
hybrid_engine=False, was told to drop its 0.60)."""
from __future__ import annotations

import json


def _b1(cli, root):
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    return {s["kind"]: [(c["op"], c["value"]) for c in r["changes"]] for s in json.loads(out)["sites"]
            for r in s["recommendations"] if r["check"] == "B1"}


def test_a_verl_rollout_share_is_raised_not_removed(cli, write_project):
    root = write_project({
        "requirements.txt": "vllm==0.34.0\n",
        "run.sh": "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
                  "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.mode=async "
                  "actor_rollout_ref.hybrid_engine=false actor_rollout_ref.rollout.gpu_memory_utilization=0.6\n",
        "serve.py": "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-7B-Instruct', gpu_memory_utilization=0.6)\n",
    })
    got = _b1(cli, root)
    assert got["LLM()"] == [("unset", None)]  # vLLM's own default: the extensible KV cache
    assert got["verl main_ppo"] == [("set", 0.92)], got
