"""tools/vllm_deepgemm_pins.py: the DeepGEMM revision each release builds and the GPUs vLLM sends to
it, read from the sdists, against the releases L160 names for block-FP8 checkpoints on 12.x GPUs."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vllm_kb.engine.kb.versions import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent
_SPEC = importlib.util.spec_from_file_location("vllm_deepgemm_pins", ROOT / "tools" / "vllm_deepgemm_pins.py")
assert _SPEC and _SPEC.loader
tool = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(tool)

CMAKE_0270 = """\
else()
  # Keep in sync with tools/install_deepgemm.sh
  set(_DEEPGEMM_UPSTREAM_REPO "https://github.com/vllm-project/DeepGEMM.git")
  # TODO: switch to nv_dev branch after it support situ
  set(_DEEPGEMM_UPSTREAM_TAG "e21c821f39a2056d68067a466c64ddc942200106")
"""
CMAKE_0280 = """\
  set(_DEEPGEMM_UPSTREAM_REPO "https://github.com/deepseek-ai/DeepGEMM.git")
  # Pinned to the tip of the nv_dev branch (SM120 support).
  set(_DEEPGEMM_UPSTREAM_TAG "8b1392b978f5a03c828dd1711090d7fb50958b8a")
"""
CUDA_0240 = """\
    @classmethod
    def support_deep_gemm(cls) -> bool:
        \"\"\"Currently, only Hopper and Blackwell GPUs are supported.\"\"\"
        return (
            cls.is_device_capability(90)
            or cls.is_device_capability_family(100)
            or cls.is_device_capability_family(120)
        )

    @classmethod
    def is_integrated_gpu(cls, device_id: int = 0) -> bool:
        return cls.is_device_capability(75)
"""


def test_pin_and_its_sm120_comment():
    assert tool.pin(CMAKE_0270) == ("https://github.com/vllm-project/DeepGEMM", "e21c821f39a2056d68067a466c64ddc942200106", False)
    assert tool.pin(CMAKE_0280)[1:] == ("8b1392b978f5a03c828dd1711090d7fb50958b8a", True)
    assert tool.SM12X["e21c821f39a2056d68067a466c64ddc942200106"][0] is False


def test_families_read_from_support_deep_gemm_only():
    assert tool.families(CUDA_0240) == [90, 100, 120]  # not the 75 of the next method


def test_l160_names_the_releases_whose_pin_lacks_sm12x():
    spec = SpecifierSet(tool.l160_spec())
    assert [v for v in ("0.23.0", "0.24.0", "0.25.0", "0.25.1", "0.26.0", "0.27.0", "0.27.1", "0.28.0", "0.34.0")
            if spec.contains(v)] == ["0.24.0", "0.27.0", "0.27.1"]


@pytest.mark.parametrize(("name", "sources"), [("vllm_deepgemm_pins.py", "/work/scratch/sdists/dl"),
                                              ("vllm_lora_towers.py", "/work/scratch/sdists/src")])
def test_the_rules_are_what_the_sources_say(name, sources):
    """L160's releases (DeepGEMM pins) and L60's Qwen3-VL rule (tower prefixes), re-read from every release."""
    if not os.environ.get("VLLM_KB_SDISTS_CHECK") or not Path(sources).is_dir():
        pytest.skip("re-reads every release (set VLLM_KB_SDISTS_CHECK=1 where the sdists are)")
    r = subprocess.run([sys.executable, str(ROOT / "tools" / name), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("image,p0", [
    ("v0.27.0", True),  # the fork's e21c821f pin: no 12.x scale-layout case
    ("v0.26.0", False),  # nv-dev a6b593d2 has it (vLLM #51884's dev build after 0.26.0 already had 0.27's pin)
])
def test_l160_reads_a_block_fp8_upload_by_hub_id(tmp_path, image, p0):
    from vllm_kb.engine.audit import audit
    (tmp_path / "serve.sh").write_text(
        f"docker run --gpus all --ipc=host vllm/vllm-openai:{image} --model RedHatAI/Muse-Glimmer-30B-FP8-block"
        " --tensor-parallel-size 2\n")
    (sr,) = audit(tmp_path, gpu="RTX-5090 x2").sites
    r = next(r for r in sr.results if r.check.id == "L160")
    assert (r.needs_change and r.priority == "P0") == p0, r.reason_text("en")
