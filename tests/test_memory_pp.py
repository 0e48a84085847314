"""Pipeline-parallel stages: which layers each GPU holds, as vLLM's get_pp_indices splits them."""
from __future__ import annotations

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.kv import pp_stage_layers
from vllm_kb.engine.kb import hardware, knowledge, models


def est(name: str, env: dict | None = None, version: str = "0.11.0", **engine) -> dict:
    kb = knowledge.load()
    mf = models.model_facts(name, kb.models, kb.doc("models.yaml").data.get("quantized_markers", []))
    gpu = dict(hardware.parse_spec("L4 x4", kb.gpus).gpu)
    engine = {"gpu_memory_utilization": 0.9, "max_model_len": 8192, **engine}
    return memory.estimate(mf, gpu, engine, vllm_version=version, env=env)


def test_the_remainder_goes_to_the_stages_before_the_last():
    # vllm/distributed/utils.py get_pp_indices (0.5.4 through 0.34.0): partitions[-2], [-3], ... += 1
    assert pp_stage_layers(32, 4) == [8, 8, 8, 8]
    assert pp_stage_layers(30, 4) == [7, 8, 8, 7]
    assert pp_stage_layers(31, 4) == [8, 8, 8, 7]
    assert pp_stage_layers(80, 3) == [27, 27, 26]


def test_vllm_pp_layer_partition_replaces_the_even_split():
    assert pp_stage_layers(32, 4, (11, 7, 7, 7)) == [11, 7, 7, 7]
    assert pp_stage_layers(32, 4, (11, 7, 7)) == [8, 8, 8, 8]  # vLLM refuses these; the split stays even
    even = est("meta-llama/Llama-3.1-8B-Instruct", pipeline_parallel_size=4)
    heavy = est("meta-llama/Llama-3.1-8B-Instruct", {"VLLM_PP_LAYER_PARTITION": "11,7,7,7"}, pipeline_parallel_size=4)
    assert heavy["weights_per_gpu_gib"] > even["weights_per_gpu_gib"]  # rank 0 holds three more layers
    assert heavy["kv_tokens"] < even["kv_tokens"]  # the fullest stage sizes every stage's cache
    old = est("meta-llama/Llama-3.1-8B-Instruct", {"VLLM_PP_LAYER_PARTITION": "11,7,7,7"}, "0.5.3",
              pipeline_parallel_size=4)
    assert old["weights_per_gpu_gib"] == est("meta-llama/Llama-3.1-8B-Instruct", None, "0.5.3",
                                             pipeline_parallel_size=4)["weights_per_gpu_gib"]
