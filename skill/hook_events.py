"""The hook events of Claude Code and Codex, read into one neutral form: which files were
written and which of their lines.

Claude Code (code.claude.com/docs/en/hooks) sends PostToolUse with `tool_name` Write (`tool_input`:
`file_path`, `content`), Edit (`file_path`, `old_string`, `new_string`, `replace_all`) or MultiEdit
(`file_path`, `edits`: [{old_string, new_string}]); its `tool_response` may carry a
`structuredPatch` (hunks with `newStart` and ` `/`-`/`+` lines), which places the edit exactly.
Codex (codex-rs/hooks, post-tool-use.command.input schema) sends PostToolUse with `tool_name`
`apply_patch` and the patch text in `tool_input.command` (`*** Begin Patch` … `*** Add File:`,
`*** Update File:` with `@@` hunks, `*** Move to:`, `*** Delete File:`), paths relative to `cwd`.
Both send SessionStart with `cwd` and `source`. The shapes are read, not assumed: anything
missing or of another type makes the event one to ignore."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from vllm_kb.engine.touched import Touch

MAX_EVENT_BYTES = 32 * 1024 * 1024
EDIT_TOOLS = ("Write", "Edit", "MultiEdit", "apply_patch")


class BadEvent(ValueError):
    """Not an event this hook can read (bad JSON, wrong types): the hook says nothing."""


@dataclass
class Event:
    name: str  # PostToolUse | SessionStart | another event name
    cwd: Path
    tool: str = ""
    touches: list[Touch] = field(default_factory=list)


def parse(raw: bytes) -> Event:
    if len(raw) > MAX_EVENT_BYTES:
        raise BadEvent("event too large")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise BadEvent(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise BadEvent("not a JSON object")
    name = _str(data.get("hook_event_name"))
    cwd = Path(_str(data.get("cwd")) or ".").absolute()
    ev = Event(name, cwd)
    if name != "PostToolUse":
        return ev
    ev.tool = _str(data.get("tool_name"))
    tin = data.get("tool_input")
    tin = tin if isinstance(tin, dict) else {}
    tout = data.get("tool_response")
    tout = tout if isinstance(tout, dict) else {}
    if ev.tool == "apply_patch":
        patch = next((v for v in (tin.get("command"), tin.get("input"), tin.get("patch")) if isinstance(v, str)), "")
        ev.touches = patch_touches(patch, cwd)
    elif ev.tool in ("Write", "Edit", "MultiEdit"):
        path = _str(tin.get("file_path")) or _str(tout.get("filePath"))
        if path:
            ev.touches = [_claude_touch(ev.tool, cwd / path, tin, tout)]
    return ev


def _str(v) -> str:
    return v if isinstance(v, str) else ""


def _claude_touch(tool: str, path: Path, tin: dict, tout: dict) -> Touch:
    if tool == "Write":
        return Touch(path)
    hunks = tout.get("structuredPatch")
    if isinstance(hunks, list) and hunks:
        patched = _structured_patch_lines(hunks)
        if patched is not None:
            return Touch(path, frozenset(patched))
    news = [tin.get("new_string")] if tool == "Edit" else [e.get("new_string") for e in tin.get("edits") or [] if isinstance(e, dict)]
    text = _read(path)
    written = [n for n in news if isinstance(n, str)]
    if text is None or len(written) != len(news):
        return Touch(path, located=False)
    lines: set[int] = set()
    for new in written:
        found = _find_all(text, new)
        if found is None:
            return Touch(path, located=False)
        lines |= found
    return Touch(path, frozenset(lines))


def _structured_patch_lines(hunks: list) -> set[int] | None:
    """New-file line numbers of the `+` lines (and of the line where a removal happened)."""
    out: set[int] = set()
    for h in hunks:
        if not isinstance(h, dict) or not isinstance(h.get("newStart"), int) or not isinstance(h.get("lines"), list):
            return None
        n = h["newStart"]
        for ln in h["lines"]:
            if not isinstance(ln, str):
                return None
            if ln.startswith("+"):
                out.add(n)
                n += 1
            elif ln.startswith("-"):
                out.add(n)
            elif not ln.startswith("\\"):
                n += 1
    return out


def _find_all(text: str, new: str) -> set[int] | None:
    """Lines of every place `new` now stands in `text`; None when it stands nowhere."""
    if not new:
        return set()
    out: set[int] = set()
    i = text.find(new)
    if i < 0:
        return None
    span = new.rstrip("\n").count("\n") + 1
    while i >= 0:
        first = text.count("\n", 0, i) + 1
        out.update(range(first, first + span))
        i = text.find(new, i + len(new))
    return out


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


# -- Codex apply_patch -------------------------------------------------------------------------

def patch_touches(patch: str, cwd: Path) -> list[Touch]:
    """The files an apply_patch text added or updated, with the lines it wrote in each."""
    out: list[Touch] = []
    lines = patch.splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("*** Add File: "):
            out.append(Touch(cwd / ln[len("*** Add File: "):].strip()))
            i += 1
            while i < len(lines) and not lines[i].startswith("*** "):
                i += 1
        elif ln.startswith("*** Update File: "):
            path = cwd / ln[len("*** Update File: "):].strip()
            i += 1
            if i < len(lines) and lines[i].startswith("*** Move to: "):
                path = cwd / lines[i][len("*** Move to: "):].strip()
                i += 1
            hunks: list[list[tuple[str, str]]] = []
            while i < len(lines) and not (lines[i].startswith("*** ") and lines[i] != "*** End of File"):
                if lines[i].startswith("@@") or not hunks:
                    hunks.append([])
                if not lines[i].startswith("@@") and lines[i] != "*** End of File":
                    hunks[-1].append((lines[i][:1] or " ", lines[i][1:]))
                i += 1
            out.append(_locate_hunks(path, [h for h in hunks if h]))
        else:
            i += 1
    return out


def _locate_hunks(path: Path, hunks: list[list[tuple[str, str]]]) -> Touch:
    text = _read(path)
    if text is None:
        return Touch(path, located=False)
    file_lines = text.splitlines()
    touched: set[int] = set()
    start = 0
    for hunk in hunks:
        new_side = [(k, t) for k, t in hunk if k in " +"]
        if not new_side:
            return Touch(path, located=False)
        at = _find_block(file_lines, [t for _, t in new_side], start)
        if at is None:
            return Touch(path, located=False)
        n = at
        for k, _ in hunk:
            if k == "+":
                touched.add(n + 1)
                n += 1
            elif k == "-":
                touched.add(n + 1)
            else:
                n += 1
        start = n
    return Touch(path, frozenset(x for x in touched if x <= max(len(file_lines), 1)))


def _find_block(lines: list[str], block: list[str], start: int) -> int | None:
    """Index of `block` in `lines` from `start` (then from the top), exact first, then ignoring
    trailing blanks, as apply_patch itself matches."""
    for norm in (lambda s: s, lambda s: s.rstrip()):
        want = [norm(b) for b in block]
        for lo in (start, 0):
            for i in range(lo, len(lines) - len(want) + 1):
                if all(norm(lines[i + j]) == w for j, w in enumerate(want)):
                    return i
    return None
