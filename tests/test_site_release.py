"""The release a site runs, read where the project says it (issues #13/#14): a range as well as an
exact pin wherever a site's own install names one (SkyPilot `setup:`, a serving image's RUN line,
Modal's `pip_install`), Poetry's `^`/`~` constraints, vendor images whose tag names the vendor's
release (NGC Triton and vLLM containers, by the vendor's notes), and a locally built vLLM image for
which the project's pin stands in. Each example is written after a public project."""
from __future__ import annotations

import pytest

from vllm_kb.engine.scan import pins

REMOVED = "vllm serve Qwen/Qwen2.5-1.5B-Instruct --disable-log-requests\n"  # gone in 0.17.0


@pytest.mark.parametrize("given,spec", [
    ("^0.4.1", ">=0.4.1,<0.5"),  # prometheus-eval/prometheus-eval pyproject.toml
    ("^1.2.3", ">=1.2.3,<2"),
    ("^0.0.3", ">=0.0.3,<0.0.4"),
    ("~0.6.3", ">=0.6.3,<0.7"),
    ("~0.6", ">=0.6,<0.7"),
    ("0.6.3", "==0.6.3"),
    ("0.6.*", "==0.6.*"),
    ("*", ""),
    (">=0.6, <0.8", ">=0.6,<0.8"),
    ("~=0.8.5", "~=0.8.5"),
])
def test_poetry_constraints_read_as_pep440(given, spec):
    assert pins.poetry_spec(given) == spec


def test_a_poetry_caret_pin_is_a_range_not_the_newest(write_project, json_site):
    # prometheus-eval (pyproject.toml, `[tool.poetry.dependencies] vllm = "^0.4.1"`): before, the
    # caret was "not a readable version specifier" and the newest release was assumed
    site = json_site(write_project({"pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.10"\nvllm = "^0.4.1"\n',
                                    "serve.sh": "python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m\n"}))
    assert site["vllm"]["basis"] == "range" and site["vllm"]["version"].startswith("0.4."), site["vllm"]


SKY = """resources:
  accelerators: H100:8
envs:
  MODEL_NAME: meta-llama/Llama-3.1-8B-Instruct
setup: |
  uv pip install {req}
run: |
  vllm serve $MODEL_NAME --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE --disable-log-requests
"""


@pytest.mark.parametrize("req,basis,version", [
    ("vllm==0.8.3", "build", "0.8.3"),  # skypilot-org/skypilot llm/llama-4/llama4.yaml
    ('"vllm>=0.8.3,<0.9"', "range", "0.8.5"),
    ("'vllm~=0.10.1'", "range", "0.10."),
])
def test_skypilot_setup_names_the_release_as_a_pin_or_a_range(write_project, json_site, p0s, req, basis, version):
    site = json_site(write_project({"sky.yaml": SKY.format(req=req)}))
    assert site["vllm"]["basis"] == basis and site["vllm"]["version"].startswith(version), site["vllm"]
    assert site["vllm"]["source"].count("sky.yaml:6"), site["vllm"]["source"]  # the setup line itself
    assert not p0s(site)  # --disable-log-requests is in 0.8 and 0.10


def test_a_serving_image_that_installs_a_range(write_project, json_site):
    df = ('FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install "vllm>=0.6.3,<0.7" \\\n    transformers\n'
          'CMD ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct"]\n')
    site = json_site(write_project({"Dockerfile": df}))
    assert site["vllm"]["basis"] == "range" and site["vllm"]["version"].startswith("0.6."), site["vllm"]


def test_modal_pip_install_range(write_project, json_site):
    # modal-labs/modal-examples vllm_inference.py: the image's `pip_install("vllm==…")`, here a range
    app = ('import modal\nimage = modal.Image.debian_slim().pip_install("vllm>=0.9.0,<0.10")\napp = modal.App("x")\n\n'
           '@app.function(image=image, gpu="H100")\ndef serve():\n    from vllm import LLM\n'
           '    llm = LLM(model="Qwen/Qwen2.5-7B-Instruct")\n')
    site = json_site(write_project({"app.py": app}))
    assert site["vllm"]["basis"] == "range" and site["vllm"]["version"].startswith("0.9."), site["vllm"]


TRITON_RUN = ("docker run --gpus all --rm -p 8001:8001 -v $PWD/model_repository:/work/model_repository -w /work \\\n"
              "  nvcr.io/nvidia/tritonserver:{tag} tritonserver --model-repository ./model_repository\n")


def test_triton_vllm_backend_runs_the_release_of_its_container(write_project, json_site, p0s):
    # triton-inference-server/vllm_backend samples: model.json with disable_log_requests, served by the
    # 24.12-vllm-python-py3 container, whose vLLM is 0.5.5 (Triton 24.12 release notes; build.py v2.53.0)
    root = write_project({"run.sh": TRITON_RUN.format(tag="24.12-vllm-python-py3"),
                          "model_repository/vllm_model/config.pbtxt": 'backend: "vllm"\n',
                          "model_repository/vllm_model/1/model.json":
                              '{\n  "model": "facebook/opt-125m",\n  "disable_log_requests": true,\n  "gpu_memory_utilization": 0.5\n}\n'})
    site = json_site(root)
    assert site["vllm"]["version"] == "0.5.5" and site["vllm"]["basis"] == "image", site["vllm"]
    assert "not-in-version" not in " ".join(p0s(site))


def test_triton_containers_that_disagree_name_no_release(write_project, json_site):
    root = write_project({"run.sh": TRITON_RUN.format(tag="24.12-vllm-python-py3"),
                          "old/run.sh": TRITON_RUN.format(tag="24.01-vllm-python-py3"),
                          "model_repository/vllm_model/config.pbtxt": 'backend: "vllm"\n',
                          "model_repository/vllm_model/1/model.json": '{"model": "facebook/opt-125m"}\n'})
    assert json_site(root)["vllm"]["basis"] == "none"


def test_ngc_vllm_container_by_its_release_notes(write_project, json_site):
    compose = ("services:\n  llm:\n    image: nvcr.io/nvidia/vllm:25.10-py3\n"
               "    command: [\"vllm\", \"serve\", \"Qwen/Qwen2.5-7B-Instruct\"]\n")
    site = json_site(write_project({"docker-compose.yml": compose}))
    assert site["vllm"]["version"] == "0.10.2", site["vllm"]


DGX = """services:
  vllm-qwen:
    image: vllm-node
    command:
      - vllm
      - serve
      - Qwen/Qwen2.5-1.5B-Instruct
      - --disable-log-requests
"""


def test_a_locally_built_image_takes_the_projects_pin_as_its_stand_in(write_project, json_site, p0s):
    # jdaln/dgx-spark-inference-stack#12: `image: vllm-node`, the stack's own build; the project's pin
    # stands in for it and the report says so, where the image alone gave the newest release and a P1
    site = json_site(write_project({"docker-compose.yml": DGX, "requirements.txt": "vllm==0.19.0\n"}))
    assert site["vllm"]["basis"] == "stand-in" and site["vllm"]["version"] == "0.19.0", site["vllm"]
    assert "requirements.txt:1" in site["vllm"]["source"]
    assert p0s(site)  # the flag is gone in 0.19.0: the launch stops


def test_a_pulled_image_is_no_local_build(write_project, json_site):
    compose = DGX.replace("image: vllm-node", "image: lmcache/vllm-openai:latest")
    site = json_site(write_project({"docker-compose.yml": compose, "requirements.txt": "vllm==0.19.0\n"}))
    assert site["vllm"]["basis"] == "image-untagged", site["vllm"]


def test_a_compose_build_named_by_image_runs_its_dockerfile(write_project, cli):
    import json

    compose = DGX.replace("image: vllm-node", "image: mystack/vllm-node\n    build: .")
    root = write_project({"docker-compose.yml": compose, "Dockerfile": "FROM vllm/vllm-openai:v0.9.0\n"})
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "-q", "--format", "json")
    (site,) = [s for s in json.loads(out)["sites"] if s["file"] == "docker-compose.yml"]
    assert site["vllm"]["version"] == "0.9.0" and site["vllm"]["basis"] == "image", site["vllm"]


def test_the_text_report_says_which_source_a_site_used(write_project, cli):
    # requirements.txt pins 0.6.3, the image the site runs holds 0.11.0 (today's precedence: the image);
    # the site's line says so, in both languages
    root = write_project({"requirements.txt": "vllm==0.6.3\n",
                          "run.sh": "docker run --gpus all vllm/vllm-openai:v0.11.0 --model Qwen/Qwen3-8B\n"})
    for lang, said in (("en", "the container image vllm/vllm-openai:v0.11.0 (run.sh:1)"), ("zh", "vllm/vllm-openai:v0.11.0")):
        code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "--lang", lang)
        assert code in (0, 1), err
        flat = " ".join(out.split())
        assert "vllm==0.6.3" in flat and said in flat, flat


@pytest.mark.parametrize("files,version,basis", [
    # a Dockerfile whose RUN installs `vllm==${VLLM_VERSION}` after `ARG VLLM_VERSION=…` (a common
    # image recipe: an Unsloth + vLLM Dockerfile, a LIBERO training image) and serves it
    ({"Dockerfile": "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nARG VLLM_VERSION=0.6.3\n"
                    "RUN pip install vllm==${VLLM_VERSION}\nCMD [\"vllm\", \"serve\", \"Qwen/Qwen2.5-7B-Instruct\"]\n"}, "0.6.3", "build"),
    # an install script that sets the version once and then starts the server
    ({"run.sh": "VLLM_VERSION=0.6.3\npip install vllm==$VLLM_VERSION\nvllm serve Qwen/Qwen2.5-7B-Instruct\n"}, "0.6.3", "pin"),
    ({"run.sh": "pip install \"vllm==${VLLM_VERSION:-0.8.5}\"\nvllm serve Qwen/Qwen2.5-7B-Instruct\n"}, "0.8.5", "pin"),
])
def test_a_version_set_in_a_variable_is_read(write_project, json_site, files, version, basis):
    site = json_site(write_project(files))
    assert site["vllm"]["version"] == version and site["vllm"]["basis"] == basis, site["vllm"]


def test_a_variable_set_twice_is_not_guessed(write_project, json_site):
    script = ("if [ \"$OLD\" ]; then VLLM_VERSION=0.6.3; else VLLM_VERSION=0.8.5; fi\n"
              "pip install vllm==$VLLM_VERSION\nvllm serve Qwen/Qwen2.5-7B-Instruct\n")
    assert json_site(write_project({"run.sh": script}))["vllm"]["basis"] != "pin"
