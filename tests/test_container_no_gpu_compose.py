"""L278 container-no-gpu for a compose service (P1: compose merges the files it is given, and one the
project does not hold may reserve the GPUs) and the `--gpus=all` fix written on a shell `docker run`
(the `container` fix op, vLLM #27268's shape). av/harbor keeps a service's NVIDIA reservation in a
compose file of its own beside the service's file (https://github.com/av/harbor: compose.vllm.yml and
its nvidia companion): that pair is not judged, the service file alone is a P1."""
import pytest

from vllm_kb.engine.audit import audit

SERVICE = """services:
  vllm:
    image: vllm/vllm-openai:v0.9.1
    ipc: host
    ports: ["8000:8000"]
    command: --model Qwen/Qwen2.5-7B-Instruct --max-model-len 8192
{extra}"""
GPU_FILE = """services:
  vllm:
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              count: all
              capabilities: [gpu]
"""


def _l278(tmp_path, files: dict):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    sites = audit(tmp_path, gpu="A100-80GB").sites
    return next((r for sr in sites for r in sr.results if r.check.id == "L278"), None)


def test_a_service_with_no_gpu_of_its_own_is_a_p1(tmp_path):
    r = _l278(tmp_path, {"compose.vllm.yml": SERVICE.format(extra="")})
    assert (r.status, r.priority) == ("recommended", "P1")
    assert "capabilities: [gpu]" in r.reason_text("en") and "override" in r.reason_text("en")
    assert "override" in r.reason_text("zh")


def test_another_compose_file_naming_the_service_may_hold_its_gpus(tmp_path):
    r = _l278(tmp_path, {"compose.vllm.yml": SERVICE.format(extra=""), "compose.x.vllm.nvidia.yml": GPU_FILE})
    assert r is None or r.status == "not_applicable"


@pytest.mark.parametrize("extra", [
    "    gpus: all\n", "    runtime: nvidia\n", "    runtime: ${RUNTIME}\n", "    privileged: true\n",
    "    devices: [\"nvidia.com/gpu=all\"]\n", "    devices: [/dev/nvidia0, /dev/nvidiactl]\n",
    "    deploy:\n      resources:\n        reservations:\n          devices:\n            - capabilities: [gpu]\n",
    "    deploy:\n      resources:\n        reservations:\n          generic_resources:\n            - discrete_resource_spec: {kind: NVIDIA-GPU, value: 1}\n",
    "    deploy: ${DEPLOY}\n",
    "    environment:\n      - NVIDIA_VISIBLE_DEVICES=all\n",
    "    env_file: [gpu.env]\n",
    "    extends: {file: base.yml, service: gpu}\n",
    "    volumes: [\"/dev/nvidia0:/dev/nvidia0\"]\n",
])
def test_anything_that_may_hand_the_service_a_gpu_is_not_judged(tmp_path, extra):
    r = _l278(tmp_path, {"docker-compose.yml": SERVICE.format(extra=extra)})
    assert r is None or r.status == "not_applicable"


def test_the_fix_adds_gpus_all_after_the_run_word_once(cli, write_project):
    """vLLM #27268: vLLM's image run with a port, a token and the host IPC namespace but no GPU."""
    line = "docker run -p 8000:8000 --ipc=host vllm/vllm-openai:v0.11.0 --model Qwen/Qwen3-8B"
    root = write_project({"serve.sh": "#!/bin/bash\n" + line + "\n"})
    (sr,) = audit(root, gpu="L4").sites
    (ch,) = [c for c in sr.changes if "L278" in c.checks]
    assert (ch.file, ch.line, ch.after, ch.safe) == ("serve.sh", 2, "--gpus=all", False)
    cli("audit", str(root), "--gpu", "L4", "--fix", "--fixable", "L278")
    assert (root / "serve.sh").read_text().splitlines()[1] == line  # unsafe: not without --unsafe-fixes
    for _ in range(2):  # the second run finds nothing left to write
        cli("audit", str(root), "--gpu", "L4", "--fix", "--unsafe-fixes", "--fixable", "L278")
        assert (root / "serve.sh").read_text().splitlines()[1] == line.replace("docker run", "docker run --gpus=all")
    (sr,) = audit(root, gpu="L4").sites
    assert next(r for r in sr.results if r.check.id == "L278").status == "not_applicable"
