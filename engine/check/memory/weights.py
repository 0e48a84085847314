"""Weights: checkpoint bytes by quantization width, and what each GPU holds under TP x PP (each
pipeline stage's own share and what loading adds: weights_stages.py)."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.models import (attention_params, attention_params_total, ceil_div, embedding_params,
                                      expert_params, head_dim, kv_heads_per_gpu)

BYTES_PER_PARAM = {
    "fp32": 4.0, "float32": 4.0, "bf16": 2.0, "fp16": 2.0, "auto": 2.0,
    "fp8": 1.0, "int8": 1.0,
    # 4-bit integer with a 16-bit scale (and zero) per group of 128: ~4.2 bits
    "4bit": 0.53,
    # MXFP4: 4 bits + an 8-bit scale per 32 values; NVFP4: + an FP8 scale per 16 values
    "mxfp4": 0.53, "fp4": 0.5625,
}
# quantization method → weight width class
QUANT_WIDTH = {
    "fp8": "fp8", "fp8_per_tensor": "fp8", "fp8_per_block": "fp8", "fp8_per_channel": "fp8", "mxfp8": "fp8",
    "fbgemm_fp8": "fp8", "modelopt": "fp8", "modelopt_mxfp8": "fp8", "deepseek_v4_fp8": "fp8", "modelopt_mixed": "fp8",
    "experts_int8": "int8", "int8": "int8", "int8_per_channel_weight_only": "int8", "compressed-tensors": "int8",
    "awq": "4bit", "awq_marlin": "4bit", "auto_awq": "4bit", "gptq": "4bit", "gptq_marlin": "4bit", "auto_gptq": "4bit",
    "bitsandbytes": "4bit", "int4": "4bit", "moe_wna16": "4bit", "marlin": "4bit", "auto_round": "4bit", "auto-round": "4bit",
    "inc": "4bit",
    "mxfp4": "mxfp4", "gpt_oss_mxfp4": "mxfp4", "nvfp4": "fp4", "modelopt_fp4": "fp4", "nvfp4_per_token": "fp4",
}
# methods that quantize the routed experts only (gpt-oss ships attention and embeddings in BF16)
EXPERTS_ONLY = {"mxfp4", "gpt_oss_mxfp4", "experts_int8", "moe_wna16"}


# GGUF files hold anything from 2 to 8 bits per weight: the width is not in the name
UNKNOWN_WIDTH = frozenset({"gguf"})
# GPTQ, bitsandbytes and AutoRound store 4 or 8 bits a weight (config.json `bits`, BitsAndBytesConfig
# `load_in_8bit`); without a config the upload's name says which (Qwen's "-GPTQ-Int8", "-8bit")
_EIGHT_BIT_NAME = re.compile(r"(?i)(?:^|[-_./])(?:int8|8-?bits?|w8a16)(?:$|[-_./])")


def weight_width(engine: dict, model: dict) -> str | None:
    """The width class of the weights, or None when it cannot be told (a GGUF file)."""
    if str(model.get("name") or "").lower().endswith(".gguf"):
        return None  # the file's own tensors, whatever width the config it is served with names
    # a BF16 conversion of a quantized release (catalog size `quantized: false`, DeepSeek-V3.2/V4-…-BF16)
    # keeps the family's quant_method beside it: its weights are 16-bit all the same
    q = engine.get("quantization") or (model.get("quant_method") if model.get("quantized") is not False else None)
    if q:
        q = str(q).strip().lower()
        if q in UNKNOWN_WIDTH:
            return None
        if q == "modelopt" and QUANT_WIDTH.get(str(model.get("quant_method") or "").lower()) == "fp4":
            # `--quantization modelopt` on an NVFP4 ModelOpt checkpoint: vLLM lets the checkpoint's
            # quant_algo override it (ModelOptNvFp4Config.override_quantization_method → modelopt_fp4,
            # applied in ModelConfig._verify_quantization; 0.10.0 through 0.34.0: 0.9.x has no such override and
            # builds its FP8 ModelOpt config), so the weights are FP4
            q = "modelopt_fp4"
        if q == "modelopt_mixed" and QUANT_WIDTH.get(str(model.get("quant_method") or "").lower()) == "fp4":
            # ModelOpt MIXED_PRECISION (ModelOptMixedPrecisionConfig: FP8 dense layers, NVFP4 experts) on an
            # NVFP4 upload: the experts are most of the weights, so FP4's width (FP8's would double them)
            return "fp4"
        if q == "compressed-tensors" and model.get("quant_scheme") in ("nvfp4", "mxfp4"):
            return "fp4" if model["quant_scheme"] == "nvfp4" else "mxfp4"  # 4-bit float weights, not int8
        if q == "compressed-tensors" and model.get("quant_scheme") == "wna16":
            return "int8" if "w8a16" in str(model.get("name") or "").lower() else "4bit"
        if q == "compressed-tensors" and not model.get("quant_scheme"):
            named = QUANT_WIDTH.get(str(model.get("quant_method") or "").lower())
            if named and named != "int8":
                return named  # `--quantization compressed-tensors` on a "-AWQ-4bit"/"-FP8" name: the name's width
        if q in ("fp8", "deepseek_v4_fp8") and model.get("quant_expert_dtype") == "fp4" and model.get("quantized") is not False:
            # DeepSeek-V4: FP8 blocks for attention and the shared expert, MXFP4 routed experts (expert_dtype
            # fp4, DeepseekV4FP8Config). Without the layer shapes every weight is counted at MXFP4's width:
            # the experts are most of the model, so this errs a few per cent low (V4-Flash 284B: ~150 GB vs
            # the ~160 GB upload), never high
            return "mxfp4"
        width = QUANT_WIDTH.get(q, "4bit" if "4" in q else "fp8" if "8" in q else "bf16")
        return "int8" if width == "4bit" and q not in ("awq", "awq_marlin", "auto_awq") and _eight_bit(model) else width
    dtype = str(engine.get("dtype") or "auto").lower()
    return "fp32" if dtype in ("float32", "fp32", "float") else "bf16"


def _eight_bit(model: dict) -> bool:
    """An integer checkpoint of a 4-or-8-bit method that stores 8 bits: its config's `bits`, else
    its name. AWQ stores 4 bits only."""
    bits = model.get("quant_bits")
    if isinstance(bits, int) and not isinstance(bits, bool):
        return bits == 8
    return bool(_EIGHT_BIT_NAME.search(str(model.get("name") or "")))


def _known_width(engine: dict, model: dict) -> str:
    width = weight_width(engine, model)
    if width is None:  # estimate() asks weight_width first and sizes nothing then
        raise ValueError("the width of these weights cannot be told (a GGUF file)")
    return width


def weights_bytes(model: dict, engine: dict, tp: int = 1, mxfp4: str = "padded") -> float:
    """Checkpoint bytes as loaded: quantized layers at their width, embeddings/LM head (and what
    a method leaves alone) at 16 bits. `tp`: MXFP4 experts are padded per rank's shard, as the
    kernel `mxfp4` pads them ("padded": Marlin's and FlashInfer's; "strided": unswizzled Triton)."""
    total = model["params_b"] * 1e9
    per = _grouped(BYTES_PER_PARAM[_known_width(engine, model)], _known_width(engine, model), model)
    if per >= 2.0 or not model.get("hidden_size"):
        return total * per
    embed = embedding_params(model) if model.get("vocab_size") else 0
    q = str(engine.get("quantization") or model.get("quant_method") or "")
    if (q in EXPERTS_ONLY or model.get("quant_experts_only")) and model.get("num_experts"):
        experts = min(expert_params(model), total - embed)
        group = model.get("quant_group_size")
        if q not in EXPERTS_ONLY and per < 1.0 and isinstance(group, int) and group > 0:
            per = 0.5 + 2.0 / group  # 4-bit weights and one 16-bit scale per group
        pad = _mxfp4_padding(model, tp, mxfp4) if q in EXPERTS_ONLY else 1.0
        return experts * per * pad + (total - experts) * 2.0
    kept = min(unquantized_params(model) + vision_params(model, engine), max(0.0, total - embed))
    return (embed + kept) * 2.0 + (total - embed - kept) * per


def _grouped(per: float, width: str, model: dict) -> float:
    """An integer 4-bit checkpoint's bytes a weight by its group size (config.json `group_size`):
    each group of a column adds a 16-bit scale and a packed 4-bit zero, 2.5 bytes (AWQ's and GPTQ's
    scales / qzeros). BYTES_PER_PARAM's 0.53 is a group of 128 as vLLM loads it (the logged AWQ/GPTQ
    rows of tests/data/kv_startup_logs.yaml), so what it holds beyond 0.5 + 2.5/128 stays: 32 →
    0.589, 64 → 0.55, one scale per channel (-1) → 0.51."""
    group = model.get("quant_group_size")
    if width != "4bit" or not isinstance(group, int) or isinstance(group, bool) or (group <= 0 and group != -1):
        return per
    rest = per - 0.5 - 2.5 / 128
    return 0.5 + rest + (2.5 / group if group > 0 else 0.0)


def vision_params(model: dict, engine: dict) -> float:
    """The vision tower a quantized checkpoint keeps in 16 bits (models.yaml vision_params_b):
    AutoAWQ and AutoGPTQ quantize the language model's layers only (Qwen's VL AWQ uploads list
    `visual` under modules_to_not_convert, and vLLM's qwen2_vl.py drops a GPTQ config for the
    vision tower), and llm-compressor's VLM recipes ignore the tower. 0 when vLLM quantizes a 16-bit
    checkpoint itself (`--quantization fp8` without a quantized checkpoint), whose vision linears
    take the method too."""
    b = model.get("vision_params_b")
    if not (model.get("multimodal") and isinstance(b, (int, float)) and b > 0):
        return 0.0
    if engine.get("quantization") and not model.get("quant_method"):
        return 0.0
    return float(b) * 1e9


def uncertain_weights_bytes(model: dict, engine: dict, width: str) -> float:
    """Bytes the weights may weigh beyond the estimate: a checkpoint quantized by its name's word
    alone (no config.json, no catalog entry for what it keeps in 16 bits) may leave every
    attention block unquantized, as Meta's and several FP8 publishers' do. 0 when known."""
    per = BYTES_PER_PARAM.get(width, 2.0)
    if width not in ("fp8", "int8", "fp4"):  # 16-bit, or AWQ/GPTQ-style int4 that quantizes every linear layer
        return 0.0
    if QUANT_WIDTH.get(str(model.get("quant_method") or "").lower()) == "4bit":
        return 0.0  # GPTQ / bitsandbytes at 8 bits quantize every linear layer as they do at 4
    if engine.get("quantization") and not model.get("quant_method"):
        return 0.0  # unquantized, or quantized online by vLLM itself (every linear layer)
    if model.get("quant_source") not in ("name", None) or model.get("quant_unquantized"):
        return 0.0
    if str(model.get("quant_method") or "") in EXPERTS_ONLY or not model.get("num_hidden_layers") or not model.get("hidden_size"):
        return 0.0
    return attention_params_total(model) * (2.0 - per)


def unquantized_params(model: dict) -> float:
    """Parameters a quantized checkpoint keeps in 16 bits beyond the embeddings and LM head
    (model.quant_unquantized: its config's ignore list, or the catalog), 0 when not known."""
    cov = model.get("quant_unquantized")
    layers = model.get("num_hidden_layers")
    if not isinstance(cov, dict) or not layers or not model.get("hidden_size"):
        return 0.0
    count = lambda v: layers if v == "all" else len([i for i in v if 0 <= i < layers]) if isinstance(v, list) else 0
    attn = cov.get("attention")
    total = attention_params_total(model) if attn == "all" else count(attn) * attention_params(model)
    if cov.get("mlp") and model.get("intermediate_size") and not model.get("num_experts"):
        total += count(cov["mlp"]) * 3 * model["hidden_size"] * model["intermediate_size"]
    return float(total)


def _mxfp4_padding(model: dict, tp: int = 1, kernel: str = "padded") -> float:
    """vLLM's MXFP4 MoE kernels (Marlin, FlashInfer) pad the expert matrices: hidden size to a
    multiple of 256, each rank's share of the expert width to 128; unswizzled Triton ("strided")
    rounds the share to 64 only (vllm/model_executor/layers/quantization/mxfp4.py create_weights)."""
    h, inter = model.get("hidden_size") or 0, model.get("moe_intermediate_size") or 0
    if not h or not inter:
        return 1.0
    shard = inter / max(1, tp)
    if kernel == "strided":
        return ceil_div(int(shard), 64) * 64 / shard
    return (ceil_div(h, 256) * 256 * ceil_div(int(shard), 128) * 128) / (h * shard)


def ep_saving_bytes(model: dict, engine: dict, weights: float, tp: int, pp: int, experts_over_dp: bool = False) -> float:
    """With data parallelism vLLM shards the routed experts over TP × DP ranks, not over TP alone
    (FusedMoE: as expert parallelism with --enable-expert-parallel in every release; from 0.9.0
    also without it, flatten_tp_across_dp): what each GPU does not hold of them."""
    dp = engine.get("data_parallel_size")
    total = (model.get("params_b") or 0) * 1e9
    if (not (engine.get("enable_expert_parallel") or experts_over_dp) or not (model.get("num_experts") or model.get("moe"))
            or not isinstance(dp, int)
            or isinstance(dp, bool) or dp <= 1 or total <= 0):
        return 0.0
    share = min(1.0, expert_params(model) / total) if model.get("hidden_size") else _expert_share(model)
    return weights * share / (tp * pp) * (1 - 1 / dp)


def _expert_share(model: dict) -> float:
    """The routed experts' share of the parameters from the total and active counts alone (a
    checkpoint whose widths are not known): the experts a token skips weigh total - active, and
    every expert weighs the same, so all of them weigh (total - active) x E / (E - k); without E
    and k, total - active is what they weigh at least (the per-GPU weights then err high, never
    low). 0 when the counts are missing: nothing is assumed spread over the data-parallel ranks."""
    total, active = model.get("params_b") or 0, model.get("active_params_b") or 0
    e, k = model.get("num_experts") or 0, model.get("num_experts_per_tok") or 0
    if not total > active > 0:
        return 0.0
    return min(1.0, (total - active) * (e / (e - k) if e > k > 0 else 1.0) / total)


def weights_per_gpu_bytes(model: dict, engine: dict, weights: float, tp: int, pp: int, experts_over_dp: bool = False) -> float:
    """Sharded over TP x PP, less the experts other data-parallel ranks hold, plus the KV
    projections each rank holds whole when TP exceeds the KV heads (vLLM replicates them)."""
    return (weights / (tp * pp) - ep_saving_bytes(model, engine, weights, tp, pp, experts_over_dp)
            + replicated_kv_bytes(model, engine, tp, pp))


def replicated_kv_bytes(model: dict, engine: dict, tp: int, pp: int) -> float:
    """Per GPU, the KV projection weights beyond an even 1/TP share: with TP above the KV heads
    each rank keeps whole heads."""
    kv = model.get("num_key_value_heads")
    if not (kv and tp > kv and not model.get("kv_lora_rank") and model.get("hidden_size") and model.get("num_hidden_layers")):
        return 0.0
    width = BYTES_PER_PARAM[_known_width(engine, model)]
    kv_proj = 2 * model["hidden_size"] * head_dim(model) * model["num_hidden_layers"] / pp
    return kv_proj * (kv_heads_per_gpu(model, tp) - kv / tp) * width
