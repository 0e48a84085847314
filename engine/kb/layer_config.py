"""How a config.json lays out its attention layers, as the memory estimate sizes them: which layers
attend through a sliding window or a chunk (Gemma 2/3, Llama 4), and how many positions vLLM's RoPE
cos/sin tables hold. Read by engine/kb/model_config.py arch_from_config."""
from __future__ import annotations


def config_dim(v):
    """A config.json dimension as the sizing can use it: a flag, or a whole number from 0 to 2**40
    (a project's file may say anything: "abc", -1, 1e30, a list)."""
    if isinstance(v, bool) or (isinstance(v, int) and 0 <= v <= 1 << 40):
        return v
    return None


def config_sliding(cfg: dict, out: dict) -> None:
    window = cfg.get("sliding_window")
    types = cfg.get("layer_types")
    if config_dim(cfg.get("attention_chunk_size")):
        out["num_chunked_layers"] = chunked_layers(cfg, out["num_hidden_layers"])
    if isinstance(types, list) and types:
        local = sum(1 for t in types if t == "sliding_attention")
        if local and config_dim(window):
            out["sliding_window_size"] = window
            out["num_sliding_layers"] = local
        return
    # Qwen2-style configs carry a window they do not use
    if not config_dim(window) or cfg.get("use_sliding_window") is False:
        if config_dim(window) and not isinstance(window, bool):
            out["sliding_window_unused"] = window  # vLLM before 0.4.0 reads it anyway (L66)
        return
    out["sliding_window_size"] = window
    pattern = cfg.get("sliding_window_pattern")
    if isinstance(pattern, int) and pattern > 1:
        out["sliding_window_pattern"] = pattern
    elif str(cfg.get("model_type", "")).startswith("gemma2"):
        out["sliding_window_pattern"] = 2


def chunked_layers(cfg: dict, layers: int) -> int:
    """Llama 4's layers that attend within attention_chunk_size: the RoPE layers (no_rope_layers
    1), every layer but each no_rope_layer_interval-th (4) when the list is empty; newer configs
    spell it as layer_types "chunked_attention"."""
    types, nope = cfg.get("layer_types"), cfg.get("no_rope_layers")
    if isinstance(types, list) and any(t == "chunked_attention" for t in types):
        return sum(1 for t in types if t == "chunked_attention")
    if isinstance(nope, list) and len(nope) == layers:
        return sum(1 for x in nope if x)
    interval = cfg.get("no_rope_layer_interval")
    interval = interval if isinstance(interval, int) and not isinstance(interval, bool) and interval > 0 else 4
    return layers - layers // interval


def rope_positions(cfg: dict, out: dict) -> None:
    """The positions vLLM's RoPE cos/sin tables hold, where they are more than max_position_embeddings:
    a linear or dynamic-NTK rope_scaling builds max_position_embeddings x factor
    (LinearScalingRotaryEmbedding, DynamicNTKScalingRotaryEmbedding), and Gemma 3's local layers
    (rope_local_base_freq) add a second, unscaled table."""
    rs, positions = cfg.get("rope_scaling"), config_dim(out.get("max_position_embeddings"))
    if not isinstance(rs, dict) or not isinstance(positions, int) or isinstance(positions, bool) or positions <= 0:
        return
    kind, factor = rs.get("rope_type") or rs.get("type"), rs.get("factor")
    if kind not in ("linear", "dynamic") or not isinstance(factor, (int, float)) or isinstance(factor, bool) or not 1 < factor <= 1024:
        return
    tables = int(positions * factor) + (positions if cfg.get("rope_local_base_freq") else 0)
    out["rope_cache_positions"] = tables
