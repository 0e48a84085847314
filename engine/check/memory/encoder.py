"""The multimodal encoder's part of vLLM's profile run (V1 gpu_model_runner.profile_run, read in
0.8.0–0.10.2): before the text dummy batch, vLLM runs the vision encoder over dummy items of the
modality with the most tokens per item (max-size images; videos as long as the context allows),
as many as the encoder budget — max(max_num_batched_tokens, that item's tokens) — holds. The
encoder's peak counts toward the profiled activation like the text forward's.

Modelled for catalogued encoders only (models.yaml `vision`: the Qwen2-VL family's ViT with its
processor's max_pixels); every other model, and releases whose profiling was not read (before 0.8,
after 0.10.2, V0), gets no encoder term — unknown, not zero."""
from __future__ import annotations

import json
import math
from typing import Any

from vllm_kb.engine.check.memory.runtime import GIB, Runtime
from vllm_kb.engine.kb.versions import Version, try_parse

# V1 releases whose profile_run encoder step was read (vllm/v1/worker/gpu_model_runner.py)
READ_FROM, READ_TO = Version("0.8.0"), Version("0.10.2")
# 0.10.0 builds the dummy item at the item's own maximum (seq_len=max_tokens_per_mm_item); the
# others at max_num_batched_tokens (seq_len=self.max_num_tokens), which caps a dummy video's frames
FULL_LENGTH_DUMMY = Version("0.10.0")
_MAX_FRAMES_PER_VIDEO = 16  # vllm/model_executor/models/qwen2_vl.py, 0.7.3–0.10.2


def _limits(engine: dict) -> dict[str, int] | None:
    raw = engine.get("limit_mm_per_prompt")
    if raw is None:
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return None  # "image=2,video=0" and other spellings: not modelled
    if not isinstance(raw, dict):
        return None
    out = {}
    for k, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, int):
            return None
        out[str(k)] = v
    return out


def _tokens(vision: dict, frames: int) -> int:
    """Tokens of one max-size image (frames=0) or video of `frames` frames (qwen2_vl._get_vision_info)."""
    factor = vision["patch_size"] * vision["spatial_merge_size"]
    side = math.floor(math.sqrt(vision["max_pixels"]) / factor) * factor  # smart_resize of a huge square
    grid = (side // vision["patch_size"]) ** 2
    t = vision["temporal_patch_size"]
    grid_t = max((frames + frames % t) // t, 1)
    return grid_t * grid // vision["spatial_merge_size"] ** 2


def _video_tokens(vision: dict, seq_len: int, images: int, videos: int) -> int:
    """get_max_video_tokens: the frames that fit seq_len less the images' tokens, capped per video."""
    budget = seq_len - _tokens(vision, 0) * images
    frames = 0
    while _tokens(vision, frames + 1) <= budget and frames < 4096:
        frames += 1
    per_video = min(frames // max(videos, 1), _MAX_FRAMES_PER_VIDEO)
    return _tokens(vision, max(per_video, 1))


def encoder_profile(model: dict, engine: dict, max_len: int, mnbt: int, rt: Runtime) -> dict[str, Any] | None:
    """{patches, low, high, out} in bytes for the encoder step of the profile run, or None."""
    vision = model.get("vision")
    v = try_parse(rt.version) if rt.version else None
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
    count = max(1, min(budget // most, int(engine.get("max_num_seqs") or 256) * limit)) if v == FULL_LENGTH_DUMMY \
        else min(-(-budget // most), int(engine.get("max_num_seqs") or 256) * limit)
    if v == FULL_LENGTH_DUMMY or modality == "image":
        item = most
    else:
        item = _video_tokens(vision, mnbt, 0, 1)
    patches = count * item * vision["spatial_merge_size"] ** 2
    h, i = vision["hidden_size"], vision["intermediate_size"]
    mlp = 2 * (2 * h + (3 * i if vision.get("mlp") == "swiglu" else 2 * i))  # bf16 bytes per patch
    attention = 30 * h  # qkv, the contiguous q/k/v, the float32 rotary temporaries
    pixels = 6 * 3 * vision["temporal_patch_size"] * vision["patch_size"] ** 2  # float32 input and its bf16 copy
    out = count * item * (model.get("hidden_size") or 0) * 2  # the cached embeddings, alive in the text run
    return {"modality": modality, "patches": patches, "low": patches * mlp, "high": patches * (max(mlp, attention) + pixels),
            "out": out}


def encoder_facts(model: dict, engine: dict, max_len: int, mnbt: int, rt: Runtime, activation: float,
                  kv_gib: float, total: float, needed: float) -> dict[str, Any]:
    """What the encoder step takes beyond the text profile's peak, and the KV cache left after it
    at the optimistic (`low`) and the realistic (`high`) end; `gmu_needed_encoder` fits both."""
    enc = encoder_profile(model, engine, max_len, mnbt, rt)
    if not enc:
        return {}
    extra = {k: max(0.0, max(enc[k], activation + enc["out"]) - activation) for k in ("low", "high")}
    out: dict[str, Any] = {
        "encoder_profile_gib": round(enc["high"] / GIB, 2),
        "encoder_profile_modality": enc["modality"],
        "kv_cache_after_encoder_gib": round(kv_gib - extra["high"] / GIB, 2),
        "kv_cache_after_encoder_low_gib": round(kv_gib - extra["low"] / GIB, 2),
    }
    want = (needed + extra["high"]) * 1.1
    if want <= total:
        out["gmu_needed_encoder"] = math.ceil(want / total * 100) / 100
    return out
