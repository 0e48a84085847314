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


def test_substratusai_images_read_their_env_until_the_entrypoint_went_away(tmp_path):
    # entrypoint.sh (substratusai/vllm-docker up to v0.6.2): MODEL, the GPU count as TP, DTYPE only beside QUANTIZATION
    assert image_version("ghcr.io/substratusai/vllm:v0.5.3.post1") == "0.5.3.post1"
    assert env_image("substratusai/vllm:v0.6.3") is None and env_image("substratusai/vllm:v0.6.2-docker1") is not None
    run = ("docker run --gpus all -e MODEL=mistralai/Mistral-7B-Instruct-v0.1 -e MAX_MODEL_LEN=8192 -e DTYPE=half "
           "ghcr.io/substratusai/vllm:v0.4.2\n")
    (sr,) = _sites(tmp_path, {"run.sh": run}).values()
    assert sr.site.model.value == "mistralai/Mistral-7B-Instruct-v0.1" and sr.lookup_version == "0.4.2"
    tp = sr.site.settings["tensor_parallel_size"]
    assert not tp.resolved and sr.site.settings["max_model_len"].value == 8192 and "dtype" not in sr.site.settings


def test_an_unknown_vllm_image_given_a_model_by_env_is_a_site_with_unknowns(tmp_path):
    run = "docker run --gpus all -e MODEL=mistralai/Mistral-7B-Instruct-v0.1 -e ENFORCE_EAGER=true ghcr.io/acme/vllm:v0.6.3\n"
    k8s = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: m}\nspec:\n  template:\n    spec:\n      containers:\n"
           "        - name: s\n          image: acme/vllm-server:v0.6.3\n          env:\n            - {name: MODEL_ID, value: Qwen/Qwen2.5-7B-Instruct}\n"
           "            - {name: MAX_MODEL_LEN, value: \"4096\"}\n")
    sites = _sites(tmp_path, {"a/run.sh": run, "b/deploy.yaml": k8s})
    a, b = sites["a/run.sh"], sites["b/deploy.yaml"]
    assert a.site.model.value == "mistralai/Mistral-7B-Instruct-v0.1" and a.lookup_version == "0.6.3"
    assert "inferred" in a.site.model.note and a.site.settings["enforce_eager"].value is True
    # what such entrypoints often write themselves is unknown, not vLLM's default
    assert not a.site.settings["gpu_memory_utilization"].resolved and not a.site.settings["tensor_parallel_size"].resolved
    assert b.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and b.site.settings["max_model_len"].value == 4096


def test_the_fallback_needs_a_vllm_image_a_model_value_and_no_command(tmp_path):
    runs = {"a.sh": "docker run -e MODEL=Qwen/Qwen2.5-7B-Instruct acme/api-server:1\n",  # not named for vLLM
            "b.sh": "docker run -e MODEL=qwen acme/vllm:v0.6.3\n",  # not a hub id or a path
            "c.sh": "docker run -e MODEL=Qwen/Qwen2.5-7B-Instruct vllm/vllm-openai:v0.6.3\n",  # the official image: flags only
            "d.sh": "docker run -e MODEL=Qwen/Qwen2.5-7B-Instruct rocm/vllm:latest\n",  # vendor builds of it too
            "e.sh": "docker run -e MODEL=Qwen/Qwen2.5-7B-Instruct lmcache/vllm-openai:v0.3.1\n"}
    sites = _sites(tmp_path, runs)
    assert "a.sh" not in sites
    assert all(sr.site.model is None for sr in sites.values())


def test_the_endpoint_env_file_beside_the_workers_dockerfile_is_its_environment(tmp_path):
    # a serverless endpoint's variables live on the platform; the project keeps them beside the
    # Dockerfile, and on RunPod they override the image's ENV
    docker = "FROM runpod/worker-v1-vllm:v1.8.0stable-cuda12.1.0\nENV MAX_MODEL_LEN=2048\n"
    env = "MODEL_NAME=unsloth/tinyllama-bnb-4bit\nLOAD_FORMAT=bitsandbytes\nMAX_MODEL_LEN=512\n"
    (sr,) = _sites(tmp_path, {"w/Dockerfile": docker, "w/endpoint.env": env}).values()
    assert sr.site.model.value == "unsloth/tinyllama-bnb-4bit" and sr.lookup_version == "0.6.6"
    v = _values(sr)
    assert v["load_format"] == "bitsandbytes" and v["max_model_len"] == 512
    lf = sr.site.settings["load_format"]
    assert (lf.file, lf.line) == ("w/endpoint.env", 2) and "endpoint.env:2" in lf.pos["from_env"]
    p0 = [r.check.id for r in sr.results if r.status == "recommended" and r.priority == "P0"]
    assert p0 == ["L20"]  # load format without the quantization 0.6.6 requires beside it


def test_two_env_files_beside_the_dockerfile_are_not_guessed_between(tmp_path):
    files = {"Dockerfile": "FROM runpod/worker-v1-vllm:v2.9.0stable-cuda12.1.0\n",
             "dev.env": "MODEL_NAME=Qwen/Qwen2.5-0.5B-Instruct\n", "prod.env": "MODEL_NAME=Qwen/Qwen2.5-72B-Instruct\n"}
    (sr,) = _sites(tmp_path, files).values()
    assert sr.site.model is not None and sr.site.model.value is None  # set on the endpoint: unknown, not missing
    assert not [r for r in sr.results if r.status == "recommended" and r.priority == "P0"]


def test_a_worker_image_with_no_model_in_view_is_not_missing_one(tmp_path):
    (sr,) = _sites(tmp_path, {"Dockerfile": "FROM runpod/worker-v1-vllm:v1.8.0stable-cuda12.1.0\n"}).values()
    assert not [r for r in sr.results if r.status == "recommended" and r.priority == "P0"]
