"""Older remote-code configs name their widths their own way, and vLLM's model classes read them so:
ChatGLM's ffn_hidden_size, kv_channels, padded_vocab_size and multi_query_group_num KV heads
(chatglm.py; ModelConfig.get_total_num_kv_heads), Qwen v1's intermediate_size counting both
halves of the MLP (qwen.py: intermediate_size // 2). Read as dense defaults they made the KV cache
16x too large (ChatGLM) and the per-rank MLP shard twice too wide (Qwen: vLLM #2699)."""
from __future__ import annotations

from vllm_kb.engine.check.startup_quant_tp import layers
from vllm_kb.engine.kb.model_config import arch_from_config

CHATGLM3 = {"architectures": ["ChatGLMModel"], "model_type": "chatglm", "num_layers": 28, "hidden_size": 4096,
            "ffn_hidden_size": 13696, "kv_channels": 128, "num_attention_heads": 32, "multi_query_attention": True,
            "multi_query_group_num": 2, "padded_vocab_size": 65024, "seq_length": 8192}
QWEN14 = {"architectures": ["QWenLMHeadModel"], "model_type": "qwen", "num_hidden_layers": 40, "hidden_size": 5120,
          "intermediate_size": 27392, "kv_channels": 128, "num_attention_heads": 40, "vocab_size": 152064}


def test_chatglm_widths_and_kv_heads():
    a = arch_from_config(CHATGLM3)
    assert (a["num_key_value_heads"], a["head_dim"], a["intermediate_size"], a["vocab_size"]) == (2, 128, 13696, 65024)
    mha = arch_from_config({**CHATGLM3, "multi_query_attention": False})
    assert "num_key_value_heads" not in mha  # every head keeps its K and V


def test_qwen_v1_mlp_is_half_the_config_width():
    a = arch_from_config(QWEN14)
    assert a["intermediate_size"] == 13696
    assert layers(a) == [("mlp", 13696, "dense")]


def test_per_layer_lists_of_one_value():
    # Hunyuan-A13B's config gives the MoE widths per layer
    cfg = {"model_type": "hunyuan_v1_moe", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 3072, "vocab_size": 128167, "num_experts": 64,
           "moe_intermediate_size": [3072] * 32, "moe_topk": [8] * 32, "num_shared_expert": [1] * 32}
    a = arch_from_config(cfg)
    assert (a["moe_intermediate_size"], a["num_experts_per_tok"], a["n_shared_experts"]) == (3072, 8, 1)
    assert "num_experts_per_tok" not in arch_from_config({**cfg, "moe_topk": [8, 2]})  # not one value


def test_a_size_written_with_an_underscore_is_not_a_version():
    # internlm2-1_8b is InternLM2 at 1.8B, not "InternLM2.1" at 8B (15 GiB of weights where 3.5 load)
    from vllm_kb.engine.kb import knowledge, models

    kb = knowledge.load()
    markers = kb.doc("models.yaml").data["quantized_markers"]
    for name in ("internlm/internlm2-1_8b", "internlm/internlm2-1_8b-reward", "internlm/internlm2_5-1_8b-chat"):
        assert models.model_facts(name, kb.models, markers)["params_b"] == 1.89
    assert models.model_facts("/models/qwen2_5-7b-instruct", kb.models, markers)["family"] == "qwen2.5"
    # written with `_` throughout, the version and then the size (vLLM #17366's qwen2_5_14b_w8a8)
    facts = models.model_facts("/data/model/qwen2_5_14b_w8a8", kb.models, markers)
    assert facts["family"] == "qwen2.5" and facts.get("num_hidden_layers") == 48
