"""How the place a launch runs in decides whether vLLM starts: a /dev/shm replaced by a mount,
the GPUs the NVIDIA runtime mounts, the releases a Dockerfile installs, a trainer that imports
vLLM beside a separate rollout server, a key=value limit the older releases read."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.docker_run import shm_mount

TP2 = "--model Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2"


def _verdicts(tmp_path, files: dict[str, str], gpu="H100-80GB x8", version="0.10.1"):
    if "requirements.txt" not in files:
        (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu=gpu)
    return {sr.site.id: {r.check.id: r.priority for r in sr.results if r.priority} for sr in rep.sites}


@pytest.mark.parametrize("kind,spec,want", [
    ("volume", "/dev/shm:/dev/shm", "unbounded"),
    ("volume", "shm-vol:/dev/shm:rw", "unbounded"),
    ("volume", "./data:/data", None),
    ("tmpfs", "/dev/shm:rw,size=8g", "8g"),
    ("tmpfs", "/dev/shm", "unbounded"),
    ("tmpfs", "/tmp", None),
    ("mount", "type=tmpfs,target=/dev/shm,tmpfs-size=1073741824", "1073741824"),
    ("mount", "type=bind,source=/dev/shm,destination=/dev/shm", "unbounded"),
    ("volume", {"type": "tmpfs", "target": "/dev/shm", "tmpfs": {"size": 4294967296}}, "4294967296"),
])
def test_a_mount_at_dev_shm_sets_its_size(kind, spec, want):
    assert shm_mount(kind, spec) == want


def test_docker_run_with_the_hosts_shm_mounted_starts(tmp_path):
    got = _verdicts(tmp_path, {
        "bind.sh": f"docker run --gpus all -v /dev/shm:/dev/shm vllm/vllm-openai:v0.10.1 {TP2}\n",
        "small.sh": f"docker run --gpus all --tmpfs /dev/shm:size=32m vllm/vllm-openai:v0.10.1 {TP2}\n",
        "plain.sh": f"docker run --gpus all vllm/vllm-openai:v0.10.1 {TP2}\n"})
    assert "L40" not in got["bind.sh:1"]
    assert got["small.sh:1"]["L40"] == "P1" and got["plain.sh:1"]["L40"] == "P1"  # TP 2: a risk, not certain (vLLM #26360)


def test_compose_volume_or_tmpfs_at_dev_shm_starts(tmp_path):
    svc = "    image: vllm/vllm-openai:v0.10.1\n    command: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\", \"--tensor-parallel-size\", \"2\"]\n"
    got = _verdicts(tmp_path, {
        "a/compose.yaml": f"services:\n  vllm:\n{svc}    volumes:\n      - /dev/shm:/dev/shm\n",
        "b/compose.yaml": f"services:\n  vllm:\n{svc}    tmpfs:\n      - /dev/shm:size=8g\n",
        "c/compose.yaml": f"services:\n  vllm:\n{svc}"})
    assert [("L40" in got[k]) for k in sorted(got)] == [False, False, True]


def _pod(volume: str) -> str:
    return ("apiVersion: v1\nkind: Pod\nmetadata: {name: vllm}\nspec:\n  containers:\n  - name: vllm\n"
            "    image: vllm/vllm-openai:v0.10.1\n"
            "    args: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\", \"--tensor-parallel-size\", \"2\"]\n"
            "    resources: {limits: {nvidia.com/gpu: 2}}\n"
            "    volumeMounts: [{name: shm, mountPath: /dev/shm}]\n"
            f"  volumes:\n  - name: shm\n    {volume}\n")


def test_a_disk_emptydir_or_the_nodes_shm_at_dev_shm_is_no_p0(tmp_path):
    got = _verdicts(tmp_path, {"disk/pod.yaml": _pod("emptyDir: {}"),
                               "host/pod.yaml": _pod("hostPath: {path: /dev/shm}"),
                               "small/pod.yaml": _pod("emptyDir: {medium: Memory, sizeLimit: 32Mi}")})
    by_dir = {k.split("/")[0]: v for k, v in got.items()}
    assert "L40" not in by_dir["disk"] and "L40" not in by_dir["host"]
    assert by_dir["small"]["L40"] == "P1"


def test_nvidia_visible_devices_bounds_a_container_without_a_gpu_request(tmp_path):
    got = _verdicts(tmp_path, {
        "compose.yaml": ("services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.1\n    runtime: nvidia\n    ipc: host\n"
                         "    environment:\n      NVIDIA_VISIBLE_DEVICES: \"0,1\"\n"
                         "    command: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\", \"--tensor-parallel-size\", \"4\"]\n"),
        "run.sh": f"docker run --runtime nvidia -e NVIDIA_VISIBLE_DEVICES=all --ipc=host vllm/vllm-openai:v0.10.1 {TP2}\n"})
    assert got["compose.yaml:8"]["L34"] == "P0"
    assert "L34" not in got["run.sh:1"]


def test_a_dockerfiles_pip_install_pins_vllm_and_the_framework(tmp_path):
    got = _verdicts(tmp_path, {
        "requirements.txt": "pyyaml\n",
        "Dockerfile": ("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN apt-get update && \\\n"
                       "    pip install --no-cache-dir -i https://mirrors.example/simple \\\n"
                       "      \"llamafactory[torch,metrics]==0.9.3\" \\\n      vllm==0.10.1 && rm -rf /root/.cache\n"),
        "infer.yaml": "model_name_or_path: Qwen/Qwen2.5-0.5B-Instruct\ninfer_backend: vllm\ntemplate: qwen\n",
        "run.sh": "llamafactory-cli api infer.yaml\n"})
    assert got["run.sh:1"]["L43"] == "P0"


def test_a_trainer_that_talks_to_a_server_still_imports_the_pinned_vllm(tmp_path):
    got = _verdicts(tmp_path, {
        "requirements.txt": "trl==0.17.0\nvllm==0.12.0\n",
        "train.py": ("from trl import GRPOConfig\n"
                     "cfg = GRPOConfig(output_dir='o', use_vllm=True, vllm_mode='server')\n")})
    assert got["train.py:2"].get("L43") == "P0"


@pytest.mark.parametrize("version,written,p0", [
    ("0.6.3", "image=4,video=1", False), ("0.6.3", "'{\"image\": 4}'", True),
    ("0.10.1", "image=4,video=1", True), ("0.10.1", "'{\"image\": 4}'", False)])
def test_the_limit_form_follows_what_was_written(tmp_path, version, written, p0):
    got = _verdicts(tmp_path, {"serve.sh": f"vllm serve Qwen/Qwen2.5-VL-7B-Instruct --limit-mm-per-prompt {written}\n"},
                    gpu="H100-80GB x1", version=version)
    assert (got["serve.sh:1"].get("L32") == "P0") is p0


def test_compose_device_ids_written_as_one_comma_list_count_each_gpu(tmp_path):
    got = _verdicts(tmp_path, {"compose.yaml": (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.1\n    ipc: host\n"
        "    command: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\", \"--tensor-parallel-size\", \"4\"]\n"
        "    deploy:\n      resources:\n        reservations:\n          devices:\n"
        "            - {capabilities: [gpu], device_ids: ['0,1,2,3,4,5,6,7']}\n")})
    assert "L34" not in next(iter(got.values()))


# podman and nerdctl run a vLLM image like docker does: a CDI device (`--device nvidia.com/gpu=all`,
# podman's GPU form since the NVIDIA Container Toolkit's CDI support), the program's own options before
# `run` (`nerdctl -n k8s.io run`), and their 64 MiB /dev/shm unless --ipc=host / --shm-size say otherwise
def test_podman_and_nerdctl_runs_are_read_like_docker_run(tmp_path):
    got = _verdicts(tmp_path, {
        "cdi.sh": f"podman run --rm --device nvidia.com/gpu=all --security-opt=label=disable vllm/vllm-openai:v0.10.1 {TP2}\n",
        "ipc.sh": f"podman run --device=nvidia.com/gpu=all --ipc=host --pod llm vllm/vllm-openai:v0.10.1 {TP2}\n",
        "ns.sh": f"sudo nerdctl -n k8s.io run -d --gpus all --shm-size 16g vllm/vllm-openai:v0.10.1 {TP2}\n",
        "remote.sh": f"podman --remote --connection gpu-box run --gpus all vllm/vllm-openai:v0.10.1 {TP2}\n"})
    assert got["cdi.sh:1"]["L40"] == "P1" and got["remote.sh:1"]["L40"] == "P1"
    assert "L40" not in got["ipc.sh:1"] and "L40" not in got["ns.sh:1"]
