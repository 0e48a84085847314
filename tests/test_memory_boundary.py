"""The start-up memory verdicts at their edges: a KV estimate within its own error of zero (on
either side) is L15's, not L16's; a model known only by a training run's folder name keeps its
family's context as a guess (L14 P1); `trl vllm-serve` sizes with LLM()'s defaults."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.engine_defaults import usage_context
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data


def _model(name, config=None):
    return models.model_facts(name, KB.models, DATA["quantized_markers"], config=config, identity=DATA)


def _gpu(spec):
    return dict(hardware.parse_spec(spec, KB.gpus).gpu)


def test_slightly_negative_pool_is_near_zero():
    # a merged 14B Qwen in 16 bits on one 40 GB card at 0.7 (LLaMA-Factory #6472): the estimate
    # leaves about -0.25 GiB where vLLM 0.6.5 found 1216 tokens — inside 2.5% of the 27.6 GiB budget
    est = memory.estimate(_model("Qwen/Qwen-14B"), _gpu("A100-40GB"),
                          {"gpu_memory_utilization": 0.7, "max_model_len": 4096, "enforce_eager": True}, "0.6.5")
    assert -1.0 < est["kv_cache_gib"] < 0 and est.get("kv_cache_near_zero") is True


def test_a_request_short_by_less_than_the_error_is_a_guess():
    # Gemma 2 9B in float16 over two T4s on 0.6.2 (its context capped at the 4096 window): the
    # estimate leaves ~0.45 GiB where a 4096-token request needs ~0.66 GiB — a 0.2 GiB gap inside
    # the ~0.4 GiB the estimate's reserves can be off by (vLLM #7464 thread: it started)
    est = memory.estimate(_model("google/gemma-2-9b-it"), _gpu("T4 x2"),
                          {"tensor_parallel_size": 2, "dtype": "float16", "max_model_len": 4096}, "0.6.2")
    assert not est["fits_max_model_len"] and est.get("kv_shortfall_within_error") is True
    # far short (8192 tokens asked of the same cache): no such doubt
    far = memory.estimate(_model("google/gemma-2-9b-it"), _gpu("T4 x2"),
                          {"tensor_parallel_size": 2, "dtype": "float16", "max_model_len": 8192}, "0.6.2")
    assert not far["fits_max_model_len"] and "kv_shortfall_within_error" not in far


def test_clearly_negative_pool_is_not_near_zero():
    # a 70B in 16 bits on one 80 GB card: nothing is left, far beyond the estimate's error (L16)
    est = memory.estimate(_model("meta-llama/Llama-3.1-70B-Instruct"), _gpu("A100-80GB"),
                          {"gpu_memory_utilization": 0.9, "max_model_len": 8192}, "0.6.3")
    assert est["kv_cache_gib"] < -5 and "kv_cache_near_zero" not in est


@pytest.mark.parametrize("name", ["./merged/qwen-14b-sft", "/data/saves/Qwen-14B/lora-merged", "../out/qwen-14b-dpo"])
def test_training_output_folder_context_is_a_guess(name):
    facts = _model(name)
    assert facts.get("max_context") and facts.get("max_context_family") is True


@pytest.mark.parametrize("name", ["Qwen/Qwen-14B", "/models/Qwen-14B", "/var/cache/hf/Salesforce/blip2-opt-2.7b"])
def test_hub_ids_and_plain_folders_keep_their_context(name):
    facts = _model(name)
    assert facts.get("max_context") and not facts.get("max_context_family")


def test_a_read_config_is_not_a_guess():
    facts = _model("./merged/qwen-14b-sft", config={"architectures": ["QWenLMHeadModel"], "model_type": "qwen",
                                                     "max_position_embeddings": 8192, "seq_length": 2048})
    assert not facts.get("max_context_family")


def test_trl_vllm_serve_builds_llm():
    assert usage_context({"kind": "trl vllm-serve", "serves_http": False}) == "llm"


def test_a_request_that_fits_by_less_than_the_error_is_a_guess():
    # Llama 3.1 405B FP8 over eight H800s on 0.5.3 at its 131072-token context: the estimate leaves
    # ~1.45 requests, but before 0.6.4 NCCL's NVLS buffers (3 GiB per communicator at TP 8) count
    # against the cache where the board multicasts, which the catalog cannot say for an H800
    engine = {"tensor_parallel_size": 8}
    est = memory.estimate(_model("meta-llama/Meta-Llama-3.1-405B-Instruct-FP8"), _gpu("H800 x8"), engine, "0.5.3")
    assert est["fits_max_model_len"] and est.get("kv_surplus_within_error") is True
    # an HGX H100 board multicasts: the buffers are in the estimate, which then leaves less than a request
    h100 = memory.estimate(_model("meta-llama/Meta-Llama-3.1-405B-Instruct-FP8"), _gpu("H100-80GB x8"), engine, "0.5.3")
    assert not h100["fits_max_model_len"] and "kv_surplus_within_error" not in h100
    # from 0.6.4 the buffers are allocated before the baseline: no doubt about them
    later = memory.estimate(_model("meta-llama/Meta-Llama-3.1-405B-Instruct-FP8"), _gpu("H800 x8"),
                            dict(engine, max_model_len=16384), "0.6.4")
    assert later["fits_max_model_len"] and "kv_surplus_within_error" not in later


def _share(name, spec, engine, version):
    return memory.shortfall_share(_model(name), _gpu(spec), engine, version)


def test_a_v1_request_short_beyond_the_logged_error_is_refused():
    # Qwen2.5-7B at 32768 tokens on one L4 at 0.775, 0.12.0 (V1): ~0.34 GiB short, inside the 2.5% band
    # every release keeps but beyond the 1.5% (0.26 GiB) V1 text models' logs stay within; 256
    # sequences, what serve and LLM() give an unset max_num_seqs on an L4. One flag per verdict: beyond
    # the band that decides, and within only the one an assumed release keeps (never both "within" and "beyond")
    engine = {"max_model_len": 32768, "gpu_memory_utilization": 0.775, "max_num_seqs": 256}
    est = memory.estimate(_model("Qwen/Qwen2.5-7B-Instruct"), _gpu("L4"), engine, "0.12.0")
    assert est.get("kv_shortfall_beyond_error") is True and est.get("kv_shortfall_within_error_unpinned") is True
    assert "kv_shortfall_within_error" not in est
    assert est["kv_error_band_gib"] < est["kv_shortfall_gib"]
    assert _share("Qwen/Qwen2.5-7B-Instruct", "L4", engine, "0.12.0") == memory.KV_TIGHT_FRACTION
    # with LoRA (its logs reach -0.78% of the budget) or a KV connector the band stays at 2.5%
    for extra in ({"enable_lora": True}, {"kv_transfer_config": {"kv_connector": "LMCacheConnectorV1"}}):
        assert _share("Qwen/Qwen2.5-7B-Instruct", "L4", dict(engine, **extra), "0.12.0") == memory.KV_ERROR_FRACTION
    # a release no log covers yet (0.20+ sizes the cache after its CUDA graphs), or none pinned: no P0 on
    # the numbers alone
    for version in ("0.20.0", None):
        assert _share("Qwen/Qwen2.5-7B-Instruct", "L4", engine, version) is None


def test_no_p0_on_the_numbers_where_the_logs_do_not_bound_the_error():
    # pipeline stages (-2.1% at 0.9.2, PP 2) and a multimodal profile: the estimate alone decides no P0
    engine = {"max_model_len": 32768, "gpu_memory_utilization": 0.78}
    pp = dict(engine, pipeline_parallel_size=2)
    assert _share("Qwen/Qwen2.5-7B-Instruct", "L4 x2", pp, "0.12.0") is None
    assert _share("Qwen/Qwen2.5-VL-7B-Instruct", "L4", engine, "0.12.0") is None
    for e in (memory.estimate(_model("Qwen/Qwen2.5-7B-Instruct"), _gpu("L4 x2"), pp, "0.12.0"),
              memory.estimate(_model("Qwen/Qwen2.5-VL-7B-Instruct"), _gpu("L4"), engine, "0.12.0")):
        assert "kv_shortfall_beyond_error" not in e


def test_a_v0_request_short_by_fewer_than_a_tenth_of_the_tokens_but_beyond_the_error():
    # Llama 3.1 8B at 29500 tokens on one RTX 3090, 0.5.5 (V0, no chunked prefill below 32K): the
    # estimate holds ~23.6K tokens, 0.72 GiB short, beyond the 0.53 GiB (2.5% of the budget) V0 logs
    # stay within; the T4 pair of vLLM #7464 above, which started, stays inside its band
    est = memory.estimate(_model("meta-llama/Llama-3.1-8B-Instruct"), _gpu("RTX-3090"), {"max_model_len": 29500}, "0.5.5")
    assert est.get("kv_shortfall_beyond_error") is True
    assert _share("meta-llama/Llama-3.1-8B-Instruct", "RTX-3090", {"max_model_len": 29500}, "0.5.5") == memory.KV_ERROR_FRACTION
    t4 = memory.estimate(_model("google/gemma-2-9b-it"), _gpu("T4 x2"),
                         {"tensor_parallel_size": 2, "dtype": "float16", "max_model_len": 4096}, "0.6.2")
    assert "kv_shortfall_beyond_error" not in t4


def test_a_pool_just_below_zero_that_its_error_would_fill_is_not_a_refusal():
    # the same 14B at 0.7 but a 128-token context: the estimate is short of anything (about -0.5 GiB),
    # yet one request needs ~0.1 GiB, inside the ~0.7 GiB the estimate can be off: L16 says P1
    est = memory.estimate(_model("Qwen/Qwen-14B"), _gpu("A100-40GB"),
                          {"gpu_memory_utilization": 0.7, "max_model_len": 128, "enforce_eager": True}, "0.6.5")
    assert est["kv_cache_gib"] < 0 and est.get("kv_deficit_within_error") is True
    assert not est.get("kv_cache_near_zero")


def test_the_lighter_sampler_short_by_less_than_the_error_is_not_a_refusal():
    # verl's examples/tuning/7b/qwen2-7b_grpo-lora_1_h100 (vLLM 0.8.5, 0.2 of an H100, 512 sequences):
    # PyTorch's sampler leaves ~-1.6 GiB, FlashInfer's a few hundredths of a GiB below zero, inside
    # the estimate's own error: L16 may not say P0 on that
    est = memory.estimate(_model("Qwen/Qwen2.5-7B-Instruct"), _gpu("H100-80GB"),
                          {"gpu_memory_utilization": 0.2, "max_num_seqs": 512, "max_model_len": 1536,
                           "max_num_batched_tokens": 1536, "enable_lora": True, "max_lora_rank": 32}, "0.8.5")
    assert est["kv_cache_gib"] < 0
    assert est["kv_cache_alt_gib"] <= 0 and est.get("kv_cache_alt_within_error") is True


def test_the_l4_budget_is_what_torch_sees_and_a_shortfall_inside_the_error_is_not_a_refusal():
    # GKE's ADK tutorial (kubernetes-engine-samples ai-ml/adk-vllm/deploy-llm/deploy-llm.yaml): Llama 3.1 8B
    # at 32768 tokens on one L4, vLLM 0.8.5's image (V1, FlashInfer's sampler). torch sees 22.16 GiB of the
    # L4 (unsloth's L4 logs), not NVML's 22.5 less the default 0.5: with that total the pool misses the
    # 4 GiB request by ~0.2 GiB, inside the 0.3 GiB band the logs support, so L15 says P1, not P0 (eval115)
    gpu = _gpu("L4")
    assert gpu.get("driver_reserved_gib") == 0.34
    engine = {"max_model_len": 32768, "max_num_seqs": 256, "max_num_batched_tokens": 2048, "enable_chunked_prefill": True}
    est = memory.estimate(_model("meta-llama/Llama-3.1-8B-Instruct"), gpu, engine, "0.8.5",
                          {"VLLM_USE_FLASHINFER_SAMPLER": "1"})
    assert round(est["requested_per_gpu_gib"], 2) == 19.94
    assert "kv_shortfall_beyond_error" not in est and "kv_shortfall_within_error_unpinned" not in est
