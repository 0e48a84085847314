"""The hook files the plugins ship (Claude Code: .claude-plugin + hooks/hooks.json; Codex:
.codex-plugin + hooks/codex-hooks.json), the project-level hook files `skill install --hooks`
merges into, and the skill archive for Manus. The Claude Code CLI's own validator
(`claude plugin validate`) runs in .ci/agents-check; Codex ships no validator, so its files are
checked here against the rules of its manifest and hooks loaders (codex-rs core-plugins, hooks)."""
from __future__ import annotations

import difflib
import json
import os
import re
import subprocess
import sys
import zipfile
from argparse import Namespace
from pathlib import Path

import pytest

from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.report.model import tool_version
from vllm_kb.skill import build, hook_files, json_edit

ROOT = Path(__file__).resolve().parents[1]
WRAPPER = ROOT / "hooks" / "vllm-kb-hook"


def _load(rel: str) -> dict:
    return json.loads((ROOT / rel).read_text(encoding="utf-8"))


def _commands(hooks: dict, event: str) -> list[tuple[str | None, str, float]]:
    return [(g.get("matcher"), h["command"], h["timeout"]) for g in hooks["hooks"][event] for h in g["hooks"]]


def _check_hooks_file(hooks: dict, agent: str, root_var: str) -> None:
    """Both agents read the same layout: event → matcher groups → command handlers."""
    assert set(hooks["hooks"]) == {"PostToolUse", "SessionStart"}
    for event, groups in hooks["hooks"].items():
        for g in groups:
            assert set(g) <= {"matcher", "hooks"}
            for h in g["hooks"]:
                assert h["type"] == "command" and 0 < h["timeout"] <= 60
                assert h["command"] == f'"${{{root_var}}}/hooks/vllm-kb-hook" --agent {agent}'
    (matcher, _, _), = _commands(hooks, "PostToolUse")
    assert matcher == hook_files.MATCHERS[agent]["PostToolUse"]
    assert [m for m, _, _ in _commands(hooks, "SessionStart")] == [None]  # every source: startup, resume, clear…


def test_claude_plugin_hooks():
    hooks = _load("hooks/hooks.json")
    _check_hooks_file(hooks, "claude", "CLAUDE_PLUGIN_ROOT")
    matcher = hooks["hooks"]["PostToolUse"][0]["matcher"]
    for tool in ("Write", "Edit", "MultiEdit"):
        assert re.fullmatch(matcher, tool)
    for tool in ("Bash", "Read", "NotebookEdit", "WebFetch"):
        assert not re.fullmatch(matcher, tool)
    # hooks/hooks.json is where Claude Code looks by default; naming it in plugin.json too loads it twice
    assert "hooks" not in _load(".claude-plugin/plugin.json")


def test_codex_plugin_manifest_and_hooks():
    manifest = _load(".codex-plugin/plugin.json")
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", manifest["name"])
    assert manifest["version"] == tool_version() == _load(".claude-plugin/plugin.json")["version"]
    # Codex resolves manifest paths only in the `./…` form and only inside the plugin root
    for key in ("skills", "hooks"):
        assert manifest[key].startswith("./") and ".." not in manifest[key]
        assert (ROOT / manifest[key]).exists()
    assert [p.parent.name for p in (ROOT / manifest["skills"]).glob("*/SKILL.md")] == [build.NAME]
    assert manifest["mcpServers"] == _load(".claude-plugin/plugin.json")["mcpServers"]
    # only plugin.json belongs in .codex-plugin/
    assert [p.name for p in (ROOT / ".codex-plugin").iterdir()] == ["plugin.json"]
    hooks = _load(manifest["hooks"])
    _check_hooks_file(hooks, "codex", "PLUGIN_ROOT")
    assert hooks["hooks"]["PostToolUse"][0]["matcher"] == "apply_patch"  # Write and Edit are Codex's aliases of it


def test_the_wrapper_never_fails_without_vllm_kb(tmp_path):
    assert os.access(WRAPPER, os.X_OK)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    p = subprocess.run(["sh", str(WRAPPER), "--agent", "claude"], input=b'{"hook_event_name": "SessionStart"}' * 1000,
                       capture_output=True, env=env, timeout=30)
    assert (p.returncode, p.stdout, p.stderr) == (0, b"", b"")


def test_the_wrapper_runs_the_hook(tmp_path):
    exe = Path(sys.executable).with_name("vllm-kb")
    if not exe.exists():
        pytest.skip("no vllm-kb executable beside the interpreter")
    env = dict(os.environ, VLLM_KB=str(exe), VLLM_KB_CACHE_DIR=str(tmp_path / "cache"))
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "serve.sh").write_text("#!/bin/sh\nvllm serve m --swap-space 4\n")
    ev = {"hook_event_name": "PostToolUse", "cwd": str(tmp_path / "p"), "tool_name": "Write",
          "tool_input": {"file_path": str(tmp_path / "p" / "serve.sh")}}
    # the hook's own 5 s deadline is for agents; a cold start on a loaded CI machine can pass it
    p = subprocess.run(["sh", str(WRAPPER), "--agent", "claude", "--timeout", "120"], input=json.dumps(ev).encode(), capture_output=True,
                       env=env, timeout=120)
    assert p.returncode == 0 and json.loads(p.stdout)["decision"] == "block"


# --- project hook files: merged, never replaced -----------------------------------------------

SETTINGS = """{
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)"], "deny": []},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write \\"$FILE\\" # {not: json}"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
    }
}
"""


def _only_insertions(before: str, after: str) -> bool:
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    return all(op in ("equal", "insert") for op, *_ in ops)


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_merging_keeps_every_byte_and_adds_the_hooks_once(agent):
    after = hook_files.merged(SETTINGS, agent, "settings.json")
    assert _only_insertions(SETTINGS, after)
    data = json.loads(after)
    assert data["model"] == "opus" and data["hooks"]["Stop"] == json.loads(SETTINGS)["hooks"]["Stop"]
    post = data["hooks"]["PostToolUse"]
    assert post[0] == json.loads(SETTINGS)["hooks"]["PostToolUse"][0]
    assert post[1] == hook_files.group(agent, "PostToolUse")
    assert data["hooks"]["SessionStart"] == [hook_files.group(agent, "SessionStart")]
    assert "\n        \"SessionStart\": [\n            {\n" in after  # the file's own four-space indent
    assert hook_files.merged(after, agent, "settings.json") == after


@pytest.mark.parametrize("text", [None, "", "{}", '{"env": {"A": "1"}}\n', "{\n\t\"hooks\": {}\n}\n"])
def test_merging_into_new_empty_or_compact_files(text):
    after = hook_files.merged(text, "claude", "settings.json")
    data = json.loads(after)
    assert data["hooks"]["PostToolUse"] == [hook_files.group("claude", "PostToolUse")]
    if text:
        assert _only_insertions(text, after)


@pytest.mark.parametrize("text, why", [("{oops", "not valid JSON"), ("[]", "JSON object"), ('{"hooks": []}', "not an object"),
                                       ('{"hooks": {"SessionStart": {}}}', "not a list")])
def test_merging_refuses_what_it_cannot_read(text, why):
    with pytest.raises(UsageError, match=why):
        hook_files.merged(text, "codex", ".codex/hooks.json")


def test_json_edit_spans_survive_strings_that_look_like_json():
    text = '{"a": "}{][,\\"", "b": [ ], "c": {"d": [1, {"e": "\\\\"}]}}'
    root = json_edit.parse(text)
    assert text[json_edit.find(root, ("c", "d", 1, "e")).start:json_edit.find(root, ("c", "d", 1, "e")).end] == '"\\\\"'
    out = json_edit.add_item(text, json_edit.find(root, ("b",)), {"x": 1})
    assert json.loads(out)["b"] == [{"x": 1}] and json.loads(out)["a"] == '}{][,"'


def test_skill_install_shows_the_change_and_asks(tmp_path, monkeypatch, capsys):
    from vllm_kb.cli import skill_cmd

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(SETTINGS)
    ns = Namespace(target="claude", scope="project", out=None, hooks=True, yes=False)
    monkeypatch.setattr(sys, "stdin", open(os.devnull))  # no terminal to ask on
    with pytest.raises(UsageError, match="confirm with --yes"):
        skill_cmd.run_install(ns)
    shown = capsys.readouterr().out
    assert "+++ " in shown and "vllm-kb hook --agent claude" in shown
    assert (tmp_path / ".claude" / "settings.json").read_text() == SETTINGS  # nothing written
    ns.yes = True
    assert skill_cmd.run_install(ns) == 0
    assert _only_insertions(SETTINGS, (tmp_path / ".claude" / "settings.json").read_text())
    assert skill_cmd.run_install(ns) == 0 and "already in" in capsys.readouterr().out
    codex = Namespace(target="codex", scope="user", out=None, hooks=True, yes=True)
    assert skill_cmd.run_install(codex) == 0
    assert json.loads((tmp_path / "home" / ".codex" / "hooks.json").read_text())["hooks"]["PostToolUse"][0]["matcher"] == "apply_patch"
    with pytest.raises(UsageError, match="--agent claude or codex"):
        skill_cmd.run_install(Namespace(target="agents", scope="project", out=None, hooks=True, yes=True))


def test_the_cli_takes_agent_hooks_and_zip():
    from vllm_kb.cli.main import build_parser

    ns = build_parser().parse_args(["skill", "install", "--agent", "codex", "--hooks", "--yes"])
    assert (ns.target, ns.hooks, ns.yes) == ("codex", True, True)
    assert build_parser().parse_args(["skill", "build", "--zip"]).zip


# --- Manus: one archive ---------------------------------------------------------------------------

def test_skill_build_zip_is_one_agent_skill(tmp_path, capsys):
    from vllm_kb.cli import skill_cmd

    assert skill_cmd.run_build(Namespace(out=str(tmp_path), zip=True)) == 0
    archive = tmp_path / f"{build.NAME}.zip"
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
        assert {n.split("/", 1)[0] for n in names} == {build.NAME}  # one top folder, named like the skill
        skill_md = z.read(f"{build.NAME}/SKILL.md").decode()
        z.extractall(tmp_path / "x")
    front = skill_md.split("---\n")[1]
    assert re.search(rf"^name: {build.NAME}$", front, re.M)
    assert sorted(names) == sorted(f"{build.NAME}/{rel}" for rel in build.render())
    validator = pytest.importorskip("skills_ref", reason="skills-ref is not installed here; .ci/agents-check runs it")
    assert validator.validate(tmp_path / "x" / build.NAME) == []


def _claude_cli() -> str | None:
    import shutil

    found = shutil.which("claude")
    if found:
        return found
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "vllm-kb-ci" / "claude-code"
    hits = sorted(cache.glob("*/node_modules/.bin/claude"))
    return str(hits[-1]) if hits else None


def test_claude_code_validates_the_plugin(tmp_path):
    """Claude Code's own validator, when it is installed (.ci/agents-check installs it)."""
    cli = _claude_cli()
    if cli is None:
        pytest.skip("the Claude Code CLI is not installed here; .ci/agents-check runs `claude plugin validate`")
    env = dict(os.environ, HOME=str(tmp_path))  # its settings go to a HOME of its own
    p = subprocess.run([cli, "plugin", "validate", "--strict", "--json", str(ROOT)], capture_output=True, env=env,
                       cwd=tmp_path, timeout=120)
    report = json.loads(p.stdout)
    assert p.returncode == 0 and report["success"], p.stdout[:2000]
    assert {(h["event"], h.get("matcher")) for h in report["provides"]["hooks"]} == {
        ("PostToolUse", "Write|Edit|MultiEdit"), ("SessionStart", None)}


def test_codex_reads_the_plugin_and_the_project_hooks():
    """Codex's own loaders (its app server), when a Codex CLI is installed (.ci/agents-check installs it)."""
    import importlib.util
    import shutil

    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "vllm-kb-ci" / "codex"
    hits = sorted(cache.glob("*/node_modules/.bin/codex"))
    codex = shutil.which("codex") or (str(hits[-1]) if hits else None)
    exe = Path(sys.executable).with_name("vllm-kb")
    if codex is None or not exe.exists():
        pytest.skip("no Codex CLI (or no vllm-kb executable) here; .ci/agents-check runs tools/codex_check.py")
    spec = importlib.util.spec_from_file_location("codex_check", ROOT / "tools" / "codex_check.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main([codex, "--vllm-kb", str(exe)]) == 0
