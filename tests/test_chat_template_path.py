"""`--chat-template` as a relative path the project does not hold (engine/check/chat_template_path.py):
vLLM 0.6.3+ stops at argument validation ("appears path-like, but doesn't exist!"); P0 only where certain."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --enable-auto-tool-choice --tool-call-parser hermes --chat-template {t}\n"


def _finding(write_project, files, gpu="H100-80GB"):
    return next((f for sr in audit(write_project(files), gpu=gpu).sites for f in sr.remarks if f.code == "chat-template-path"), None)


def test_a_checkout_path_on_a_pinned_release_is_a_p0_with_a_local_copy_proposed(write_project):
    f = _finding(write_project, {"requirements.txt": "vllm==0.24.0\n", "serve.sh": SERVE.format(t="examples/tool_chat_template_hermes.jinja")})
    assert f is not None and f.priority == "P0" and "appears path-like" in f.message["en"] and f.message["zh"]
    assert [(op.kind, op.target, v) for op, v in f.fix] == [("set", "chat_template", "./tool_chat_template_hermes.jinja")]


def test_a_template_the_project_holds_is_no_finding(write_project):
    files = {"requirements.txt": "vllm==0.24.0\n", "serve.sh": SERVE.format(t="templates/tool.jinja"),
             "templates/tool.jinja": "{{ messages }}\n"}
    assert _finding(write_project, files) is None


def test_the_folder_the_server_starts_in_is_open_then_p1(write_project):
    # a file of that name elsewhere in the project, or a `cd` first: the start folder decides
    files = {"requirements.txt": "vllm==0.24.0\n", "serve.sh": SERVE.format(t="examples/tool.jinja"), "deploy/tool.jinja": "{{ x }}\n"}
    assert _finding(write_project, files).priority == "P1"
    files = {"requirements.txt": "vllm==0.24.0\n", "serve.sh": "cd /opt/vllm\n" + SERVE.format(t="examples/tool.jinja")}
    assert _finding(write_project, files).priority == "P1"
    # no pin: vLLM may be a source checkout, whose examples/ the path names
    assert _finding(write_project, {"serve.sh": SERVE.format(t="examples/tool.jinja")}).priority == "P1"


def test_no_finding_for_images_literals_bare_names_absolute_paths_and_old_releases(write_project):
    pin = {"requirements.txt": "vllm==0.24.0\n"}
    for t in ("template_chatml.jinja", "/models/tool.jinja", "'{{ messages }}'"):  # a built-in name, the host's file, a literal
        assert _finding(write_project, {**pin, "serve.sh": SERVE.format(t=t)}) is None, t
    docker = "docker run --gpus all vllm/vllm-openai:v0.24.0 --model Qwen/Qwen2.5-7B-Instruct --chat-template examples/tool.jinja\n"
    assert _finding(write_project, {**pin, "run.sh": docker}) is None  # the image's WORKDIR holds examples/
    assert _finding(write_project, {"requirements.txt": "vllm==0.6.2\n", "serve.sh": SERVE.format(t="examples/tool.jinja")}) is None
