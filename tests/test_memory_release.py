"""The sizing rules that change with the vLLM release or the GPU (engine/check/memory/): MLA's
latent cache from 0.7.1, the sampler warm-up that stopped sorting in 0.17, the V0 fallback below
compute capability 8.0, pipeline stages holding the embedding and the LM head, GGUF's unknown
width, and what can be said without the model's dimensions."""
from __future__ import annotations

import pytest
from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.kv import kv_bytes_per_token_layer
from vllm_kb.engine.check.memory.weights import weights_bytes
from vllm_kb.engine.check.memory.weights_stages import stage_weights_bytes
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
MARKERS = KB.doc("models.yaml").data["quantized_markers"]
GIB = memory.GIB


def facts(name: str) -> dict:
    return models.model_facts(name, KB.models, MARKERS)


def gpu(spec: str) -> dict:
    return hardware.parse_spec(spec, KB.gpus).gpu


@pytest.mark.parametrize("version,expected", [
    ("0.5.1", 2 * 8 * 256 * 2),    # K and V of this rank's 8 heads, padded to 256
    ("0.6.6", 2 * 8 * 256 * 2),
    ("0.7.0", 2 * 8 * 192 * 2),    # 192 wide
    ("0.7.1", (512 + 64) * 2),     # one latent, whole on every rank
    ("0.7.3", 640 * 2),            # V0 0.7.2-0.7.3 pad the entry to 256 bytes
    ("0.8.5", (512 + 64) * 2),
    ("0.20.0", (512 + 64) * 2),
])
def test_mla_cache_by_release(version, expected):
    lite = facts("deepseek-ai/DeepSeek-V2-Lite-Chat")  # 16 heads
    assert kv_bytes_per_token_layer(lite, {}, 2, memory.runtime(version)) == expected


def test_mla_disable_and_early_quantized_mla():
    lite = facts("deepseek-ai/DeepSeek-V2-Lite-Chat")
    assert kv_bytes_per_token_layer(lite, {}, 1, memory.runtime("0.9.0", {"VLLM_MLA_DISABLE": "1"})) == 2 * 16 * 192 * 2
    assert kv_bytes_per_token_layer(lite, {"quantization": "awq"}, 1, memory.runtime("0.7.1")) == 2 * 16 * 192 * 2
    assert kv_bytes_per_token_layer(lite, {"quantization": "fp8"}, 1, memory.runtime("0.7.1")) == 576 * 2


def test_the_sampler_stopped_sorting_in_0_17():
    llama = facts("meta-llama/Llama-3.1-8B-Instruct")
    engine = {"max_num_seqs": 1024, "max_num_batched_tokens": 8192, "gpu_memory_utilization": 0.9}
    old = memory.estimate(llama, gpu("H100"), engine, vllm_version="0.16.0")["activation_peak_gib"]
    new = memory.estimate(llama, gpu("H100"), engine, vllm_version="0.17.0")["activation_peak_gib"]
    assert old == pytest.approx(1024 * 128256 * 32 / GIB + 0.25, abs=0.02)
    assert new == pytest.approx(1024 * 128256 * 14.5 / GIB + 0.25, abs=0.02)


def test_flashinfer_sampler_where_the_installation_decides():
    """0.8.0-0.11.0 warm the sampler up with FlashInfer when it is installed (Docker images), with
    PyTorch's sort otherwise: the estimate takes the sort and says what FlashInfer would leave;
    0.11.1+ use FlashInfer only when VLLM_USE_FLASHINFER_SAMPLER=1 asks."""
    m = facts("Qwen/Qwen2.5-3B-Instruct")
    engine = {"gpu_memory_utilization": 0.1, "max_num_seqs": 512, "max_num_batched_tokens": 1536,
              "max_model_len": 1536}
    pip = memory.estimate(m, gpu("H100"), engine, vllm_version="0.10.1")
    assert pip["kv_cache_gib"] < 0 < pip["kv_cache_alt_gib"]  # whether it starts depends on FlashInfer
    assert {"key": "sampler_alt", "value": "flashinfer"} in pip["assumptions"]
    fi = memory.estimate(m, gpu("H100"), engine, vllm_version="0.10.1", env={"VLLM_USE_FLASHINFER_SAMPLER": "1"})
    assert "kv_cache_alt_gib" not in fi and fi["kv_cache_gib"] == pytest.approx(pip["kv_cache_alt_gib"], abs=0.01)
    assert fi["activation_peak_gib"] < pip["activation_peak_gib"]
    off = memory.estimate(m, gpu("H100"), engine, vllm_version="0.10.1", env={"VLLM_USE_FLASHINFER_SAMPLER": "0"})
    assert "kv_cache_alt_gib" not in off and off["kv_cache_gib"] == pip["kv_cache_gib"]
    later = memory.estimate(m, gpu("H100"), engine, vllm_version="0.12.0")
    assert "kv_cache_alt_gib" not in later and later["kv_cache_gib"] == pip["kv_cache_gib"]
    opted = memory.estimate(m, gpu("H100"), engine, vllm_version="0.12.0", env={"VLLM_USE_FLASHINFER_SAMPLER": "1"})
    assert opted["kv_cache_gib"] == fi["kv_cache_gib"]
    assert memory.runtime("0.7.3").sampler == "v0" and memory.runtime("0.7.3").sampler_alt is None


def test_v0_counts_nccl_buffers_before_0_6_4():
    """Before 0.6.4 the V0 worker reads its free memory before joining the distributed world, so
    NCCL's buffers count against the cache: about a GiB between GPUs that reach each other, more in
    0.4.1-0.4.2 (cuMem on), little over a GeForce card's shared memory; 0.6.4 measures afresh."""
    m = facts("meta-llama/Meta-Llama-3-70B")
    nt = {v: memory.estimate(m, gpu("A100-80GB x2"), {"tensor_parallel_size": 2}, vllm_version=v)["non_torch_gib"]
          for v in ("0.4.0", "0.4.2", "0.4.3", "0.6.3", "0.6.4")}
    assert nt["0.4.2"] - nt["0.4.3"] == pytest.approx(1.8, abs=0.01)
    assert nt["0.4.0"] == nt["0.4.3"] == nt["0.6.3"]
    assert nt["0.6.3"] - nt["0.6.4"] == pytest.approx(0.9 + 0.5, abs=0.01)  # and the CUDA context
    small = facts("meta-llama/Llama-3.1-8B-Instruct")
    geforce = memory.estimate(small, gpu("RTX-4090 x2"), {"tensor_parallel_size": 2}, vllm_version="0.4.2")
    a100 = memory.estimate(small, gpu("A100-80GB x2"), {"tensor_parallel_size": 2}, vllm_version="0.4.2")
    assert a100["non_torch_gib"] - geforce["non_torch_gib"] == pytest.approx(2.7, abs=0.01)
    custom = memory.estimate(small, gpu("80GiB cc8.0 x2"), {"tensor_parallel_size": 2}, vllm_version="0.4.2")
    assert custom["non_torch_gib"] == geforce["non_torch_gib"]  # an unnamed card is not assumed to reach its peer


def test_unified_memory_spark():
    """DGX Spark's GB10 shares the system's memory: vLLM's total is MemTotal (no driver reserve to
    take off) and what the host takes during start-up counts as non-torch memory."""
    spark = gpu("DGX Spark")
    assert spark["unified_memory"] and spark["compute_capability"] == 12.1
    m = facts("Qwen/Qwen3-32B")
    engine = {"max_model_len": 32768, "gpu_memory_utilization": 0.85}
    uma = memory.estimate(m, spark, engine, vllm_version="0.20.0")
    discrete = memory.estimate(m, {k: v for k, v in spark.items() if k != "unified_memory"}, engine, vllm_version="0.20.0")
    assert uma["requested_per_gpu_gib"] == pytest.approx(121.6 * 0.85, abs=0.01)
    assert uma["non_torch_gib"] - discrete["non_torch_gib"] == pytest.approx(5.7, abs=0.01)
    assert uma["kv_cache_gib"] == pytest.approx(discrete["kv_cache_gib"] - 5.7 + 0.5 * 0.85, abs=0.02)
    assert "unified_memory" not in gpu("GH200")  # Grace Hopper's HBM is its own


def test_v0_fallback_below_sm80():
    assert memory.runtime("0.8.5", {}, 7.5).v1 is False
    assert memory.runtime("0.8.5", {"VLLM_USE_V1": "1"}, 7.5).v1 is True
    assert memory.runtime("0.10.2", {}, 7.5).v1 is True  # FlexAttention on Turing from 0.10.2
    assert memory.runtime("0.8.5", {}, 8.0).v1 is True


def test_pipeline_stages_hold_the_embedding_and_the_head():
    llama = facts("meta-llama/Llama-3.1-8B-Instruct")  # 32 layers, untied 128256 x 4096 tables
    w = weights_bytes(llama, {})
    stages = stage_weights_bytes(llama, {}, w, 1, 4)
    table = 128256 * 4096 * 2
    assert stages[0] == pytest.approx(stages[1] + table)
    assert stages[3] == pytest.approx(stages[1] + table)
    # every stage also builds the RoPE table (131072 positions x 128 x bf16) for its own layers
    assert sum(stages) == pytest.approx(w + 4 * 131072 * 128 * 2)
    e = memory.estimate(llama, gpu("H100 x4"), {"pipeline_parallel_size": 4, "max_model_len": 8192,
                                                "gpu_memory_utilization": 0.95}, vllm_version="0.19.0")
    assert e["weights_per_gpu_gib"] == pytest.approx(4.26, rel=0.03)  # llm-d's log of rank 0


def test_mxfp4_pads_each_rank_share():
    oss = facts("openai/gpt-oss-20b")
    assert weights_bytes(oss, {}, 2) > weights_bytes(oss, {}, 1)


@pytest.mark.parametrize("version,spec,alt", [
    ("0.10.1", "H100", False),   # torch 2.7.1: Marlin whatever is installed
    ("0.10.2", "H100", True),    # Marlin, or unswizzled Triton with triton_kernels
    ("0.11.0", "H100", True),
    ("0.11.1", "H100", False),   # torch 2.9: swizzled Triton, padded about as Marlin
    ("0.12.0", "H100", False),   # triton_kernels bundled
    ("0.10.2", "A100-80GB", False),  # Ampere: Marlin
    ("0.10.2", "B200", False),   # Blackwell: FlashInfer's or Triton's kernels, not this pair
])
def test_mxfp4_kernel_the_installation_picks(version, spec, alt):
    """vLLM #23278: gpt-oss-120b on one H100 at 0.10.1 loads 65.97 GiB through Marlin and leaves
    -2.14 GiB; where triton_kernels decides the kernel (0.10.2-0.11.0) the unpadded Triton weights
    are the other end, about 5 GiB lighter."""
    oss = facts("openai/gpt-oss-120b")
    serve = {"max_num_seqs": 1024, "max_num_batched_tokens": 8192}  # vllm serve's defaults on an H100
    e = memory.estimate(oss, gpu(spec), dict(serve, max_model_len=100000), vllm_version=version, install="pip")
    assert ("kv_cache_mxfp4_alt_gib" in e) is alt
    if alt:
        assert e["kv_cache_gib"] <= 0 < e["kv_cache_mxfp4_alt_gib"]
        assert e["weights_mxfp4_alt_per_gpu_gib"] == pytest.approx(60.6, abs=0.3)
        assert e["fits_max_model_len_mxfp4_alt"]  # the reporter's 100000 tokens start with Triton
        full = memory.estimate(oss, gpu(spec), serve, vllm_version=version, install="pip")
        assert not full["fits_max_model_len_mxfp4_alt"]  # 131072 do not, with either kernel
    marlin = memory.estimate(oss, gpu(spec), serve, vllm_version=version, env={"VLLM_USE_FLASHINFER_MOE_MXFP4_BF16": "1"})
    assert "kv_cache_mxfp4_alt_gib" not in marlin
    assert weights_bytes(oss, {}, 1, "strided") < weights_bytes(oss, {}, 1)


def test_gguf_width_is_unknown():
    assert memory.estimate(facts("./Qwen3-30B-A3B-Q4_K_M.gguf"), gpu("H100"), {}, vllm_version="0.10.1") == {}


def test_without_dimensions_weights_over_the_budget_still_leave_no_kv():
    m = models.model_facts("acme/house-7B-AWQ", KB.models, MARKERS)
    assert "num_hidden_layers" not in m
    low = memory.estimate(m, gpu("T4"), {"gpu_memory_utilization": 0.1}, vllm_version="0.5.3")
    assert low["kv_cache_gib"] < 0 and 0.1 < low["gmu_needed"] <= 0.5
    assert "kv_cache_gib" not in memory.estimate(m, gpu("T4"), {"gpu_memory_utilization": 0.9}, vllm_version="0.5.3")


def test_suggested_length_keeps_a_margin():
    e = memory.estimate(facts("meta-llama/Llama-3.1-8B-Instruct"), gpu("RTX-3090"),
                        {"max_model_len": 29000, "gpu_memory_utilization": 0.9}, vllm_version="0.6.4")
    assert not e["fits_max_model_len"]
    assert e["max_model_len_safe"] <= e["max_model_len_fit"] * 0.9 and e["max_model_len_safe"] % 1024 == 0


# What L15 and L16 suggest must start with headroom by L15's own measure: following the advice
# gives a cache that holds max_model_len with the margin L15 asks for (no P1 "may refuse").
FOLLOW = [
    ("meta-llama/Llama-3.1-8B-Instruct", "RTX-3090", {"max_model_len": 29000, "gpu_memory_utilization": 0.9}, "0.6.4"),
    ("meta-llama/Llama-3.1-8B-Instruct", "A10G", {"gpu_memory_utilization": 0.9}, "0.10.1"),
    ("Qwen/Qwen2.5-0.5B-Instruct", "RTX-3090", {"gpu_memory_utilization": 0.03}, "0.6.4"),
    ("Qwen/Qwen2.5-7B-Instruct", "L4", {"gpu_memory_utilization": 0.5}, "0.8.5"),
    ("Qwen/Qwen3-8B", "A800-80GB", {"gpu_memory_utilization": 0.15}, "0.9.1"),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "RTX-4090 x2", {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.98}, "0.7.2"),
    ("deepseek-ai/DeepSeek-V2-Lite-Chat", "L40S", {"gpu_memory_utilization": 0.6, "max_model_len": 163840}, "0.20.0"),
    ("google/gemma-2-9b-it", "RTX-4090", {"gpu_memory_utilization": 0.35, "max_model_len": 8192}, "0.10.1"),
    # V0 profiles a VLM over its whole context (no chunked prefill for multimodal models)
    ("Qwen/Qwen2.5-VL-7B-Instruct", "A100-40GB", {"gpu_memory_utilization": 0.9}, "0.7.3"),
    # a 4-bit 72B near a 48 GB pair's limit; an AWQ MLA model with V0's absorbed matrices
    ("Qwen/Qwen2.5-72B-Instruct-AWQ", "A40 x2", {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.6}, "0.7.2"),
    ("TechxGenus/DeepSeek-Coder-V2-Lite-Instruct-AWQ", "L4", {"gpu_memory_utilization": 0.6}, "0.7.3"),
]


@pytest.mark.parametrize("name,spec,engine,version", FOLLOW, ids=[f[0].split("/")[-1] + "@" + f[1] for f in FOLLOW])
def test_following_the_advice_starts_with_headroom(name, spec, engine, version):
    m, g = facts(name), gpu(spec)
    e = memory.estimate(m, g, engine, vllm_version=version)
    assert e.get("kv_cache_gib") is not None, e
    followed = 0
    if e["kv_cache_gib"] <= 0 and "gmu_needed" in e:  # L16's change
        after = memory.estimate(m, g, {**engine, "gpu_memory_utilization": e["gmu_needed"]}, vllm_version=version)
        assert after["kv_cache_gib"] > 0 and after["max_model_len_fit"] >= 1.1 * after["max_model_len"], after
        followed += 1
    elif e["kv_cache_gib"] > 0 and e["max_model_len_fit"] < 1.1 * e["max_model_len"]:  # L15's change
        after = memory.estimate(m, g, {**engine, "max_model_len": e["max_model_len_safe"]}, vllm_version=version)
        assert after["max_model_len_fit"] >= 1.1 * after["max_model_len"], after
        assert e["max_model_len_safe"] % after["block_size"] == 0
        followed += 1
    assert followed, f"the case should need a change: {e}"


def test_lora_captures_the_graphs_twice_where_graphs_are_profiled():
    """0.11.1+ capture CUDA graphs with and without adapters when LoRA is on (vLLM PR #25914: 1.62 →
    2.38 GiB of graphs); from 0.20 that memory is taken before the KV cache is sized."""
    llama = facts("meta-llama/Llama-3.1-8B-Instruct")
    at = lambda engine, v="0.20.0": memory.estimate(llama, gpu("H100"), dict(engine, max_model_len=8192), vllm_version=v)
    plain, lora = at({}), at({"enable_lora": True})
    assert lora["cudagraph_gib"] == pytest.approx(plain["cudagraph_gib"] * 2.38 / 1.62, abs=0.01)
    assert at({"enable_lora": True, "compilation_config": {"cudagraph_specialize_lora": False}})["cudagraph_gib"] == plain["cudagraph_gib"]
    assert at({"enable_lora": True}, "0.19.0")["cudagraph_gib"] == 0.0  # not profiled before 0.20


def test_graph_term_does_not_follow_the_number_of_graphs():
    """vLLM's estimate is the first capture plus (graphs - 1) x the second capture's growth; the logs put
    two graphs at 0.36-0.47 GiB and 86 at 0.52-0.78, so the term is sized per model, not per graph
    (docs/estimator.md, CUDA graphs)."""
    llama = facts("meta-llama/Llama-3.1-8B-Instruct")
    at = lambda seqs: memory.estimate(llama, gpu("H100"), {"max_model_len": 8192, "max_num_seqs": seqs},
                                      vllm_version="0.24.0")["cudagraph_gib"]
    assert at(1) == at(256) == pytest.approx(0.3 + 0.006 * 32, abs=0.01)


@pytest.mark.parametrize("version,seqs,fails", [
    ("0.6.3", 256, True),    # vLLM #9445: the default batch of dummy images runs out of memory on an A100-80GB
    ("0.6.3", 32, False),    # the reporter's fix
    ("0.7.3", 256, True),
    # 0.8.0-0.10.2 default to V1 but fall back to V0 for Mllama, whose class declares SupportsV0Only
    # (EngineArgs._is_v1_supported_oracle; knowledge/vllm/v0_only.yaml): the same profile run
    ("0.8.5", 256, True),
    ("0.10.2", 256, True),
    ("0.10.2", 16, False),
])
def test_tiled_encoder_profile_takes_every_dummy_image_at_once(version, seqs, fails):
    """V0's encoder-decoder profile gives each of max_num_seqs dummy sequences a max-size image and
    runs Mllama's vision encoder over all of them at once; its per-image mask is tokens² (four tiles
    of 1608 patches)."""
    mllama = facts("meta-llama/Llama-3.2-11B-Vision-Instruct")
    e = memory.estimate(mllama, gpu("A100-80GB"), {"max_model_len": 1024, "max_num_seqs": seqs}, vllm_version=version)
    if fails is None:
        assert "kv_cache_after_encoder_low_gib" not in e
        return
    assert (e["kv_cache_after_encoder_low_gib"] <= 0) is fails
    if fails:
        smaller = memory.estimate(mllama, gpu("A100-80GB"), {"max_model_len": 1024, "max_num_seqs": e["max_num_seqs_fit_encoder"]},
                                  vllm_version=version)
        assert smaller["kv_cache_after_encoder_gib"] > 0  # the proposed max_num_seqs fits even at the high end
    two = memory.estimate(mllama, gpu("A100-80GB"), {"max_model_len": 1024, "max_num_seqs": seqs, "limit_mm_per_prompt": {"image": 2}},
                          vllm_version=version)
    assert two["encoder_profile_gib"] == pytest.approx(2 * e["encoder_profile_gib"], rel=0.01)


def test_an_architecture_v1_cannot_run_falls_back_to_v0_in_0_8_to_0_10_2():
    from vllm_kb.engine.check.memory.runtime import runtime
    mllama = "MllamaForConditionalGeneration"
    assert not runtime("0.9.2", {}, 8.0, None, mllama).v1 and not runtime("0.8.5.post1", {}, 8.0, None, mllama).v1
    assert runtime("0.9.2", {}, 8.0, None, "LlamaForCausalLM").v1
    assert runtime("0.9.2", {"VLLM_USE_V1": "1"}, 8.0, None, mllama).v1  # vLLM raises there rather than falling back
    assert runtime("0.11.0", {}, 8.0, None, "BartForConditionalGeneration").v1  # no V0 left to fall back to


MLLAMA_CONFIG = {
    "architectures": ["MllamaForConditionalGeneration"], "model_type": "mllama", "torch_dtype": "bfloat16",
    "text_config": {"model_type": "mllama_text_model", "hidden_size": 4096, "intermediate_size": 14336,
                    "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 40,
                    "max_position_embeddings": 131072, "vocab_size": 128256},
    "vision_config": {"model_type": "mllama_vision_model", "image_size": 560, "patch_size": 14, "hidden_size": 1280,
                      "num_hidden_layers": 32, "num_global_layers": 8, "max_num_tiles": 4, "vision_output_dim": 7680},
}


def test_a_local_folder_reads_its_vision_encoder_from_config_json():
    """A local copy under a name the catalog does not know (vLLM #10034's /data/model/llama) gets the
    encoder the Hub id gets, and the tower's parameters count with the weights."""
    local = models.model_facts("/data/model/llama", KB.models, MARKERS, config=MLLAMA_CONFIG)
    hub = facts("meta-llama/Llama-3.2-11B-Vision-Instruct")
    assert local["multimodal"] and local["tiled_vision"] == hub["tiled_vision"]
    assert local["params_b"] == pytest.approx(hub["params_b"], rel=0.01)
    at = lambda f: memory.estimate(f, gpu("A10 x2"), {"max_model_len": 1024, "tensor_parallel_size": 2,
                                                      "gpu_memory_utilization": 0.7}, vllm_version="0.6.2")
    assert at(local)["encoder_profile_gib"] == at(hub)["encoder_profile_gib"]
    assert at(local)["kv_cache_after_encoder_low_gib"] < 0


def test_a_local_qwen2_vl_folder_reads_its_vit_from_config_json():
    qwen = {"architectures": ["Qwen2_5_VLForConditionalGeneration"], "model_type": "qwen2_5_vl", "torch_dtype": "bfloat16",
            "hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28, "num_key_value_heads": 4,
            "num_hidden_layers": 28, "vocab_size": 152064, "max_position_embeddings": 128000,
            "vision_config": {"depth": 32, "hidden_act": "silu", "hidden_size": 1280, "intermediate_size": 3420,
                              "num_heads": 16, "out_hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2,
                              "temporal_patch_size": 2}}
    local = models.model_facts("/models/my-vlm", KB.models, MARKERS, config=qwen)
    hub = facts("Qwen/Qwen2.5-VL-7B-Instruct")
    assert {k: v for k, v in local["vision"].items() if k != "source"} == {k: v for k, v in hub["vision"].items() if k != "source"}
    assert local["vision_params_b"] == pytest.approx(hub["vision_params_b"], abs=0.02)


QWEN3_CODER_FP8 = {
    "architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "torch_dtype": "bfloat16", "hidden_size": 2048,
    "intermediate_size": 5472, "moe_intermediate_size": 768, "num_hidden_layers": 48, "num_attention_heads": 32,
    "num_key_value_heads": 4, "head_dim": 128, "num_experts": 128, "num_experts_per_tok": 8, "vocab_size": 151936,
    "max_position_embeddings": 262144, "tie_word_embeddings": False,
    "quantization_config": {"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]},
}


def test_mixed_cards_size_each_pipeline_stage_by_its_own():
    """vLLM #34076 (0.15.2 nightly): Qwen3-Coder-30B-A3B-FP8 at PP 2 over an RTX 5070 Ti (16 layers) and an
    RTX 5090 (32 layers) logs 3.18 GiB on the 16 GB stage and an estimated maximum model length of 34,736: 0.14-0.16
    hold the whole model's 48 layers against the smallest stage's memory. Two 5070 Ti leave no cache at all."""
    model = models.model_facts("./Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8", KB.models, MARKERS, config=QWEN3_CODER_FP8)
    engine = {"pipeline_parallel_size": 2, "max_model_len": 262144, "gpu_memory_utilization": 0.9}
    env = {"VLLM_PP_LAYER_PARTITION": "16,32"}
    mixed = memory.estimate(model, gpu("RTX-5070-Ti + RTX-5090"), engine, vllm_version="0.15.1", env=env)
    assert mixed["kv_cache_gib"] == pytest.approx(3.18, rel=0.15)
    assert mixed["max_model_len_fit"] == pytest.approx(34736, rel=0.15) and not mixed["fits_max_model_len"]
    assert mixed["max_model_len_safe"] < 34736  # what L15 proposes starts
    # 0.17 checks each stage against its own layers: three times the tokens
    assert memory.estimate(model, gpu("RTX-5070-Ti + RTX-5090"), engine, vllm_version="0.17.0", env=env)["max_model_len_fit"] > 90000
    assert memory.estimate(model, gpu("RTX-5070-Ti x2"), engine, vllm_version="0.15.1", env=env)["kv_cache_gib"] <= 0


def test_a_mixed_spec_reads_as_its_weakest_card_and_keeps_every_card():
    hw = hardware.parse_spec("RTX-5090 + RTX-5070-Ti x2, host 64GiB", KB.gpus)
    assert hw.gpu["count"] == 3 and hw.gpu["memory_gib"] == 16.0 and hw.gpu["devices_gib"] == [31.8, 16.0, 16.0]
    assert hw.host_memory_gib == 64.0 and len(hw.devices) == 3 and hw.reason == "mixed_spec"
    assert hardware.parse_spec("A100-80GB + V100-32GB", KB.gpus).gpu["compute_capability"] == 7.0  # the weakest


@pytest.mark.parametrize("version,env,gathers", [
    ("0.9.0", None, False),     # before FusedMoE's naive dispatch
    ("0.10.1", None, True),     # VLLM_ALL2ALL_BACKEND "naive" by default
    ("0.10.2", {"VLLM_ALL2ALL_BACKEND": "deepep_low_latency"}, False),  # chunked dispatch, not modelled
    ("0.11.0", None, False),    # not read beyond 0.10.2
])
def test_dp_moe_profiles_every_ranks_tokens(version, env, gathers):
    """0.9.1-0.10.2 gather all DP ranks' tokens into each MoE layer (naive dispatch), so the
    profile run's MoE step is DP x max_num_batched_tokens wide, its fused caches one 32K chunk."""
    m = facts("Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8")
    h20 = gpu("H20-141GB")
    dp8 = {"data_parallel_size": 8, "enable_expert_parallel": True, "gpu_memory_utilization": 0.9}
    one = {"enable_expert_parallel": True, "gpu_memory_utilization": 0.9}
    a = memory.estimate(m, h20, dp8, vllm_version=version, env=env)["activation_peak_gib"]
    b = memory.estimate(m, h20, one, vllm_version=version, env=env)["activation_peak_gib"]
    assert (a > b + 3) is gathers


def test_v1_in_0_7_when_asked_profiles_the_logits_not_the_sampler():
    """0.7.x run V1 only with VLLM_USE_V1=1; their profile run computes model-dtype logits of every
    batched token (0.7.0-0.7.2) or of max_num_seqs rows (0.7.3), with no sampler; V1 before 0.9.1
    counts total - free after it, the CUDA context included."""
    from vllm_kb.engine.check.memory.runtime import runtime
    on = {"VLLM_USE_V1": "1"}
    early = {"early_v1": True}  # the memory estimate's reading; the checks keep 0.7.x as V0
    assert not runtime("0.7.1", **early).v1 and runtime("0.7.1", on, **early).v1 and not runtime("0.7.1", on).v1
    assert runtime("0.6.6", on, **early).v1 is False
    assert runtime("0.7.1", on, **early).sampler == "logits_all" and runtime("0.7.3", on, **early).sampler == "logits"
    assert runtime("0.7.1", on, **early).sampler_alt is None
    assert not runtime("0.9.0").v1_baseline and runtime("0.9.1").v1_baseline
    m = facts("neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8")
    h100 = gpu("H100")
    engine = {"max_model_len": 2048, "gpu_memory_utilization": 0.98, "max_num_batched_tokens": 8192}
    v1 = memory.estimate(m, h100, engine, vllm_version="0.7.1", env=on)
    # vLLM PR #12569's 0.7.1 V1 log: 1381 blocks of 16 tokens (22,096)
    assert v1["kv_tokens"] == pytest.approx(22096, rel=0.05)
    assert v1["activation_peak_gib"] == pytest.approx(8192 * m["vocab_size"] * 2 / GIB + 0.25, abs=0.01)
    assert memory.estimate(m, h100, engine, vllm_version="0.9.0")["non_torch_gib"] == pytest.approx(0.65)
    assert memory.estimate(m, h100, engine, vllm_version="0.9.1")["non_torch_gib"] == pytest.approx(0.15)
