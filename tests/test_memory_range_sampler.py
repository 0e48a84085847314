"""L16 on a release the audit assumes from a range, and the deficit band of releases that subtract their
CUDA-graph estimate: verl's one-H100 LoRA tuning scripts (tested with vLLM 0.8.3, docs/perf/device_tuning.rst)
are no refusal when the range also allows 0.8.0-0.11.0, while a deficit well beyond the band stays one."""
from __future__ import annotations

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.sampler_range import range_sampler
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data
RELEASES = ["0.7.3", "0.8.0", "0.8.5", "0.10.1", "0.11.0", "0.11.1", "0.12.0", "0.20.0", "0.34.0"]
# verl's tuning script for Qwen2.5-3B + LoRA on one H100 (examples/tuning/3b)
ROLLOUT = {"gpu_memory_utilization": 0.1, "max_num_seqs": 512, "max_model_len": 1536,
           "max_num_batched_tokens": 1536, "enable_lora": True, "max_lora_rank": 32}


def _model(name):
    return models.model_facts(name, KB.models, DATA["quantized_markers"], identity=DATA)


def _gpu(spec):
    return dict(hardware.parse_spec(spec, KB.gpus).gpu)


def test_only_a_range_reaching_the_flashinfer_releases_counts():
    assert range_sampler("vllm>=0.8.5,<=0.12.0", False, "range", RELEASES) == "flashinfer"
    # setup.py and a requirements file that differ: either may be what ran
    assert range_sampler("vllm>=0.12.0 | vllm==0.8.2", False, "range", ["0.8.2", *RELEASES]) == "flashinfer"
    assert range_sampler("vllm[audio]>=0.10", False, "range", RELEASES) == "flashinfer"
    assert range_sampler("vllm>=0.12.0", False, "range", RELEASES) is None  # 0.11.1+ sort unless told
    assert range_sampler("vllm<0.8", False, "range", RELEASES) is None      # 0.7.x V1 runs no sampler
    assert range_sampler("vllm==0.12.0", True, "pin", RELEASES) is None     # the release is known
    assert range_sampler("vllm>=0.8.5", False, "image", RELEASES) is None   # not read from a range


def test_the_range_sampler_is_reported_beside_the_assumed_release():
    model, gpu = _model("Qwen/Qwen2.5-3B-Instruct"), _gpu("H100-80GB")
    plain = memory.estimate(model, gpu, ROLLOUT, "0.12.0")
    assert plain["kv_cache_gib"] < 0 and "kv_cache_alt_gib" not in plain
    ranged = memory.estimate(model, gpu, ROLLOUT, "0.12.0", range_sampler="flashinfer")
    assert ranged["kv_cache_gib"] == plain["kv_cache_gib"]  # the assumed release's own verdict stands
    assert ranged["kv_cache_alt_release"] is True and ranged["kv_cache_alt_gib"] > 0
    # a release that picks the sampler by installation reports its own alternative, not the range's
    own = memory.estimate(model, gpu, ROLLOUT, "0.10.1", range_sampler="flashinfer")
    assert own["kv_cache_alt_gib"] > 0 and "kv_cache_alt_release" not in own


def test_a_deficit_within_the_unlogged_graph_term_is_not_a_refusal():
    # ms-swift's GRPO MoE example (Qwen3-30B-A3B, TP 2, 0.4 of 80 GB): from 0.20 vLLM subtracts its own
    # CUDA-graph estimate before sizing the cache, which no logged start-up checks; a deficit within
    # the usual band plus that term is L16 P1
    model, gpu = _model("Qwen/Qwen3-30B-A3B"), _gpu("H100-80GB x2")
    engine = {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.4, "max_model_len": 8192}
    est = memory.estimate(model, gpu, engine, "0.34.0")
    assert est["cudagraph_gib"] > 0 and est["kv_cache_gib"] < 0
    assert est.get("kv_deficit_within_error") is True
    assert -est["kv_cache_gib"] < est["kv_deficit_band_gib"]
    # far short (a quarter of the card): beyond any band, a refusal
    far = memory.estimate(model, gpu, dict(engine, gpu_memory_utilization=0.25), "0.34.0")
    assert far["kv_cache_gib"] < -far.get("kv_deficit_band_gib", 3.0) and "kv_deficit_within_error" not in far
