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


def test_qwen3_next_and_qwen3_5_hold_the_embedding_on_every_stage():
    # qwen3_next.py (0.10.2-0.34.0) and qwen3_5.py (0.17.0-0.34.0) build embed_tokens on every rank,
    # not a PPMissingLayer off the first (vLLM #36861): each middle stage carries the vocabulary table
    from vllm_kb.engine.check.memory.weights_stages import embeds_every_stage, stage_weights_bytes
    base = {"hidden_size": 2048, "num_hidden_layers": 40, "vocab_size": 248320, "params_b": 34.0,
            "tie_word_embeddings": False}
    table = 248320 * 2048 * 2.0
    weights = 34e9 * 2.0
    llama = stage_weights_bytes(dict(base, model_type="llama"), {}, weights, 1, 4)
    qwen = stage_weights_bytes(dict(base, model_type="qwen3_5_moe"), {}, weights, 1, 4)
    assert embeds_every_stage({"architecture": "Qwen3NextForCausalLM"})
    assert not embeds_every_stage({"model_type": "qwen3_moe"})
    assert [round(q - w) for q, w in zip(qwen, llama)] == [0, round(table), round(table), round(table)]
    tied = stage_weights_bytes(dict(base, model_type="qwen3_5", tie_word_embeddings=True), {}, weights, 1, 4)
    assert round(tied[-1]) == round(tied[0])  # the tied head is the last stage's own embed_tokens


def test_qwen3_5_vision_tower_on_every_stage_until_0_34():
    # interfaces.py _mark_tower_model: skips the tower only by the modality limits in 0.17.0-0.33.0,
    # off the first pipeline stage too from 0.34.0
    from vllm_kb.engine.check.memory.weights_stages import stage_weights_bytes, tower_bytes, tower_on_every_stage
    model = {"hidden_size": 5120, "num_hidden_layers": 64, "vocab_size": 248320, "params_b": 27.0,
             "model_type": "qwen3_5", "multimodal": True, "vision_params_b": 0.46}
    assert tower_on_every_stage(model, {}, "0.28.0")
    assert not tower_on_every_stage(model, {}, "0.34.0")
    assert not tower_on_every_stage(model, {"language_model_only": True}, "0.28.0")
    assert not tower_on_every_stage(model, {"limit_mm_per_prompt": {"image": 0, "video": 0}}, "0.28.0")
    assert not tower_on_every_stage(dict(model, model_type="qwen3_vl"), {}, "0.28.0")
    spread = stage_weights_bytes(model, {}, 54e9, 1, 2)
    whole = stage_weights_bytes(model, {}, 54e9, 1, 2, tower_every_stage=True)
    assert [round(w - s) for w, s in zip(whole, spread)] == [round(tower_bytes(model, {}) / 2)] * 2
