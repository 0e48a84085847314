"""compose `build:` services: the image the built one starts FROM decides the release and, when the
Dockerfile keeps that image's ENTRYPOINT, what the service's `command:` is handed to."""
from vllm_kb.engine.audit import audit


def _write(tmp_path, dockerfile: str, command: str, build: str = "./app"):
    (tmp_path / "app").mkdir(exist_ok=True)
    (tmp_path / "app" / "Dockerfile").write_text(dockerfile)
    (tmp_path / "docker-compose.yml").write_text(
        f"services:\n  vllm:\n    build: {build}\n    command: {command}\n    ipc: host\n")


def _compose(tmp_path):
    return [sr for sr in audit(tmp_path, gpu="A100-80GB").sites if sr.site.file == "docker-compose.yml"]


def _p0(sr) -> set[str]:
    return {f.id for f in sr.remarks if f.priority == "P0"} | {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}


def test_a_built_image_keeps_the_vllm_entrypoint_so_a_shell_command_reaches_vllm_as_arguments(tmp_path):
    # FROM vllm/vllm-openai:v0.8.5 with only extra packages: its ENTRYPOINT is the OpenAI server
    # module, and `command: bash -c "vllm serve …"` becomes its arguments ("unrecognized arguments")
    _write(tmp_path, "FROM vllm/vllm-openai:v0.8.5\nRUN pip install flash-attn\n",
           'bash -c "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192"')
    (sr,) = _compose(tmp_path)
    assert sr.version.version == "0.8.5" and sr.site.image == "vllm/vllm-openai:v0.8.5"
    assert "stray-positional" in _p0(sr)


def test_a_built_image_given_only_flags_is_read_as_the_vllm_server_of_its_base_release(tmp_path):
    _write(tmp_path, "FROM vllm/vllm-openai:v0.8.5\n", "[--model, Qwen/Qwen2.5-7B-Instruct, --max-model-len, '8192']",
           build="{context: ./app, dockerfile: Dockerfile}")
    (sr,) = _compose(tmp_path)
    assert sr.version.version == "0.8.5" and sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct" and not _p0(sr)


def test_a_built_image_with_its_own_entrypoint_runs_the_command_as_written(tmp_path):
    # a Dockerfile that sets ENTRYPOINT ["bash", "-c"] (or anything else) no longer inherits vLLM's
    _write(tmp_path, 'FROM vllm/vllm-openai:v0.8.5\nENTRYPOINT ["/bin/bash", "-c"]\n',
           '["vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192"]')
    assert all("stray-positional" not in _p0(sr) for sr in _compose(tmp_path))


def test_a_build_context_outside_the_project_is_not_read(tmp_path):
    _write(tmp_path, "FROM vllm/vllm-openai:v0.8.5\n", "[--model, Qwen/Qwen2.5-7B-Instruct]", build="../elsewhere")
    assert all(sr.version.version != "0.8.5" for sr in _compose(tmp_path))


def test_a_compose_file_that_never_names_vllm_is_read_when_its_build_starts_from_a_vllm_image(tmp_path):
    # eval84 (aitherium Gemma 4, first form): `build: .` over FROM vllm/vllm-openai:v0.19.0 and a command
    # that starts at --model; nothing in the compose file itself says vLLM, so it was never parsed
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.19.0\nRUN pip install flash-attn\n")
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  llm:\n    build: .\n    command: [--model, Qwen/Qwen2.5-7B-Instruct, --max-model-len, '8192']\n")
    (sr,) = _compose(tmp_path)
    assert sr.version.version == "0.19.0" and sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"


def test_a_compose_build_from_another_image_stays_unread(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM python:3.12\nCMD [\"python\", \"app.py\"]\n")
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  web:\n    build: .\n    command: [--model, Qwen/Qwen2.5-7B-Instruct]\n")
    assert _compose(tmp_path) == []


def test_a_manifest_that_never_names_vllm_is_read_when_it_runs_an_image_a_script_builds_from_vllm(tmp_path):
    # the Kubernetes reader already follows a project build that keeps its base's entrypoint (own_images.base_of);
    # the manifest must first be parsed at all
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.10.1\nRUN pip install flash-attn\n")
    (tmp_path / "build.sh").write_text("docker build -t registry.example.com/llm-server:dev .\n")
    (tmp_path / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: llm}\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: llm\n          image: registry.example.com/llm-server:dev\n"
        "          args: [--model, Qwen/Qwen2.5-7B-Instruct, --max-model-len, '8192']\n")
    sites = [sr for sr in audit(tmp_path, gpu="A100-80GB").sites if sr.site.file == "deploy.yaml"]
    assert [sr.version.version for sr in sites] == ["0.10.1"]
