"""A multimodal item larger than the token budget of one step, where vLLM will not split it (L162).

vLLM's V1 scheduler may split a multimodal item across prefill steps unless
`disable_chunked_mm_input` is set; then one whole item must fit in max_num_batched_tokens, and
compute_mm_encoder_budget (vllm/v1/core/encoder_cache_manager.py, the same words from 0.8.4 through
0.34.0) refuses the engine at start-up with "Chunked MM input disabled but max_tokens_per_mm_item
(N) is larger than max_num_batched_tokens (M)". The platform sets the flag itself for a model whose
multimodal tokens attend bidirectionally (CudaPlatform.check_and_update_config, when
model_config.is_mm_prefix_lm).

Gemma 4 (Gemma4ForConditionalGeneration) is such a model from vLLM 0.20.0: its text config's
use_bidirectional_attention is "vision" (Gemma4ModelArchConfigConvertor.is_mm_prefix_lm; 0.19.0
registers the model but its ModelConfig.is_mm_prefix_lm lists only bagel, gemma3, molmo2 and
paligemma, so the flag stays off there; 0.19.1 was not read), and its largest item is a video of
32 frames × (70 soft tokens + 2 + 6) = 2496 tokens (Gemma4ProcessingInfo.get_mm_max_tokens_per_item,
_VIDEO_MAX_FRAMES and _VIDEO_MAX_SOFT_TOKENS, the same in 0.19.0–0.34.0).

The budget is the value written, or else vLLM's default for the usage context and GPU — 2048 for `vllm serve` on an A100 or a GPU under 70 GiB — which up to 0.21.x is
smaller; 0.22.0 raises an unwritten default to the largest item (EngineArgs
._get_min_mm_batched_tokens) before capping it at max_num_seqs × max_model_len, so from 0.22.0
only a written value (or that cap) is too small (vLLM #42687, vllm-project/recipes#441).

A video limit of 0 (`limit_mm_per_prompt`) leaves images and audio, whose items are far smaller,
and a frame limit shortens the video item: both are left alone, and so is a release that does not
run the V1 engine."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.json_arg import json_arg
from vllm_kb.engine.check.memory.runtime import human_int
from vllm_kb.engine.kb.versions import Version, try_parse

GEMMA4_FROM = Version("0.20.0")  # Gemma 4 taken as a multimodal prefix LM
FLOOR_FROM = Version("0.22.0")   # an unwritten max_num_batched_tokens is raised to the largest item
GEMMA4_VIDEO_TOKENS = 32 * (70 + 2 + 6)
# the small Gemma 4 checkpoints (E2B, E4B): their text config's attention was not read here
_SMALL = re.compile(r"(?i)gemma-?4-e\d+b")


def _video_left(engine: dict) -> bool | None:
    """Whether a video item of the full length stays allowed: False for a video limit of 0 or a
    frame limit, None when the limits cannot be read."""
    limits = json_arg(engine.get("limit_mm_per_prompt"))
    if limits is None:
        return True
    if not isinstance(limits, dict):
        return None
    video = limits.get("video")
    if video is None:
        return True
    if isinstance(video, dict):
        return False if video.get("num_frames") is not None or video.get("count") == 0 else True
    n = human_int(video)
    return None if n is None else n > 0


def _gemma4(model: dict) -> bool:
    return (model.get("model_type") == "gemma4" or model.get("family") == "gemma4") and model.get("multimodal") is True


def mm_chunk_facts(model: dict, engine: dict, passed: dict, version: str, v1: bool, max_len: int | None,
                   chunked: bool | None) -> dict[str, Any]:
    """{mm_item_tokens, mm_item_modality, mm_batched_tokens, mm_batched_given, mm_small_checkpoint}
    when the launch's largest multimodal item does not fit the step's budget, else {}."""
    v = try_parse(version)
    if v is None or v < GEMMA4_FROM or not v1 or not _gemma4(model) or engine.get("language_model_only") is True:
        return {}
    if _video_left(engine) is not True:
        return {}
    item = GEMMA4_VIDEO_TOKENS
    given = human_int(passed.get("max_num_batched_tokens"))
    if given is not None:
        budget = given
    else:
        default = human_int(engine.get("max_num_batched_tokens"))
        if default is None:
            return {}
        if chunked is False and max_len:
            default = max(default, max_len)  # without chunked prefill the default covers the context
        if v >= FLOOR_FROM:
            default = max(default, item)
        seqs = human_int(engine.get("max_num_seqs"))
        budget = min(default, seqs * max_len) if seqs and max_len else default
    if budget >= item:
        return {}
    out: dict[str, Any] = {"mm_item_tokens": item, "mm_item_modality": "video", "mm_batched_tokens": budget,
                           "mm_batched_given": given is not None, "mm_batched_fix": 1 << (item - 1).bit_length()}
    if _SMALL.search(str(model.get("name") or "")):
        out["mm_small_checkpoint"] = True
    return out
