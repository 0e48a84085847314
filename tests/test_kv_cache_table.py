"""knowledge/vllm/kv_cache.yaml (tools/vllm_kv_cache.py): where the attention backend vLLM picks by
itself refuses an FP8 KV cache, and the `startup.kv_*` facts L8 reads from it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from vllm_kb.engine.check.startup_kv import kv_facts
from vllm_kb.engine.kb.knowledge import load

ROOT = Path(__file__).resolve().parent.parent
TABLE = load().doc("vllm", "kv_cache.yaml").data
LLAMA = {"num_key_value_heads": 8, "mla": False}
DEEPSEEK = {"mla": True, "kv_lora_rank": 512}


def facts(version, cc, model, kv="fp8", env=None):
    return kv_facts({"engine": {"kv_cache_dtype": kv}, "env": env or {}, "gpu": {"compute_capability": cc},
                     "model": model}, TABLE, version, None)


@pytest.mark.parametrize("version,cc,model,kv,env,backend,fix", [
    ("0.8.5", 9.0, DEEPSEEK, "fp8", {"VLLM_USE_V1": "1"}, "FLASHMLA", "auto"),       # vLLM #18888
    ("0.9.1", 8.0, DEEPSEEK, "fp8", {}, "TRITON_MLA", "auto"),                        # V0 fallback refuses too
    ("0.11.0", 8.0, DEEPSEEK, "fp8", {}, "TRITON_MLA", "auto"),
    ("0.16.0", 8.6, DEEPSEEK, "fp8", {}, "(selector)", "auto"),                       # no MLA backend takes fp8 below Hopper
    ("0.16.0", 7.0, LLAMA, "fp8", {}, "TRITON_ATTN", "auto"),                         # vLLM PR 35720 (V100)
    ("0.11.0", 7.0, LLAMA, "fp8", {}, "FLEX_ATTENTION", "auto"),
    ("0.8.5", 8.0, LLAMA, "fp8", {"VLLM_USE_V1": "1"}, "V1 engine", "unset_v1"),
])
def test_refusals(version, cc, model, kv, env, backend, fix):
    got = facts(version, cc, model, kv, env)
    assert got["kv_refused"] and got["kv_backend"] == backend and got["kv_fix"] == fix
    assert "{" not in got["kv_error"]


@pytest.mark.parametrize("version,cc,model,kv,env", [
    ("0.8.5", 8.0, LLAMA, "fp8", {}),           # V1 falls back to V0, which runs it
    ("0.8.5", 9.0, LLAMA, "fp8", {"VLLM_USE_V1": "1"}),  # FA3 on Hopper takes it
    ("0.16.0", 8.0, LLAMA, "fp8", {}),          # FlashInfer takes it on Ampere
    ("0.16.0", 7.5, LLAMA, "fp8", {}),          # and on Turing
    ("0.16.0", 7.0, LLAMA, "fp8_e5m2", {}),     # Triton has fp8e5 on Volta
    ("0.16.0", 9.0, DEEPSEEK, "fp8", {}),       # FlashMLA on Hopper
    ("0.20.0", 8.0, DEEPSEEK, "fp8", {}),       # Triton MLA takes fp8 from 0.18
    ("0.7.3", 8.0, LLAMA, "fp8", {}),           # V0 only
])
def test_no_refusal(version, cc, model, kv, env):
    assert facts(version, cc, model, kv, env) == {}


def test_unknown_model_kind_or_gpu_or_forced_backend():
    assert facts("0.8.5", 9.0, {}) == {}
    assert facts("0.8.5", None, DEEPSEEK) == {}  # FlashMLA on Hopper only
    assert facts("0.9.1", None, DEEPSEEK, env={"VLLM_USE_V1": "1"}) == {}  # Hopper's FlashMLA V1 words it otherwise
    forced = {"engine": {"kv_cache_dtype": "fp8"}, "gpu": {"compute_capability": 9.0}, "model": DEEPSEEK}
    assert kv_facts(forced, TABLE, "0.8.5", "TRITON_MLA") == {}
    # vLLM #16165: a forced backend is not FlashAttention, so V1 (forced on) refuses the FP8 cache even on Hopper
    forced = {"engine": {"kv_cache_dtype": "fp8"}, "env": {"VLLM_USE_V1": "1"}, "gpu": {}, "model": LLAMA}
    assert kv_facts(forced, TABLE, "0.8.3", "FLASHINFER")["kv_fix"] == "unset_v1"
    assert kv_facts(forced, TABLE, "0.8.3", "FLASH_ATTN_VLLM_V1") == {}


def test_every_row_cites_releases_inside_its_range():
    from vllm_kb.engine.kb.versions import SpecifierSet

    for row in TABLE["rows"]:
        assert all(SpecifierSet(row["vllm"]).contains(s["release"]) for s in row["source"]), row


@pytest.mark.skipif(not os.environ.get("VLLM_KB_SDISTS_CHECK") or not Path("/work/sdists/src").is_dir(),
                    reason="re-reads every release (set VLLM_KB_SDISTS_CHECK=1 where the sdists are unpacked)")
def test_table_is_what_the_sources_say():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "vllm_kv_cache.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_model_nothing_describes_is_judged_only_where_both_kinds_refuse():
    # review8: a local path outside the catalog with no config has mla False by default (models.py FLAGS);
    # that says nothing of its attention, so only a refusal MLA and multi-head models share is a verdict
    unknown = {"name": "/models/x", "mla": False, "moe": False}
    assert facts("0.11.0", 7.0, unknown)["kv_refused"]               # FLEX_ATTENTION and TRITON_MLA both refuse
    assert facts("0.20.0", 7.0, LLAMA)["kv_backend"] == "TRITON_ATTN"
    assert facts("0.20.0", 7.0, unknown) == {}                       # an MLA model's backend takes fp8 there
