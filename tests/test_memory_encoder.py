"""The multimodal encoder's step of vLLM's profile run (engine/check/memory/encoder.py): what vLLM
0.8–0.10.2 feeds the Qwen2-VL ViT before sizing the KV cache, and the estimate's two ends."""
from __future__ import annotations

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.encoder import encoder_profile
from vllm_kb.engine.check.memory.runtime import runtime
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data
A100 = dict(hardware.parse_spec("A100-80GB", KB.gpus).gpu)


def _model(name="Qwen/Qwen2.5-VL-3B-Instruct"):
    return models.model_facts(name, KB.models, DATA["quantized_markers"], identity=DATA)


def _profile(version, engine=None, max_len=128000, mnbt=2048):
    return encoder_profile(_model(), engine or {}, max_len, mnbt, runtime(version, {}, 8.0))


def test_video_is_the_profiled_modality_and_0_10_0_builds_it_full_length():
    # 0.8.x–0.9.x and 0.10.1+: the dummy video is built for max_num_batched_tokens (one frame pair,
    # 16384 tokens = 65536 patches); 0.10.0 builds it at the item's maximum (12 frames at 128000)
    short, full = _profile("0.8.4"), _profile("0.10.0")
    assert short["modality"] == full["modality"] == "video"
    assert short["patches"] == 65536 and full["patches"] == 6 * 65536
    assert full["low"] < full["high"]


def test_limits_and_releases_outside_what_was_read_give_no_term():
    assert _profile("0.10.0", {"limit_mm_per_prompt": {"video": 0}})["patches"] == 65536  # images only
    assert _profile("0.10.0", {"limit_mm_per_prompt": {"image": 0, "video": 0}}) is None
    assert _profile("0.7.3") is None and _profile("0.11.0") is None
    assert _profile("0.10.0", {"mm_processor_kwargs": {"max_pixels": 1003520}}) is None
    assert encoder_profile(_model("Qwen/Qwen2.5-7B-Instruct"), {}, 32768, 2048, runtime("0.10.0", {}, 8.0)) is None


def test_the_kv_estimate_itself_is_unchanged_and_the_encoder_is_reported_beside_it():
    engine = {"gpu_memory_utilization": 0.3, "max_num_batched_tokens": 2048, "max_num_seqs": 256}
    old = memory.estimate(_model(), A100, engine, vllm_version="0.8.4")
    new = memory.estimate(_model(), A100, engine, vllm_version="0.10.0")
    assert old["kv_cache_gib"] == new["kv_cache_gib"]
    assert old["kv_cache_after_encoder_gib"] > 10  # one max-size frame pair costs a few GiB
    assert new["kv_cache_after_encoder_gib"] < 2 < new["kv_cache_after_encoder_low_gib"]
