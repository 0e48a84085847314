"""The host-memory estimate beside the GPU one: sleep level 1 keeps every rank's weights in CPU
memory, cpu_offload_gb counts per rank, V0 swap space is pinned, and vLLM ≤0.17 compares
swap_space × TP with 70% of RAM."""
from __future__ import annotations

from vllm_kb.engine.check import host_memory


def facts(**kw):
    base = {"site": {"mode": "rlhf_colocate"}, "vllm": {"version": "0.8.3"}, "env": {}, "gpu": {"count": 8},
            "engine": {"tensor_parallel_size": 1, "enable_sleep_mode": True}, "launch": {"sleep_level": 1, "gpus_needed": 1},
            "memory": {"weights_per_gpu_gib": 14.2}}
    for k, v in kw.items():
        base[k] = {**base.get(k, {}), **v}
    return base


def test_sleep_level_1_pins_the_weights_of_every_rank_on_the_node():
    got = host_memory.estimate(facts())
    assert got["ranks"] == 8 and got["sleep_weights_gib"] == 113.6 and got["needed_gib"] == 113.6


def test_level_2_discards_them_and_an_unsized_model_says_nothing():
    assert host_memory.estimate(facts(launch={"sleep_level": 2}))["pins"] is False
    got = host_memory.estimate(facts(memory={"weights_per_gpu_gib": None}))
    assert got["pins"] is True and "needed_gib" not in got


def test_v0_swap_and_cpu_offload_per_rank():
    f = facts(site={"mode": "standalone_serve"}, vllm={"version": "0.6.0"}, launch={"gpus_needed": 4, "multi_node": False},
              engine={"enable_sleep_mode": False, "tensor_parallel_size": 4, "swap_space": 4, "cpu_offload_gb": 10})
    got = host_memory.estimate(f)
    assert got == {"swap_checked_gib": 16.0, "pins": True, "ranks": 4, "cpu_offload_gib": 40.0, "swap_gib": 16.0, "needed_gib": 56.0}
    f["vllm"]["version"] = "0.10.0"  # V1 keeps no swap blocks, but vLLM still checks the option against RAM
    got = host_memory.estimate(f)
    assert "swap_gib" not in got and got["swap_checked_gib"] == 16.0
