"""CUDA_VISIBLE_DEVICES set inside a container names the container's own GPUs, which the NVIDIA runtime
numbers from 0 whatever the host calls them (vLLM #9865: NVIDIA_VISIBLE_DEVICES=2,3 with
CUDA_VISIBLE_DEVICES=2,3 leaves the process no GPU, and vLLM's NVML lookup of index 2 fails)."""
import pytest

from vllm_kb.engine.audit import audit

_IMAGE = "vllm/vllm-openai:v0.6.6.post1 --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2\n"


def _l34(tmp_path, run: str):
    (tmp_path / "run.sh").write_text("#!/bin/sh\n" + run + _IMAGE)
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    r = next(r for r in sr.results if r.check.id == "L34")
    return r.status, r.priority


@pytest.mark.parametrize("run", [
    "docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=2,3 -e CUDA_VISIBLE_DEVICES=2,3 --ipc=host ",
    "docker run --gpus '\"device=2,3\"' -e CUDA_VISIBLE_DEVICES=2,3 --ipc=host ",
    "docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=2,3 -e CUDA_VISIBLE_DEVICES=0,3 --ipc=host ",
])
def test_indices_past_the_containers_gpus_leave_too_few(tmp_path, run):
    assert _l34(tmp_path, run) == ("recommended", "P0")


@pytest.mark.parametrize("run", [
    "docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=2,3 -e CUDA_VISIBLE_DEVICES=0,1 --ipc=host ",
    "CUDA_VISIBLE_DEVICES=2,3 docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=2,3 --ipc=host ",  # the host's shell
    "docker run --gpus all -e CUDA_VISIBLE_DEVICES=2,3 --ipc=host ",  # every GPU of the machine: 2 and 3 exist
    "docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=2,3 -e CUDA_VISIBLE_DEVICES=GPU-5e1c,GPU-77aa --ipc=host ",
    "export CUDA_VISIBLE_DEVICES=2,3\ndocker run --gpus 2 --ipc=host ",  # exported on the host, never passed in
    "docker run --privileged --gpus 2 -e CUDA_VISIBLE_DEVICES=2,3 --ipc=host ",  # privileged: the node's GPUs
    "docker run --gpus 2 --device /dev/nvidia2 --device /dev/nvidia3 -e CUDA_VISIBLE_DEVICES=2,3 --ipc=host ",
])
def test_indices_of_the_containers_own_gpus_start(tmp_path, run):
    assert _l34(tmp_path, run)[1] != "P0"


_POD = """apiVersion: v1
kind: Pod
metadata: {name: vllm}
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.6.6.post1
    args: ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--tensor-parallel-size", "2"]
    env: [{name: CUDA_VISIBLE_DEVICES, value: "2,3"}]
    resources: {limits: {nvidia.com/gpu: 2}}
"""


@pytest.mark.parametrize("extra, p0", [
    ("", True),
    ("    securityContext: {privileged: true}\n", False),  # a privileged pod sees every GPU of its node
])
def test_pod_env_past_its_request(tmp_path, extra, p0):
    (tmp_path / "pod.yaml").write_text(_POD + extra)
    (sr,) = audit(tmp_path, gpu="A100-80GB x4").sites
    r = next(r for r in sr.results if r.check.id == "L34")
    assert (r.priority == "P0") is p0
