"""The multimodal encoder's part of vLLM's profile run. V1 (gpu_model_runner.profile_run, read in
0.8.0–0.10.2): before the text dummy batch, vLLM runs the vision encoder over dummy items of the
modality with the most tokens per item (max-size images; videos as long as the context allows),
as many as the encoder budget — max(max_num_batched_tokens, that item's tokens) — holds. V0
(worker/model_runner.py profile_run and multimodal/profiling.py, read in 0.7.0–0.10.2): the dummy
batch shrinks to max(1, min(max_num_seqs, max_num_batched_tokens // M)) sequences, M the tokens of
every item the limits allow at max_model_len, and each sequence carries those items — dropped
when they exceed its length in 0.7.x, kept (the prompt grows to hold them) from 0.8. The
encoder's peak counts toward the profiled activation like the text forward's.

Modelled for catalogued encoders only (models.yaml `vision`: the Qwen2-VL family's ViT with its
processor's max_pixels); every other model, and releases whose profiling was not read, gets no
encoder term — unknown, not zero."""
from __future__ import annotations

import math
from typing import Any

from vllm_kb.engine.check.json_arg import json_arg
from vllm_kb.engine.check.memory.runtime import GIB, Runtime, profile_seqs
from vllm_kb.engine.kb.versions import Version, try_parse

# V1 releases whose profile_run encoder step was read (vllm/v1/worker/gpu_model_runner.py)
READ_FROM, READ_TO = Version("0.8.0"), Version("0.10.2")
# 0.10.0 builds the dummy item at the item's own maximum (seq_len=max_tokens_per_mm_item); the
# others at max_num_batched_tokens (seq_len=self.max_num_tokens), which caps a dummy video's frames
FULL_LENGTH_DUMMY = Version("0.10.0")
_MAX_FRAMES_PER_VIDEO = 16  # vllm/model_executor/models/qwen2_vl.py, 0.7.0–0.10.2
# V0 releases whose multimodal dummy data was read; from 0.8 the items stay when they exceed seq_len
V0_READ_FROM, V0_ITEMS_KEPT = Version("0.7.0"), Version("0.8.0")
PAIRS_PADDED = Version("0.7.3")  # an odd frame count pads to a pair (before: whole pairs, odd raised)
# inputs/registry.py casts the processor's floating outputs to the model's dtype from 0.9.2 (read: 0.8.0,
# 0.8.4, 0.8.5 and 0.9.0 keep the image processor's float32); 0.9.1 was not read
PIXELS_CAST, CAST_UNREAD_FROM = Version("0.9.2"), Version("0.9.0")


# V0 encoder-decoder releases whose profile_run and Mllama vision tower were read
# (worker/enc_dec_model_runner.py, model_executor/models/mllama.py)
TILED_FROM, TILED_TO = Version("0.6.2"), Version("0.10.2")


def tiled_profile(model: dict, engine: dict, rt: Runtime) -> dict[str, Any] | None:
    """V0's encoder-decoder profile run of a tiled vision encoder (Mllama): every one of the
    max_num_seqs dummy sequences carries limit_mm_per_prompt images of the most tiles, and the
    encoder takes them in one batch, attending over all tiles of an image at once. Per image, the
    low end is what is alive in the MLP of every global layer (mllama.py MllamaVisionModel.forward,
    the same in 0.6.2-0.10.2): the aspect-ratio mask (tokens² in the model dtype,
    `_prepare_aspect_ratio_attention_mask`), the kept hidden states twice (the encoder's tuple,
    which `output` holds, and its torch.stack), the residual and the normed input, the MLP's
    first projection and its activation (CLIPMLP: both alive, split by TP) and the processor's
    float32 pixels. The high end adds what the low end leaves to chance — the input's second copy,
    the caching allocator's slack — as the one measured point says: vLLM #9630 (0.6.3, a 94 GB
    H100) profiled 128 images into 2,252 blocks, ≈0.45 GiB per image where the low end counts
    0.40. {images, per_seq, per_image_low, per_image_high, low, high} in bytes, or None."""
    tv = model.get("tiled_vision")
    v = try_parse(rt.version) if rt.version else None
    limits = _limits(engine)
    if not tv or rt.v1 or v is None or not TILED_FROM <= v <= TILED_TO or limits is None:
        return None
    per_seq = max(0, limits.get("image", 1))
    images = profile_seqs(engine, rt) * per_seq
    if images <= 0:
        return None
    patches = (tv["image_size"] // tv["patch_size"]) ** 2 + 1  # and the class token
    tokens = tv["max_num_tiles"] * -(-patches // 8) * 8  # each tile padded to a multiple of 8
    h, inter = tv["hidden_size"], tv["intermediate_size"] // max(1, int(engine.get("tensor_parallel_size") or 1))
    mask, state = tokens * tokens * 2, tokens * h * 2
    pixels = tv["max_num_tiles"] * 3 * tv["image_size"] ** 2 * 4
    low = mask + (2 * tv["stored_layers"] + 2) * state + 2 * tokens * inter * 2 + pixels
    high = int(low * _TILED_SLACK)
    return {"images": images, "per_seq": per_seq, "per_image_low": low, "per_image_high": high,
            "low": images * low, "high": images * high}


# vLLM #9630's 0.45 GiB per image over tiled_profile's 0.40 (the allocator and the input's copies)
_TILED_SLACK = 1.15


def tiled_seqs_fit(enc: dict, room: float, now: int) -> int | None:
    """The largest max_num_seqs, a power of two below `now`, whose dummy images fit `room` bytes
    at the high end; None when not even one does."""
    fit = int(room // (enc["per_image_high"] * max(1, enc["per_seq"]))) if room > 0 else 0
    fit = min(fit, now - 1)
    return 1 << (fit.bit_length() - 1) if fit >= 1 else None


def _qwen2_vl(model: dict) -> dict | None:
    """The catalog's `vision` where it is the Qwen2-VL family's ViT, which the V0 and early V1 paths model."""
    vision = model.get("vision")
    return vision if vision and vision.get("tower", "qwen2_vl") == "qwen2_vl" else None


def _limits(engine: dict) -> dict[str, int] | None:
    raw = engine.get("limit_mm_per_prompt")
    if raw is None:
        return {}
    raw = json_arg(raw)  # "image=2,video=0" and other spellings: not modelled
    if not isinstance(raw, dict):
        return None
    out = {}
    for k, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, int):
            return None
        out[str(k)] = v
    return out


def _tokens(vision: dict, frames: int, floor: bool = False) -> int:
    """Tokens of one max-size image (frames=0) or video of `frames` frames (qwen2_vl._get_vision_info;
    `floor`: 0.7.0–0.7.2 count whole frame pairs only)."""
    factor = vision["patch_size"] * vision["spatial_merge_size"]
    side = math.floor(math.sqrt(vision["max_pixels"]) / factor) * factor  # smart_resize of a huge square
    grid = (side // vision["patch_size"]) ** 2
    t = vision["temporal_patch_size"]
    grid_t = max((frames if floor else frames + frames % t) // t, 1)
    return grid_t * grid // vision["spatial_merge_size"] ** 2


def _video_tokens(vision: dict, seq_len: int, images: int, videos: int, floor: bool = False) -> int:
    """get_max_video_tokens: the frames that fit seq_len less the images' tokens, capped per video
    (0.7.0–0.7.2, `floor`: an odd count is then raised to the next even one)."""
    budget = seq_len - _tokens(vision, 0) * images
    frames = 0
    while _tokens(vision, frames + 1, floor) <= budget and frames < 4096:
        frames += 1
    per_video = min(frames // max(videos, 1), _MAX_FRAMES_PER_VIDEO)
    if floor and per_video > 1 and per_video % 2:
        per_video += 1
    return _tokens(vision, max(per_video, 1), floor)


def v0_profile(model: dict, engine: dict, max_len: int, mnbt: int, rt: Runtime) -> dict[str, Any] | None:
    """V0's multimodal dummy batch: {seqs, tokens, mm_tokens, modality} (sequences, text tokens of
    the forward, of which the items' tokens, the modality with most of them), or None where it was
    not read."""
    vision = _qwen2_vl(model)
    v = try_parse(rt.version) if rt.version else None
    if not vision or rt.v1 or v is None or not V0_READ_FROM <= v <= READ_TO:
        return None
    limits = _limits(engine)
    if limits is None or engine.get("mm_processor_kwargs"):
        return None
    images, videos = max(0, limits.get("image", 1)), max(0, limits.get("video", 1))
    floor = v < PAIRS_PADDED

    def items(seq_len: int) -> int:
        video = _video_tokens(vision, seq_len, images, videos, floor) if videos else 0
        return images * _tokens(vision, 0) + videos * video

    most = items(max_len)  # MultiModalRegistry.get_max_multimodal_tokens reads max_model_len
    if most <= 0:
        return None
    seqs = max(1, min(profile_seqs(engine, rt), mnbt // most))
    seq_len = mnbt // seqs
    per_seq = items(seq_len)
    video = videos * _video_tokens(vision, seq_len, images, videos, floor) if videos else 0
    modality = "video" if video > per_seq - video else "image"
    if per_seq > seq_len and v < V0_ITEMS_KEPT:  # 0.7.x: "V0 does not support chunked prefill"
        return {"seqs": seqs, "tokens": mnbt, "mm_tokens": 0, "modality": modality, "by_modality": {}}
    by_modality = {"image": seqs * images * _tokens(vision, 0), "video": seqs * video}
    return {"seqs": seqs, "tokens": seqs * max(seq_len, per_seq), "mm_tokens": seqs * per_seq, "modality": modality,
            "by_modality": {k: n for k, n in by_modality.items() if n > 0}}


def _vit_bytes(model: dict, vision: dict, tokens: int) -> dict[str, int]:
    """{patches, low, high, out} in bytes for the ViT over items of `tokens` merged tokens."""
    patches = tokens * vision["spatial_merge_size"] ** 2
    h, i = vision["hidden_size"], vision["intermediate_size"]
    mlp = 2 * (2 * h + (3 * i if vision.get("mlp") == "swiglu" else 2 * i))  # bf16 bytes per patch
    attention = 30 * h  # qkv, the contiguous q/k/v, the float32 rotary temporaries
    pixels = 6 * 3 * vision["temporal_patch_size"] * vision["patch_size"] ** 2  # float32 input and its bf16 copy
    out = tokens * (model.get("hidden_size") or 0) * 2  # the cached embeddings, alive in the text run
    return {"patches": patches, "low": patches * mlp, "high": patches * (max(mlp, attention) + pixels), "out": out}


def _v0_forward(model: dict, vision: dict, v0: dict, v: Version) -> dict[str, Any]:
    """V0's one forward of the dummy batch (0.8.0-0.10.2): the ViT runs once per modality over all of
    its items (get_input_embeddings_v0: images, then videos), while the text embeddings and every
    modality's pixel values stay alive — twice, since the batch stacks them into one 3-D tensor that
    _validate_and_reshape_mm_tensor concatenates again (torch.concat copies) — and those pixels stay
    alive through the text forward too (`out`). Pixel values are float32 up to 0.9.0; from 0.9.2 the
    processor's output is cast to the model's dtype (0.9.1, not read: float32 at the high end only)."""
    width = 3 * vision["temporal_patch_size"] * vision["patch_size"] ** 2
    patches = v0["mm_tokens"] * vision["spatial_merge_size"] ** 2
    held_low = 2 * patches * width * (4 if v <= CAST_UNREAD_FROM else 2)
    held_high = 2 * patches * width * (4 if v < PIXELS_CAST else 2)
    embeds = v0["tokens"] * (model.get("hidden_size") or 0) * 2
    vit = [_vit_bytes(model, vision, n) for n in v0["by_modality"].values()]
    # the bf16 copy of the modality's pixels lives through its ViT call: _vit_bytes counts it with a
    # float32 input at the high end, which here is the held copy
    low = max(b["low"] + b["patches"] * width * 2 for b in vit)
    high = max(b["high"] - b["patches"] * width * 4 for b in vit)
    return {"modality": v0["modality"], "patches": patches, "low": held_low + embeds + low,
            "high": held_high + embeds + high, "out": held_low, "out_high": held_high}


def encoder_profile(model: dict, engine: dict, max_len: int, mnbt: int, rt: Runtime) -> dict[str, Any] | None:
    """{modality, patches, low, high, out} in bytes for the encoder step of the profile run, or None."""
    tiled = tiled_profile(model, engine, rt)
    if tiled:
        return {"modality": "image", "patches": 0, "low": tiled["low"], "high": tiled["high"], "out": 0}
    vision = _qwen2_vl(model)
    v = try_parse(rt.version) if rt.version else None
    if vision and not rt.v1:
        v0 = v0_profile(model, engine, max_len, mnbt, rt)
        if not v0 or not v0["mm_tokens"]:
            return None
        if v is not None and v >= V0_ITEMS_KEPT and v0["by_modality"]:
            return _v0_forward(model, vision, v0, v)
        return dict(_vit_bytes(model, vision, v0["mm_tokens"]), modality=v0["modality"])
    if not vision or not rt.v1 or v is None or not READ_FROM <= v <= READ_TO:
        return None
    limits = _limits(engine)
    if limits is None or engine.get("mm_processor_kwargs") or engine.get("skip_mm_profiling"):
        return None
    images, videos = limits.get("image", 1), limits.get("video", 1)
    per_item = {}
    if images > 0:
        per_item["image"] = _tokens(vision, 0)
    if videos > 0:
        per_item["video"] = _video_tokens(vision, max_len, images, videos)
    if not per_item:
        return None
    modality, most = max(per_item.items(), key=lambda kv: kv[1])
    budget = max(mnbt, most)
    limit = images if modality == "image" else videos
    count = max(1, min(budget // most, profile_seqs(engine, rt) * limit)) if v == FULL_LENGTH_DUMMY \
        else min(-(-budget // most), profile_seqs(engine, rt) * limit)
    if v == FULL_LENGTH_DUMMY or modality == "image":
        item = most
    else:
        item = _video_tokens(vision, mnbt, 0, 1)
    return dict(_vit_bytes(model, vision, count * item), modality=modality)


# V1 releases whose profile_run encoder step and encoder budget were read for the Qwen3-VL tower
# (gpu_model_runner.py profile_run; v1/core/encoder_cache_manager.py compute_mm_encoder_budget;
# v1/worker/utils.py, from 0.17 multimodal/encoder_budget.py, _get_max_items)
LATE_FROM, LATE_TO = Version("0.12.0"), Version("0.33.0")


def v1_encoder_step(model: dict, engine: dict, max_len: int, mnbt: int, tp: int, rt: Runtime) -> dict[str, int] | None:
    """The encoder step of V1's profile run for a Qwen3-VL-style tower (models.yaml `vision` with
    `tower: qwen3_vl`: Qwen3-VL, Qwen3.5/3.6/3.8), in bytes per GPU: {items, tokens, peak, out}.
    The dummy item is the modality with most tokens per item — the image at the processor's
    longest_edge (16384 tokens at 16,777,216 pixels; qwen3_vl.py sizes a dummy video's two frames
    at half the video processor's longest_edge, fewer) — and the step runs
    max(1, min(budget // item, max_num_seqs x min(limit, max_model_len // item))) of them, budget =
    max(max_num_batched_tokens, item) (encoder_compute_budget and encoder_cache_size default to
    max_num_batched_tokens). `peak` is what is alive in the widest block step
    (Qwen3_VisionTransformer.forward): the bf16 pixels, the patch embeddings and the position
    embeddings, the residual and the normed input, and either the MLP's fc1 output with its
    activation (ColumnParallel, split by TP) or attention's qkv, the fp32 rotary q/k and the output
    (split by TP; `mm_encoder_tp_mode: data` replicates the tower). `out` is the encoder output the
    encoder cache holds through the text dummy run (item tokens x the text hidden size). None where
    not modelled (other towers, other releases, skip_mm_profiling, images off)."""
    vision = model.get("vision") or {}
    v = try_parse(rt.version) if rt.version else None
    if (vision.get("tower") != "qwen3_vl" or not rt.v1 or v is None or not LATE_FROM <= v <= LATE_TO
            or engine.get("skip_mm_profiling") or engine.get("mm_processor_kwargs")
            or str(engine.get("language_model_only", "")).strip().lower() in ("true", "1")):
        return None
    limits = _limits(engine)
    if limits is None or limits.get("image", 1) <= 0:
        return None
    item = _tokens(vision, 0)
    budget = max(mnbt, item)
    per_prompt = max(1, min(limits.get("image", 1), max_len // item))
    items = max(1, min(budget // item, profile_seqs(engine, rt) * per_prompt))
    patches = items * item * vision["spatial_merge_size"] ** 2
    h, i = vision["hidden_size"], vision["intermediate_size"]
    split = 1 if str(engine.get("mm_encoder_tp_mode") or "").strip().lower() == "data" else max(1, tp)
    pixels = 2 * 3 * vision["temporal_patch_size"] * vision["patch_size"] ** 2
    held = pixels + 4 * 2 * h  # pixels, embeddings, position embeddings, residual, normed input
    mlp = 2 * 2 * i / split
    attention = (2 * 3 * h + 4 * 2 * h + 2 * h) / split  # qkv, fp32 rotary q and k, the attention output
    return {"items": items, "tokens": items * item, "peak": int(patches * (held + max(mlp, attention))),
            "out": items * item * (model.get("hidden_size") or 0) * 2}


def encoder_facts(model: dict, engine: dict, max_len: int, mnbt: int, rt: Runtime, activation: float,
                  kv_gib: float, total: float, needed: float, per_token: float = 0.0, band: float = 0.0) -> dict[str, Any]:
    """What the encoder step takes beyond the text profile's peak, and the KV cache left after it
    at the optimistic (`low`) and the realistic (`high`) end; `gmu_needed_encoder` fits both. With
    `per_token` (KV bytes of one token per GPU, full attention only) the tokens each end holds, and
    whether the optimistic end misses one max_model_len request by less than `band`, the text
    estimate's own error (then vLLM may start)."""
    enc = encoder_profile(model, engine, max_len, mnbt, rt)
    if not enc:
        return {}
    alongside = {"low": enc["out"], "high": enc.get("out_high", enc["out"])}
    extra = {k: max(0.0, max(enc[k], activation + alongside[k]) - activation) for k in ("low", "high")}
    out: dict[str, Any] = {
        "encoder_profile_gib": round(enc["high"] / GIB, 2),
        "encoder_profile_modality": enc["modality"],
        "kv_cache_after_encoder_gib": round(kv_gib - extra["high"] / GIB, 2),
        "kv_cache_after_encoder_low_gib": round(kv_gib - extra["low"] / GIB, 2),
    }
    if per_token > 0:
        left = {k: kv_gib * GIB - extra[k] for k in ("low", "high")}
        out["max_model_len_fit_encoder"] = max(0, int(left["high"] // per_token))
        out["max_model_len_fit_encoder_low"] = max(0, int(left["low"] // per_token))
        if band <= left["low"] < max_len * per_token < left["low"] + band:
            out["kv_encoder_shortfall_within_error"] = True
    want = (needed + extra["high"]) * 1.1
    if want <= total:
        out["gmu_needed_encoder"] = math.ceil(want / total * 100) / 100
    tiled = tiled_profile(model, engine, rt)
    if tiled and (seqs := tiled_seqs_fit(tiled, (activation + kv_gib * GIB) * 0.9, profile_seqs(engine, rt))):
        out["max_num_seqs_fit_encoder"] = seqs
    return out


def tiled_bound(model: dict, engine: dict, rt: Runtime, left: float) -> dict[str, Any]:
    """Without the text model's dimensions: what a tiled encoder's profile leaves of `left` bytes
    (the budget less weights and non-torch memory), and the max_num_seqs whose images fit in it."""
    enc = tiled_profile(model, engine, rt)
    if not enc:
        return {}
    out: dict[str, Any] = {"encoder_profile_gib": round(enc["high"] / GIB, 2), "encoder_profile_modality": "image",
                           "kv_cache_after_encoder_gib": round((left - enc["high"]) / GIB, 2),
                           "kv_cache_after_encoder_low_gib": round((left - enc["low"]) / GIB, 2)}
    if (seqs := tiled_seqs_fit(enc, left * 0.9, profile_seqs(engine, rt))):
        out["max_num_seqs_fit_encoder"] = seqs
    return out
