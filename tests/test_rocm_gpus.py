"""AMD Instinct GPUs (`--gpu "MI300X x8"`): read from knowledge/gpus.yaml with their gcnArchName and
no CUDA compute capability; a site on them runs vLLM's ROCm platform, where the checks written
from vLLM's CUDA paths are not judged and the others keep their P0s (ROCm is in vLLM's own tree)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.hardware import parse_spec
from vllm_kb.engine.kb.knowledge import load

KB = load()


@pytest.mark.parametrize("spec,count,gfx,mem,fp8,fp4", [
    ("MI300X x8", 8, "gfx942", 191.98, True, False),
    ("8xMI300X", 8, "gfx942", 191.98, True, False),
    ("MI325X:4", 4, "gfx942", 255.98, True, False),
    ("MI355X x8", 8, "gfx950", 287.98, True, True),
    ("MI250 x8", 8, "gfx90a", 63.98, False, False),  # a GCD per device, as ROCm shows them
    ("MI210", 1, "gfx90a", 63.98, False, False),
])
def test_amd_specs(spec, count, gfx, mem, fp8, fp4):
    gpu = parse_spec(spec, KB.gpus).facts()["gpu"]
    assert gpu["vendor"] == "amd" and gpu["gfx"] == gfx and gpu["count"] == count
    assert gpu["memory_gib"] == mem and gpu["fp8"] is fp8 and gpu["fp4"] is fp4
    assert "compute_capability" not in gpu  # ROCm's (9, 4) is no CUDA capability: no CUDA rule reads it


def test_fp8_fnuz_only_on_gfx942():
    assert parse_spec("MI300X", KB.gpus).facts()["gpu"].get("fp8_fnuz") is True
    assert "fp8_fnuz" not in parse_spec("MI355X", KB.gpus).facts()["gpu"]  # gfx950: OCP e4m3fn


def test_describe_names_the_gfx():
    assert "gfx942" in parse_spec("MI300X x8", KB.gpus).describe()
    assert "sm_90" in parse_spec("H100-80GB x8", KB.gpus).describe()


def test_no_mixing_vendors():
    with pytest.raises(UsageError):
        parse_spec("MI300X + H100-80GB", KB.gpus)


def _p0(path, gpu):
    return {r.check.id: r for sr in audit(path, gpu=gpu).sites for r in sr.results
            if r.status == "recommended" and r.priority == "P0"}


def _result(path, gpu, check):
    return next(r for sr in audit(path, gpu=gpu).sites for r in sr.results if r.check.id == check)


def test_cuda_only_checks_quiet_on_rocm(tmp_path):
    """gpt-oss on V0 (VLLM_USE_V1=0, 0.10.1): a CUDA attention backend's TypeError (L65); on ROCm
    vLLM's ROCm platform picks its own backend, so the check is not judged there."""
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1\n")
    (tmp_path / "serve.sh").write_text("export VLLM_USE_V1=0\nvllm serve openai/gpt-oss-20b\n")
    assert "L65" in _p0(tmp_path, "H100-80GB x1")
    res = _result(tmp_path, "MI300X x1", "L65")
    assert res.status == "not_applicable" and "ROCm" in res.reason_text("en")
    assert "L65" not in _p0(tmp_path, "MI300X x1")


def test_platform_independent_p0_holds_on_rocm(tmp_path):
    """A tensor-parallel size that does not divide the attention heads is refused by vLLM's config,
    on every platform."""
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1\n")
    (tmp_path / "serve.sh").write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 3\n")
    assert "L1" in _p0(tmp_path, "MI300X x8")
    assert "L1" in _p0(tmp_path, "H100-80GB x8")


def test_capability_rules_are_cuda_only():
    """A rule that reads gpu.compute_capability makes its check CUDA-only by itself."""
    by_id = {c.id: c for c in KB.checks}
    assert by_id["L6"].cuda_only and by_id["L13"].cuda_only and by_id["L72"].cuda_only and by_id["L29"].cuda_only
    assert not by_id["L1"].cuda_only and not by_id["L33"].cuda_only


def _sleep(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="MI300X x1").sites
    (r,) = [r for r in sr.results if r.check.id == "L196"]
    return r.status, r.priority


SLEEP = 'from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", enable_sleep_mode=True)\nllm.sleep()\n'


def test_sleep_mode_on_upstream_vllm_from_a_pin_is_p0_and_in_an_amd_image_p1(tmp_path):
    # vllm#12695 (sleep mode moved to ROCm, first released in 0.11.1): its test script, LLM(enable_sleep_mode=True),
    # on an MI300X; upstream 0.8.5 from a pip pin refuses it while it builds the config (config.py: "Sleep mode is
    # not supported on current platform."), while an AMD-built image of a release may carry the patch
    assert _sleep(tmp_path, {"requirements.txt": "vllm==0.8.5\n", "sleep.py": SLEEP}) == ("recommended", "P0")
    (tmp_path / "requirements.txt").unlink()
    docker = 'FROM rocm/vllm:rocm6.3.1_vllm_0.8.5_20250521\nCOPY sleep.py /app/\nCMD ["python3", "/app/sleep.py"]\n'
    assert _sleep(tmp_path, {"Dockerfile": docker}) == ("recommended", "P1")
    (tmp_path / "requirements.txt").write_text("vllm==0.11.1\n")
    (tmp_path / "Dockerfile").unlink()
    assert _sleep(tmp_path, {})[0] == "not_applicable"
