"""The GPU path: `--gpu` specs against the catalog, and the NVML probe against fakes of the
pynvml API surface (the real library runs in CI too and must report "no driver")."""
from types import SimpleNamespace

import pytest
from vllm_kb.engine.kb import hardware, machine
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.knowledge import load

GPUS = load().gpus


@pytest.mark.parametrize("spec,name,count,arch", [
    ("H100-80GB x8", "NVIDIA H100 SXM 80GB", 8, "hopper"),
    ("8xH100", "NVIDIA H100 SXM 80GB", 8, "hopper"),
    ("A100-40GB", "NVIDIA A100 40GB", 1, "ampere"),
    ("A100 x 4", "NVIDIA A100 80GB", 4, "ampere"),
    ("L40S:2", "NVIDIA L40S", 2, "ada"),
    ("rtx4090", "NVIDIA GeForce RTX 4090", 1, "ada"),
    ("B200 x8", "NVIDIA B200 180GB", 8, "blackwell"),
    ("H20", "NVIDIA H20", 1, "hopper"),
])
def test_specs(spec, name, count, arch):
    hw = hardware.parse_spec(spec, GPUS)
    assert (hw.gpu["name"], hw.gpu["count"], hw.gpu["arch"]) == (name, count, arch)


def test_unknown_gpu_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown GPU"):
        hardware.parse_spec("Z9000", GPUS)


def test_none_means_no_gpu_facts():
    hw = hardware.parse_spec("none", GPUS)
    assert hw.gpu is None and hw.facts().get("gpu") is None


class FakeNVMLError(Exception):
    pass


def fake_nvml(devices, init_error=None):
    def init():
        if init_error:
            raise init_error

    return SimpleNamespace(
        NVML_NVLINK_MAX_LINKS=2,
        nvmlInit=init,
        nvmlShutdown=lambda: None,
        nvmlDeviceGetCount=lambda: len(devices),
        nvmlDeviceGetHandleByIndex=lambda i: devices[i],
        nvmlDeviceGetName=lambda h: h["name"].encode(),
        nvmlDeviceGetMemoryInfo=lambda h: SimpleNamespace(total=h["mem"], free=h.get("free", h["mem"])),
        nvmlDeviceGetCudaComputeCapability=lambda h: h["cc"],
        nvmlDeviceGetNvLinkState=lambda h, link: h["nvlink"],
        nvmlSystemGetDriverVersion=lambda: "580.65.06",
        nvmlSystemGetCudaDriverVersion=lambda: 13000,
    )


def test_probe_reads_devices():
    h200 = {"name": "NVIDIA H200", "mem": 150_754_820_096, "cc": (9, 0), "nvlink": 1}
    hw = machine.probe(GPUS, nvml=fake_nvml([h200, h200]))
    assert hw.gpu["count"] == 2 and hw.gpu["arch"] == "hopper" and hw.gpu["fp8"] is True
    assert hw.gpu["memory_gib"] == pytest.approx(140.4, abs=0.1) and hw.gpu["nvlink"] is True
    assert hw.driver == "580.65.06" and hw.cuda == "13.0" and hw.gpu["id"] == "H200"
    assert hw.facts()["gpu"]["driver_branch"] == 580 and hw.facts()["gpu"]["driver_cuda"] == "13.0"


def test_probe_without_driver_is_a_fact_not_a_crash():
    hw = machine.probe(GPUS, nvml=fake_nvml([], init_error=FakeNVMLError("NVML Shared Library Not Found")))
    assert hw.gpu is None and "no NVIDIA driver" in hw.note


def test_probe_with_errors_midway():
    bad = fake_nvml([{"name": "x"}])
    bad.nvmlDeviceGetMemoryInfo = lambda h: (_ for _ in ()).throw(FakeNVMLError("GPU is lost"))
    hw = machine.probe(GPUS, nvml=bad)
    assert hw.gpu is None and "GPU is lost" in hw.note


def test_mixed_gpus_are_flagged():
    a = {"name": "NVIDIA A100-SXM4-80GB", "mem": 85_899_345_920, "cc": (8, 0), "nvlink": 0}
    b = {"name": "NVIDIA A10", "mem": 24_146_608_128, "cc": (8, 6), "nvlink": 0}
    hw = machine.probe(GPUS, nvml=fake_nvml([a, b]))
    assert "mixed" in hw.note and hw.gpu["arch"] == "ampere"


def test_real_pynvml_on_this_machine_never_raises():
    hw = machine.probe(GPUS)
    assert hw.gpu is not None or hw.note


def test_the_host_ram_rides_on_the_gpu_spec_and_is_never_the_auditors_own():
    from vllm_kb.engine.kb import hardware as hw
    from vllm_kb.engine.kb.knowledge import load

    gpus = load().gpus
    assert hw.parse_spec("H100-80GB x8, host 1TiB", gpus).facts()["host"] == {"memory_gib": 1024.0}
    assert hw.parse_spec("A100 x2; ram=512GB", gpus).host_memory_gib == 512.0
    assert hw.parse_spec("none, host 64G", gpus).facts() == {"host": {"memory_gib": 64.0}}
    assert "host" not in hw.parse_spec("H100-80GB x8", gpus).facts()  # a spec without it: unknown
    with pytest.raises(UsageError):
        hw.parse_spec("H100 x8, hots 1T", gpus)


def test_cores_and_ram_come_from_the_spec_and_a_gpu_less_probe_gives_neither(monkeypatch):
    hw = machine.resolve(GPUS, "H100-80GB x8, host 1TiB, cpus 64")
    assert hw.facts()["cpu"] == {"cores": 64} and hw.facts()["host"] == {"memory_gib": 1024.0}
    assert "cpu" not in machine.resolve(GPUS, "H100-80GB x8").facts()
    # the machine auditing has no GPU: it is not the one the project runs on
    probed = machine.resolve(GPUS, "auto", nvml=fake_nvml([], init_error=FakeNVMLError("NVML Shared Library Not Found")))
    assert probed.cpu_cores and "cpu" not in probed.facts() and "host" not in probed.facts()
    h200 = {"name": "NVIDIA H200", "mem": 150_754_820_096, "cc": (9, 0), "nvlink": 1}
    assert "cpu" in machine.resolve(GPUS, "auto", nvml=fake_nvml([h200])).facts()


@pytest.mark.parametrize("spec, name, count, cc, mem", [
    ("RTX 4060", "NVIDIA GeForce RTX 4060", 1, 8.9, 8),
    ("RTX A3000 Laptop 12GB", "NVIDIA RTX A3000 12GB Laptop GPU", 1, 8.6, 12),
    ("2x RTX 5070 Ti", "NVIDIA GeForce RTX 5070 Ti", 2, 12.0, 16),
    ("RTX 5090D", "NVIDIA GeForce RTX 5090 D", 1, 12.0, 31.8),
])
def test_consumer_and_laptop_cards(spec, name, count, cc, mem):
    g = hardware.parse_spec(spec, GPUS).gpu
    assert (g["name"], g["count"], g["compute_capability"], g["memory_gib"]) == (name, count, cc, mem)


@pytest.mark.parametrize("spec, cc, mem, count, fp8", [
    ("24GiB cc8.9", 8.9, 24, 1, True),
    ("custom 16GB sm_86", 8.6, 16, 1, False),
    ("My Card 12GB sm86 x2", 8.6, 12, 2, False),
    ("sm_120 16GB", 12.0, 16, 1, True),
    ("80GB cc9 x8", 9.0, 80, 8, True),
])
def test_a_gpu_outside_the_table_by_memory_and_capability(spec, cc, mem, count, fp8):
    hw = hardware.parse_spec(spec, GPUS)
    assert hw.reason == "custom"
    g = hw.gpu
    assert (g["compute_capability"], g["memory_gib"], g["count"], g["fp8"]) == (cc, mem, count, fp8)
    assert g["arch"] == hardware.arch_of(cc)


def test_a_close_name_reads_as_that_card_and_says_so():
    hw = hardware.parse_spec("RTX 4060 Tii", GPUS)
    assert hw.reason == "nearest" and hw.gpu["name"] == "NVIDIA GeForce RTX 4060 Ti 8GB" and "closest" in hw.note


def test_a_name_that_states_its_memory_keeps_that_memory():
    # the 48 GB RTX 4090 boards sold in China: once read by closest name as an 8 GiB RTX 4060
    for spec in ("RTX-4090-48GB x2", "RTX 4090 48G x2"):
        hw = hardware.parse_spec(spec, GPUS)
        assert hw.gpu["count"] == 2 and hw.gpu["memory_gib"] == 48.0 and hw.gpu["compute_capability"] == 8.9
        assert "4090" in hw.gpu["name"] and "as the name states" in hw.note
    assert hardware.parse_spec("A100-80G", GPUS).gpu["memory_gib"] == 80.0
    # a close misspelling is still read by name, but never as a card with other memory than stated
    assert hardware.lookup_gpu("RTX 4060 Tii 48GB", GPUS) == (None, None)


def test_the_drivers_cuda_rides_on_the_gpu_spec():
    spec = hardware.parse_spec("RTX-4090, cuda 12.4, host 64GiB", GPUS)
    assert spec.facts()["gpu"]["driver_cuda"] == "12.4" and spec.host_memory_gib == 64.0
    assert "driver_cuda" not in hardware.parse_spec("RTX-4090", GPUS).facts()["gpu"]


def test_probe_reads_what_other_processes_leave_free():
    busy = {"name": "NVIDIA H200", "mem": 150_754_820_096, "free": 7_881_299_968, "cc": (9, 0), "nvlink": 1}
    idle = dict(busy, free=150_000_000_000)
    hw = machine.probe(GPUS, nvml=fake_nvml([idle, busy]))
    assert hw.facts()["gpu"]["free_gib"] == pytest.approx(7.34, abs=0.01)
    assert "free_gib" not in hardware.parse_spec("H200", GPUS).facts()["gpu"]
