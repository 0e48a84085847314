"""L162's facts: a Gemma 4 launch whose batch budget is below its 2496-token multimodal item."""
from __future__ import annotations

from vllm_kb.engine.check.startup_mm_chunk import GEMMA4_VIDEO_TOKENS, mm_chunk_facts

GEMMA4 = {"name": "google/gemma-4-31b-it", "family": "gemma4", "model_type": "gemma4", "multimodal": True}
DEFAULT = {"max_num_batched_tokens": 2048, "max_num_seqs": 256}


def facts(engine=None, passed=None, version="0.20.0", model=GEMMA4, chunked=True, max_len=32768):
    return mm_chunk_facts(model, {**DEFAULT, **(engine or {})}, passed or {}, version, True, max_len, chunked)


def test_the_item_is_a_32_frame_video():
    assert GEMMA4_VIDEO_TOKENS == 2496


def test_the_default_of_a_release_before_the_floor_is_too_small():
    out = facts()
    assert out["mm_item_tokens"] == 2496 and out["mm_batched_tokens"] == 2048
    assert out["mm_batched_given"] is False and out["mm_batched_fix"] == 4096


def test_from_0220_vllm_raises_an_unwritten_default():
    assert facts(version="0.22.0") == {}
    # but keeps the cap at max_num_seqs × max_model_len
    assert facts(version="0.22.0", engine={"max_num_seqs": 1}, max_len=2048)["mm_batched_tokens"] == 2048


def test_a_written_value_is_kept_in_every_release():
    out = facts(engine={"max_num_batched_tokens": 512}, passed={"max_num_batched_tokens": 512}, version="0.34.0")
    assert out["mm_batched_tokens"] == 512 and out["mm_batched_given"] is True
    assert facts(engine={"max_num_batched_tokens": 4096}, passed={"max_num_batched_tokens": 4096}) == {}


def test_without_chunked_prefill_the_default_covers_the_context():
    assert facts(chunked=False) == {}


def test_no_video_or_fewer_frames_is_left_alone():
    assert facts(engine={"limit_mm_per_prompt": {"video": 0}}) == {}
    assert facts(engine={"limit_mm_per_prompt": '{"video": {"count": 1, "num_frames": 8}}'}) == {}
    assert facts(engine={"limit_mm_per_prompt": {"image": 2}})["mm_item_tokens"] == 2496


def test_only_gemma4_from_0200():
    assert facts(version="0.19.0") == {}
    assert facts(model={**GEMMA4, "family": "gemma3", "model_type": "gemma3"}) == {}
    assert facts(model={**GEMMA4, "multimodal": False}) == {}


def test_a_small_checkpoint_is_marked():
    assert facts(model={**GEMMA4, "name": "google/gemma-4-E4B-it"})["mm_small_checkpoint"] is True
