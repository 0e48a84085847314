"""What a checkpoint's config.json (and tokenizer_config.json) says, read the way vLLM reads it:
the architecture dimensions the memory estimate needs, the dtype, the architecture class, the
quantization (engine/kb/quant_config.py), and the context length each vLLM release derives."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.layer_config import config_dim as _dim, config_sliding, rope_positions
from vllm_kb.engine.kb.quant_config import config_quant_facts
from vllm_kb.engine.kb.ssm_config import ssm_from_config
from vllm_kb.engine.kb.versions import Version, try_parse

# Architecture dimensions, named as in config.json (sliding_window_size/_pattern and
# first_k_dense_replace are normalised names, see knowledge/models.yaml). They become model
# facts under the same names, plus the derived num_sliding_layers.
ARCH_KEYS = (
    "num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim",
    "vocab_size", "intermediate_size", "moe_intermediate_size", "num_experts", "num_experts_per_tok",
    "n_shared_experts", "first_k_dense_replace", "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim",
    "qk_nope_head_dim", "v_head_dim", "num_nextn_predict_layers", "index_topk", "sliding_window_size",
    "sliding_window_pattern", "sliding_window_unused", "tie_word_embeddings", "max_position_embeddings", "attn_logit_softcapping",
    "attention_chunk_size", "interleave_moe_layer_step", "num_kv_shared_layers", "rope_cache_positions",
    "global_head_dim", "num_global_key_value_heads", "attention_k_eq_v",
)
_DTYPES = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "fp16": "float16", "half": "float16",
           "float32": "float32", "fp32": "float32", "float": "float32"}


def _text_config(config: dict) -> dict:
    """A multimodal checkpoint's language model config (text_config; InternVL's llm_config, which
    vLLM reads as its text config), else the config itself."""
    for key in ("text_config", "llm_config"):
        inner = config.get(key)
        if isinstance(inner, dict):
            return inner
    return config


def config_scalars(facts: dict, config: dict, tokenizer: dict | None) -> None:
    """dtype, architecture, quantization and tokenizer limit, as vLLM reads them."""
    inner = config.get("text_config")
    text: dict = inner if isinstance(inner, dict) else {}
    dtype = config.get("torch_dtype") or config.get("dtype") or text.get("torch_dtype") or text.get("dtype")
    if isinstance(dtype, str) and _DTYPES.get(dtype.lower().removeprefix("torch.")):
        facts["torch_dtype"] = _DTYPES[dtype.lower().removeprefix("torch.")]
    archs = config.get("architectures")
    if isinstance(archs, list) and archs and isinstance(archs[0], str):
        facts["architecture"] = archs[0]
    # a config.json without them (DeepSeek-VL2's keeps them under language_config): vLLM's registry
    # gets None unless its config class or hf_overrides fills them in (L290)
    facts["config_architectures"] = isinstance(archs, list) and bool(archs)
    if isinstance(config.get("model_type"), str):
        facts["model_type"] = config["model_type"]
    # vLLM decides MLA by hf_text_config.model_type (Kimi-VL: kimi_vl outside, deepseek_v3 inside)
    facts.pop("text_model_type", None)
    # the language settings nested under text_config, as transformers 4.52+ writes Qwen2-VL/2.5-VL configs
    facts["text_config_nested"] = isinstance(config.get("text_config"), dict)
    inner_type = _text_config(config).get("model_type")
    if isinstance(inner_type, str) and inner_type != config.get("model_type"):
        facts["text_model_type"] = inner_type
    # the classes the checkpoint's own code registers (remote code): vLLM's Transformers fallback
    # takes a model class from them ("AutoModel", from 0.10.1 any "AutoModel…" key)
    auto_map = config.get("auto_map")
    facts["auto_map"] = sorted(k for k in auto_map if isinstance(k, str)) if isinstance(auto_map, dict) else []
    facts.pop("config_version", None)  # the catalog's reading of the name; the checkpoint's own follows
    said = config.get("version")
    if isinstance(said, (int, float, str)) and not isinstance(said, bool) and str(said).strip():
        facts["config_version"] = str(said).strip()  # vLLM splits str(config.version) on "."
    # learned attention sinks: gpt-oss's attention always has them (vllm/model_executor/models/
    # gpt_oss.py, 0.10.1+); other configs say so with attention_sinks
    sinks = (text or config).get("attention_sinks")
    if facts.get("model_type") == "gpt_oss" or sinks is True:
        facts["attention_sinks"] = True
    elif sinks is False:
        facts["attention_sinks"] = False
    # Qwen2.5-*-1M: from 0.9.0 vLLM's Qwen2-family classes hand the attention backend dual-chunk
    # keywords that most backends do not take (check L167, engine/check/startup_dual_chunk.py)
    facts.pop("dual_chunk_attention", None)
    if isinstance((text or config).get("dual_chunk_attention_config"), dict):
        facts["dual_chunk_attention"] = True
    # the rope type as transformers and vLLM read it (`rope_type` from transformers 4.43, the legacy
    # `type` before): Llama 3.1's `llama3` stops old releases of both (check L91)
    rs = (text or config).get("rope_scaling")
    facts.pop("rope_type", None)  # the catalog's reading of the name; the checkpoint's own follows
    if isinstance(rs, dict) and isinstance(rs.get("rope_type") or rs.get("type"), str):
        facts["rope_type"] = rs.get("rope_type") or rs.get("type")
    facts.pop("rope_legacy_key", None)  # …and whether it is the legacy `type` key (L133: Qwen2-VL's mrope rename)
    if isinstance(rs, dict) and isinstance(rs.get("rope_type") or rs.get("type"), str):
        facts["rope_legacy_key"] = "type" in rs
    # Qwen2's sliding-window switches, which vllm/model_executor/models/qwen2.py refuses in some
    # combinations (check L121): `use_sliding_window` and how many bottom layers keep full attention
    src = text or config
    for key, kind in (("use_sliding_window", bool), ("max_window_layers", int)):
        facts.pop(key, None)
        v = src.get(key)
        if isinstance(v, kind) and (kind is bool or (not isinstance(v, bool) and 0 <= v <= 1 << 20)):
            facts[key] = v
    facts.pop("window_layers_mixed", None)
    types, layers = src.get("layer_types"), src.get("num_hidden_layers")
    if isinstance(types, list) and types:
        facts["window_layers_mixed"] = len({str(t) for t in types}) > 1
    elif src.get("use_sliding_window") is True and _dim(src.get("sliding_window")) and isinstance(layers, int) \
            and isinstance(facts.get("max_window_layers"), int):
        # transformers (4.53+) derives them: sliding from layer max_window_layers on
        facts["window_layers_mixed"] = 0 < facts["max_window_layers"] < layers
    # config.is_encoder_decoder (or its text config's): vLLM's ModelConfig.is_encoder_decoder, for which
    # SchedulerConfig turns chunked prefill off and zeroes long_prefill_token_threshold (0.11.1+, check L252)
    facts.pop("encoder_decoder", None)
    if config.get("is_encoder_decoder") is True or _text_config(config).get("is_encoder_decoder") is True:
        facts["encoder_decoder"] = True
    # is_causal false: vLLM's Llama/Qwen2 classes then build EncoderOnlyAttention (no KV cache)
    facts.pop("is_causal", None)
    if isinstance((text or config).get("is_causal"), bool):
        facts["is_causal"] = (text or config)["is_causal"]
    # a config-level model_max_length (Command-R v01: 131072 beside max_position_embeddings 8192):
    # from vLLM 0.4.0 a max_model_len up to it is accepted (_get_and_verify_max_len, vllm#3727)
    facts.pop("model_max_length", None)
    if _number(config.get("model_max_length")):
        facts["model_max_length"] = int(config["model_max_length"])
    config_quant_facts(facts, config)
    cls = (tokenizer or {}).get("tokenizer_class")
    if isinstance(cls, str) and 0 < len(cls) <= 100 and cls.isidentifier():
        facts["tokenizer_class"] = cls
    tok = (tokenizer or {}).get("model_max_length")
    if isinstance(tok, (int, float)) and not isinstance(tok, bool) and 0 < tok < 1 << 40:
        facts["tokenizer_max_len"] = int(tok)


# --- config.json ------------------------------------------------------------------------

_CONFIG_NAMES = {
    # config.json spelling → catalog name; the first one present wins
    "num_experts": ("num_experts", "n_routed_experts", "num_local_experts"),
    "num_experts_per_tok": ("num_experts_per_tok", "experts_per_token", "moe_topk", "top_k_experts"),  # Gemma 4: top_k_experts
    "n_shared_experts": ("n_shared_experts", "num_shared_expert"),  # Hunyuan: num_shared_expert
    "num_hidden_layers": ("num_hidden_layers", "n_layer", "num_layers"),
    "num_attention_heads": ("num_attention_heads", "n_head"),
    "hidden_size": ("hidden_size", "n_embd", "d_model"),
}


def arch_from_config(config: dict) -> dict[str, Any]:
    """The catalog's arch dims from a Hugging Face config.json (its text_config for
    multimodal checkpoints). Empty when it does not describe a decoder."""
    cfg = _text_config(config)
    out: dict[str, Any] = {}
    for k in ARCH_KEYS:
        names = _CONFIG_NAMES.get(k, (k,))
        v = next((_uniform(cfg[n]) for n in names if _dim(_uniform(cfg.get(n))) is not None), None)
        if v is not None:
            out[k] = v
    if not out.get("num_hidden_layers") or not out.get("hidden_size"):
        return {}
    _config_moe(cfg, out)
    _remote_code_dims(cfg, out)
    config_sliding(cfg, out)
    rope_positions(cfg, out)
    out.update(ssm_from_config(cfg))
    if "attn_logit_softcapping" in cfg:  # null (Gemma 3) clears what the catalog's family says
        cap = cfg["attn_logit_softcapping"]
        ok = isinstance(cap, (int, float)) and not isinstance(cap, bool) and 0 < cap < 1e6
        out["attn_logit_softcapping"] = float(cap) if ok else None
    if isinstance(cfg.get("attention_k_eq_v"), bool):  # Gemma 4's full-attention layers (kv.py full_layer_bytes)
        out["attention_k_eq_v"] = cfg["attention_k_eq_v"]
    if "tie_word_embeddings" not in out and isinstance(config.get("tie_word_embeddings"), bool):
        out["tie_word_embeddings"] = config["tie_word_embeddings"]
    return out


def _uniform(v):
    """A per-layer list that holds one value for every layer (Hunyuan-A13B's moe_topk, moe_intermediate_size) as that value."""
    if isinstance(v, list) and v and all(x == v[0] and type(x) is type(v[0]) for x in v):
        return v[0]
    return v


def _config_moe(cfg: dict, out: dict) -> None:
    # Mixtral and gpt-oss give the expert width as intermediate_size
    if out.get("num_experts") and not out.get("moe_intermediate_size") and _dim(cfg.get("intermediate_size")):
        out["moe_intermediate_size"] = cfg["intermediate_size"]
    if str(cfg.get("model_type", "")).startswith("llama4"):
        # Llama 4: intermediate_size_mlp is the dense layers' width, and every MoE layer has one
        # shared expert of the routed width (transformers Llama4TextMoe)
        if _dim(cfg.get("intermediate_size_mlp")):
            out["intermediate_size"] = cfg["intermediate_size_mlp"]
        if out.get("num_experts") and out.get("moe_intermediate_size"):
            out.setdefault("n_shared_experts", 1)
    # Qwen2-MoE style: one shared expert of its own width
    if _dim(cfg.get("shared_expert_intermediate_size")) and not out.get("n_shared_experts") and out.get("moe_intermediate_size"):
        out["n_shared_experts"] = max(1, round(cfg["shared_expert_intermediate_size"] / out["moe_intermediate_size"]))


def _remote_code_dims(cfg: dict, out: dict) -> None:
    """Widths older remote-code configs spell their own way, as vLLM's model classes read them:
    ChatGLM (chatglm.py: ffn_hidden_size, kv_channels, padded_vocab_size; the KV heads are
    multi_query_group_num under multi_query_attention, ModelConfig.get_total_num_kv_heads) and
    Qwen v1 (qwen.py QWenMLP: intermediate_size // 2, the config counting both halves of w1/w2)."""
    kind = str(cfg.get("model_type", ""))
    if kind == "chatglm":
        for key, name in (("intermediate_size", "ffn_hidden_size"), ("head_dim", "kv_channels"),
                          ("vocab_size", "padded_vocab_size")):
            if _dim(cfg.get(name)):
                out[key] = cfg[name]
        if cfg.get("multi_query_attention") and _dim(cfg.get("multi_query_group_num")):
            out["num_key_value_heads"] = cfg["multi_query_group_num"]
    elif kind == "qwen" and _dim(cfg.get("intermediate_size")):
        out["intermediate_size"] = cfg["intermediate_size"] // 2
        if _dim(cfg.get("kv_channels")):
            out["head_dim"] = cfg["kv_channels"]


# config.json keys vLLM takes the smallest of, in its order (_get_and_verify_max_len's possible_keys:
# vllm/config.py up to 0.10.x, config/model.py, then transformers_utils/model_arch_config_convertor.py
# from 0.15.0), with the release each joined the list: GPT-2's n_positions is read from the first
# list (0.1.3), ChatGLM2's seq_length from 0.2.2, Command-R's model_max_length from 0.4.0,
# Whisper's max_target_positions from 0.7.0; GPT-2's n_ctx never
_LEN_KEYS = (("max_position_embeddings", None), ("n_positions", None), ("max_seq_len", None), ("seq_length", "0.2.2"),
             ("model_max_length", "0.4.0"), ("max_target_positions", "0.7.0"), ("max_sequence_length", None),
             ("max_seq_length", None), ("seq_len", None))


def derived_max_len(config: dict, tokenizer: dict | None = None, version: str | None = None) -> tuple[int | None, str | None]:
    """max_model_len as the vLLM release derives it, and the config key it names: the smallest
    length key (a config `model_max_length` wins from 0.8.3), capped by the tokenizer's
    model_max_length (0.10.0+), stretched by the rope_scaling factor unless the scaling type is
    su/longrope/llama3 — YaRN from `original_max_position_embeddings` up to 0.29, not at all from
    0.30 (vllm/config/model.py; 0.34.0 transformers_utils/model_arch_config_convertor.py:392).
    (None, None) when the config names no length (vLLM would assume 2048)."""
    cfg = _text_config(config)
    v = try_parse(version) if version else None

    def since(release: str) -> bool:
        return v is None or not v < Version(release)

    found = [(k, cfg[k]) for k, first in _LEN_KEYS if _number(cfg.get(k)) and (first is None or since(first))]
    if not found:
        return None, None
    key, base = min(found, key=lambda kv: kv[1])
    if since("0.8.3") and _number(cfg.get("model_max_length")):
        key, base = "model_max_length", cfg["model_max_length"]
    tok = _number((tokenizer or {}).get("model_max_length"))
    if tok and since("0.10.0"):
        base = min(base, tok)
    rs = cfg.get("rope_scaling") if isinstance(cfg.get("rope_scaling"), dict) else cfg.get("rope_parameters")
    model_type = str(cfg.get("model_type") or config.get("model_type") or "")
    if isinstance(rs, dict) and not ("gemma3" in model_type and since("0.8.0")):
        kind = rs.get("rope_type") or rs.get("type")
        factor = _number(rs.get("factor")) or 1.0
        yarn = kind in ("yarn", "deepseek_yarn", "deepseek_llama_scaling")
        if kind in ("su", "longrope", "llama3") or (yarn and since("0.30.0")):
            pass
        elif kind == "yarn" and _number(rs.get("original_max_position_embeddings")):
            base = rs["original_max_position_embeddings"] * factor
        else:
            base = base * factor
    return int(base), key


def _number(v) -> float | None:
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < 1 << 40 else None


