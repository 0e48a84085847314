"""`vllm serve --config /app/config.yaml` where the container path holds a project file: a compose
bind mount (short or long volume syntax), a `docker run -v`, a Dockerfile COPY. The file is read as a
config beside the launch would be, the command line still winning (eval75 Shivam-Patel-LR/vLLM-deployments:
TP 2 and max-model-len were not seen). A script a compose service runs from a bind mount runs the
service image's release (its start.sh was judged at the newest release with no pin)."""
import pytest

from vllm_kb.engine.audit import audit

_CONFIG = "tensor-parallel-size: 2\nmax-model-len: 16384\n"


def _site(tmp_path, **files):
    for name, text in files.items():
        path = tmp_path / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (sr,) = audit(tmp_path, gpu="none").sites
    return sr


@pytest.mark.parametrize("volume", [
    "      - ./serve/config.yaml:/app/config.yaml:ro\n",
    "      - type: bind\n        source: ./serve/config.yaml\n        target: /app/config.yaml\n",
    "      - ./serve:/app\n",  # the folder mounted: the file under it
])
def test_a_compose_bind_mount_is_read(tmp_path, volume):
    sr = _site(tmp_path, **{"serve__config.yaml": _CONFIG, "docker-compose.yml": (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.21.0\n    volumes:\n" + volume +
        '    command: ["Qwen/Qwen2.5-7B-Instruct", "--config", "/app/config.yaml", "--max-model-len", "8192"]\n')})
    assert sr.site.config_file == "serve/config.yaml"
    assert sr.site.settings["tensor_parallel_size"].value == 2
    assert sr.site.settings["max_model_len"].value == 8192  # the command line wins
    assert not any(o["code"] == "config-missing" for o in sr.site.opaque)


def test_a_named_volume_is_not_a_project_file(tmp_path):
    sr = _site(tmp_path, **{"config.yaml": _CONFIG, "docker-compose.yml": (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.21.0\n    volumes:\n      - cfg:/app\n"
        '    command: ["Qwen/Qwen2.5-7B-Instruct", "--config", "/app/config.yaml"]\nvolumes:\n  cfg: {}\n')})
    assert sr.site.config_file is None
    assert any(o["code"] == "config-missing" for o in sr.site.opaque)


def test_a_docker_run_volume_is_read(tmp_path):
    sr = _site(tmp_path, **{"config.yaml": _CONFIG, "run.sh": (
        'docker run --gpus all -v "$PWD/config.yaml:/cfg/config.yaml" vllm/vllm-openai:v0.21.0 '
        "Qwen/Qwen2.5-7B-Instruct --config /cfg/config.yaml\n")})
    assert sr.site.config_file == "config.yaml"
    assert sr.site.settings["tensor_parallel_size"].value == 2


def test_a_dockerfile_copy_is_read(tmp_path):
    sr = _site(tmp_path, **{"svc__config.yaml": _CONFIG, "svc__Dockerfile": (
        "FROM vllm/vllm-openai:v0.21.0\nWORKDIR /app\nCOPY ./config.yaml /app/config.yaml\n"
        'ENTRYPOINT ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--config", "/app/config.yaml"]\n')})
    assert sr.site.config_file == "svc/config.yaml"
    assert sr.site.settings["tensor_parallel_size"].value == 2


def test_a_script_a_compose_service_mounts_runs_its_image(tmp_path):
    sr = _site(tmp_path, **{"svc__config.yaml": _CONFIG, "svc__start.sh": (
        '#!/bin/sh\n: "${MODEL_ID:=Qwen/Qwen2.5-0.5B-Instruct}"\nexec vllm serve "$MODEL_ID" --config /app/config.yaml\n'),
        "svc__docker-compose.yml": (
        "services:\n  rerank:\n    image: vllm/vllm-openai:v0.21.0\n    volumes:\n      - ./config.yaml:/app/config.yaml:ro\n"
        '      - ./start.sh:/app/start.sh:ro\n    environment:\n      MODEL_ID: Qwen/Qwen2.5-7B-Instruct\n'
        '    entrypoint: ["/bin/sh", "/app/start.sh"]\n')})
    assert sr.site.file == "svc/start.sh"
    assert (sr.version.version, sr.version.basis) == ("0.21.0", "image")
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"  # the service's environment
    assert sr.site.config_file == "svc/config.yaml"
    assert sr.site.launch["image_at"] == ("svc/docker-compose.yml", 3)  # a release change is made at the service's image


_CM = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: vllm-config\ndata:\n  config.yaml: |\n"
       "    tensor-parallel-size: 2\n    max-model-len: 16384\n")
_DEPLOY = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  template:\n    spec:\n      containers:\n"
           "        - name: vllm\n          image: vllm/vllm-openai:v0.21.0\n"
           '          args: ["Qwen/Qwen2.5-7B-Instruct", "--config", "{path}", "--max-model-len", "8192"]\n'
           "          volumeMounts:\n            - name: cfg\n              mountPath: {mount}\n{sub}"
           "      volumes:\n        - name: cfg\n          configMap:\n            name: vllm-config\n")


@pytest.mark.parametrize("path, mount, sub", [
    ("/etc/vllm/config.yaml", "/etc/vllm", ""),
    ("/app/serve.yaml", "/app/serve.yaml", "              subPath: config.yaml\n"),
])
def test_a_configmap_volume_is_read_and_never_edited(tmp_path, path, mount, sub):
    """The ConfigMap's entry is the file vLLM reads (here in another manifest of the project); its keys sit
    inside a YAML string, so they carry no position a fix could edit and no config file is named."""
    sr = _site(tmp_path, **{"k8s__config.yaml": _CM, "k8s__deploy.yaml": _DEPLOY.format(path=path, mount=mount, sub=sub)})
    assert sr.site.settings["tensor_parallel_size"].value == 2
    assert sr.site.settings["tensor_parallel_size"].file == "k8s/config.yaml" and sr.site.settings["tensor_parallel_size"].pos is None
    assert sr.site.settings["max_model_len"].value == 8192  # the command line wins
    assert sr.site.config_file is None and sr.site.launch["config_map"] == "k8s/config.yaml:6"
