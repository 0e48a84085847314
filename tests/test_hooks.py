"""`vllm-kb hook`: recorded hook events of Claude Code and Codex (tests/data/hooks/, in the shapes
their documentation and Codex's input schema give) fed to the hook after the write they report
has happened, and the answers checked against each agent's documented output form."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from vllm_kb.cli import hook_cmd
from vllm_kb.skill import hook_answer, hook_events

EVENTS = Path(__file__).parent / "data" / "hooks"
REPO = Path(__file__).resolve().parents[1]

SERVE_CLEAN = """#!/usr/bin/env bash
# Serve the chat model behind the gateway.
set -euo pipefail
exec vllm serve meta-llama/Llama-3.1-8B-Instruct \\
    --port 8000 \\
    --max-model-len 16384
"""
SCORE_PY = """from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen2.5-7B-Instruct",
    max_model_len=8192,
    seed=0,
)
print(llm.generate(["hi"], SamplingParams(max_tokens=8)))
"""
UTILS_PY = "def chunk(xs, n):\n    return [xs[i:i + n] for i in range(0, len(xs), n)]\n"

# What both agents accept from a command hook on stdout (Claude Code's hooks reference; Codex's
# post-tool-use / session-start command output schemas): nothing else may appear.
_COMMON = {"continue": {"type": "boolean"}, "stopReason": {"type": "string"}, "suppressOutput": {"type": "boolean"},
           "systemMessage": {"type": "string"}}
POST_TOOL_USE_OUTPUT = {
    "type": "object", "additionalProperties": False,
    "properties": {**_COMMON, "decision": {"enum": ["block"]}, "reason": {"type": "string", "minLength": 1},
                   "hookSpecificOutput": {"type": "object", "additionalProperties": False, "required": ["hookEventName"],
                                          "properties": {"hookEventName": {"const": "PostToolUse"},
                                                         "additionalContext": {"type": "string"}}}},
    "dependentRequired": {"decision": ["reason"]},
}
SESSION_START_OUTPUT = {
    "type": "object", "additionalProperties": False,
    "properties": {**_COMMON, "hookSpecificOutput": {"type": "object", "additionalProperties": False, "required": ["hookEventName"],
                                                     "properties": {"hookEventName": {"const": "SessionStart"},
                                                                    "additionalContext": {"type": "string"}}}},
}


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "chat"
    (root / ".git").mkdir(parents=True)  # the project root the hook looks for
    (root / "requirements.txt").write_text("vllm==0.33.0\n")
    (root / "deploy").mkdir()
    (root / "deploy" / "serve.sh").write_text(SERVE_CLEAN)
    (root / "batch").mkdir()
    (root / "batch" / "score.py").write_text(SCORE_PY)
    (root / "app").mkdir()
    (root / "app" / "utils.py").write_text(UTILS_PY)
    return root


def event(name: str, root: Path) -> bytes:
    return (EVENTS / name).read_text(encoding="utf-8").replace("{ROOT}", root.as_posix()).encode()


def perform(raw: bytes) -> None:
    """Do on disk what the recorded event reports was done (the hook runs after the tool)."""
    ev = json.loads(raw)
    tin = ev.get("tool_input") or {}
    if ev.get("tool_name") == "Write":
        path = Path(tin["file_path"])
        if path.name != "gone.sh":
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(tin["content"])
    elif ev.get("tool_name") in ("Edit", "MultiEdit"):
        path = Path(tin["file_path"])
        text = path.read_text()
        for e in tin.get("edits") or [tin]:
            assert e["old_string"] in text
            text = text.replace(e["old_string"], e["new_string"], 1)
        path.write_text(text)


def answer(name: str, root: Path, agent: str = "claude", **kw) -> dict | None:
    raw = event(name, root)
    perform(raw)
    ns = hook_cmd.parser().parse_args(["--agent", agent, *[f"--{k}={v}" for k, v in kw.items()]])
    out = hook_cmd.answer(raw, ns)
    if out is not None:
        name_ = json.loads(raw)["hook_event_name"]
        jsonschema.validate(out, POST_TOOL_USE_OUTPUT if name_ == "PostToolUse" else SESSION_START_OUTPUT)
        assert len(json.dumps(out, ensure_ascii=False)) <= hook_answer.MAX_CHARS + 200
    return out


def text_of(out: dict) -> str:
    return out.get("reason") or out["hookSpecificOutput"]["additionalContext"]


# --- Claude Code --------------------------------------------------------------------------------

def test_a_p0_in_a_freshly_written_launch_script_blocks_with_its_fix(project):
    out = answer("claude/write-launch-script.json", project)
    assert out["decision"] == "block"
    text = out["reason"]
    assert "deploy/serve.sh" in text and "vllm serve at line 4" in text and "pinned at requirements.txt:1" in text
    assert "P0 B4" in text and "deploy/serve.sh:7: remove `--swap-space 4`" in text
    assert "vllm-kb checks show B4" in text


def test_an_edit_is_answered_about_its_own_lines_only(project):
    out = answer("claude/edit-add-flag.json", project)
    text = out["reason"]
    assert "P0 B4" in text and "deploy/serve.sh:7: remove `--swap-space 4`" in text
    # the site's other findings (the line `vllm serve` stands on was not edited) are not repeated
    assert "P1" not in text.replace("P0", "")


def test_a_p1_is_context_not_a_block(project):
    out = answer("claude/edit-p1-no-patch.json", project)  # found by its new_string: no structuredPatch
    assert "decision" not in out
    ctx = out["hookSpecificOutput"]
    assert ctx["hookEventName"] == "PostToolUse"
    assert "P1 A2" in ctx["additionalContext"] and "remove `--enforce-eager`" in ctx["additionalContext"]


def test_no_block_keeps_a_p0_as_context(project):
    raw = event("claude/write-launch-script.json", project)
    perform(raw)
    out = hook_cmd.answer(raw, hook_cmd.parser().parse_args(["--agent", "claude", "--no-block"]))
    assert "decision" not in out and "P0 B4" in out["hookSpecificOutput"]["additionalContext"]


def test_an_edit_with_nothing_to_say_says_nothing(project):
    assert answer("claude/edit-port.json", project) is None


def test_multiedit_of_a_python_call(project):
    text = text_of(answer("claude/multiedit-python.json", project))
    assert "batch/score.py" in text and "LLM() at line 3" in text
    assert "P0 B4" in text and "batch/score.py:6: remove `swap_space=4`" in text
    assert "P1 A2" in text


@pytest.mark.parametrize("name", ["claude/write-readme.json", "claude/write-utils.json", "claude/write-missing-file.json",
                                  "claude/bash.json"])
def test_files_that_are_not_vllm_sites_get_nothing(project, name):
    assert answer(name, project) is None


def test_chinese(project):
    text = text_of(answer("claude/write-launch-script.json", project, lang="zh"))
    assert "vllm-kb 检查了刚写入的 deploy/serve.sh" in text and "修复" in text


def test_a_pin_change_reports_the_sites_it_breaks(project):
    (project / "deploy" / "serve.sh").write_text(SERVE_CLEAN.replace("16384", "16384 \\\n    --swap-space 4"))
    (project / "requirements.txt").write_text("vllm==0.10.1\n")
    ev = {"hook_event_name": "PostToolUse", "cwd": str(project), "tool_name": "Edit",
          "tool_input": {"file_path": str(project / "requirements.txt"), "old_string": "vllm==0.10.1", "new_string": "vllm==0.33.0"}}
    (project / "requirements.txt").write_text("vllm==0.33.0\n")
    out = hook_cmd.answer(json.dumps(ev).encode(), hook_cmd.parser().parse_args([]))
    assert out["decision"] == "block"
    assert "requirements.txt" in out["reason"] and "P0 B4" in out["reason"] and "deploy/serve.sh:4" in out["reason"]


def test_a_config_file_is_audited_through_the_script_that_passes_it(project):
    (project / "deploy" / "serve.sh").write_text("#!/bin/sh\nexec vllm serve --config deploy/engine.yaml\n")
    (project / "deploy" / "engine.yaml").write_text("model: meta-llama/Llama-3.1-8B-Instruct\nmax-model-len: 16384\nswap-space: 4\n")
    ev = {"hook_event_name": "PostToolUse", "cwd": str(project), "tool_name": "Write",
          "tool_input": {"file_path": str(project / "deploy" / "engine.yaml"), "content": "…"}}
    out = hook_cmd.answer(json.dumps(ev).encode(), hook_cmd.parser().parse_args([]))
    assert "deploy/engine.yaml" in out["reason"] and "P0 B4" in out["reason"] and "deploy/engine.yaml:3" in out["reason"]


@pytest.mark.parametrize("rel, text", [
    (".github/workflows/ci.yml", "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n"),
    # engine keys, but no script in the project passes this file to vLLM
    ("conf/engine.yaml", "model: m\nmax-model-len: 16384\nswap-space: 4\n"),
])
def test_yaml_that_configures_no_vllm_gets_nothing(project, rel, text):
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    ev = {"hook_event_name": "PostToolUse", "cwd": str(project), "tool_name": "Write", "tool_input": {"file_path": str(path)}}
    assert hook_cmd.answer(json.dumps(ev).encode(), hook_cmd.parser().parse_args([])) is None


def test_suppressed_findings_stay_suppressed(project):
    (project / "pyproject.toml").write_text('[tool.vllm-kb]\nignore = ["B4"]\n')
    assert answer("claude/edit-add-flag.json", project) is None


def test_session_start_says_one_line_in_a_vllm_repository(project):
    out = answer("claude/session-start.json", project)
    line = out["hookSpecificOutput"]["additionalContext"]
    assert "\n" not in line and len(line) <= hook_answer.SESSION_MAX_CHARS
    assert line.startswith("This repository uses vLLM (") and "vllm serve deploy/serve.sh:4" in line
    assert "vllm-optimization skill" in line and "MCP tools" in line


def test_session_start_elsewhere_says_nothing(tmp_path):
    (tmp_path / "app.py").write_text(UTILS_PY)
    assert answer("claude/session-start.json", tmp_path) is None
    assert answer("codex/session-start.json", tmp_path, agent="codex") is None


# --- Codex --------------------------------------------------------------------------------------

def test_codex_apply_patch_update(project):
    (project / "deploy" / "serve.sh").write_text(SERVE_CLEAN.replace("16384\n", "16384 \\\n    --swap-space 4\n"))
    ev = hook_events.parse(event("codex/apply-patch-update.json", project))
    assert ev.touches[0].lines == frozenset({6, 7}) and ev.touches[0].located
    out = answer("codex/apply-patch-update.json", project, agent="codex")
    assert out["decision"] == "block" and "deploy/serve.sh:7: remove `--swap-space 4`" in out["reason"]


def test_codex_apply_patch_adding_a_file(project):
    raw = event("codex/apply-patch-add.json", project)
    patch = json.loads(raw)["tool_input"]["command"]
    body = "".join(ln[1:] + "\n" for ln in patch.splitlines() if ln.startswith("+"))
    (project / "scripts").mkdir()
    (project / "scripts" / "launch.sh").write_text(body)
    out = answer("codex/apply-patch-add.json", project, agent="codex")
    assert "scripts/launch.sh:7: remove `--swap-space 4`" in out["reason"]


def test_codex_apply_patch_elsewhere_and_session_start(project):
    (project / "app" / "utils.py").write_text(UTILS_PY.replace("len(xs), n)", "len(xs), max(n, 1))"))
    assert answer("codex/apply-patch-non-vllm.json", project, agent="codex") is None
    line = answer("codex/session-start.json", project, agent="codex")["hookSpecificOutput"]["additionalContext"]
    assert "This repository uses vLLM" in line


def test_patch_parsing_of_several_files(tmp_path):
    (tmp_path / "b.sh").write_text("one\ntwo\nTHREE\nfour\nfive\nsix\nSEVEN\n")
    (tmp_path / "new.sh").write_text("x\n")
    patch = ("*** Begin Patch\n*** Add File: new.sh\n+x\n*** Delete File: gone.sh\n*** Update File: a.sh\n*** Move to: b.sh\n"
             "@@ def f\n two\n-three\n+THREE\n four\n@@\n six\n-seven\n+SEVEN\n*** End of File\n*** End Patch\n")
    t = hook_events.patch_touches(patch, tmp_path)
    assert [(x.path.name, x.lines, x.located) for x in t] == [("new.sh", None, True), ("b.sh", frozenset({3, 7}), True)]


def test_a_patch_that_does_not_match_the_file_looks_at_p0_only(project):
    # the file on disk is not what the patch left (another edit came after): whole file, P0 only
    (project / "deploy" / "serve.sh").write_text(SERVE_CLEAN.replace("16384\n", "16384 \\\n    --swap-space 4 \\\n    --enforce-eager\n")
                                                 .replace("--port 8000", "--port 9000"))
    ev = hook_events.parse(event("codex/apply-patch-update.json", project))
    assert not ev.touches[0].located
    text = answer("codex/apply-patch-update.json", project, agent="codex")["reason"]
    assert "P0 B4" in text and "P1" not in text.replace("P0", "")


# --- never break the agent ----------------------------------------------------------------------

@pytest.mark.parametrize("raw", [b"", b"not json", b"[1, 2]", b'{"hook_event_name": 5}', b"\xff\xfe",
                                 b'{"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": "x"}',
                                 b'{"hook_event_name": "PostToolUse", "tool_name": "Edit", "tool_input": {"file_path": 3}}',
                                 b'{"hook_event_name": "PostToolUse", "tool_name": "apply_patch", "tool_input": {"command": "*** Update File: /nope\\n@@\\n+x"}}',
                                 b'{"hook_event_name": "Stop", "cwd": "/"}'])
def test_malformed_input_exits_0_silently(raw, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("VLLM_KB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert hook_cmd.main(["--agent", "claude"]) == 0
    assert capsys.readouterr().out == ""


def test_errors_and_timeouts_are_logged_with_secrets_redacted(monkeypatch, capsys, tmp_path, project):
    monkeypatch.setenv("VLLM_KB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"oops": "HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123"')))
    assert hook_cmd.main(["--agent", "codex"]) == 0
    raw = event("claude/write-launch-script.json", project)
    perform(raw)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    monkeypatch.setattr(hook_cmd, "answer", lambda raw, ns: __import__("time").sleep(5))
    assert hook_cmd.main(["--agent", "claude", "--timeout", "0.2"]) == 0
    assert capsys.readouterr().out == ""
    log = (tmp_path / "cache" / "hook.log").read_text()
    assert "BadEvent" in log and "hf_abcdefghijklmnopqrstuvwxyz0123" not in log
    assert "_Timeout: no answer within 0.2 s" in log


def test_unknown_arguments_do_not_fail_the_agent(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("VLLM_KB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"{}")))
    assert hook_cmd.main(["--agent", "gemini", "--future-flag"]) == 0
    assert capsys.readouterr().out == ""


def test_the_answer_is_bounded(project):
    """Many launch commands written at once: findings by priority until about 2,000 tokens, then
    one line with how many were left out."""
    body = "".join(f"vllm serve m{i} --port {8000 + i} --swap-space 4 --enforce-eager &\n" for i in range(150))
    (project / "deploy" / "serve.sh").write_text("#!/bin/sh\n" + body)
    ev = {"hook_event_name": "PostToolUse", "cwd": str(project), "tool_name": "Write",
          "tool_input": {"file_path": str(project / "deploy" / "serve.sh")}}
    out = hook_cmd.answer(json.dumps(ev).encode(), hook_cmd.parser().parse_args([]))
    text = out["reason"]
    assert len(text) <= hook_answer.MAX_CHARS
    assert "P0 B4" in text and "more; run `vllm-kb audit deploy/serve.sh` for all of them." in text
    assert text.index("P0 B4") < (text.index("P1 ") if "P1 " in text else len(text))


def test_the_command_end_to_end(project):
    """The real process, as the agent starts it: exit 0 and one JSON object on stdout."""
    raw = event("claude/write-launch-script.json", project)
    perform(raw)
    exe = Path(sys.executable).with_name("vllm-kb")
    argv = [str(exe)] if exe.exists() else [sys.executable, "-m", "vllm_kb.cli.main"]
    # the default 5 s budget is the agent's; a loaded test machine must not turn it into a failure
    p = subprocess.run(argv + ["hook", "--agent", "claude", "--timeout", "100"], input=raw,
                       capture_output=True, timeout=120)
    assert p.returncode == 0
    out = json.loads(p.stdout)
    assert out["decision"] == "block" and "P0 B4" in out["reason"]
    p = subprocess.run(argv + ["hook", "--agent", "claude"], input=b"garbage", capture_output=True, timeout=120)
    assert (p.returncode, p.stdout) == (0, b"")
