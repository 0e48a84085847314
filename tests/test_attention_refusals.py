"""knowledge/vllm/attention_refusals.yaml (tools/vllm_attention_refusals.py): which attention backend
of each release refuses logits soft-capping or attention sinks, the backend a release picks
(engine/check/startup_attn.py), and the model facts those rest on."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from release_tree import write_release
from vllm_kb.engine.check.startup_attn import attn_facts, model_features
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.model_config import arch_from_config, config_scalars

ROOT = Path(__file__).resolve().parent.parent
TABLE = load().doc("vllm", "attention_refusals.yaml").data
GEMMA2 = {"attn_logit_softcapping": 50.0}
GPT_OSS = {"attention_sinks": True}


def _tool():
    spec = importlib.util.spec_from_file_location("vllm_attention_refusals", ROOT / "tools" / "vllm_attention_refusals.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def facts(version, cc, model, forced=None, v1=True, **startup):
    return attn_facts({"model": model, "gpu": {"compute_capability": cc}}, TABLE, version, forced,
                      {"v1": v1, **startup})


@pytest.mark.parametrize("version,cc,model,forced,v1,backend,words", [
    ("0.5.1", 8.0, GEMMA2, None, False, "FLASH_ATTN", "Please use Flashinfer backend"),   # every backend but FlashInfer
    ("0.5.3", 8.0, GEMMA2, None, False, "FLASH_ATTN", "Please use Flashinfer backend"),
    ("0.5.3", 7.5, GEMMA2, None, False, "XFORMERS", "Please use Flashinfer backend"),
    ("0.6.0", 7.5, GEMMA2, None, False, "XFORMERS", "XFormers does not support attention logits soft capping."),
    ("0.6.0", 7.5, GEMMA2, "FLASH_ATTN", False, "XFORMERS", "XFormers does not"),          # V0 swaps FA for XFormers
    ("0.11.0", 7.5, GEMMA2, None, True, "FLEX_ATTENTION", "FlexAttention does not support logits soft cap yet."),
    ("0.20.0", 9.0, GEMMA2, "FLEX_ATTENTION", True, "FLEX_ATTENTION", "FlexAttention does not support logits soft cap"),
    ("0.10.2", 8.0, GPT_OSS, "FLASH_ATTN", True, "FLASH_ATTN", "Sinks are only supported in FlashAttention 3"),
    ("0.10.2", 9.0, GPT_OSS, "FLASHINFER", True, "FLASHINFER", "FlashInfer backend currently does not support attention sinks"),
    ("0.20.0", 8.9, GPT_OSS, "FLASH_ATTN", True, "FLASH_ATTN", "Sinks are only supported"),
    # VLLM_USE_V1=0: V0's FlashAttentionImpl takes no sinks on Hopper either (FA3 is V1's Impl only)
    ("0.10.1", 9.0, GPT_OSS, None, False, "FLASH_ATTN", "FlashAttentionImpl.__init__() got an unexpected keyword argument 'sinks'"),
    ("0.10.2", 9.0, GPT_OSS, None, False, "FLASH_ATTN", "FlashAttentionImpl.__init__() got an unexpected keyword argument 'sinks'"),
    ("0.10.1.1", 7.5, GPT_OSS, None, False, "XFORMERS", "XFormersImpl.__init__() got an unexpected keyword argument 'sinks'"),
    # no GPU given: V0 picks FlashAttention or XFormers, and neither Impl takes sinks (wagerc97/gpt-oss-alignment, eval79)
    ("0.10.1", None, GPT_OSS, None, False, "FLASH_ATTN", "unexpected keyword argument 'sinks'"),
])
def test_refused(version, cc, model, forced, v1, backend, words):
    got = facts(version, cc, model, forced, v1)
    assert got["attn_backend"] == backend
    assert words in got["attn_error"] and got["attn_refusal"]["file"].endswith(".py")


@pytest.mark.parametrize("version,cc,model,forced,v1", [
    ("0.5.1", 8.0, GEMMA2, "FLASHINFER", False),   # what vLLM asks for
    ("0.5.4", 8.0, GEMMA2, None, False),           # FlashAttention soft-caps from 0.5.4
    ("0.6.5", 7.5, GEMMA2, None, False),           # XFormers only warns from 0.6.5
    ("0.11.1", 7.5, GEMMA2, None, True),           # the validating selector picks FlashInfer / Triton
    ("0.10.2", 8.0, GPT_OSS, None, True),          # sinks off Hopper: Triton by itself
    ("0.10.2", 9.0, GPT_OSS, "FLASH_ATTN", True),  # FA3 runs sinks
    ("0.10.2", 10.0, GPT_OSS, "FLASHINFER", True), # TRT-LLM kernels on Blackwell
    ("0.20.0", 10.0, GPT_OSS, "FLASH_ATTN", True), # Blackwell's FA version varies: not claimed
    ("0.11.0", 8.0, {}, "FLEX_ATTENTION", True),   # nothing to refuse
    ("0.11.0", None, GEMMA2, None, True),          # GPU unknown
    ("0.6.0", None, GEMMA2, None, False),          # GPU unknown in V0: XFormers refuses soft-capping, FlashAttention not
])
def test_quiet(version, cc, model, forced, v1):
    assert "attn_refusal" not in facts(version, cc, model, forced, v1)


def test_validated_from_0111():
    assert facts("0.20.0", 8.0, GPT_OSS, "FLASH_ATTN")["attn_validated"] is True
    assert facts("0.10.2", 8.0, GPT_OSS, "FLASH_ATTN")["attn_validated"] is False


def test_model_features_from_config():
    dims = arch_from_config({"model_type": "gemma2", "num_hidden_layers": 26, "hidden_size": 2304,
                             "attn_logit_softcapping": 50.0, "sliding_window": 4096})
    assert dims["attn_logit_softcapping"] == 50.0 and model_features(dims) == ["soft_cap"]
    # Gemma 3 writes null: nothing to refuse, and it clears the family's value
    dims = arch_from_config({"model_type": "gemma3_text", "num_hidden_layers": 26, "hidden_size": 1152,
                             "attn_logit_softcapping": None})
    assert dims["attn_logit_softcapping"] is None and model_features(dims) == []
    f: dict = {}
    config_scalars(f, {"model_type": "gpt_oss", "architectures": ["GptOssForCausalLM"]}, None)
    assert f["attention_sinks"] is True and model_features(f) == ["sinks"]


def test_catalog_features():
    from vllm_kb.engine.kb.models import model_facts
    kb = load()
    fams = kb.doc("models.yaml").data["families"]
    assert model_facts("google/gemma-2-9b-it", fams, [])["attn_logit_softcapping"] == 50.0
    assert model_facts("openai/gpt-oss-120b", fams, [])["attention_sinks"] is True
    assert model_facts("meta-llama/Llama-3.1-8B-Instruct", fams, [])["attention_sinks"] is False


def test_table_spans():
    rows = {(r["feature"], r["engine"], r["backend"]): r for r in TABLE["refusals"]}
    assert (rows[("soft_cap", "v0", "XFORMERS")]["first"], rows[("soft_cap", "v0", "XFORMERS")]["last"]) in (("0.5.3", "0.5.3"), ("0.5.4", "0.6.4"))
    assert rows[("soft_cap", "v1", "FLEX_ATTENTION")]["first"] == "0.9.1"
    assert rows[("sinks", "v1", "FLASH_ATTN")]["first"] == "0.10.1"


def test_tool_reads_a_release(tmp_path):
    tool = _tool()
    write_release(tmp_path / "0.6.0", {
        "vllm/attention/backends/xformers.py": """
            class XFormersImpl:
                def __init__(self, logits_soft_cap=None, sliding_window=None):
                    if logits_soft_cap is not None:
                        raise ValueError(
                            "XFormers does not support "
                            "attention logits soft capping.")
                    assert x, "Sinks must have the same number of heads"
        """,
        "vllm/v1/attention/backends/flash_attn.py": """
            def f(sinks):
                assert version == 3, ("Sinks are only supported in FlashAttention 3")
        """,
    })
    write_release(tmp_path / "0.6.1", {"vllm/attention/backends/xformers.py": "x = 1\n"})
    data = tool.scan([tmp_path])
    got = {(r["feature"], r["backend"], r["first"], r["last"], r["text"]) for r in data["refusals"]}
    assert got == {("soft_cap", "XFORMERS", "0.6.0", "0.6.0", "XFormers does not support attention logits soft capping."),
                   ("sinks", "FLASH_ATTN", "0.6.0", "0.6.0", "Sinks are only supported in FlashAttention 3")}
    assert "refusals:" in tool.dump(data)


def test_gptoss_preview_build_runs_sinks_with_flash_attention():
    """The gpt-oss preview build predates 0.10.1's Triton fallback for sinks off Hopper (vLLM #22290)."""
    def preview(cc):
        return attn_facts({"model": GPT_OSS, "gpu": {"compute_capability": cc}, "vllm": {"version": "0.10.1+gptoss"}},
                          TABLE, "0.10.1", None, {"v1": True})
    got = preview(8.0)
    assert got["attn_backend"] == "FLASH_ATTN" and got["attn_preview_build"] == "gptoss"
    assert "Sinks are only supported in FlashAttention 3" in got["attn_error"]
    assert "attn_refusal" not in preview(9.0)     # FA3 on Hopper
    assert "attn_refusal" not in preview(10.0)    # Blackwell: TRT-LLM kernels
    assert "attn_refusal" not in facts("0.10.1", 8.0, GPT_OSS)  # the release: Triton


def test_gptoss_image_tag_is_the_preview_build(tmp_path):
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.scan.images import image_version

    assert image_version("vllm/vllm-openai:gptoss") == "0.10.1+gptoss"
    assert image_version("someone/vllm:gptoss") is None  # only the official image's tag
    (tmp_path / "docker-compose.yaml").write_text(
        "services:\n  llm:\n    image: vllm/vllm-openai:gptoss\n    command: [\"--model\", \"openai/gpt-oss-20b\"]\n")

    def p0(gpu):
        return {r.check.id for sr in audit(tmp_path, gpu=gpu).sites for r in sr.results
                if r.status == "recommended" and r.priority == "P0"}
    assert "L65" in p0("A100-80GB")
    assert "L65" not in p0("H100-80GB")


@pytest.mark.parametrize("version,forced,model,refused", [
    ("0.19.1", "ROCM_ATTN", GPT_OSS, True),          # rocm_attn.py supports_sink() False from 0.19.0
    ("0.18.0", "ROCM_ATTN", GPT_OSS, False),         # 0.18.x's ROCM_ATTN declares sinks
    ("0.20.0", "ROCM_AITER_FA", GPT_OSS, True),       # the base class's default, through 0.22.1
    ("0.23.0", "ROCM_AITER_FA", GPT_OSS, False),
    ("0.19.1", "ROCM_AITER_UNIFIED_ATTN", GPT_OSS, False),
    ("0.19.1", "ROCM_ATTN", GEMMA2, False),           # no sinks: nothing refused
    ("0.19.1", None, GPT_OSS, False),
])
def test_rocm_backend_sinks(version, forced, model, refused):
    got = facts(version, None, model, forced)
    assert (got.get("attn_nosink_backend") == forced) is refused if forced else "attn_nosink_backend" not in got


def test_l65_rocm_rule_judged_on_rocm():
    """L65 reads the CUDA compute capability, so it is CUDA-only; its ROCm rules (sinks 0.18+, soft-capping
    0.5.1-0.5.3 and 0.5.4-0.7.0) still run on ROCm."""
    check = next(c for c in load().checks if c.id == "L65")
    assert check.cuda_only and [r.index for r in check.rules if r.rocm] == [0, 1, 2]


SELECTOR = load().doc("vllm", "attn_selector.yaml").data


@pytest.mark.parametrize("version,cc,refused", [
    ("0.27.1", 9.0, True),    # supports_sink: TRT-LLM on the 10.x family only
    ("0.30.0", 9.0, False),   # Hopper and 12.x take TRT-LLM's decode kernels where FlashInfer's cubins are
    ("0.34.0", 9.0, False),
    ("0.28.0", 12.1, False),  # 12.x from 0.28.0
    ("0.27.1", 12.1, True),
    ("0.34.0", 8.9, True),    # never on Ada
])
def test_flashinfer_sinks_by_the_release_selector(version, cc, refused):
    # jdaln/dgx-spark-inference-stack compose/models-gpt.yml (https://github.com/jdaln/dgx-spark-inference-stack,
    # eval81): gpt-oss forced onto FLASHINFER; 0.30+ FlashInferBackend.supports_sink() is
    # supports_trtllm_attention(is_prefill=False) on 9.0, true where the cubins are (vLLM's image downloads them)
    got = attn_facts({"model": GPT_OSS, "gpu": {"compute_capability": cc}}, TABLE, version, "FLASHINFER", {"v1": True},
                     SELECTOR)
    assert ("attn_refusal" in got) is refused


@pytest.mark.parametrize("version, line", [("0.5.1", 690), ("0.5.2", 690), ("0.5.3", 162), ("0.5.4", 253), ("0.6.3", 253),
                                           ("0.7.0", 253)])
def test_rocm_runs_rocm_flash_whatever_is_forced(version, line):
    """ROCm 0.5.1-0.7.0: the selector returns ROCM_FLASH for any backend asked for (vLLM #6218), so a
    soft-capped model is refused even with FLASHINFER set (0.5.4-0.7.0 by ROCmFlashAttentionImpl itself);
    on CUDA FLASHINFER runs it."""
    rocm = {"model": GEMMA2, "gpu": {"name": "MI300X"}, "site": {"platform": "rocm"}}
    out = attn_facts(rocm, TABLE, version, "FLASHINFER", {"v1": False})
    assert out["attn_backend"] == "ROCM_FLASH" and out["attn_refusal_feature"] == "soft_cap"
    assert out["attn_refusal"]["line"] == line  # the span's first release's line (0.5.2: model_runner.py:728)
    cuda = {"model": GEMMA2, "gpu": {"compute_capability": 8.0}, "site": {"platform": "cuda"}}
    assert "attn_refusal" not in attn_facts(cuda, TABLE, version, "FLASHINFER", {"v1": False})
    assert "attn_refusal" not in attn_facts({**rocm, "model": {}}, TABLE, version, "FLASHINFER", {"v1": False})


def test_rocm_from_071_not_judged():
    """0.7.1 refuses soft-capping only on the Triton path (VLLM_USE_TRITON_FLASH_ATTN=0 runs CK FlashAttention)."""
    rocm = {"model": GEMMA2, "gpu": {"name": "MI300X"}, "site": {"platform": "rocm"}}
    assert "attn_refusal" not in attn_facts(rocm, TABLE, "0.7.1", None, {"v1": False})
