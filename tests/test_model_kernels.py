"""knowledge/vllm/model_kernels.yaml (tools/vllm_model_kernels.py): model families whose attention
names its own CUDA backends (DeepSeek V4, V4.1) run only on the compute capabilities those take,
per release; L71 says so where the GPU has none (vLLM #40851, #40903, #41117)."""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from vllm_kb.engine.check.startup_modelcap import model_kernel_facts
from vllm_kb.engine.kb.knowledge import load

ROOT = Path(__file__).resolve().parent.parent
SDISTS = Path(os.environ.get("VLLM_SDISTS", "/work/sdists/src"))
KB = load()
TABLE = KB.doc("vllm", "model_kernels.yaml").data
V4 = "DeepseekV4ForCausalLM"


def _facts(arch, cc, version):
    return model_kernel_facts(arch, {"compute_capability": cc}, TABLE, version)


def test_no_release_runs_deepseek_v4_below_hopper():
    for span in TABLE["spans"]:
        caps = span["families"]["deepseek-v4"]["cc"]
        assert caps and min(caps) >= 9.0 and 11.0 not in caps, span["first"]


@pytest.mark.parametrize("cc,version,missing,pin", [
    (8.9, "0.20.0", True, None),      # RTX 4090 / L20: no release has a kernel (vLLM #41117, #40903)
    (8.0, "0.34.0", True, None),      # A100 / A800 (vLLM #40851)
    (12.0, "0.22.0", True, ">=0.24.0"),  # consumer Blackwell: FlashInfer's sparse MLA from 0.24.0
    (12.0, "0.24.0", False, None),
    (9.0, "0.20.0", False, None),
    (10.0, "0.21.0", False, None),
])
def test_deepseek_v4_per_gpu_and_release(cc, version, missing, pin):
    got = _facts(V4, cc, version)
    assert bool(got.get("model_kernels_missing")) is missing
    assert got.get("model_kernels_pin") == pin


@pytest.mark.parametrize("arch,cc,version", [
    ("DeepseekV3ForCausalLM", 8.0, "0.20.0"),  # a selector model: L71's table decides
    (V4, 8.9, "0.19.1"),                       # before the family: not judged
    (V4, 6.1, "0.20.0"),                       # a capability the tool did not evaluate (L6's)
    (None, 8.9, "0.20.0"),
])
def test_nothing_said_outside_the_table(arch, cc, version):
    assert _facts(arch, cc, version) == {}


def _audit(tmp_path, pin, gpu):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text("vllm serve /models/DeepSeek-V4-Flash --tensor-parallel-size 8 "
                                       "--enable-expert-parallel --trust-remote-code\n")
    rep = audit(tmp_path, gpu=gpu)
    return next(r for r in rep.sites[0].results if r.check.id == "L71")


def test_audit_proposes_the_release_with_a_kernel(tmp_path):
    r = _audit(tmp_path, "0.22.0", "RTX-5090 x8")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert "vLLM 0.24.0 has a kernel" in r.reason_text("en") and r.fix[0][1] == ">=0.24.0"


def test_audit_quiet_where_the_release_runs_it(tmp_path):
    assert _audit(tmp_path, "0.24.0", "RTX-5090 x8").status == "not_applicable"
    (tmp_path / "h100").mkdir()
    assert _audit(tmp_path / "h100", "0.20.0", "H100 x8").status == "not_applicable"


def _tool():
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location("vllm_model_kernels", ROOT / "tools" / "vllm_model_kernels.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.skipif(not os.environ.get("VLLM_KB_SDISTS_CHECK") or not SDISTS.is_dir(),
                    reason="re-reads every release (set VLLM_KB_SDISTS_CHECK=1 where the sdists are unpacked)")
def test_table_is_what_the_sources_say():
    mod = _tool()
    assert mod.dump(mod.build([SDISTS])) == (ROOT / "knowledge" / "vllm" / "model_kernels.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("text,label", [
    ("0.28.0+sm89", "sm89"), ("vllm==0.23.1rc1.dev904+sm89.cu132", "sm89.cu132"),
    ("0.20.0+cu129", None), ("vllm==0.10.1+cpu", None), ("0.20.0", None), ("vllm==0.11.1rc2.dev178+g4c2e7a1.cu129", None), ("0.28.1rc0+sm89.sm120", "sm89.sm120"),
])
def test_a_build_of_another_origin_is_named(text, label):
    from vllm_kb.engine.check.startup_modelcap import local_label

    assert local_label(text) == label


def test_a_community_build_is_p1(tmp_path):
    r = _audit(tmp_path, "0.23.1rc1.dev904+sm89.cu132", "RTX-4090 x8")  # yhfgyyf/vllm-deepseek-v4-sm89
    assert (r.status, r.priority) == ("recommended", "P1")
