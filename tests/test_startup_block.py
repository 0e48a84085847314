"""A block size FlashAttention's / Triton's V1 backend cannot lay out (eval59: vLLM #15508, --block-size 8 on 0.8.1):
judged only where V1 of 0.8.0-0.11.0 picks one of them without asking about the block size."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_block import block_facts
from vllm_kb.engine.kb.versions import Version

PLAIN = {"name": "Qwen/Qwen2.5-7B-Instruct", "num_key_value_heads": 4}


def facts(size, model=PLAIN, cc=8.9):
    return {"engine": {"block_size": size}, "model": model, "gpu": {"compute_capability": cc}}


@pytest.mark.parametrize("version,backend,want", [
    ("0.8.1", "FLASH_ATTN", "FlashAttention"),
    ("0.10.2", "FLASH_ATTN", "FlashAttention"),
    ("0.11.0", "TRITON_ATTN", "Triton"),       # sinks, or an fp8 cache off Hopper
    ("0.8.2", "TRITON_ATTN", None),             # Triton raises from 0.8.5 (and V1 picks it on CUDA from 0.10.1)
    ("0.11.1", "FLASH_ATTN", None),             # the selector validates supports_block_size
    ("0.10.2", "FLEX_ATTENTION", None),         # FlexAttention takes any size
    ("0.9.2", None, None),                      # a backend this audit cannot tell (Blackwell's FlashInfer)
])
def test_v1_backends_refuse_a_block_size_not_a_multiple_of_16(version, backend, want):
    got = block_facts(facts(8), version, {"v1": True, "attn_backend": backend})
    assert got.get("block_backend") == want and bool(got.get("block_refused")) == bool(want)


@pytest.mark.parametrize("size", [16, 32, 128, None])
def test_a_multiple_of_16_or_no_size_is_fine(size):
    assert block_facts(facts(size), "0.8.1", {"v1": True, "attn_backend": "FLASH_ATTN"}) == {}


def test_v0_falls_back_to_xformers():
    assert block_facts(facts(8), "0.8.1", {"v1": False, "attn_backend": "FLASH_ATTN"}) == {}


@pytest.mark.parametrize("model", [{**PLAIN, "mla": True, "kv_lora_rank": 512}, {**PLAIN, "ssm": {"kind": "mamba2"}}])
def test_mla_and_hybrid_models_are_not_judged(model):
    assert block_facts(facts(8, model), "0.8.1", {"v1": True, "attn_backend": "FLASH_ATTN"}) == {}


@pytest.mark.parametrize("version,selected,want", [
    ("0.13.0", "FLASH_ATTN", "FlashAttention"),
    ("0.17.1", "FLASHINFER", "FlashInfer"),
    ("0.15.0", "TRITON_ATTN", "Triton"),
    ("0.15.0", "FLEX_ATTENTION", None),
    ("0.12.0", "FLASH_ATTN", None),  # the selector weighs the block size: FlexAttention
    ("0.18.0", "FLASH_ATTN", None),  # again, with a warning
])
def test_releases_that_drop_the_block_size_before_selecting(version, selected, want):
    got = block_facts(facts(8), version, {"v1": True, "attn_selected": selected})
    assert got.get("block_backend") == want
    if want:
        assert got["block_error"] == "No common block size for 8."


def test_a_forced_backend_stops_there_too_unless_the_selector_refuses_it_first():
    assert block_facts(facts(8), "0.15.0", {"v1": True, "backend": "TRITON_ATTN"})["block_backend"] == "Triton"
    assert block_facts(facts(8), "0.15.0", {"v1": True, "backend": "FLASH_ATTN", "attn_forced_invalid": True}) == {}
    assert block_facts(facts(8, cc=7.5), "0.8.1", {"v1": True, "attn_backend": "FLASH_ATTN"}) == {}


@pytest.mark.parametrize("version,forced,want", [
    ("0.11.1", "FLASH_ATTN", True), ("0.12.0", "TRITON_ATTN", True), ("0.18.0", "FLASHINFER", True), ("0.34.0", "FLASH_ATTN", True),
    ("0.18.0", "FLEX_ATTENTION", False), ("0.18.0", None, False),
])
def test_a_forced_backend_validated_with_the_block_size(version, forced, want):
    got = block_facts(facts(8), version, {"v1": True, "backend": forced})
    assert bool(got.get("block_forced")) == want
    if want and Version(version) >= Version("0.18.0"):
        assert got["block_error"].endswith("Reason: ['block_size not supported']") and forced in got["block_error"]
    elif want:
        # review20: 0.11.1-0.12.0 validate a forced backend with block_size None (vllm/platforms/cuda.py
        # 0.11.1:358-366) and take it; the KV cache setup then raises (gpu_model_runner.py 0.11.1:4655)
        assert got["block_error"] == "No common block size for 8."


def test_a_latent_rank_the_release_runs_as_plain_attention_is_judged():
    # review8: MiniCPM3 has kv_lora_rank but no release lists minicpm3 as MLA (engine/kb/mla.py)
    minicpm3 = {**PLAIN, "kv_lora_rank": 256, "model_type": "minicpm3", "mla": False, "mla_release": False}
    got = block_facts(facts(8, minicpm3), "0.10.2", {"v1": True, "attn_backend": "FLASH_ATTN"})
    assert got.get("block_backend") == "FlashAttention"


@pytest.mark.parametrize("version,model,platform,want", [
    # review20: from 0.21.0 FlexAttention takes multiples of 16 only (vLLM PR #41363), so no CUDA backend of a
    # model without MLA takes 8 and get_valid_backends raises (vllm/platforms/cuda.py 0.21.0:336, 0.34.0:514)
    ("0.21.0", {**PLAIN, "mla": False, "family": "qwen2.5"}, None, True),
    ("0.34.0", {**PLAIN, "mla": False, "family": "qwen2.5"}, "cuda", True),
    ("0.20.0", {**PLAIN, "mla": False, "family": "qwen2.5"}, None, False),  # FlexAttention still takes it
    ("0.21.0", PLAIN, None, False),                                          # MLA not known: Triton MLA takes any
    ("0.21.0", {**PLAIN, "mla": False, "family": "qwen2.5"}, "rocm", False),
])
def test_no_cuda_backend_takes_the_block_size_from_0_21(version, model, platform, want):
    f = facts(8, model)
    if platform:
        f["site"] = {"platform": platform}
    got = block_facts(f, version, {"v1": True})
    assert bool(got.get("block_refused")) == want
    if want:
        assert got["block_error"].startswith("No valid attention backend found for cuda") and "block_size=8" in got["block_error"]
