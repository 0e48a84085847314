"""What each pipeline stage's GPU holds beyond its share of the checkpoint's layers: the input
embedding and the LM head, the vision tower where vLLM builds it on every stage, and what loading
adds — LoRA adapter slots, the MTP drafter's own weights, the rotary cos/sin table, V0's absorbed MLA
matrices. The checkpoint's bytes and their share per GPU: engine/check/memory/weights.py."""
from __future__ import annotations

from vllm_kb.engine.check.memory.kv import pp_stage_layers
from vllm_kb.engine.check.memory.ssm import speculative
from vllm_kb.engine.check.memory.weights import (BYTES_PER_PARAM, ep_saving_bytes, replicated_kv_bytes, vision_params,
                                                 weight_width, weights_per_gpu_bytes)
from vllm_kb.engine.kb.models import attention_params, embedding_params, head_dim
from vllm_kb.engine.kb.versions import parse, try_parse


def lora_buffer_bytes(model: dict, engine: dict, tp: int = 1) -> float:
    """Per GPU, the adapter slots --enable-lora allocates when the model loads (vllm/lora/layers.py
    create_lora_weights, counted in "Model loading took"): for max_loras adapters of rank
    max_lora_rank, an A and a B buffer per slice of every attention and dense MLP projection
    (column-parallel B and row-parallel A split by TP), and the embedding and LM-head ones over the
    vocabulary, in the model's 16-bit dtype. The T4 logs of unsloth's GRPO notebooks (ranks 32 and
    64) load 0.14 and 0.23 GiB more than the same models without LoRA."""
    if str(engine.get("enable_lora", "")).strip().lower() not in ("true", "1"):
        return 0.0
    h, layers = model.get("hidden_size"), model.get("num_hidden_layers")
    if not (h and layers):
        return 0.0
    rank, slots = int(engine.get("max_lora_rank") or 16), int(engine.get("max_loras") or 1)
    q = (model.get("num_attention_heads") or 0) * head_dim(model)
    kv = (model.get("num_key_value_heads") or model.get("num_attention_heads") or 0) * head_dim(model)
    inter = 0 if model.get("num_experts") else (model.get("intermediate_size") or 0)
    a = 3 * h + q / tp + (2 * h + inter / tp if inter else 0)  # qkv (3 slices), o, gate_up (2), down
    b = (q + 2 * kv) / tp + h + ((2 * inter) / tp + h if inter else 0)
    vocab = (model.get("vocab_size") or 0) + int(engine.get("lora_extra_vocab_size") or 256)
    head = 2 * (vocab * rank + h * rank)  # embedding and LM head: A or B spans the vocabulary
    return slots * (layers * rank * (a + b) + head) * 2.0


def stage_weights_bytes(model: dict, engine: dict, weights: float, tp: int, pp: int, experts_over_dp: bool = False,
                        absorbed_mla: bool = False, partition: tuple[int, ...] | None = None,
                        tower_every_stage: bool = False) -> list[float]:
    """What each pipeline stage's GPU holds: its share of the layers as vLLM splits them
    (get_pp_indices), plus the input embedding on the first stage and the LM head on the last
    (both 16-bit; a tied LM head is a second copy there, PPMissingLayer elsewhere), plus the
    LoRA adapter slots when LoRA is on, plus V0's absorbed MLA matrices (`absorbed_mla`), plus, with
    `tower_every_stage` (see tower_on_every_stage), the whole vision tower on every stage."""
    lora = lora_buffer_bytes(model, engine, tp) / max(1, pp) + rope_cache_bytes(model, engine)
    out = [w + lora for w in _stage_weights(model, engine, weights, tp, pp, experts_over_dp, partition)]
    tower = tower_bytes(model, engine) if tower_every_stage and pp > 1 else 0.0
    if tower and model.get("num_hidden_layers"):  # held whole per stage, not spread by the stage's layers
        out = [w + tower * (1 - n / model["num_hidden_layers"]) / max(1, tp)
               for w, n in zip(out, pp_stage_layers(model["num_hidden_layers"], pp, partition))]
    out[-1] += mtp_draft_bytes(model, engine, tp)
    if absorbed_mla and model.get("num_hidden_layers"):
        per_layer = mla_absorbed_bytes(model, engine, tp) / model["num_hidden_layers"]
        out = [w + per_layer * n for w, n in zip(out, pp_stage_layers(model["num_hidden_layers"], pp, partition))]
    return out


# model_type → the MTP drafter vLLM builds from the target's own `mtp.*` tensors (qwen3_next_mtp.py,
# qwen3_5_mtp.py; read in 0.17.0-0.34.0); both use gated attention (attn_output_gate, default true)
_MTP_DRAFTS = frozenset({"qwen3_next", "qwen3_5", "qwen3_5_moe"})


def mtp_draft_bytes(model: dict, engine: dict, tp: int = 1) -> float:
    """Per GPU, the MTP drafter's own weights, which "Model loading took" counts: vLLM loads the
    drafter inside the same DeviceMemoryProfiler as the target (gpu_model_runner.py load_model) and
    then points its embedding and LM head at the target's (llm_base_proposer.py
    _maybe_share_embeddings / _maybe_share_lm_head: "Detected MTP model"), so what stays is `fc`
    (2 x hidden -> hidden, unquantized under modelopt_fp4: qwen3_5_mtp.py's workaround for NVFP4
    checkpoints that store it in BF16) and mtp_num_hidden_layers full-attention decoder layers at the
    checkpoint's width. vllm-project/recipes PR 810 (Qwen3.8-27B-FP8, TP 2, MTP): 14.28 GiB a GPU."""
    method = speculative(engine)[0]
    h = model.get("hidden_size")
    if not (method == "mtp" or method.endswith("_mtp")) or str(model.get("model_type")) not in _MTP_DRAFTS or not h:
        return 0.0
    layers = int(model.get("num_nextn_predict_layers") or model.get("mtp_num_hidden_layers") or 1)
    width = weight_width(engine, model) or "bf16"
    per = BYTES_PER_PARAM[width]
    heads = model.get("num_attention_heads") or 0
    attn = attention_params(model) + h * heads * head_dim(model)  # q_proj doubled by the output gate
    if model.get("num_experts"):
        inter = model.get("moe_intermediate_size") or 0
        mlp = (model["num_experts"] + (model.get("n_shared_experts") or 0)) * 3 * h * inter
    else:
        mlp = 3 * h * (model.get("intermediate_size") or 0)
    fc = 2 * h * h * (2.0 if str(engine.get("quantization") or model.get("quant_method") or "").lower()
                      in ("modelopt_fp4", "nvfp4", "modelopt") and width == "fp4" else per)
    return (layers * (attn + mlp) * per + fc) / max(1, tp)


def rope_cache_bytes(model: dict, engine: dict) -> float:
    """Per GPU, the rotary embedding's cos/sin table: vLLM computes it for every position up to the
    config's max_position_embeddings, whatever max_model_len is, in the model dtype, whole on every
    rank (rotary_embedding RotaryEmbedding._compute_cos_sin_cache, one table per configuration
    through get_rope's cache), and counts it in "Model loading took". Tens of MiB for a 128K
    model; 2.5 GiB for Llama 4 Scout's 10,485,760 positions (llm-d's 0.19 TP 4 log: 53.12 GiB of
    weights per GPU where the checkpoint's share is 50.8). A linear rope_scaling multiplies the
    positions (rope_cache_positions: Gemma 3's global table holds 8 x 131,072)."""
    positions = model.get("rope_cache_positions") or model.get("max_position_embeddings")
    if not isinstance(positions, int) or isinstance(positions, bool) or positions <= 0:
        return 0.0
    if model.get("kv_lora_rank"):
        rotary = model.get("qk_rope_head_dim") or 64
    else:
        rotary = head_dim(model) * float(model.get("partial_rotary_factor") or 1.0) if model.get("hidden_size") else 0
    width = 4.0 if str(engine.get("dtype") or "").lower() in ("float32", "fp32", "float") else 2.0
    return float(positions * rotary * width)


def mla_absorbed_bytes(model: dict, engine: dict, tp: int) -> float:
    """Per GPU, what V0's MLA backend of 0.7.1-0.7.3 builds after loading, beside the checkpoint's
    own weights (vllm/attention/backends/mla/utils.py process_weights_after_loading, with
    VLLM_MLA_PERFORM_MATRIX_ABSORPTION on by default): per layer W_Q_UK (q input x heads x
    kv_lora_rank) and W_UV_O (heads x kv_lora_rank x hidden) in the activation dtype (re-quantized
    to fp8 for fp8 checkpoints), W_QR in the activation dtype, and for a quantized checkpoint the
    dequantized kv_b_proj it keeps as W_UK/W_UV. Counted in "Loading model weights took": vLLM
    #13109 (DeepSeek-Coder-V2-Lite AWQ) logs 10.45 GiB where the checkpoint holds 8.3."""
    layers, hidden, rank = model.get("num_hidden_layers"), model.get("hidden_size"), model.get("kv_lora_rank")
    if not (layers and hidden and rank):
        return 0.0
    heads = max(1, (model.get("num_attention_heads") or 1) // max(1, tp))
    q_in = model.get("q_lora_rank") or hidden
    rope, nope = model.get("qk_rope_head_dim") or 64, model.get("qk_nope_head_dim") or 128
    v_dim = model.get("v_head_dim") or 128
    act = 4.0 if str(engine.get("dtype") or "").lower() in ("float32", "fp32", "float") else 2.0
    width = weight_width(engine, model) or "bf16"
    absorbed = 1.0 if width == "fp8" else act
    per_layer = (q_in * heads * rank + heads * rank * hidden) * absorbed + q_in * heads * rope * act
    if BYTES_PER_PARAM.get(width, 2.0) < 2.0:
        per_layer += rank * heads * (nope + v_dim) * act
    return float(layers * per_layer)


def _stage_weights(model: dict, engine: dict, weights: float, tp: int, pp: int, experts_over_dp: bool,
                   partition: tuple[int, ...] | None = None) -> list[float]:
    layers = model.get("num_hidden_layers")
    if pp <= 1 or not layers or not model.get("hidden_size") or not model.get("vocab_size"):
        return [weights_per_gpu_bytes(model, engine, weights, tp, pp, experts_over_dp)] * max(1, pp)
    per = BYTES_PER_PARAM[weight_width(engine, model) or "bf16"]
    table = model["vocab_size"] * model["hidden_size"] * max(2.0, per) if per >= 2.0 else model["vocab_size"] * model["hidden_size"] * 2.0
    body = weights - embedding_params(model) * (per if per >= 2.0 else 2.0)
    every = embeds_every_stage(model)
    # a tied head on the last stage is the model's own embed_tokens there (qwen3_5.py: lm_head = embed_tokens)
    head = 0.0 if every and model.get("tie_word_embeddings") else table
    # spread over the stages by their layers: the replicated KV projections, less the experts of other DP ranks
    even = replicated_kv_bytes(model, engine, tp, pp) - ep_saving_bytes(model, engine, weights, tp, pp, experts_over_dp)
    out = []
    for i, n in enumerate(pp_stage_layers(layers, pp, partition)):
        held = body * n / layers + (table if i == 0 or every else 0.0) + (head if i == pp - 1 else 0.0)
        out.append(held / tp + even * n * pp / layers)
    return out


# model_type -> its model class builds embed_tokens on every pipeline stage, not a PPMissingLayer off the
# first: Qwen3NextModel (qwen3_next.py, read in 0.10.2-0.34.0) and Qwen3_5Model (qwen3_5.py, 0.17.0-0.34.0)
# create the VocabParallelEmbedding unconditionally and load it on every rank (vLLM #36861: a 248k x 2048
# table, ~0.95 GiB, on each middle stage of Qwen3.5-35B-A3B at PP 4)
_EMBED_EVERY_STAGE = frozenset({"qwen3_next", "qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text"})
_EMBED_EVERY_ARCH = ("Qwen3NextFor", "Qwen3_5For", "Qwen3_5MoeFor")


def tower_bytes(model: dict, engine: dict) -> float:
    """The vision tower's bytes in the checkpoint: 16-bit where the checkpoint keeps it so
    (vision_params), else at the quantized width vLLM gives every linear layer."""
    b = model.get("vision_params_b")
    if not (model.get("multimodal") and isinstance(b, (int, float)) and b > 0):
        return 0.0
    kept = vision_params(model, engine)
    return kept * 2.0 if kept else float(b) * 1e9 * BYTES_PER_PARAM[weight_width(engine, model) or "bf16"]


def tower_on_every_stage(model: dict, engine: dict, version: str | None) -> bool:
    """Qwen3.5's vision tower on every pipeline stage: qwen3_5.py builds `visual` inside
    `_mark_tower_model` (interfaces.py), which skips it only when every modality's limit is 0 in
    0.17.0-0.33.0 and off the first stage too from 0.34.0 (`or not get_pp_group().is_first_rank`)."""
    v = try_parse(version) if version else None
    if not (embeds_every_stage(model) and model.get("multimodal")) or v is None or not v < parse("0.34.0"):
        return False
    limits = engine.get("limit_mm_per_prompt")
    if isinstance(limits, dict) and limits and all(v == 0 for v in limits.values()):
        return False  # every modality off: no tower on any stage
    return str(engine.get("language_model_only", "")).strip().lower() not in ("true", "1")


def embeds_every_stage(model: dict) -> bool:
    """Whether vLLM builds this model's input embedding on every pipeline stage (see _EMBED_EVERY_STAGE)."""
    return (str(model.get("model_type") or "") in _EMBED_EVERY_STAGE
            or str(model.get("architecture") or "").startswith(_EMBED_EVERY_ARCH))
