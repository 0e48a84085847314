"""The hooks vllm-kb asks an agent to run, as a project or the user configures them, and how they
are added to a settings file that already holds other things.

    claude  .claude/settings.json   (--user: ~/.claude/settings.json)   PostToolUse Write|Edit|MultiEdit, SessionStart
    codex   .codex/hooks.json       (--user: ~/.codex/hooks.json)       PostToolUse apply_patch, SessionStart

The plugins ship the same hooks (hooks/hooks.json for Claude Code, hooks/codex-hooks.json for
Codex) through hooks/vllm-kb-hook and the plugin root variable; a settings file has no plugin
root, so its command finds vllm-kb on PATH and, where it is missing, drains the event and exits
0: a teammate without vllm-kb is not bothered. Other keys and other hooks stay byte for byte
(skill/json_edit.py); a file that already runs `vllm-kb hook` for an event is left as it is."""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb.errors import UsageError

from vllm_kb.skill import json_edit

AGENTS = ("claude", "codex")
FILES = {"claude": (".claude", "settings.json"), "codex": (".codex", "hooks.json")}
MATCHERS = {"claude": {"PostToolUse": "Write|Edit|MultiEdit", "SessionStart": None},
            "codex": {"PostToolUse": "apply_patch", "SessionStart": None}}
TIMEOUT_S = 15
OURS = ("vllm-kb hook", "vllm-kb-hook")  # a command holding one of these is ours


def command(agent: str) -> str:
    return f"command -v vllm-kb >/dev/null 2>&1 && exec vllm-kb hook --agent {agent}; cat >/dev/null"


def group(agent: str, event: str, cmd: str | None = None) -> dict[str, Any]:
    g: dict[str, Any] = {}
    if MATCHERS[agent][event]:
        g["matcher"] = MATCHERS[agent][event]
    g["hooks"] = [{"type": "command", "command": cmd or command(agent), "timeout": TIMEOUT_S}]
    return g


def settings_path(agent: str, scope: str, cwd: Path, home: Path) -> Path:
    if agent not in FILES:
        raise UsageError(f"--hooks: hooks are written for --agent claude or codex, not {agent!r}")
    return (home if scope == "user" else cwd).joinpath(*FILES[agent])


def _is_ours(g: Any) -> bool:
    hooks = g.get("hooks") if isinstance(g, dict) else None
    return isinstance(hooks, list) and any(isinstance(h, dict) and isinstance(h.get("command"), str)
                                           and any(m in h["command"] for m in OURS) for h in hooks)


def merged(text: str | None, agent: str, where: str) -> str:
    """The settings text with vllm-kb's hooks added (the same text when they are there)."""
    if text is None or not text.strip():
        data = {"hooks": {event: [group(agent, event)] for event in MATCHERS[agent]}}
        return json.dumps(data, indent=2) + "\n"
    try:
        data = json.loads(text)
        root = json_edit.parse(text)
    except ValueError as e:
        raise UsageError(f"{where} is not valid JSON ({e}); it was not changed") from None
    if not isinstance(data, dict):
        raise UsageError(f"{where}: expected a JSON object at the top; it was not changed")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise UsageError(f"{where}: `hooks` is not an object; it was not changed")
    for event in MATCHERS[agent]:
        groups = (hooks or {}).get(event)
        if groups is not None and not isinstance(groups, list):
            raise UsageError(f"{where}: `hooks.{event}` is not a list; it was not changed")
        if groups and any(_is_ours(g) for g in groups):
            continue
        g = group(agent, event)
        root = json_edit.parse(text)
        if hooks is None:
            text = json_edit.add_member(text, root, "hooks", {event: [g]})
            hooks = {}
        elif groups is None:
            text = json_edit.add_member(text, _found(root, ("hooks",)), event, [g])
        else:
            text = json_edit.add_item(text, _found(root, ("hooks", event)), g)
        hooks = json.loads(text)["hooks"]
    return text


@dataclass
class Plan:
    path: Path
    before: str | None
    after: str

    @property
    def changes(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        a = (self.before or "").splitlines(keepends=True)
        b = self.after.splitlines(keepends=True)
        name = str(self.path)
        return "".join(difflib.unified_diff(a, b, "/dev/null" if self.before is None else name, name))


def plan(agent: str, scope: str = "project", cwd: Path | None = None, home: Path | None = None) -> Plan:
    path = settings_path(agent, scope, cwd or Path.cwd(), home or Path.home())
    try:
        before = path.read_text(encoding="utf-8") if path.exists() else None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {e}") from None
    return Plan(path, before, merged(before, agent, str(path)))


def _found(root, path: tuple) -> json_edit.Span:
    """A node the parsed settings were just seen to hold."""
    node = json_edit.find(root, path)
    if node is None:
        raise ValueError(f"no {'.'.join(path)} in the settings file")
    return node


def write(p: Plan) -> None:
    """Write the planned text; refuses when the file changed since it was read."""
    now = p.path.read_text(encoding="utf-8") if p.path.exists() else None
    if now != p.before:
        raise UsageError(f"{p.path} changed while vllm-kb was asking; nothing was written")
    p.path.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.path.with_name(f".{p.path.name}.vllm-kb.tmp")
    tmp.write_text(p.after, encoding="utf-8")
    if p.before is not None:
        import shutil

        shutil.copymode(p.path, tmp)
    tmp.replace(p.path)
