"""`evalscope perf --api local_vllm` starts vLLM's OpenAI server itself with arguments of its own
(evalscope/perf/utils/local_server.py): the site is that server, its tensor-parallel size the GPUs
the process sees, and nothing of it can be written into the command, which takes no vLLM option."""
from __future__ import annotations

import json

RUN = "evalscope perf --model Qwen/Qwen2.5-0.5B-Instruct --api local_vllm --port 9000 --number 20 --dataset openqa\n"


def _site(cli, root, gpu="L4"):
    code, out, err = cli("audit", str(root), "--gpu", gpu, "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return site


def test_the_server_evalscope_starts_is_the_site(cli, write_project):
    site = _site(cli, write_project({"run.sh": RUN}), "L4 x2")
    st = {s["name"]: s for s in site["settings"]}
    assert site["model"]["name"] == "Qwen/Qwen2.5-0.5B-Instruct"
    assert (st["max_model_len"]["value"], st["gpu_memory_utilization"]["value"], st["port"]["value"]) == (32768, 0.9, 9000)
    assert st["trust_remote_code"]["value"] is True
    assert site["effective"]["tensor_parallel_size"] == 2  # torch.cuda.device_count() of the GPUs given
    assert {e["name"]: e["value"] for e in site["env"]}["VLLM_ALLOW_LONG_MAX_MODEL_LEN"] == "1"


def test_a_flag_the_release_removed_fails_and_the_command_is_left_alone(cli, write_project):
    root = write_project({"run.sh": RUN, "requirements.txt": "vllm==0.18.1\n"})
    site = _site(cli, root)
    assert any(r["priority"] == "P0" and "--disable-log-requests" in r["title"] for r in site["recommendations"])
    cli("audit", str(root), "--gpu", "L4", "--isolated", "-q", "--fix", "--unsafe-fixes")
    assert (root / "run.sh").read_text() == RUN


def test_other_apis_start_nothing(cli, write_project):
    root = write_project({"run.sh": RUN.replace("local_vllm", "openai --url http://127.0.0.1:8000/v1/chat/completions")})
    code, out, err = cli("audit", str(root), "--gpu", "L4", "--isolated", "-q", "--format", "json")
    assert json.loads(out)["sites"] == []
