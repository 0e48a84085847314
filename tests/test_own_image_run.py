"""`docker run` of an image the project builds in another file (build.sh's `docker build -t
"${IMAGE_NAME}:latest" .`) runs that Dockerfile's entrypoint first: built `FROM ${BASE_IMAGE}` with
`ARG BASE_IMAGE=vllm/vllm-openai:…`, it keeps vLLM's `vllm serve`, so `docker run … "$IMAGE" MODEL
--flags` is a launch (jessedc/vllm-docker-gb10, eval77: 7 missed sites). A Dockerfile whose exec-form
ENTRYPOINT has no CMD takes its arguments, the model among them, at `docker run`: L33 does not say
that no model is given (liuhong1happy/vllm-docker, eval77)."""
from vllm_kb.engine.audit import audit

_DOCKERFILE = ("ARG BASE_IMAGE=vllm/vllm-openai:v0.20.0\nFROM ${BASE_IMAGE}\n"
               "ARG VLLM_REF=main\nRUN echo building $VLLM_REF\n# the base image's ENTRYPOINT stays\n")
_BUILD = ('#!/bin/bash\nIMAGE_NAME="spark-serve"\nNO_CACHE=""\n[[ "$1" == --no-cache ]] && NO_CACHE="--no-cache"\n'
          'docker build $NO_CACHE \\\n  --build-arg "VLLM_REF=main" \\\n  -t "${IMAGE_NAME}:latest" \\\n  .\n')
_RUN = ('#!/bin/bash\n# serve the model with vLLM\nIMAGE="${IMAGE:-spark-serve:latest}"\nMODEL="${MODEL:-Qwen/Qwen3-4B}"\n'
        'docker run --gpus all --ipc=host -p 8000:8000 "$IMAGE" "$MODEL" --max-model-len 8192 --max-num-seqs 8\n')


def _sites(tmp_path, **files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return audit(tmp_path, gpu="H100-80GB").sites


def test_a_run_of_the_tag_build_sh_makes_is_a_vllm_serve_site(tmp_path):
    (sr,) = [s for s in _sites(tmp_path, Dockerfile=_DOCKERFILE, **{"build.sh": _BUILD, "run.sh": _RUN})
             if s.site.file == "run.sh"]
    assert sr.site.kind == "vllm serve" and sr.site.model.value == "Qwen/Qwen3-4B"
    assert sr.site.settings["max_model_len"].value == 8192


def test_without_the_build_the_tag_is_nobodys(tmp_path):
    assert not [s for s in _sites(tmp_path, Dockerfile=_DOCKERFILE, **{"run.sh": _RUN}) if s.site.file == "run.sh"]


def test_an_entrypoint_without_cmd_takes_the_model_at_docker_run(tmp_path):
    dockerfile = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install vllm==0.19.1\nENTRYPOINT [\"vllm\", \"serve\"]\n"
    (sr,) = _sites(tmp_path, Dockerfile=dockerfile)
    l33 = [r for r in sr.results if r.check.id == "L33" and r.needs_change]
    assert not l33 and sr.facts["site"]["passes_extra_args"]


def test_a_cmd_still_gives_the_default_arguments(tmp_path):
    dockerfile = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN pip install vllm==0.19.1\nENTRYPOINT [\"vllm\", \"serve\"]\nCMD [\"--port\", \"8000\"]\n"
    (sr,) = _sites(tmp_path, Dockerfile=dockerfile)
    assert any(r.check.id == "L33" and r.needs_change for r in sr.results)


# laureano-arcanio/balanced-vllm-docker's Dockerfile.H100 (eval77): the build writes its start script with
# `RUN echo '…' > /app/start.sh` and the CMD runs it
_WRITES = """FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN pip install vllm==0.10.1
ENV MODEL_NAME=Qwen/Qwen2.5-1.5B-Instruct
RUN echo '#!/bin/bash\\n\\
MODEL=${MODEL_NAME:-Qwen/Qwen3-4B}\\n\\
exec vllm serve \\
    "$MODEL" \\
    --max-model-len 2048\\n' > /app/start.sh && chmod +x /app/start.sh
CMD ["{cmd}"]
"""


def test_a_start_script_the_build_writes_is_the_command(tmp_path):
    (sr,) = _sites(tmp_path, Dockerfile=_WRITES.replace("{cmd}", "/app/start.sh"))
    assert sr.site.kind == "vllm serve" and sr.site.model.value == "Qwen/Qwen2.5-1.5B-Instruct"
    assert sr.site.settings["max_model_len"].value == 2048 and sr.site.line == 4


def test_a_command_that_runs_another_file_is_not_the_written_script(tmp_path):
    assert _sites(tmp_path, Dockerfile=_WRITES.replace("{cmd}", "/app/other.sh")) == []


def test_a_run_script_that_never_names_vllm_is_read(tmp_path):
    # the file filter read only shell scripts and Makefiles that name vLLM (or a framework, or Python with
    # an engine flag): `docker run spark-serve:latest MODEL …` beside build.sh's tag was never parsed
    run = "#!/bin/bash\ndocker run --gpus all spark-serve:latest Qwen/Qwen3-4B --max-model-len 8192\n"
    make = "serve:\n\tdocker run --gpus all spark-serve:latest Qwen/Qwen3-4B --max-num-seqs 8\n"
    sites = _sites(tmp_path, Dockerfile=_DOCKERFILE, **{"build.sh": _BUILD, "run.sh": run, "Makefile": make})
    got = {s.site.file: s for s in sites}
    assert got["run.sh"].site.kind == "vllm serve" and got["run.sh"].site.settings["max_model_len"].value == 8192
    assert got["Makefile"].site.model.value == "Qwen/Qwen3-4B" and got["run.sh"].facts["vllm"]["version"] == "0.20.0"


def test_a_run_of_a_build_that_is_not_vllm_stays_no_site(tmp_path):
    dockerfile = "FROM python:3.11-slim\nCOPY app.py /app.py\nCMD [\"python\", \"/app.py\"]\n"
    run = "#!/bin/bash\ndocker run -p 8080:8080 spark-serve:latest --port 8080\n"
    assert not _sites(tmp_path, Dockerfile=dockerfile, **{"build.sh": _BUILD, "run.sh": run})
