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
