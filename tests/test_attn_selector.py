"""knowledge/vllm/attn_selector.yaml (tools/vllm_attn_selector.py) and paged_head_sizes.yaml
(tools/vllm_paged_heads.py): the 0.11.1+ CUDA selector replayed for a model on a GPU (L71) and the
head sizes V0's PagedAttention takes (L72)."""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from vllm_kb.engine.check.startup_paged import paged_facts
from vllm_kb.engine.check.startup_selector import _heads, selector_facts
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.model_config import arch_from_config

ROOT = Path(__file__).resolve().parent.parent
SDISTS = Path("/work/sdists/src")
KB = load()
SELECTOR = KB.doc("vllm", "attn_selector.yaml").data
PAGED = KB.doc("vllm", "paged_head_sizes.yaml").data
V32 = {"mla": True, "model_type": "deepseek_v32", "kv_lora_rank": 512, "qk_rope_head_dim": 64, "index_topk": 2048}
V3 = {"mla": True, "model_type": "deepseek_v3", "kv_lora_rank": 512, "qk_rope_head_dim": 64}
GLM5 = {"mla": True, "model_type": "glm_moe_dsa", "kv_lora_rank": 512, "qk_rope_head_dim": 64, "index_topk": 2048}
LLAMA = {"mla": False, "num_key_value_heads": 8}
GPT_OSS = {"mla": False, "num_key_value_heads": 8, "attention_sinks": True}


def _tool(name: str):
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def sel(version, cc, model, dtype="bfloat16", kv=None, backend=None, head=None):
    facts = {"model": model, "gpu": {"compute_capability": cc}, "engine": {"kv_cache_dtype": kv} if kv else {}}
    startup = {"dtype": dtype, "v1": True}
    if backend:
        startup["backend"] = backend
    if head:
        startup["head_size"] = head
    return selector_facts(facts, SELECTOR, version, startup)


@pytest.mark.parametrize("version,cc,model,fix,release", [
    ("0.13.0", 12.0, V32, "release", "0.24.0"),   # vLLM #31936: RTX PRO 6000, no sparse MLA backend for sm120
    ("0.14.0", 8.0, V32, "none", None),           # Ampere never
    ("0.34.0", 8.9, V32, "none", None),
    ("0.16.0", 8.0, GLM5, "none", None),          # zai-org/GLM-5 #13
    ("0.21.0", 8.9, GLM5, "none", None),          # vLLM #43172 (L40)
])
def test_no_valid_backend(version, cc, model, fix, release):
    got = sel(version, cc, model)
    assert got["attn_none_valid"] and got["attn_select_fix"] == fix
    assert got.get("attn_select_release") == release
    assert "FLASHMLA_SPARSE: [compute capability not supported]" in got["attn_none_reasons"]


def test_blackwell_mla_forced_to_cutlass_before_013():
    got = sel("0.12.0", 10.0, V32)                # vLLM #30214
    assert got["attn_forced_invalid"] and got["attn_forced_by_config"] and got["attn_forced_backend"] == "CUTLASS_MLA"
    assert got["attn_forced_reasons"] == "['sparse not supported']" and got["attn_select_release"] == "0.13.0"
    assert sel("0.12.0", 10.0, V3) == {}          # dense MLA: CUTLASS_MLA takes it
    assert sel("0.13.0", 10.0, V32) == {"attn_selected": "FLASHMLA_SPARSE"}  # no longer forced for sparse models
    assert sel("0.12.0", 10.3, V32) == {"attn_selected": "FLASHMLA_SPARSE"}  # B300: only 10.0 is forced


@pytest.mark.parametrize("version,cc,model,kw,backend", [
    ("0.12.0", 9.0, V32, {}, "FLASHMLA_SPARSE"),             # vLLM #30933: H200 runs FLASHMLA_SPARSE
    ("0.13.0", 9.0, V32, {}, "FLASHMLA_SPARSE"),             # vLLM #30832: H20
    ("0.24.0", 12.0, V32, {}, "FLASHINFER_MLA_SPARSE_SM120"),
    ("0.14.0", 8.0, V3, {}, "TRITON_MLA"),                   # dense MLA: TRITON_MLA everywhere
    ("0.14.0", 7.5, LLAMA, {"head": 72}, "TRITON_ATTN"),     # Triton takes 72, Flex any size
    # vLLM #40153 (control): FlashAttention takes sinks only as FA3 (9.x) and FlashInfer's rule is a
    # runtime probe, so the selector moves on to Triton, which runs the sinks there (the report's log)
    ("0.19.1", 12.0, GPT_OSS, {"head": 64}, "TRITON_ATTN"),
    ("0.14.0", 9.0, V32, {"kv": "fp8"}, "FLASHMLA_SPARSE"),  # rewritten to fp8_ds_mla, which FLASHMLA_SPARSE takes
    # an fp8 cache: FlashAttention only as FA3 on 9.x (fa_utils.flash_attn_supports_fp8), else FlashInfer
    # for its head sizes, else Triton (whose e4m3 cache L8 judges per GPU)
    ("0.14.0", 9.0, LLAMA, {"head": 128, "kv": "fp8"}, "FLASH_ATTN"),
    ("0.14.0", 8.0, LLAMA, {"head": 128, "kv": "fp8"}, "FLASHINFER"),
    ("0.18.0", 8.6, LLAMA, {"head": 96, "kv": "fp8_e5m2"}, "TRITON_ATTN"),
    ("0.18.0", 8.6, LLAMA, {"head": 96}, "FLASH_ATTN"),
])
def test_a_backend_is_found(version, cc, model, kw, backend):
    assert sel(version, cc, model, **kw) == {"attn_selected": backend}


def test_unknowns_refuse_nothing():
    assert sel("0.14.0", None, V32) == {}                                   # GPU unknown
    assert sel("0.14.0", 8.0, {"kv_lora_rank": 256, "mla": True, "model_type": "minicpm3"}) == {}  # not vLLM's MLA
    assert sel("0.11.0", 8.0, V32) == {}                                    # before the validating selector
    assert sel("0.14.0", 8.0, {}) == {}                                     # MLA or not unknown
    # sparse + an FP8 cache: DeepSeek V3.2's hook rewrites it in some releases, so the dtype is not judged
    assert sel("0.14.0", 9.0, V32, kv="fp8_e4m3") == {"attn_selected": "FLASHMLA_SPARSE"}


def test_fixes_in_this_release():
    got = sel("0.14.0", 8.0, V3, dtype="float32")  # no MLA backend takes float32
    assert got["attn_none_valid"] and "dtype not supported" in got["attn_none_reasons"]
    forced = sel("0.14.0", 8.0, GPT_OSS, backend="FLEX_ATTENTION", head=64)
    assert forced["attn_forced_invalid"] and forced["attn_select_fix"] == "unset_backend"
    assert "sink setting not supported" in forced["attn_forced_reasons"]


def test_head_size_runs():
    assert _heads("any", 7) and _heads("32-96/8,100,104-1024/8", 100) and _heads("32-96/8", 72)
    assert not _heads("32-96/8", 76) and not _heads("64,128,256", 80)


def test_table_spans_cover_the_validating_releases():
    releases = SELECTOR["releases"]
    assert releases[0] == "0.11.1" and releases[-1] == "0.34.0"
    for span in SELECTOR["spans"]:
        for names in list(span["mla"].values()) + list(span["other"].values()):
            assert set(names) <= set(span["backends"]), span["first"]
    first = SELECTOR["spans"][0]
    assert first["backends"]["FLASHMLA_SPARSE"]["cc"] == [9.0, 10.0, 10.3]
    assert first["forced_mla"] == {"cc": [10.0], "backend": "CUTLASS_MLA", "line": 192}


# --- V0 PagedAttention head sizes (L72) ------------------------------------------------------

def paged(version, head, cc=8.0, dtype="float16", backend=None, v1=False, model=None):
    startup = {"head_size": head, "dtype": dtype, "v1": v1}
    if backend:
        startup["backend"] = backend
    facts = {"model": model or {}, "gpu": {"compute_capability": cc}, "vllm": {"version": version}}
    return paged_facts(facts, PAGED, SELECTOR, version, startup)


@pytest.mark.parametrize("version,head,cc,dtype,why,pin", [
    ("0.1.1", 256, 8.0, "float16", "kernel", ">=0.1.3"),    # vLLM #302
    ("0.1.1", 100, 8.0, "float16", "kernel", ">=0.11.1"),   # vLLM #336: only the 0.11.1+ Triton backend takes 100
    ("0.4.0", 160, 8.0, "bfloat16", "both", ">=0.4.3"),     # vLLM #3952: FlashAttention decoded with PagedAttention
    ("0.6.0", 72, 7.5, "float16", "gpu", ">=0.11.1"),       # XFormers on Turing
    ("0.6.0", 72, 8.0, "float16", "head", ">=0.11.1"),      # FlashAttention lacks 72, XFormers too
])
def test_paged_refusals(version, head, cc, dtype, why, pin):
    got = paged(version, head, cc, dtype)
    assert got["paged_refused"] and got["paged_why"] == why and got.get("paged_pin") == pin
    assert "{" not in got["paged_error"] and str(head) in got["paged_error"]


def test_paged_alternatives_and_quiet_cases():
    assert paged("0.6.0", 160, 8.0, "float32")["paged_alt"] == "dtype"
    assert paged("0.6.0", 160, 8.0, "float16", backend="XFORMERS")["paged_alt"] == "unset_backend"
    assert paged("0.6.0", 160, 8.0, "float16") == {}         # FlashAttention takes 160
    assert paged("0.6.0", 80, 7.5, "float16") == {}          # PagedAttention takes 80
    assert paged("0.8.5", 72, 8.0, v1=True) == {}            # the V1 engine: L13
    assert paged("0.6.0", 72, None, "float16")["paged_why"] == "head"  # FlashAttention lacks 72 whatever the GPU
    assert paged("0.6.0", 72, 8.0, backend="FLASHINFER") == {}
    assert paged("0.6.0", 192, 8.0, model={"kv_lora_rank": 512}) == {}  # MLA


def test_paged_table():
    spans = {s["first"]: s for s in PAGED["spans"]}
    assert spans["0.1.0"]["paged"] == [64, 80, 96, 128] and spans["0.1.3"]["paged"][-1] == 256
    assert spans["0.4.0"]["fa_paged"] is True and spans["0.4.3"]["fallback"] is True
    assert PAGED["releases"][-1] == "0.10.2"


def test_index_topk_is_read_from_config():
    cfg = {"num_hidden_layers": 61, "hidden_size": 7168, "num_attention_heads": 128, "kv_lora_rank": 512,
           "qk_rope_head_dim": 64, "index_topk": 2048, "model_type": "deepseek_v32"}
    assert arch_from_config(cfg)["index_topk"] == 2048


@pytest.mark.skipif(not os.environ.get("VLLM_KB_SDISTS_CHECK") or not SDISTS.is_dir(),
                    reason="re-reads every release (set VLLM_KB_SDISTS_CHECK=1 where the sdists are unpacked)")
@pytest.mark.parametrize("tool,table", [("vllm_attn_selector", "attn_selector.yaml"), ("vllm_paged_heads", "paged_head_sizes.yaml")])
def test_tables_are_what_the_sources_say(tool, table):
    mod = _tool(tool)
    assert mod.dump(mod.build([SDISTS])) == (ROOT / "knowledge" / "vllm" / table).read_text(encoding="utf-8")


def test_evaluator_reads_a_backend(tmp_path):
    pkg = tmp_path / "vllm" / "v1" / "attention"
    pkg.mkdir(parents=True)
    (pkg / "backend.py").write_text(
        "class AttentionBackend:\n"
        "    supported_dtypes = [torch.float16, torch.bfloat16]\n"
        "    @classmethod\n"
        "    def get_supported_head_sizes(cls):\n        return []\n"
        "    @classmethod\n"
        "    def supports_head_size(cls, head_size):\n"
        "        s = cls.get_supported_head_sizes()\n        return (not s) or head_size in s\n"
        "    @classmethod\n"
        "    def supports_compute_capability(cls, capability):\n        return True\n", encoding="utf-8")
    (pkg / "mine.py").write_text(
        "from vllm.v1.attention.backend import AttentionBackend\n"
        "class Mine(AttentionBackend):\n"
        "    @classmethod\n"
        "    def get_supported_head_sizes(cls):\n        return [64, 128]\n"
        "    @classmethod\n"
        "    def supports_compute_capability(cls, capability):\n"
        "        return capability >= DeviceCapability(9, 0) and capability.major != 12\n"
        "    @classmethod\n"
        "    def supports_sink(cls):\n        return flash_attn_supports_sinks()\n", encoding="utf-8")
    mod = _tool("vllm_attn_selector")
    facts = mod.backend_facts(mod.World(tmp_path), "vllm.v1.attention.mine.Mine")
    assert facts["head_sizes"] == "64,128" and facts["cc"] == [9.0, 10.0, 10.3, 11.0]
    assert facts["sink"] is None  # a runtime probe: not known


def test_diagnose_names_the_selector_for_a_model_feature_and_l13_for_the_gpu():
    from vllm_kb.engine.advise.diagnose import launch

    hits = launch.recognise(KB, "ValueError: Selected backend AttentionBackendEnum.CUTLASS_MLA is not valid for this "
                                "configuration. Reason: ['sparse not supported']")  # vLLM #30214
    assert [h.id for h in hits][:2] == ["L71", "L13"]
    hits = launch.recognise(KB, "ValueError: Selected backend AttentionBackendEnum.FLASH_ATTN is not valid for this "
                                "configuration. Reason: ['compute capability not supported']")
    assert hits[0].id == "L13"
    hits = launch.recognise(KB, "ValueError: No valid attention backend found for cuda with AttentionSelectorConfig("
                                "head_size=576, dtype=torch.bfloat16, use_mla=True, use_sparse=True). Reasons: "
                                "{FLASHMLA_SPARSE: [compute capability not supported]}.")  # vLLM #31936
    assert hits[0].id == "L71"


def test_fp8_cache_on_triton_is_not_proposed():
    from vllm_kb.engine.check.startup_selector import fp8_cache_on_triton

    def on(version, cc, head, backend=None):
        facts = {"model": LLAMA, "gpu": {"compute_capability": cc}, "engine": {}}
        startup = {"dtype": "bfloat16", "v1": True, "head_size": head, **({"backend": backend} if backend else {})}
        return fp8_cache_on_triton(facts, SELECTOR, version, startup)

    assert on("0.11.0", 8.6, 128)                  # 0.11.0: every fp8 cache off Hopper goes to Triton
    assert on("0.18.0", 8.6, 96)                   # FlashInfer lacks 96, FlashAttention 2 any fp8
    assert not on("0.18.0", 8.6, 128)              # FlashInfer takes it
    assert not on("0.18.0", 8.9, 96)               # Triton has e4m3 from 8.9
    assert on("0.18.0", 8.0, 128, "TRITON_ATTN")   # forced
    assert not on("0.24.0", 8.6, 96)               # 0.24.0+: left to the KV table


GEMMA4 = {"mla": False, "model_type": "gemma4", "head_dim": 256, "global_head_dim": 512}
R1_NVFP4 = {**V3, "quant_method": "modelopt_fp4", "quant_kv_cache": "fp8"}


@pytest.mark.parametrize("version,cc,backend,refused", [
    ("0.19.1", 12.0, "FLASHINFER", True),    # vLLM #40677: FlashInfer takes 64/128/256 before 0.22.0
    ("0.21.0", 8.9, "FLASHINFER", True),
    ("0.22.0", 12.0, "FLASHINFER", False),   # 512 from 0.22.0
    ("0.19.1", 8.9, "FLASH_ATTN", True),     # FlashAttention stops at 256
    ("0.19.1", 8.9, "TRITON_ATTN", False),
    ("0.19.1", 8.9, None, False),            # vLLM #38887: unforced, Triton takes both sizes
])
def test_gemma4_full_attention_layers_are_validated(version, cc, backend, refused):
    got = sel(version, cc, GEMMA4, backend=backend)
    assert bool(got.get("attn_forced_invalid")) is refused and not got.get("attn_none_valid")
    if refused:
        assert got["attn_forced_reasons"] == "['head_size not supported']" and got["attn_select_fix"] == "unset_backend"


@pytest.mark.parametrize("version,cc,kv,none_valid", [
    ("0.13.0", 12.0, None, False),   # the setting's auto stays the model dtype
    ("0.14.0", 12.0, None, True),    # vLLM #32732: auto is the checkpoint's fp8_e4m3, Triton MLA refuses it
    ("0.17.1", 12.0, None, True),
    ("0.18.0", 12.0, None, False),   # Triton MLA takes fp8 from 0.18.0
    ("0.14.0", 10.0, None, False),   # B200: FlashInfer / CUTLASS MLA take it
    ("0.15.0", 12.0, "bfloat16", False),  # Triton MLA takes a bfloat16 cache from 0.15.0
])
def test_modelopt_fp8_kv_cache_reaches_the_selector(version, cc, kv, none_valid):
    got = sel(version, cc, R1_NVFP4, kv=kv)
    assert bool(got.get("attn_none_valid")) is none_valid
    if none_valid:
        assert got["attn_kv_checkpoint"] == "fp8_e4m3" and got["attn_select_fix"] == "release"
        assert got["attn_select_release"] == "0.18.0"


def test_dropping_the_kv_setting_is_no_fix_where_auto_is_the_checkpoints_fp8():
    got = sel("0.14.0", 12.0, R1_NVFP4, kv="bfloat16")
    assert got["attn_none_valid"] and got["attn_select_fix"] == "release" and "attn_kv_checkpoint" not in got


def test_modelopt_kv_cache_is_read_from_the_config():
    from vllm_kb.engine.kb.model_config import config_scalars
    for quant, want in (({"quant_method": "modelopt", "quantization": {"quant_algo": "NVFP4", "kv_cache_quant_algo": "FP8"}}, "fp8"),
                        ({"quant_method": "modelopt", "kv_cache_quant_algo": None}, None),
                        ({"quant_method": "fp8", "kv_cache_quant_algo": "FP8"}, None)):
        facts = {"quant_kv_cache": "fp8"}
        config_scalars(facts, {"quantization_config": quant}, None)
        assert facts.get("quant_kv_cache") == want
