"""L147: which V0 launches on Volta run vLLM's Triton prefix-prefill kernel."""
from vllm_kb.engine.check.startup_prefix_prefill import prefix_prefill_facts

V100 = {"compute_capability": 7.0}


def _facts(engine=None, model=None, gpu=V100, version="0.6.3", **site):
    return {"engine": engine or {}, "model": model or {}, "gpu": gpu, "vllm": {"version": version}, "site": site}


def test_chunked_prefill_asked_for_on_volta():
    f = _facts({"enable_chunked_prefill": True})
    assert prefix_prefill_facts(f, "0.6.3", False, 8192, None) == {"prefill_triton_volta": "chunked"}


def test_v0_turns_it_on_itself_above_32k_unless_something_is_in_the_way():
    long = 131072
    assert prefix_prefill_facts(_facts(), "0.6.3", False, long, None) == {"prefill_triton_volta": "chunked-default"}
    assert prefix_prefill_facts(_facts(), "0.5.2", False, long, None) == {}  # no default before 0.5.3
    assert prefix_prefill_facts(_facts(), "0.6.3", False, 32768, None) == {}
    assert prefix_prefill_facts(_facts({"enable_lora": True}), "0.6.3", False, long, None) == {}
    assert prefix_prefill_facts(_facts(model={"multimodal": True}), "0.6.3", False, long, None) == {}
    assert prefix_prefill_facts(_facts(model={"sliding_window_size": 4096}), "0.6.3", False, long, None) == {}
    assert prefix_prefill_facts(_facts(model={"kv_lora_rank": 512}), "0.8.4", False, long, None) == {}
    assert prefix_prefill_facts(_facts({"enable_chunked_prefill": False}), "0.6.3", False, long, None) == {}


def test_prefix_caching_float32_turing_v1_and_later_releases():
    assert prefix_prefill_facts(_facts({"enable_prefix_caching": "true"}), "0.7.3", False, 4096, None) == {
        "prefill_triton_volta": "prefix-caching"}
    assert prefix_prefill_facts(_facts({"enable_chunked_prefill": True, "dtype": "float32"}), "0.6.5", False, 8192, None) == {}
    t4 = _facts({"enable_chunked_prefill": True}, gpu={"compute_capability": 7.5})
    assert prefix_prefill_facts(t4, "0.6.3", False, 8192, None) == {}
    assert prefix_prefill_facts(_facts({"enable_chunked_prefill": True}), "0.8.4", True, 8192, None) == {}
    assert prefix_prefill_facts(_facts({"enable_chunked_prefill": True}), "0.9.0", False, 8192, None) == {}
    assert prefix_prefill_facts(_facts({"enable_chunked_prefill": True}), "0.4.0", False, 8192, None) == {}
    assert prefix_prefill_facts(_facts({"enable_chunked_prefill": True}), "0.6.3", False, 8192, "FLASHINFER") == {}


def test_prefix_caching_the_framework_turns_on_itself():
    """ms-swift's GRPO rollout passes enable_prefix_caching=True unless its key says otherwise
    (ms-swift #3549): the fix is the framework's key, not a vLLM flag to drop."""
    f = _facts({"enable_prefix_caching": True}, version="0.7.3", framework_defaulted=["enable_prefix_caching"])
    assert prefix_prefill_facts(f, "0.7.3", False, 1024, None) == {"prefill_triton_volta": "prefix-caching-framework"}
    f = _facts({"enable_prefix_caching": True, "enable_chunked_prefill": True}, version="0.7.3",
               framework_defaulted=["enable_prefix_caching"])
    assert prefix_prefill_facts(f, "0.7.3", False, 1024, None) == {"prefill_triton_volta": "chunked"}


def test_swift_grpo_rollout_prefix_caching_default_and_its_key():
    from vllm_kb.engine.kb import frameworks

    fw = frameworks.get("ms-swift")
    assert fw.defaults("3.2.1", "rlhf").get("enable_prefix_caching") is True
    assert "enable_prefix_caching" not in fw.defaults("3.2.1", "infer")


# L8: the same kernel on an fp8 (e4m3) KV cache below SM 8.9 (vLLM #10861: 2 x RTX 3090, 0.6.4.post1, 280K context)
from vllm_kb.engine.check.startup_prefix_prefill import prefix_prefill_fp8_facts  # noqa: E402

A3090 = {"compute_capability": 8.6}


def test_fp8_cache_below_89_runs_the_kernel_with_chunked_prefill():
    fp8 = {"kv_cache_dtype": "fp8"}
    assert prefix_prefill_fp8_facts(_facts(fp8, gpu=A3090), "0.6.4.post1", False, 280000, None) == {"prefill_triton_fp8": "chunked-default"}
    assert prefix_prefill_fp8_facts(_facts(fp8, gpu=A3090), "0.6.4.post1", False, 20000, None) == {}  # the reporter's fix
    assert prefix_prefill_fp8_facts(_facts({**fp8, "enable_chunked_prefill": True}, gpu=A3090), "0.8.5", False, 8192, None) == {
        "prefill_triton_fp8": "chunked"}
    assert prefix_prefill_fp8_facts(_facts({**fp8, "enable_prefix_caching": True}, gpu=A3090), "0.6.0", False, 8192, None) == {
        "prefill_triton_fp8": "prefix-caching"}


def test_fp8_cache_not_claimed_on_89_e5m2_v1_flashinfer_or_other_releases():
    on = {"kv_cache_dtype": "fp8", "enable_chunked_prefill": True}
    assert prefix_prefill_fp8_facts(_facts(on, gpu={"compute_capability": 8.9}), "0.6.4", False, 8192, None) == {}
    assert prefix_prefill_fp8_facts(_facts({**on, "kv_cache_dtype": "fp8_e5m2"}, gpu=A3090), "0.6.4", False, 8192, None) == {}
    assert prefix_prefill_fp8_facts(_facts(on, gpu=A3090), "0.8.5", True, 8192, None) == {}  # V1 attends elsewhere (L8's own rows)
    assert prefix_prefill_fp8_facts(_facts(on, gpu=A3090), "0.6.4", False, 8192, "FLASHINFER") == {}
    assert prefix_prefill_fp8_facts(_facts(on, gpu=A3090), "0.5.4", False, 8192, None) == {}  # no e4m3 view before 0.5.5
    assert prefix_prefill_fp8_facts(_facts(on, gpu=A3090), "0.11.0", False, 8192, None) == {}
    assert prefix_prefill_fp8_facts(_facts({"kv_cache_dtype": "auto", "enable_chunked_prefill": True}, gpu=A3090), "0.6.4", False,
                                    8192, None) == {}
