"""`docker run TAG …` of an image the same script builds (`docker build -t TAG -f FILE .`) runs the
project Dockerfile's ENTRYPOINT first: arguments written for a shell become vLLM's."""
from vllm_kb.engine.audit import audit

_DOCKERFILE = ('FROM ubuntu:22.04\nRUN pip install vllm==0.5.2\n'
               'ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n')


def _codes(tmp_path, run_args: str, dockerfile: str = _DOCKERFILE):
    (tmp_path / "Dockerfile.cpu").write_text(dockerfile)
    (tmp_path / "run.sh").write_text("docker build -f Dockerfile.cpu -t vllm:cpu .\n"
                                     f"docker run -p 8000:8000 vllm:cpu {run_args}\n")
    rep = audit(tmp_path, gpu="A100-80GB")
    (sr,) = [s for s in rep.sites if s.site.file == "run.sh"]
    return sr, {f.code for f in sr.remarks if f.priority == "P0"}


def test_a_shell_command_given_to_a_server_entrypoint_is_a_stray_positional(tmp_path):
    sr, codes = _codes(tmp_path, '/bin/bash -c "python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2-7B"')
    assert sr.site.kind == "api_server" and "stray-positional" in codes


def test_flags_given_to_a_server_entrypoint_are_its_arguments(tmp_path):
    sr, codes = _codes(tmp_path, "--model Qwen/Qwen2-7B-Instruct --max-model-len 4096")
    assert sr.site.settings["max_model_len"].value == 4096 and not codes


def test_an_image_without_an_entrypoint_runs_the_command(tmp_path):
    sr, codes = _codes(tmp_path, "python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2-7B-Instruct",
                       dockerfile="FROM ubuntu:22.04\nRUN pip install vllm==0.5.2\n")
    assert sr.site.model.value == "Qwen/Qwen2-7B-Instruct" and not codes


# vLLM's own CI (.buildkite/scripts/hardware_ci/run-cpu-test.sh, 0.34.0) builds docker/Dockerfile.cpu
# with `--target vllm-test` — a stage without an ENTRYPOINT, while the file's last stage runs
# `vllm serve` — and runs `timeout … bash -c "…"` in it. Read with the last stage's entrypoint, the
# command was two false P0s ("timeout" the model, "bash" a stray positional).
_STAGED = ('FROM ubuntu:22.04 AS base\nRUN pip install vllm==0.5.2\n'
           'FROM base AS vllm-test\nRUN pip install pytest\n'
           'FROM base AS vllm-openai\nENTRYPOINT ["vllm", "serve"]\n')


def test_the_target_stage_decides_the_entrypoint(tmp_path):
    (tmp_path / "Dockerfile.cpu").write_text(_STAGED)
    (tmp_path / "run.sh").write_text("docker build --tag cpu-test --target vllm-test -f Dockerfile.cpu .\n"
                                     'docker run --rm cpu-test timeout 2h bash -c "pytest -v tests/"\n')
    rep = audit(tmp_path, gpu="A100-80GB")
    assert not [f for s in rep.sites if s.site.file == "run.sh" for f in s.remarks if f.priority == "P0"]


def test_without_a_target_the_last_stage_decides(tmp_path):
    (tmp_path / "Dockerfile.cpu").write_text(_STAGED)
    (tmp_path / "run.sh").write_text("docker build --tag vllm-srv -f Dockerfile.cpu .\n"
                                     "docker run --rm vllm-srv Qwen/Qwen2-7B-Instruct --max-model-len 4096\n")
    rep = audit(tmp_path, gpu="A100-80GB")
    (sr,) = [s for s in rep.sites if s.site.file == "run.sh"]
    assert sr.site.settings["max_model_len"].value == 4096


# production-stack's workflows run `docker build … -f docker/Dockerfile .` in a step: a CI step runs in
# the checkout's root (or its `working-directory`), not in .github/workflows/
_WORKFLOW = """\
name: e2e
on: [push]
jobs:
  serve:
    runs-on: [self-hosted]
    {defaults}steps:
      - uses: actions/checkout@v4
      - name: Serve with vLLM
        run: |
          docker build -t engine:ci -f docker/Dockerfile .
          docker run --gpus all engine:ci --model Qwen/Qwen2-7B-Instruct --max-model-len 4096
"""


def _workflow_site(tmp_path, defaults: str, folder: str):
    (tmp_path / ".github/workflows").mkdir(parents=True)
    (tmp_path / ".github/workflows/e2e.yml").write_text(_WORKFLOW.format(defaults=defaults))
    for where, text in ((folder, _DOCKERFILE), (".github/workflows", "FROM ubuntu:22.04\n")):
        (tmp_path / where / "docker").mkdir(parents=True, exist_ok=True)
        (tmp_path / where / "docker/Dockerfile").write_text(text)
    rep = audit(tmp_path, gpu="A100-80GB")
    sites = [s for s in rep.sites if s.site.file.endswith("e2e.yml")]
    return sites, [k.file for k in rep.skipped]


def test_a_workflow_step_builds_from_the_checkout_root(tmp_path):
    (sr,), skipped = _workflow_site(tmp_path, "", ".")
    assert sr.site.settings["max_model_len"].value == 4096 and ".github/workflows/docker/Dockerfile" not in skipped


def test_a_workflow_step_builds_from_its_working_directory(tmp_path):
    (sr,), _ = _workflow_site(tmp_path, "defaults: {run: {working-directory: serving}}\n    ", "serving")
    assert sr.site.settings["max_model_len"].value == 4096


# LMCache's image ends in ENTRYPOINT ["vllm", "serve"]: production-stack's disaggregated_prefill
# scripts give it the model first (`docker run … lmcache/vllm-openai:2025-05-27-v1 MODEL --port 8200 …`)
def test_a_vendor_image_serving_vllm_takes_the_model_first(tmp_path):
    (tmp_path / "start_decode.sh").write_text(
        "IMAGE=lmcache/vllm-openai:2025-05-27-v1\n"
        "docker run --gpus all --ipc host $IMAGE meta-llama/Llama-3.1-8B-Instruct --port 8200 --enforce-eager\n"
        "docker run --gpus all lmcache/vllm-openai:latest vllm serve Qwen/Qwen2-7B-Instruct --port 8300\n")
    rep = audit(tmp_path, gpu="A100-80GB")
    got = sorted((s.site.line, s.site.model.value) for s in rep.sites)
    assert got == [(2, "meta-llama/Llama-3.1-8B-Instruct"), (3, "Qwen/Qwen2-7B-Instruct")]
    assert not [f for s in rep.sites for f in s.remarks if f.priority == "P0"]
    assert not [r for s in rep.sites for r in s.results if r.status == "recommended" and r.priority == "P0"]
