"""The state-space side of a hybrid checkpoint's config.json: which layers keep a recurrent state
instead of (or beside) a KV cache, and the dimensions vLLM sizes that state from
(vllm/model_executor/layers/mamba/mamba_utils.py MambaStateShapeCalculator):

    mamba1  Jamba, Mamba:                 conv (intermediate, kernel-1), ssm (intermediate, state)
    mamba2  Bamba, Nemotron-H, Granite-4.0-H, Falcon-H1, Zamba2, Mamba2:
            conv (kernel-1, intermediate + 2 x groups x state), ssm (heads, head_dim, state)
    gdn     Qwen3-Next, Qwen3.5 (Gated DeltaNet):
            conv (kernel-1, 2 x k_heads x k_dim + v_heads x v_dim), ssm (v_heads, k_dim, v_dim)

`ssm_from_config` returns {"num_attention_layers": n, "ssm": {...}} or {} for a model without
such layers. Every value comes from the config; a layout it cannot read gives {}."""
from __future__ import annotations

from typing import Any


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1 << 40 else None


def _layer_counts(cfg: dict, layers: int) -> tuple[int, int] | None:
    """(attention layers, state layers) from whichever layout key the config uses."""
    types = cfg.get("layer_types") or cfg.get("layers_block_type")
    if isinstance(types, list) and types and all(isinstance(t, str) for t in types):
        # Zamba2's "hybrid" layers run a Mamba2 mixer and the shared attention block
        attn = sum(1 for t in types if t in ("attention", "full_attention", "hybrid"))
        state = sum(1 for t in types if t in ("mamba", "linear_attention", "mamba2", "hybrid"))
        return (attn, state) if state else None
    pattern = cfg.get("hybrid_override_pattern")
    if isinstance(pattern, str) and pattern:  # Nemotron-H: M mamba, * attention, - MLP, E MoE
        return pattern.count("*"), pattern.count("M")
    indices = cfg.get("attn_layer_indices")
    if isinstance(indices, list):  # Bamba
        return len(indices), layers - len(indices)
    period, offset = _int(cfg.get("attn_layer_period")), _int(cfg.get("attn_layer_offset"))
    if period and offset is not None:  # Jamba
        attn = sum(1 for i in range(layers) if i % period == offset)
        return attn, layers - attn
    interval = _int(cfg.get("full_attention_interval"))
    if interval:  # Qwen3-Next without layer_types
        attn = layers // interval
        return attn, layers - attn
    return None


def ssm_from_config(cfg: dict) -> dict[str, Any]:
    layers = _int(cfg.get("num_hidden_layers"))
    hidden = _int(cfg.get("hidden_size"))
    if not layers or not hidden:
        return {}
    model_type = str(cfg.get("model_type") or "")
    if _int(cfg.get("linear_num_value_heads")):
        counts = _layer_counts(cfg, layers)
        ssm = {"kind": "gdn", "k_heads": cfg.get("linear_num_key_heads"), "v_heads": cfg.get("linear_num_value_heads"),
               "k_dim": cfg.get("linear_key_head_dim"), "v_dim": cfg.get("linear_value_head_dim"),
               "conv_kernel": cfg.get("linear_conv_kernel_dim", 4)}
    elif model_type == "falcon_h1":  # every layer runs attention and a Mamba2 mixer side by side
        counts = (layers, layers)
        ssm = _mamba2(cfg, hidden, cfg.get("mamba_d_ssm"))
    elif model_type == "jamba" or (cfg.get("mamba_d_state") and not cfg.get("mamba_n_heads")):
        counts = _layer_counts(cfg, layers)
        expand = cfg.get("mamba_expand", 2)
        ssm = {"kind": "mamba1", "intermediate": int(expand * hidden) if isinstance(expand, (int, float)) else None,
               "state": cfg.get("mamba_d_state", 16), "conv_kernel": cfg.get("mamba_d_conv", 4)}
    elif cfg.get("mamba_num_heads") or cfg.get("mamba_n_heads"):
        counts = _layer_counts(cfg, layers)
        ssm = _mamba2(cfg, hidden, None)
    else:
        return {}
    if counts is None or any(_int(v) is None for k, v in ssm.items() if k != "kind"):
        return {}
    attn, state = counts
    ssm["layers"] = state
    dtype = cfg.get("mamba_ssm_dtype") or cfg.get("mamba_ssm_cache_dtype")
    if isinstance(dtype, str) and dtype in ("float32", "bfloat16", "float16"):
        ssm["config_dtype"] = dtype  # read by vLLM for Qwen3.5 / Nemotron-H in some releases
    return {"num_attention_layers": attn, "ssm": ssm}


def _mamba2(cfg: dict, hidden: int, intermediate: Any) -> dict[str, Any]:
    heads = cfg.get("mamba_num_heads", cfg.get("mamba_n_heads"))
    head_dim = cfg.get("mamba_head_dim", cfg.get("mamba_d_head"))
    h, d = _int(heads), _int(head_dim)
    if intermediate is None and h and d:
        intermediate = h * d
    expand = cfg.get("mamba_expand")
    if intermediate is None and isinstance(expand, (int, float)):
        intermediate = int(expand * hidden)
    return {"kind": "mamba2", "intermediate": intermediate, "heads": heads, "head_dim": head_dim,
            "groups": cfg.get("n_groups", cfg.get("mamba_n_groups", 1)),
            "state": cfg.get("ssm_state_size", cfg.get("mamba_d_state", 128)),
            "conv_kernel": cfg.get("conv_kernel", cfg.get("mamba_d_conv", 4))}
