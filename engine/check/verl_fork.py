"""verl's own copies of vLLM 0.4.2, 0.5.4 and 0.6.3 (verl/third_party/vllm/vllm_v_*, what verl up to
0.4.x runs on those releases; verl 0.5 refuses them): their worker sizes the KV cache as
gpu_memory_utilization × the memory still free after the weights load
(`num_gpu_blocks = int((free_gpu_memory * self.cache_config.gpu_memory_utilization) // cache_block_size)`,
vllm_v_0_6_3/worker.py:210 in verl 0.1–0.3.x, :205 in 0.4.1), not as a share of the whole GPU less
the profiled peak. vLLM's own sizing, which the memory estimate follows, does not hold there: the
cache is never empty and its size follows what the trainer leaves free (L15, L16 say so)."""
from __future__ import annotations

from typing import Any

# the vLLM releases verl vendors with the free-memory sizing (its 0.3.1 copy sizes otherwise)
_FORKS = {"0.4.2": "vllm_v_0_4_2", "0.5.4": "vllm_v_0_5_4", "0.6.3": "vllm_v_0_6_3"}


def verl_fork_kv(site, facts: dict) -> dict[str, Any]:
    """launch.verl_fork_kv: the verl/third_party copy a verl site runs instead of the pinned vLLM."""
    vllm = facts.get("vllm") or {}
    version = str(vllm.get("version") or "")
    base = version.split("+", 1)[0].split(".post", 1)[0]
    # (a range such as verl's own `vllm<=0.6.3` installs its newest release, the one judged here)
    if site.framework != "verl" or base not in _FORKS:
        return {}
    return {"verl_fork_kv": f"verl/third_party/vllm/{_FORKS[base]}/worker.py"}
