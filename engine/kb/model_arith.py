"""A model's parameter counts and tensor-parallel arithmetic from its config.json dimensions."""
from __future__ import annotations


def head_dim(arch: dict) -> int:
    return int(arch.get("head_dim") or arch["hidden_size"] // max(1, arch.get("num_attention_heads") or 1))


def attention_params(arch: dict) -> int:
    """Weights of one attention block (q, k, v, o; MLA's low-rank projections)."""
    h = arch["hidden_size"]
    heads = arch.get("num_attention_heads") or 1
    if arch.get("kv_lora_rank"):
        nope, rope = arch.get("qk_nope_head_dim") or 128, arch.get("qk_rope_head_dim") or 64
        v, kvr, qr = arch.get("v_head_dim") or 128, arch["kv_lora_rank"], arch.get("q_lora_rank")
        q = (h * qr + qr * heads * (nope + rope)) if qr else h * heads * (nope + rope)
        return q + h * (kvr + rope) + kvr * heads * (nope + v) + heads * v * h
    hd = head_dim(arch)
    kv = arch.get("num_key_value_heads") or heads
    return 2 * h * heads * hd + 2 * h * kv * hd


def attention_params_total(arch: dict) -> int:
    """Every layer's attention block. Gemma 4 builds its full-attention layers at global_head_dim (q and o
    over num_attention_heads; K over num_global_key_value_heads and no v_proj under attention_k_eq_v, else
    K and V over num_key_value_heads) and the sliding ones at head_dim (vllm gemma4.py); every layer
    alike elsewhere."""
    layers = arch.get("num_hidden_layers") or 0
    wide, local = arch.get("global_head_dim"), arch.get("num_sliding_layers")
    if not (wide and local and arch.get("hidden_size")) or arch.get("kv_lora_rank"):
        return layers * attention_params(arch)
    h, heads = arch["hidden_size"], arch.get("num_attention_heads") or 1
    kv, slots = arch.get("num_key_value_heads") or heads, 2
    if arch.get("attention_k_eq_v") and arch.get("num_global_key_value_heads"):
        kv, slots = arch["num_global_key_value_heads"], 1
    full = 2 * h * heads * wide + slots * h * kv * wide
    return local * attention_params(arch) + max(0, layers - local) * full


def expert_params(arch: dict) -> int:
    """All routed-expert weights (gate, up, down of every expert in every MoE layer)."""
    if not arch.get("num_experts"):
        return 0
    return moe_layers(arch) * arch["num_experts"] * 3 * arch["hidden_size"] * (arch.get("moe_intermediate_size") or 0)


def moe_layers(arch: dict) -> int:
    """Layers with routed experts: all but DeepSeek's leading dense ones; with Llama 4's
    interleave_moe_layer_step every step-th layer (vLLM llama4.py: (i + 1) % step == 0)."""
    if not arch.get("num_experts"):
        return 0
    step = arch.get("interleave_moe_layer_step") or 1
    return max(0, (arch.get("num_hidden_layers") or 0) - (arch.get("first_k_dense_replace") or 0)) // max(1, step)


def has_dense_mlp(arch: dict) -> bool:
    """Whether some layer has a dense MLP of intermediate_size: a dense model, DeepSeek's leading
    layers, Llama 4 Maverick's layers between the MoE ones."""
    return (not arch.get("num_experts") or bool(arch.get("first_k_dense_replace"))
            or (arch.get("interleave_moe_layer_step") or 1) > 1)


def embedding_params(arch: dict) -> int:
    """Input embedding plus the LM head (one matrix when they are tied)."""
    return (arch.get("vocab_size") or 0) * arch["hidden_size"] * (1 if arch.get("tie_word_embeddings") else 2)


def params_from_arch(arch: dict) -> tuple[float | None, float | None]:
    """(total, active) parameters in billions from the dims; (None, None) when they are missing."""
    if not arch.get("num_hidden_layers") or not arch.get("hidden_size") or not arch.get("vocab_size"):
        return None, None
    h, layers = arch["hidden_size"], arch["num_hidden_layers"]
    moe = moe_layers(arch)
    dense_mlp = 3 * h * (arch.get("intermediate_size") or 0)
    per_expert = 3 * h * (arch.get("moe_intermediate_size") or 0)
    shared = (arch.get("n_shared_experts") or 0) * per_expert
    common = embedding_params(arch) + attention_params_total(arch) + (layers - moe) * dense_mlp + moe * shared
    total = common + expert_params(arch)
    active = common + moe * (arch.get("num_experts_per_tok") or 0) * per_expert
    return round(total / 1e9, 2), round(active / 1e9, 2)


def kv_heads_per_gpu(arch: dict, tp: int) -> int:
    """vLLM splits KV heads across TP ranks and replicates them when TP exceeds their count."""
    kv = arch.get("num_key_value_heads") or arch.get("num_attention_heads") or 1
    return max(1, kv // max(1, tp))


def tp_divides(arch: dict, tp: int) -> bool:
    """Tensor parallelism must split the attention heads evenly; KV heads are split evenly or
    replicated a whole number of times."""
    heads = arch.get("num_attention_heads")
    if not heads:
        return True
    if heads % tp:
        return False
    kv = arch.get("num_key_value_heads") or heads
    return bool(arch.get("kv_lora_rank")) or kv % tp == 0 or tp % kv == 0


def ceil_div(a: int, b: int) -> int:
    return -(-a // b) if b else 0

