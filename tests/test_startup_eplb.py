"""EPLB with expert parallelism needs the routed plus redundant experts to split evenly over
TP x DP ranks (engine/check/startup_eplb.py, check L148)."""
from __future__ import annotations

from vllm_kb.engine.check.startup_eplb import eplb_facts

MOE = {"num_experts": 256}
ON = {"enable_eplb": True, "enable_expert_parallel": True}


def test_an_uneven_split_names_the_redundant_experts_that_fit():
    got = eplb_facts(MOE, {**ON, "tensor_parallel_size": 3}, "0.27.1")
    assert got == {"eplb_experts": 256, "ep_size": 3, "eplb_even": False, "eplb_redundant_fit": 2}
    assert eplb_facts(MOE, {**ON, "tensor_parallel_size": 3, "eplb_config": '{"num_redundant_experts": 2}'},
                      "0.27.1")["eplb_even"] is True
    assert eplb_facts(MOE, {**ON, "tensor_parallel_size": 2, "data_parallel_size": 3, "num_redundant_experts": 4},
                      "0.10.0") == {"eplb_experts": 260, "ep_size": 6, "eplb_even": False, "eplb_redundant_fit": 8}


def test_nothing_without_eplb_expert_parallel_or_known_numbers():
    assert eplb_facts(MOE, {"enable_expert_parallel": True, "tensor_parallel_size": 3}, "0.27.1") == {}
    assert eplb_facts(MOE, {**ON, "tensor_parallel_size": 3}, "0.9.1") == {}  # no --enable-eplb yet
    assert eplb_facts({}, {**ON, "tensor_parallel_size": 3}, "0.27.1") == {}
    assert eplb_facts(MOE, {**ON, "tensor_parallel_size": "$TP"}, "0.27.1") == {}
    assert eplb_facts(MOE, {**ON, "tensor_parallel_size": 8}, "0.27.1")["eplb_even"] is True


def test_deepseek_v4_mega_moe_splits_without_eplb():
    # vllm#52435: the MegaMoE path asserts the split by the EP group's size, EPLB or not (0.23.0+)
    v4 = {"architecture": "DeepseekV4ForCausalLM", "num_experts": 256}
    engine = {"enable_expert_parallel": True, "moe_backend": "deep-gemm-mega-moe", "data_parallel_size": 3}
    got = eplb_facts(v4, engine, "0.34.0")
    assert got["eplb_path"] == "mega_moe" and got["ep_size"] == 3 and not got["eplb_even"]
    assert eplb_facts(v4, {**engine, "data_parallel_size": 4}, "0.34.0")["eplb_even"]
    assert eplb_facts(v4, {**engine, "moe_backend": "auto"}, "0.34.0") == {}  # the fused path may split unevenly
    assert eplb_facts(v4, engine, "0.22.0") == {}
    assert eplb_facts({**v4, "architecture": "DeepseekV3ForCausalLM"}, engine, "0.34.0") == {}
