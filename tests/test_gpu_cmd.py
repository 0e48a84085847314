"""`vllm-kb gpu`: what the NVML probe (a fake of the pynvml API surface here) or a --gpu spec gives,
in English and Chinese, as text and JSON. No driver, no pynvml or an NVML error is a fact and
the command exits 0."""
from __future__ import annotations

import json
import sys
from argparse import Namespace
from types import SimpleNamespace

import pytest
from vllm_kb.cli import gpu_cmd
from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_USAGE

H200 = {"name": "NVIDIA H200", "mem": 150_754_820_096, "cc": (9, 0), "nvlink": 1}
L40S = {"name": "NVIDIA L40S", "mem": 48_305_799_168, "cc": (8, 9), "nvlink": None}


class FakeNVMLError(Exception):
    pass


def fake_nvml(devices, init_error=None, cuda=13000):
    def init():
        if init_error:
            raise init_error

    def nvlink(h, link):
        if h["nvlink"] is None:
            raise FakeNVMLError("Not Supported")
        return h["nvlink"]

    def cuda_version():
        if cuda is None:
            raise FakeNVMLError("Function Not Found")
        return cuda

    return SimpleNamespace(
        NVML_NVLINK_MAX_LINKS=2, nvmlInit=init, nvmlShutdown=lambda: None,
        nvmlDeviceGetCount=lambda: len(devices), nvmlDeviceGetHandleByIndex=lambda i: devices[i],
        nvmlDeviceGetName=lambda h: h["name"].encode(), nvmlDeviceGetMemoryInfo=lambda h: SimpleNamespace(total=h["mem"]),
        nvmlDeviceGetCudaComputeCapability=lambda h: h["cc"], nvmlDeviceGetNvLinkState=nvlink,
        nvmlSystemGetDriverVersion=lambda: "580.65.06", nvmlSystemGetCudaDriverVersion=cuda_version,
    )


def gpu(capsys, nvml=None, spec="auto", lang="en", fmt="text"):
    code = gpu_cmd.run(Namespace(gpu=spec, lang=lang, format=fmt), nvml=nvml)
    out = capsys.readouterr().out
    return code, (json.loads(out) if fmt == "json" else out)


def test_probe_text(capsys):
    code, out = gpu(capsys, fake_nvml([H200] * 8))
    assert code == EXIT_CLEAN
    assert out.startswith("GPUs on this machine")
    assert "8 × NVIDIA H200: 140.4 GiB each, compute capability 9.0 (hopper), FP8 yes, NVLink yes" in out
    assert "GPU 7: NVIDIA H200, 140.4 GiB, compute capability 9.0, NVLink yes" in out
    assert "Catalog entry: H200" in out and "NVIDIA driver 580.65.06, CUDA (driver API) 13.0" in out
    assert "CPU cores available to this process:" in out


def test_probe_json_and_zh(capsys):
    code, data = gpu(capsys, fake_nvml([L40S, L40S], cuda=None), fmt="json")
    assert code == EXIT_CLEAN and data["visible"] and data["probed"] and data["reason"] is None
    g = data["gpu"]
    assert (g["count"], g["arch"], g["compute_capability"], g["fp8"]) == (2, "ada", 8.9, True)
    assert g["nvlink"] is False  # NVML says "not supported"; the L40S catalog entry has no NVLink
    assert data["devices"][0]["arch"] == "ada" and data["driver"] == "580.65.06" and data["cuda"] is None
    assert data["cpu_cores"] >= 1
    _, out = gpu(capsys, fake_nvml([L40S, L40S]), lang="zh")
    assert out.startswith("本机 GPU") and "2 × NVIDIA L40S：每卡" in out and "计算能力 8.9（ada）" in out


def test_mixed_gpus_say_which_one_counts(capsys):
    _, data = gpu(capsys, fake_nvml([H200, L40S]), fmt="json")
    assert data["gpu"]["name"] == "NVIDIA H200" and len(data["devices"]) == 2 and "GPU 0" in data["note"]


@pytest.mark.parametrize("nvml, code, en, zh", [
    (fake_nvml([], init_error=FakeNVMLError("NVML Shared Library Not Found")), "no_driver",
     "No NVIDIA GPU visible: NVML cannot start — no NVIDIA driver or no GPU (NVML Shared Library Not Found).", "没有 NVIDIA 驱动或 GPU"),
    (fake_nvml([]), "no_devices", "No NVIDIA GPU visible: NVML found no GPU.", "NVML 未找到 GPU"),
])
def test_no_gpu_is_a_fact_not_a_crash(capsys, nvml, code, en, zh):
    rc, data = gpu(capsys, nvml, fmt="json")
    assert rc == EXIT_CLEAN and not data["visible"] and data["gpu"] is None and data["reason"]["code"] == code
    _, out = gpu(capsys, nvml)
    assert en in out and "--gpu SPEC" in out
    _, out = gpu(capsys, nvml, lang="zh")
    assert "未发现可用的 NVIDIA GPU" in out and zh in out


def test_nvml_error_midway(capsys):
    bad = fake_nvml([H200])
    bad.nvmlDeviceGetMemoryInfo = lambda h: (_ for _ in ()).throw(FakeNVMLError("GPU is lost"))
    rc, data = gpu(capsys, bad, fmt="json")
    assert rc == EXIT_CLEAN and data["reason"]["code"] == "nvml_error" and "GPU is lost" in data["reason"]["text"]


def test_without_pynvml(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)  # `import pynvml` raises ImportError
    rc, data = gpu(capsys, None, fmt="json")
    assert rc == EXIT_CLEAN and data["reason"]["code"] == "no_pynvml" and "nvidia-ml-py" in data["reason"]["text"]


def test_spec_overrides_the_probe(capsys):
    rc, out = gpu(capsys, fake_nvml([L40S]), spec="H100-80GB x8")
    assert rc == EXIT_CLEAN and out.startswith("GPUs from --gpu H100-80GB x8 (the catalog; nothing was probed)")
    assert "8 × NVIDIA H100 SXM 80GB" in out and "NVLink yes" in out
    _, data = gpu(capsys, spec="none", fmt="json")
    assert data["reason"]["code"] == "spec_none" and not data["probed"]


def test_through_the_cli(cli):
    code, out, _ = cli("gpu", "--format", "json")  # this machine: a GPU or a reason, never a crash
    data = json.loads(out)
    assert code == EXIT_CLEAN and data["source"] == "NVML" and (data["gpu"] or data["reason"]["text"])
    code, _, err = cli("gpu", "--gpu", "Z9000")
    assert code == EXIT_USAGE and "unknown GPU" in err
