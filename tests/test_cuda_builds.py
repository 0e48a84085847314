"""knowledge/vllm/cuda_builds.yaml (tools/vllm_cuda_builds.py): the GPU architectures each release's
published build has kernels for, the CUDA of the torch it runs with, and the `startup.build_*` facts
L6 reads from it (a GPU newer than the build, or one the build dropped)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from vllm_kb.engine.check.startup_build import build_facts, covers
from vllm_kb.engine.kb.knowledge import load

ROOT = Path(__file__).resolve().parent.parent
TABLE = load().doc("vllm", "cuda_builds.yaml").data


def facts(version, cc, basis="pin"):
    return build_facts({"gpu": {"compute_capability": cc}}, TABLE, version, basis)


def test_rows_read_from_the_sources():
    by = {r["release"]: r for r in TABLE["rows"]}
    # MAIN_CUDA_VERSION 12.4 and torch 2.6.0 (cu124 on PyPI): no Blackwell code at all
    assert by["0.8.5"]["cuda"] == "12.4" and by["0.8.5"]["torch_cuda"] == "12.4" and max(by["0.8.5"]["kernels"]) == 9.0
    # CUDA 12.8 from 0.9.0; PyPI's torch 2.7.x is still cu126, 2.8.0 is cu128
    assert by["0.9.0"]["cuda"] == "12.8" and 12.0 in by["0.9.0"]["kernels"] and by["0.9.0"]["torch_cuda"] == "12.6"
    assert by["0.10.2"]["torch_cuda"] == "12.8"
    # CUDA 13.0 builds (0.20.0+) start at sm_75
    assert by["0.20.0"]["cuda"] == "13.0" and 7.0 not in by["0.20.0"]["kernels"] and 7.0 in by["0.19.1"]["kernels"]
    for row in TABLE["rows"]:
        assert all(s["release"] == row["release"] for s in row["source"]), row


def test_binary_compatibility_within_a_major():
    assert covers([8.0], 8.6) and covers([12.0], 12.1) and not covers([9.0], 10.0) and not covers([8.6], 8.0)


@pytest.mark.parametrize("version,cc,basis,kernels,torch,pin", [
    ("0.8.5", 12.0, "pin", False, False, ">=0.10.2"),    # gpustack #2097: RTX 5090 D on 0.8.5
    ("0.9.0", 12.0, "image", False, True, ">=0.9.2"),    # vLLM #18995: the 0.9.0 image on an RTX 5090
    ("0.9.1", 12.0, "pin", False, False, ">=0.10.2"),
    ("0.9.2", 12.0, "image", True, True, None),          # vLLM PR #19794 put sm_120 in the release build
    ("0.10.0", 12.0, "pin", True, False, ">=0.10.2"),    # the kernels are there, PyPI's torch 2.7.1 is cu126
    ("0.10.2", 12.0, "pin", True, True, None),
    ("0.8.5", 10.0, "image", False, False, ">=0.9.0"),   # B200: the first CUDA 12.8 image
    ("0.9.0", 10.0, "image", True, True, None),
    ("0.20.0", 7.0, "pin", False, True, "<=0.19.1"),     # V100 on a CUDA 13 build
    ("0.19.1", 7.0, "pin", True, True, None),
    ("0.6.3", 9.0, "pin", True, True, None),
])
def test_build_facts(version, cc, basis, kernels, torch, pin):
    got = facts(version, cc, basis)
    assert got["build_kernels_ok"] is kernels and got["build_torch_ok"] is torch
    assert got.get("build_pin") == pin


def test_the_pipelines_x86_arch_list_is_not_an_arm_systems_build():
    # review20: the release pipeline left 12.0 out of its (x86_64) arch list before 0.9.2, but a DGX Spark
    # (GB10, 12.1, unified memory) had no wheel of 0.9.0/0.9.1 to install: pip builds the sdist, whose
    # CMakeLists.txt lists 12.0 for CUDA 12.8+ (0.9.0 CMakeLists.txt:83): its kernels are not known absent
    spark = build_facts({"gpu": {"compute_capability": 12.1, "unified_memory": True}}, TABLE, "0.9.1", "pin")
    assert spark["build_kernels_ok"] is True
    assert facts("0.9.1", 12.1)["build_kernels_ok"] is False  # an x86_64 host's wheel
    # below 0.9.0 the CMakeLists list itself stops at 9.0: no build of it has 12.x code
    assert build_facts({"gpu": {"compute_capability": 12.1, "unified_memory": True}}, TABLE, "0.8.5", "pin")["build_kernels_ok"] is False


def test_nothing_without_a_known_build_or_gpu():
    assert facts("0.8.5", None) == {}
    assert facts("0.8.5", 6.1) == {}            # below 7.0: L6's first rule
    assert facts("0.8.5", 12.0, "image-untagged") == {}  # another vendor's image, or latest
    assert facts("0.8.5", 12.0, None) == {}


@pytest.mark.skipif(not os.environ.get("VLLM_KB_SDISTS_CHECK") or not Path("/work/sdists/src").is_dir(),
                    reason="re-reads every release (set VLLM_KB_SDISTS_CHECK=1 where the sdists are unpacked)")
def test_table_is_what_the_sources_say():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "vllm_cuda_builds.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_range_or_a_cuda_variant_is_not_judged():
    assert facts("0.20.0", 7.0, "range") == {}    # the range may allow 0.19.1
    assert facts("0.20.0", 7.0, "variant") == {}  # vllm==0.20.0+cu129 is another build


def test_driver_against_the_build():
    def drv(version, cuda, name="NVIDIA GeForce RTX 4090", basis="pin"):
        return build_facts({"gpu": {"compute_capability": 8.9, "name": name, "driver_cuda": cuda}}, TABLE, version, basis)
    got = drv("0.20.0", "12.8")  # a CUDA 13.0 wheel on a 12.8 driver
    assert got["driver_short"] and got["driver_major_short"] and got["driver_pin"] == "<=0.19.1"
    got = drv("0.7.2", "12.0", basis="image")  # gpustack #1540: a CUDA 12.1 image on an older driver, GeForce
    assert got["driver_short"] and not got["driver_major_short"] and got["geforce"]
    assert drv("0.10.2", "12.9")["driver_short"] is False
    assert "driver_short" not in drv("0.10.2", None)


def test_the_image_cuda_is_the_dockerfiles():
    by = {r["release"]: r for r in TABLE["rows"]}
    # the wheel stayed on CUDA 12.1 while the image moved to 12.4 with v0.4.3 (vLLM #5283: v0.4.3 stops
    # with error 804 on a 535 driver where v0.4.2 starts; #5635: v0.5.0 needs cuda>=12.4)
    assert by["0.4.2"]["image_cuda"] == "12.1" and by["0.4.3"]["image_cuda"] == "12.4"
    assert by["0.5.0"]["image_cuda"] == "12.4" and by["0.5.0"]["cuda"] == "12.1"
    assert by["0.11.1"]["image_cuda"] == "12.9" and by["0.20.0"]["image_cuda"] == "13.0"
    assert "12.9" in by["0.20.0"]["image_variants"] and "image_variants" not in by["0.9.0"]


def _image(version, cuda=None, name="Tesla V100-SXM2-32GB", cc=7.0, driver=None, basis="image"):
    gpu = {"compute_capability": cc, "name": name, **({"driver_cuda": cuda} if cuda else {}),
           **({"driver_branch": driver} if driver else {})}
    return build_facts({"gpu": gpu}, TABLE, version, basis)


def test_the_container_runtime_refuses_an_image_newer_than_the_driver():
    got = _image("0.5.0", "12.1")  # vLLM #5635: driver 530 (CUDA 12.1), the 12.4 image
    assert got["image_refused"] and got["driver_branch"] == 530 and got["driver_pin"] == "<=0.4.2"
    assert got["image_tags"] == "vllm/vllm-openai:v0.4.2" and got["build_cuda"] == "12.4"
    # a branch the 12.4 base image lists (535, CUDA 12.2) starts on forward compatibility
    assert _image("0.6.3", "12.2")["image_refused"] is False
    # the branch alone gives the driver's CUDA
    assert _image("0.5.0", driver=530)["driver_cuda"] == "12.1"
    # the 12.8 base image lists 550 for data-centre cards only: a GeForce is refused
    assert _image("0.9.0", "12.4", "NVIDIA GeForce RTX 4090", 8.9)["image_refused"] is True
    assert _image("0.9.0", "12.4", "NVIDIA H100 80GB HBM3", 9.0)["image_refused"] is False
    # a base image whose list is not known: no verdict
    assert "image_refused" not in _image("0.20.0", "12.8", "NVIDIA H100 80GB HBM3", 9.0)


def test_a_cuda_variant_tag_is_judged_by_its_cuda():
    got = _image("0.20.0", "12.9", "NVIDIA H100 80GB HBM3", 9.0, basis="image-cu129")
    assert got["build_cuda"] == "12.9" and got["driver_short"] is False and "build_kernels_ok" not in got
    got = _image("0.20.0", "12.8", "NVIDIA GeForce RTX 4090", 8.9)
    assert "image_refused" not in got and "v0.20.0-cu129" not in got.get("image_tags", "")
    got = _image("0.20.0", "12.9", "NVIDIA GeForce RTX 4090", 8.9)
    assert got["image_tags"].startswith("vllm/vllm-openai:v0.20.0-cu129")


def test_the_spec_names_the_driver():
    from vllm_kb.engine.kb.hardware import parse_spec
    from vllm_kb.engine.kb.knowledge import load as _load

    gpus = _load().doc("gpus.yaml").data["gpus"]
    hw = parse_spec("V100-32GB, driver 530.30.02", gpus)
    assert hw.facts()["gpu"]["driver_branch"] == 530 and "driver_cuda" not in hw.facts()["gpu"]
    assert parse_spec("V100-32GB, cuda 12.1", gpus).facts()["gpu"]["driver_cuda"] == "12.1"


def test_the_requirement_check_switched_off():
    gpu = {"compute_capability": 7.0, "name": "Tesla V100-SXM2-32GB", "driver_cuda": "12.1"}
    got = build_facts({"gpu": gpu, "env": {"NVIDIA_DISABLE_REQUIRE": "true"}}, TABLE, "0.5.0", "image")
    assert "image_refused" not in got and got["driver_short"]


def test_images_load_cuda_compat_only_up_to_0_16():
    # docker/Dockerfile: `ldconfig …/compat` (0.6.2–0.16.x), ENV VLLM_ENABLE_CUDA_COMPATIBILITY=0 from 0.17.0
    assert _image("0.16.0", "12.8", "NVIDIA H100 80GB HBM3", 9.0)["image_compat"] is True
    got = _image("0.20.0", "12.8", "NVIDIA A100-SXM4-80GB", 8.0)
    assert got["image_compat"] is False and got["driver_major_short"] and got["driver_pin"] == "<=0.19.1"
    on = build_facts({"gpu": {"compute_capability": 8.0, "name": "NVIDIA A100", "driver_cuda": "12.8"},
                      "env": {"VLLM_ENABLE_CUDA_COMPATIBILITY": "1"}}, TABLE, "0.20.0", "image")
    assert on["image_compat"] is True
    assert "image_compat" not in _image("0.20.0", "12.8", "NVIDIA A100", 8.0, basis="pin")  # a wheel: no image


def _l29(tmp_path, image, gpu, env=""):
    (tmp_path / "run.sh").write_text(f"docker run --gpus all {env}-p 8000:8000 {image} --model Qwen/Qwen2.5-1.5B-Instruct\n")
    from vllm_kb.engine.audit import audit

    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next(r for r in sr.results if r.check.id == "L29")


def test_a_cuda13_image_on_a_cuda12_driver_stops_on_any_gpu(tmp_path):
    r = _l29(tmp_path, "vllm/vllm-openai:v0.20.0", "A100-80GB, driver 570.86")
    assert r.needs_change and r.priority == "P0" and "too old" in str(r.reason)
    # forward compatibility asked for on a data-centre card: no verdict
    r = _l29(tmp_path, "vllm/vllm-openai:v0.20.0", "A100-80GB, driver 570.86", "-e VLLM_ENABLE_CUDA_COMPATIBILITY=1 ")
    assert not (r.needs_change and r.priority == "P0")
    # the cu129 variant runs on the data-centre card's 570 branch (listed by its base image; minor-version compatibility)
    assert not _l29(tmp_path, "vllm/vllm-openai:v0.20.0-cu129", "A100-80GB, driver 570.86").needs_change
    # driver 580 (CUDA 13.0): starts
    assert _l29(tmp_path, "vllm/vllm-openai:v0.20.0", "RTX 4090, driver 580.65").status == "enabled"


def _fp4(version, cc, name="RedHatAI/Qwen3-30B-A3B-NVFP4", method="nvfp4", basis="pin"):
    f = {"gpu": {"compute_capability": cc}, "model": {"name": name, "quantized": True, "quant_method": method}}
    return build_facts(f, TABLE, version, basis)


def test_fp4_targets_read_from_the_sources():
    by = {r["release"]: r for r in TABLE["rows"]}
    assert by["0.10.0"]["fp4"] == ["10.0a"]  # no SM120 FP4 block yet
    assert by["0.12.0"]["fp4"] == ["10.0a", "12.0a"]  # CUDA 12.9: `a` targets, the arch list names 12.0 only
    assert by["0.19.0"]["fp4"] == ["10.0a", "12.0a"]  # 12.1a listed in CMakeLists, 12.1 not in the arch list
    assert by["0.20.0"]["fp4"] == ["10.0f", "11.0f", "12.0f"]  # CUDA 13: family targets
    assert "fp4" not in by["0.8.5"]  # CUDA 12.4 builds no FP4 kernels


@pytest.mark.parametrize("version,cc,ok,sibling,pin", [
    ("0.12.0", 12.1, False, True, ">=0.20.0"),   # vLLM #30855 / #30163: GB10 (DGX Spark) on the 0.12.0 build
    ("0.19.1", 12.1, False, True, ">=0.20.0"),
    ("0.20.0", 12.1, True, True, None),
    ("0.12.0", 12.0, True, True, None),          # RTX 5090 / RTX PRO 6000: sm_120a is built
    ("0.10.0", 12.0, False, False, ">=0.10.1"),  # the image: no 12.x FP4 target at all (L6 P1: vLLM #23826 saw it start)
    ("0.12.0", 10.3, False, True, ">=0.20.0"),   # B300: sm_100a only
    ("0.12.0", 10.0, True, True, None),
])
def test_fp4_facts(version, cc, ok, sibling, pin):
    got = _fp4(version, cc, basis="image")
    assert got["build_fp4_ok"] is ok and got["build_fp4_sibling"] is sibling and got.get("build_fp4_pin") == pin


@pytest.mark.parametrize("version,judged", [
    ("0.10.2", True),   # FlashInfer's MoE only on exactly 10.0: the env changes nothing on a 12.0 GPU
    ("0.11.0", True),   # still is_device_capability(100)
    ("0.11.1", False),  # has_device_capability(100): FlashInfer's build, not the table's, runs the experts
])
def test_flashinfer_moe_env_on_sm120(version, judged):
    f = {"gpu": {"compute_capability": 12.0}, "env": {"VLLM_USE_FLASHINFER_MOE_FP4": "1"},
         "model": {"name": "nvidia/Qwen3-30B-A3B-FP4", "quantized": True, "quant_method": "modelopt_fp4", "moe": True}}
    got = build_facts(f, TABLE, version, "pin")
    assert ("build_fp4_moe_ok" in got) is judged
    if judged:
        assert got["build_fp4_moe_ok"] is False


@pytest.mark.parametrize("kw", [
    {"name": "RedHatAI/Qwen3-30B-A3B-NVFP4A16"},   # weight-only: Marlin, no FP4 kernels
    {"method": "fp8"},
    {"basis": "source"},                           # a build of its own: its arch list is the user's
    {"basis": "image-cu130"},                      # another build than the row's
])
def test_fp4_facts_only_for_w4a4_on_the_release_build(kw):
    assert "build_fp4_ok" not in _fp4("0.12.0", 12.1, **kw)
    assert "build_fp4_ok" not in _fp4("0.12.0", 9.0)  # Hopper has no FP4 tensor cores: Marlin or emulation


def test_fp4_not_judged_for_an_arm_hosts_sdist_build():
    """A DGX Spark (GB10, unified memory, Arm) has no PyPI wheel before 0.10.2: pip builds the sdist, whose
    NVFP4 targets are its builder's arch list, not the table's; from 0.10.2 (0.12.0 too) the aarch64 wheel is judged."""
    model = {"name": "RedHatAI/Qwen3-30B-A3B-NVFP4", "quantized": True, "quant_method": "nvfp4"}
    spark = {"gpu": {"compute_capability": 12.1, "unified_memory": True}, "model": model}
    assert "build_fp4_ok" not in build_facts(spark, TABLE, "0.10.1", "pin")
    assert build_facts(spark, TABLE, "0.12.0", "pin")["build_fp4_ok"] is False
    assert build_facts(spark, TABLE, "0.10.1", "image")["build_fp4_ok"] is False  # an image is the pipeline's build
