"""The multimodal encoder's step of vLLM's profile run (engine/check/memory/encoder.py): what vLLM
0.8–0.10.2 feeds the Qwen2-VL ViT before sizing the KV cache, and the estimate's two ends."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.encoder import encoder_profile, v0_profile
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
    assert _profile("0.6.6") is None and _profile("0.11.0") is None
    assert _profile("0.10.0", {"mm_processor_kwargs": {"max_pixels": 1003520}}) is None
    assert encoder_profile(_model("Qwen/Qwen2.5-7B-Instruct"), {}, 32768, 2048, runtime("0.10.0", {}, 8.0)) is None


def test_the_kv_estimate_itself_is_unchanged_and_the_encoder_is_reported_beside_it():
    engine = {"gpu_memory_utilization": 0.3, "max_num_batched_tokens": 2048, "max_num_seqs": 256}
    old = memory.estimate(_model(), A100, engine, vllm_version="0.8.4")
    new = memory.estimate(_model(), A100, engine, vllm_version="0.10.0")
    # the same text estimate but for the CUDA context, which V1 before 0.9.1 counts (total - free)
    assert old["kv_cache_gib"] == pytest.approx(new["kv_cache_gib"] - 0.5, abs=0.01)
    assert old["kv_cache_after_encoder_gib"] > 10  # one max-size frame pair costs a few GiB
    assert new["kv_cache_after_encoder_gib"] < 2 < new["kv_cache_after_encoder_low_gib"]


def _v0(version, engine=None, max_len=128000, name="Qwen/Qwen2.5-VL-7B-Instruct"):
    rt = runtime(version, {"VLLM_USE_V1": "0"}, 8.0)
    mf = _model(name)
    return v0_profile(mf, engine or {}, max_len, memory.batched_tokens(engine or {}, max_len, rt, mf), rt)


def test_v0_profiles_a_multimodal_model_over_its_whole_context():
    # V0 leaves chunked prefill off for multimodal models (EngineArgs: "chunked prefill is disabled
    # by default in V0" for them, 0.6.1.post2+) and MLA ones (0.8.0+), so the dummy prefill holds
    # max(max_model_len, 2048) tokens where a text model above 32K profiles one 2048-token chunk
    rt = runtime("0.7.3", {}, 8.0)
    vl, text = _model("Qwen/Qwen2.5-VL-7B-Instruct"), _model("Qwen/Qwen2.5-7B-Instruct")
    assert memory.batched_tokens({}, 128000, rt, vl) == 128000
    assert memory.batched_tokens({}, 131072, rt, text) == 2048
    assert memory.batched_tokens({}, 131072, runtime("0.6.3", {}, 8.0), text) == 512
    assert memory.batched_tokens({"enable_chunked_prefill": True}, 128000, rt, vl) == 2048
    assert memory.batched_tokens({}, 4096, rt, vl) == 5120  # _MULTIMODAL_MODEL_MAX_NUM_BATCHED_TOKENS
    mla = _model("deepseek-ai/DeepSeek-V2-Lite-Chat")
    assert memory.batched_tokens({}, 163840, runtime("0.8.5", {"VLLM_USE_V1": "0"}, 8.0), mla) == 163840
    assert memory.batched_tokens({}, 163840, runtime("0.7.3", {}, 8.0), mla) == 2048


def test_v0_dummy_batch_is_one_sequence_holding_every_item_the_limits_allow():
    # vLLM #12604 (0.7.1, 128000 context): 131072 tokens, {'image': 16384, 'video': 114688}
    assert _v0("0.7.1") == {"seqs": 1, "tokens": 128000, "mm_tokens": 0, "modality": "video",  # dropped: too long
                           "by_modality": {}}
    # vLLM #22173 (0.9.0.1, image 10 + video 1, 32768 tokens): 180224 in total, kept from 0.8
    big = _v0("0.9.0", {"limit_mm_per_prompt": {"image": 10, "video": 1}}, 32768)
    assert big == {"seqs": 1, "tokens": 180224, "mm_tokens": 180224, "modality": "image",
                   "by_modality": {"image": 163840, "video": 16384}}
    assert _v0("0.8.5", {"limit_mm_per_prompt": {"image": 1, "video": 0}}, 8192) == \
        {"seqs": 1, "tokens": 16384, "mm_tokens": 16384, "modality": "image", "by_modality": {"image": 16384}}
    assert _v0("0.7.3", name="Qwen/Qwen2.5-7B-Instruct") is None and _v0("0.6.6") is None
    # LLaMA-Factory #7234 (0.7.3, vllm_infer.py's image 4 + video 2 at 128000): four 16384-token images and
    # two three-frame videos of 32768 make the 131072 tokens the thread's tokenizer warning prints: dropped
    four = _v0("0.7.3", {"limit_mm_per_prompt": {"image": 4, "video": 2}})
    assert four is not None and (four["mm_tokens"], four["tokens"], four["by_modality"]) == (0, 128000, {})
    from vllm_kb.engine.check.memory.encoder import _tokens, _video_tokens
    vision = _model("Qwen/Qwen2.5-VL-7B-Instruct")["vision"]
    assert 4 * _tokens(vision, 0) + 2 * _video_tokens(vision, 128000, 4, 2) == 131072


def test_v0_full_context_vlm_no_longer_fits_where_the_text_model_would():
    # a VLM launched at its full 128000-token context on V0: the 128000-token dummy prefill takes
    # ~16 GiB, and one request at that length no longer fits a 40 GB A100 at the default budget
    a40 = dict(hardware.parse_spec("A100-40GB", KB.gpus).gpu)
    est = memory.estimate(_model("Qwen/Qwen2.5-VL-7B-Instruct"), a40, {"gpu_memory_utilization": 0.9},
                          vllm_version="0.7.3")
    assert est["activation_peak_gib"] > 15 and not est["fits_max_model_len"]
    text = memory.estimate(_model("Qwen/Qwen2.5-7B-Instruct"), a40, {"gpu_memory_utilization": 0.9,
                           "max_model_len": 128000}, vllm_version="0.7.3")
    assert text["activation_peak_gib"] < 2 and text["fits_max_model_len"]


def _v0_est(version, engine, spec="RTX-3090", name="Qwen/Qwen2.5-VL-7B-Instruct"):
    gpu = dict(hardware.parse_spec(spec, KB.gpus).gpu)
    return memory.estimate(_model(name), gpu, engine, vllm_version=version, env={"VLLM_USE_V1": "0"})


def test_v0_keeps_every_items_pixel_values_twice_through_the_text_forward():
    # gpustack/gpustack#1800 (0.8.4 V0, RTX 3090, max_model_len 8192): one dummy sequence of a
    # 16384-token image and a 16384-token video (65536 patches each); the batch's 3-D pixel tensor and
    # its torch.concat copy (float32: 131072 x 1176 x 4 bytes each) stay alive beside the 32K-token
    # text forward, so the optimistic end leaves about 0.2 GiB; vLLM logged 2400 tokens of KV cache
    est = _v0_est("0.8.4", {"max_model_len": 8192})
    assert est["fits_max_model_len"]  # the text forward alone leaves 1.3 GiB
    assert est["kv_cache_gib"] - est["kv_cache_after_encoder_low_gib"] > 1.1
    assert 2400 < est["max_model_len_fit_encoder_low"] < 0.9 * 8192
    assert est["max_model_len_fit_encoder"] == est["max_model_len_fit_encoder_low"]  # the range is narrow here
    # no video profiled: half the pixels and half the dummy prompt; one request fits
    est = _v0_est("0.8.4", {"max_model_len": 8192, "limit_mm_per_prompt": {"image": 1, "video": 0}})
    assert est["max_model_len_fit_encoder_low"] > 8192 * 1.1


def test_v0_pixel_width_follows_the_release_cast():
    # float32 up to 0.9.0; inputs/registry.py casts to the model dtype from 0.9.2 (0.9.1 unread:
    # float32 only at the high end)
    engine = {"max_model_len": 8192}
    held = {}
    for version in ("0.8.5", "0.9.0", "0.9.1", "0.9.2"):
        p = encoder_profile(_model("Qwen/Qwen2.5-VL-7B-Instruct"), engine, 8192, 8192,
                            runtime(version, {"VLLM_USE_V1": "0"}, 8.0))
        held[version] = (p["out"], p["out_high"])
    assert held["0.8.5"] == held["0.9.0"] == (2 * 131072 * 1176 * 4,) * 2
    assert held["0.9.1"] == (2 * 131072 * 1176 * 2, 2 * 131072 * 1176 * 4)
    assert held["0.9.2"] == (2 * 131072 * 1176 * 2,) * 2


def test_v0_runs_the_vit_once_per_modality():
    # get_input_embeddings_v0: the images' ViT call, then the videos'; the peak is the larger call's,
    # not both modalities' patches at once (0.7.x, not read for this, keeps the old sum)
    rt = runtime("0.8.5", {"VLLM_USE_V1": "0"}, 8.0)
    both = encoder_profile(_model(), {}, 8192, 8192, rt)
    one = encoder_profile(_model(), {"limit_mm_per_prompt": {"image": 1, "video": 0}}, 8192, 8192, rt)
    assert both["low"] - both["out"] < 2 * (one["low"] - one["out"])
    old = encoder_profile(_model(), {}, 128000, 128000, runtime("0.7.3", {"VLLM_USE_V1": "0"}, 8.0))
    assert "out_high" not in old


def test_v1_encoder_step_of_the_qwen3_vl_tower():
    """0.12-0.33 V1: one max-size image (16,384 tokens at the processor's 16,777,216 pixels: vLLM logs
    "budget of 16384 tokens, and profiled with 1 image items" for Qwen3.6-27B, club-3090 #356/#751), as
    many as max(max_num_batched_tokens, the item) holds; the tower split by TP unless
    mm_encoder_tp_mode is data; nothing when images are off or the tower is skipped."""
    from vllm_kb.engine.check.memory.encoder import v1_encoder_step

    m = _model("Qwen/Qwen3.6-27B")
    rt = runtime("0.24.0", {}, 8.6)
    step = v1_encoder_step(m, {}, 262144, 8192, 2, rt)
    assert (step["items"], step["tokens"]) == (1, 16384)
    per_patch = 2 * 3 * 2 * 16 * 16 + 8 * 1152 + max(4 * 4304 / 2, (6 * 1152 + 8 * 1152 + 2 * 1152) / 2)
    assert step["peak"] == int(65536 * per_patch)  # 1.15 GiB at TP 2
    assert step["out"] == 16384 * 5120 * 2
    assert v1_encoder_step(m, {}, 262144, 32768, 2, rt)["items"] == 2
    assert v1_encoder_step(m, {"mm_encoder_tp_mode": "data"}, 262144, 8192, 2, rt)["peak"] > step["peak"]
    for off in ({"limit_mm_per_prompt": {"image": 0, "video": 0}}, {"skip_mm_profiling": True},
                {"language_model_only": True}):
        assert v1_encoder_step(m, off, 262144, 8192, 2, rt) is None
    assert v1_encoder_step(m, {}, 262144, 8192, 2, runtime("0.34.0", {}, 8.6)) is None  # V2 runner, not read
    assert encoder_profile(m, {}, 262144, 8192, rt) is None  # the Qwen2-VL paths leave this tower alone


def test_v1_encoder_step_moves_the_kv_estimate():
    """heldout73's Qwen3.8-27B-FP8 on two 3090s (0.26, FP8 KV, 2 sequences): the encoder step is
    above the text dummy run by ~0.6 GiB; 4.99 GiB logged, 5.58 estimated without it."""
    m = _model("Qwen/Qwen3.8-27B-FP8")
    g = dict(hardware.parse_spec("RTX-3090 x2", KB.gpus).gpu)
    engine = {"max_model_len": 131072, "kv_cache_dtype": "fp8", "max_num_seqs": 2, "max_num_batched_tokens": 8192,
              "gpu_memory_utilization": 0.92, "tensor_parallel_size": 2}
    e = memory.estimate(m, g, engine, vllm_version="0.26.0")
    assert e["kv_cache_gib"] == pytest.approx(4.99, rel=0.05)
    assert any(a["key"] == "encoder_profile_items" and a["value"] == 1 for a in e["assumptions"])
    # the optimistic end, without that term: what L15 reads before it says P0 (eval80's vllm#55509 control)
    assert e["encoder_step_gib"] > 0 and e["max_model_len_fit_high"] > e["max_model_len_fit"]
    text = memory.estimate(_model("Qwen/Qwen2.5-7B-Instruct"), g, dict(engine, max_model_len=32768), vllm_version="0.26.0")
    assert "max_model_len_fit_high" not in text and "encoder_step_gib" not in text
