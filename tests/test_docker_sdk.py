"""Containers a Python program starts through a Docker client library (engine/scan/docker_sdk.py):
the Docker SDK's `containers.run|create(image, command, environment=, device_requests=, shm_size=,
ipc_mode=)` and python-on-whales' `docker.run(image, command, envs=, gpus=, shm_size=, ipc=)` are
read as the `docker run` a shell would write."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _checks(site: dict) -> dict:
    return {c["id"]: c for c in site["checks"]}


def test_sdk_run_with_a_list_command(write_project, json_site):
    # after bittensor miners that start vLLM's image with docker.from_env().containers.run(…)
    root = write_project({
        "requirements.txt": "vllm==0.6.3\n",
        "miner.py": '''import docker
from docker.types import DeviceRequest

MODEL = "Qwen/Qwen2.5-7B-Instruct"


def start(tp=2):
    client = docker.from_env()
    return client.containers.run(
        "vllm/vllm-openai:v0.8.5",
        command=["--model", MODEL, "--tensor-parallel-size", str(tp)],
        device_requests=[DeviceRequest(count=-1, capabilities=[["gpu"]])],
        environment={"VLLM_USE_V1": "1", "HF_TOKEN": token()},
        shm_size="16g",
        volumes={"/data/hf": {"bind": "/root/.cache/huggingface", "mode": "rw"}},
        detach=True,
    )
''',
    })
    site = json_site(root, gpu="A100-80GB x2")
    assert site["line"] == 9 and site["vllm"]["version"] == "0.8.5" and site["vllm"]["basis"] == "image"
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"
    assert {s["name"]: s["value"] for s in site["settings"]}["tensor_parallel_size"] == 2
    assert {e["name"]: e["value"] for e in site["env"]}["VLLM_USE_V1"] == "1"  # HF_TOKEN: its name only
    assert _checks(site)["L40"]["status"] == "enabled"  # /dev/shm is 16 GiB


def test_sdk_run_with_a_string_command_and_a_device_count(write_project, json_site):
    # a string command is split as the SDK splits it; DeviceRequest(count=1) is `--gpus 1`
    root = write_project({
        "serve.py": '''import docker

def create_container(name, port):
    image = "vllm/vllm-openai:v0.6.3"
    dclient = docker.from_env()
    dclient.containers.run(image, "--model Qwen/Qwen2.5-7B-Instruct --max-model-len 65536",
                           name=name, device_requests=[docker.types.DeviceRequest(count=1, capabilities=[["gpu"]])],
                           ports={"8000/tcp": port}, detach=True)
''',
    })
    site = json_site(root)
    assert site["vllm"]["version"] == "0.6.3" and site["gpu_count"] == 1
    l14 = _checks(site)["L14"]
    assert l14["status"] == "recommended" and l14["priority"] == "P0"  # 65536 over Qwen2.5-7B's 32768


def test_sdk_create_and_an_unknown_model(write_project, json_site):
    root = write_project({
        "up.py": '''import docker

def up(model):
    c = docker.from_env().containers.create("vllm/vllm-openai:v0.9.2", f"--model {model} --swap-space 4",
                                             ipc_mode="host")
    c.start()
''',
    })
    site = json_site(root)
    assert site["vllm"]["version"] == "0.9.2"
    assert site["model"] is None  # `{model}` is the caller's: unknown, never guessed
    assert {s["name"]: s["value"] for s in site["settings"]}["swap_space"] == 4


def test_python_on_whales(write_project, json_site):
    root = write_project({
        "bench.py": '''from python_on_whales import docker

docker.run("vllm/vllm-openai:v0.8.5", ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "65536"],
           gpus="all", ipc="host", envs={"VLLM_USE_V1": "0"}, detach=True)
''',
    })
    site = json_site(root)
    assert site["vllm"]["version"] == "0.8.5"
    assert {e["name"]: e["value"] for e in site["env"]}["VLLM_USE_V1"] == "0"
    assert _checks(site)["L14"]["priority"] == "P0"


def test_other_containers_and_other_run_methods_are_no_sites(tmp_path):
    (tmp_path / "ops.py").write_text('''import docker
import vllm  # noqa

client = docker.from_env()
client.containers.run("redis:7", "redis-server --save 60 1", detach=True)
client.images.pull("vllm/vllm-openai:v0.8.5")
trainer.run("vllm/vllm-openai:v0.8.5")
''')
    assert audit(tmp_path, gpu="H100-80GB").sites == []


def test_keywords_from_an_unpacked_mapping(write_project, json_site):
    root = write_project({
        "engine.py": '''import docker


class Engine:
    def start(self, port=8000):
        run_kwargs = {
            "image": "vllm/vllm-openai:v0.8.5",
            "command": ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "65536"],
            "detach": True,
            "shm_size": "8g",
        }
        if port != 8000:
            run_kwargs["ports"] = {"8000/tcp": port}
        self._container = docker.from_env().containers.run(**run_kwargs)
''',
    })
    site = json_site(root)
    assert site["vllm"]["version"] == "0.8.5" and _checks(site)["L14"]["priority"] == "P0"


def test_a_container_run_in_a_thread(write_project, json_site):
    # async code hands the SDK's blocking call to a thread: the call the thread makes is the site
    root = write_project({
        "env.py": '''import asyncio
import functools

import docker

client = docker.from_env()


async def start():
    return await asyncio.to_thread(client.containers.run, "vllm/vllm-openai:v0.8.5",
                                   command=["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "65536"],
                                   ipc_mode="host", detach=True)
''',
        "loop.py": '''import asyncio
import functools

import docker


async def start(client):
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, functools.partial(client.containers.run, "redis:7", detach=True))
''',
    })
    site = json_site(root)
    assert (site["file"], site["line"], site["vllm"]["version"]) == ("env.py", 10, "0.8.5")
    assert _checks(site)["L14"]["priority"] == "P0"
