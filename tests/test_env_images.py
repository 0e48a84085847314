"""Images configured by environment variables (knowledge/deploy/env_images.yaml, engine/scan/images.py):
RunPod's worker-vllm builds vLLM's engine arguments from the container's env, so a `docker run -e`,
a compose `environment:` or a Dockerfile `ENV` of it is a vLLM site whose env is its command line
(https://github.com/runpod-workers/worker-vllm, README "Configuration" and src/engine_args.py /
src/args_builder.py)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.images import env_image, image_version


def _sites(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="A100-80GB x2")
    return {sr.site.file: sr for sr in rep.sites}


def _values(sr):
    return {k: s.value for k, s in sr.site.settings.items()}


def test_the_worker_image_tag_names_the_vllm_it_installs():
    assert image_version("runpod/worker-v1-vllm:v2.9.0stable-cuda12.1.0") == "0.10.0"
    assert image_version("docker.io/runpod/worker-v1-vllm:v2.25.1") == "0.27.1"
    assert image_version("runpod/worker-vllm:v1.3.0stable-cuda12.1.0") == "0.5.4"
    assert image_version("runpod/worker-v1-vllm:latest") is None and env_image("runpod/worker-v1-vllm:latest") is not None
    assert env_image("someone/worker-v1-vllm:v2.9.0") is None


def test_docker_run_of_the_worker_reads_its_env_as_engine_arguments(tmp_path):
    run = ("docker run --gpus all -e MODEL_NAME=Qwen/Qwen2.5-7B-Instruct -e MAX_MODEL_LEN=8192 -e ENFORCE_EAGER=true "
           "-e ENABLE_PREFIX_CACHING=false -e HF_TOKEN=hf_x -e BASE_PATH=/models runpod/worker-v1-vllm:v2.9.0stable-cuda12.1.0\n")
    (sr,) = _sites(tmp_path, {"run.sh": run}).values()
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and sr.lookup_version == "0.10.0"
    v = _values(sr)
    # the worker's own 0.95 up to v2.23; a switch's false leaves the flag out; HF_TOKEN never becomes a word
    assert v["max_model_len"] == 8192 and v["enforce_eager"] is True and v["gpu_memory_utilization"] == 0.95
    assert "enable_prefix_caching" not in v and "hf_token" not in v and not sr.site.unknown


def test_compose_and_dockerfile_of_the_worker_are_sites(tmp_path):
    compose = ("services:\n  llm:\n    image: runpod/worker-v1-vllm:v2.25.0\n    environment:\n"
               "      MODEL_NAME: Qwen/Qwen2.5-7B-Instruct\n      TENSOR_PARALLEL_SIZE: \"2\"\n"
               "      VLLM_EXTRA_ARGS: \"--max-num-seqs 64\"\n    ipc: host\n")
    docker = "FROM runpod/worker-v1-vllm:v2.4.0stable-cuda12.1.0\nENV MODEL_NAME=Qwen/Qwen2.5-7B-Instruct MAX_MODEL_LEN=4096\n"
    sites = _sites(tmp_path, {"a/compose.yaml": compose, "b/Dockerfile": docker})
    c, d = sites["a/compose.yaml"], sites["b/Dockerfile"]
    # from v2.24 the worker appends VLLM_EXTRA_ARGS and sets no utilization of its own
    assert _values(c) == {"tensor_parallel_size": 2, "max_num_seqs": 64} and c.lookup_version == "0.27.0"
    assert _values(d) == {"max_model_len": 4096, "gpu_memory_utilization": 0.95} and d.lookup_version == "0.8.4"


def test_other_images_env_is_not_read_as_arguments(tmp_path):
    assert _sites(tmp_path, {"run.sh": "docker run -e MAX_MODEL_LEN=8192 -e MODEL_NAME=x myorg/api:1\n"}) == {}
