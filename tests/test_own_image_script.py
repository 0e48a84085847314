"""A Kubernetes container that runs the project's own image with no command of its own runs the
project script that image's Dockerfile ENTRYPOINT/CMD runs, with the container's env and GPUs: each
such deployment is a site at its own line, the script's `--model "$MODEL"` resolved with its env
(eval77 civo-learn/civo-vllm-docker: `CMD ["/entrypoint.sh"]`, a manifest's env MODEL=…). The tie
is a build of that image name in the project (engine/scan/own_images.py); an image the project does
not build stays what it was."""
from vllm_kb.engine.audit import audit

_DOCKERFILE = ("FROM python:3.11\nRUN pip install vllm==0.9.2\nCOPY entrypoint.sh /\nRUN chmod +x /entrypoint.sh\n"
               'CMD ["/entrypoint.sh"]\n')
_ENTRY = ('#!/usr/bin/env bash\nset -e\nexport PORT=${PORT:-8080}\nargs=""\n'
          'if [[ -n "$MAX_MODEL_LEN" ]]; then\n  args="$args --max-model-len $MAX_MODEL_LEN"\nfi\n'
          'python3 -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port "$PORT" --model "$MODEL" $args\n')
_BUILD = 'IMAGE_NAME="ghcr.io/acme/own-vllm:latest"\ndocker build -t $IMAGE_NAME .\n'
_POD = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: x
spec:
  template:
    spec:
      containers:
      - name: app
        image: "{image}"
        env:
        - name: MODEL
          value: "Qwen/Qwen2.5-7B-Instruct"
        - name: MAX_MODEL_LEN
          value: "8192"
        resources:
          limits:
            nvidia.com/gpu: "2"
"""


def _audit(tmp_path, image="ghcr.io/acme/own-vllm:latest", build=_BUILD):
    files = {"Dockerfile": _DOCKERFILE, "entrypoint.sh": _ENTRY, "build.sh": build, "k8s/deploy.yaml": _POD.format(image=image)}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return {sr.site.id: sr for sr in audit(tmp_path, gpu="none").sites}


def test_a_manifest_running_the_projects_image_is_a_site_of_its_script(tmp_path):
    got = _audit(tmp_path)
    assert set(got) == {"entrypoint.sh:8", "k8s/deploy.yaml:10"}
    site = got["k8s/deploy.yaml:10"].site
    assert site.model is not None and site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert site.settings["max_model_len"].value == 8192 and site.gpu_request == 2
    assert site.launch["runs_script"] == "entrypoint.sh:8"
    assert got["entrypoint.sh:8"].site.model is None or not got["entrypoint.sh:8"].site.model.resolved


def test_a_change_is_named_in_the_script_not_written(tmp_path, monkeypatch):
    # the script is every deployment's: --max-model-len written there would change the others too
    monkeypatch.setattr(__import__(__name__), "_POD", _POD.replace('"8192"', '"999999"'))
    sr = _audit(tmp_path)["k8s/deploy.yaml:10"]
    (ch,) = [c for c in sr.changes if c.target == "max_model_len"]
    assert ch.blocked == "from_env" and ch.key == "entrypoint.sh:8"


def test_an_image_the_project_does_not_build_is_no_site(tmp_path):
    assert set(_audit(tmp_path, image="ghcr.io/other/thing:latest")) == {"entrypoint.sh:8"}
    assert set(_audit(tmp_path, build="echo no build here\n")) == {"entrypoint.sh:8"}


_RUN = ('MODEL=$1\nIMAGE_NAME="ghcr.io/acme/own-vllm:latest"\ndocker build -t $IMAGE_NAME .\n'
        'docker run -d --gpus all -e MODEL=Qwen/Qwen2.5-7B-Instruct -e MAX_MODEL_LEN=4096 -p 8080:8080 $IMAGE_NAME{cmd}\n')


def _run_sites(tmp_path, cmd=""):
    files = {"Dockerfile": _DOCKERFILE, "entrypoint.sh": _ENTRY, "run.sh": _RUN.format(cmd=cmd)}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return {sr.site.id: sr.site for sr in audit(tmp_path, gpu="none").sites}


def test_a_docker_run_of_the_image_a_script_builds_is_a_site_of_its_script(tmp_path):
    got = _run_sites(tmp_path)
    assert set(got) == {"entrypoint.sh:8", "run.sh:4"}
    assert got["run.sh:4"].model.value == "Qwen/Qwen2.5-7B-Instruct" and got["run.sh:4"].settings["max_model_len"].value == 4096


def test_a_docker_run_naming_the_script_runs_it(tmp_path):
    assert "run.sh:4" in _run_sites(tmp_path, " /entrypoint.sh")


def test_a_docker_run_with_another_command_does_not(tmp_path):
    assert set(_run_sites(tmp_path, " bash")) == {"entrypoint.sh:8"}


def test_a_docker_run_whose_env_value_is_unknown_here_is_still_a_site(tmp_path):
    (tmp_path / "run.sh").write_text("")
    got = _run_sites(tmp_path, "").keys()
    assert "run.sh:4" in got
    (tmp_path / "run.sh").write_text(_RUN.format(cmd="").replace("-e MODEL=Qwen/Qwen2.5-7B-Instruct -e MAX_MODEL_LEN=4096", "-e MODEL=$MODEL"))
    assert "run.sh:4" in {sr.site.id for sr in audit(tmp_path, gpu="none").sites}


def test_a_docker_run_of_an_image_named_vllm_is_one_site(tmp_path):
    # jasonacox/TinyLLM vllm/optional_build: `docker build --tag vllm`, and run.sh's `docker run -e MODEL=… vllm`
    # of that image (FROM a CUDA base, CMD entrypoint.sh) was both the script's run and a `vllm serve` site of
    # an image named vllm, which L37 then took to share the GPU with itself
    files = {"Dockerfile": _DOCKERFILE, "entrypoint.sh": _ENTRY, "build.sh": "docker build . -f Dockerfile --tag vllm\n",
             "run.sh": "docker run -d --gpus all -e MODEL=Qwen/Qwen2.5-7B-Instruct -e PORT=8000 --name x vllm\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="H100-80GB")
    runs = [sr for sr in rep.sites if sr.site.file == "run.sh"]
    assert len(runs) == 1 and runs[0].site.kind == "api_server"
    assert not any(r.check.id == "L37" and r.needs_change for sr in rep.sites for r in sr.results)
