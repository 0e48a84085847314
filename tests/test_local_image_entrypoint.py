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
