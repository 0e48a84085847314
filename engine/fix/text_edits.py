"""The text edits a site's changes make in each file, built from the positions the scanners
recorded (a flag's words, a keyword argument, a YAML key), and their unified diffs."""
from __future__ import annotations

import json
import re
import shlex

from vllm_kb.engine.fix import edits as edits_mod
from vllm_kb.engine.fix.changes import Change, merge_value
from vllm_kb.engine.fix.edits import TextEdit
from vllm_kb.engine.fix.literals import py_literal
from vllm_kb.engine.fix.pins import pin_edit
from vllm_kb.engine.kb.textpos import LineIndex, index as line_index
from vllm_kb.engine.scan.site import Site


def file_edits(site: Site, changes: list[Change], read) -> dict[str, list[TextEdit]]:
    """The text edits each change makes, grouped by file. `read(path)` gives a file's text."""
    out: dict[str, list[TextEdit]] = {}
    for ch in changes:
        text = read(ch.file)
        if text is None:
            continue
        edit = _edit(site, ch, text)
        if isinstance(edit, list):
            out.setdefault(ch.file, []).extend(edit)
        elif edit is not None:
            out.setdefault(ch.file, []).append(edit)
    return out


def diffs(site: Site, changes: list[Change], read) -> list[dict]:
    """A unified diff per touched file, with the given changes applied."""
    blocks = []
    for file, edits in file_edits(site, changes, read).items():
        old = read(file)
        try:
            new = edits_mod.apply(old, edits)
        except edits_mod.EditConflict:
            continue
        text = edits_mod.unified_diff(file, old, new)
        if text:
            blocks.append({"file": file, "lang": "diff", "text": text.rstrip("\n")})
    return blocks


def _edit(site: Site, ch: Change, text: str) -> TextEdit | list[TextEdit] | None:
    if ch.blocked:
        return None
    if ch.syntax in ("cli", "hydra-override"):
        return _cli_edit(site, ch, text)
    if ch.syntax == "python-call":
        return _python_edit(site, ch, text)
    if ch.syntax in ("yaml-config", "framework-config"):
        return _yaml_edit(site, ch, text)
    if ch.syntax == "pin":
        return pin_edit(ch, text)
    return None


def _in_file(text: str, *words) -> bool:
    """The words are where the scanner says in this file: a word expanded from an array, a
    variable or an inner script (eval, bash -c, a YAML block) has no span of its own to edit."""
    return all(0 <= w.start <= w.end <= len(text) and text[w.start:w.end] == w.raw for w in words)


def _cli_edit(site: Site, ch: Change, text: str) -> TextEdit | list[TextEdit] | None:
    src = site.source or {}
    words = src.get("words")
    s = ch.setting
    if ch.op in ("env", "unset_env"):
        pos = s.pos if s is not None else None
        if pos and not (0 <= pos["word"][0] <= pos["word"][1] <= len(text)):
            pos = None  # set somewhere without a span in this file (a sourced .env, an inner script)
        if ch.op == "unset_env":
            if not pos:
                return None
            a, b = pos["word"]
            if pos["kind"] in ("export", "assign") and pos.get("count") == 1:
                return edits_mod.remove_words(text, *pos["cmd"])
            return edits_mod.remove_words(text, a, b)
        if pos and pos["kind"] in ("prefix", "export", "assign"):
            a, b = pos["word"]
            return TextEdit(a, b, f"{ch.target}={shlex.quote(str(ch.value))}")
        if words is None or ch.after is None:
            return None
        return edits_mod.insert_before_line(text, words[0].start, ch.after)
    if words is None or ch.file != site.file:
        return None
    if ch.positional:
        return _positional_edits(src, ch, text)
    if s is not None and s.span is not None:
        a, b = words[s.span[0]].start, words[s.span[1]].end
        if ch.op == "unset" or ch.after is None:
            return edits_mod.remove_words(text, a, b)
        after = ch.after
        if "=" in words[s.span[0]].raw.split(" ")[0] and " " in after and words[s.span[0]].raw.startswith("--"):
            after = after.replace(" ", "=", 1)  # keep the `--k=v` spelling the script uses
        return TextEdit(a, b, after)
    if ch.op != "set" or not ch.after:
        return None
    launch = src["launch"]
    if not _in_file(text, words[launch.program_start], words[-1]):
        return None
    return edits_mod.append_shell_arg(text, words, launch.program_start, len(words) - 1, ch.after)


def _positional_edits(src: dict, ch: Change, text: str) -> list[TextEdit]:
    """`vllm serve … --model M` → `vllm serve M …`: the model first after `serve`, where every
    vLLM release reads it (0.17+ insists on it when --served-model-name is given)."""
    words, launch, s = src["words"], src["launch"], ch.setting
    out = []
    if s is not None and s.span is not None:
        out.append(edits_mod.remove_words(text, words[s.span[0]].start, words[s.span[1]].end))
    if launch.argv_start < len(words):
        at = words[launch.argv_start].start
        out.append(TextEdit(at, at, f"{ch.after} "))
    else:
        at = words[launch.argv_start - 1].end
        out.append(TextEdit(at, at, f" {ch.after}"))
    return out


def _python_edit(site: Site, ch: Change, text: str) -> TextEdit | None:
    s = ch.setting
    lines = line_index(text)
    if ch.op == "env":
        if s is not None:
            return _replace_line(text, lines, s.line, f'os.environ["{ch.target}"] = {json.dumps(str(ch.value))}')
        call = site.source["call"]
        stmt_start = lines.line_start(call.lineno)
        indent = edits_mod.indent_of(text[stmt_start:])
        prefix = "" if re.search(r"^\s*import os\b|^\s*import .*\bos\b", text, re.M) else f"{indent}import os\n"
        at = edits_mod.above_comments(text, stmt_start)  # keep the call's comments (and suppressions) on it
        return TextEdit(at, at, f"{prefix}{indent}{ch.after}\n")
    if ch.op == "unset_env":
        if s is None:
            return None
        return _replace_line(text, lines, s.line, None)
    if s is not None and s.pos:
        if ch.op == "unset":
            return edits_mod.remove_python_item(text, *s.pos["item"]) if "item" in s.pos else None
        a, b = s.pos["value"]
        return TextEdit(a, b, py_literal(merge_value(ch.value, s)))
    if ch.op == "set" and ch.after and ch.file == site.file:
        return edits_mod.insert_python_kwarg(text, site.source["call"], lines, ch.after)
    return None


def _replace_line(text: str, lines: LineIndex, line: int, new: str | None) -> TextEdit | None:
    start = lines.line_start(line)
    end = lines.line_start(line + 1) if line < len(lines.starts) else len(text)
    old = text[start:end]
    if "os.environ" not in old:
        return None
    if new is None:
        return TextEdit(start, end, "")
    indent = edits_mod.indent_of(old)
    return TextEdit(start, end, f"{indent}{new}\n")


def _yaml_edit(site: Site, ch: Change, text: str) -> TextEdit | None:
    s = ch.setting
    key_lines = [x.line for x in list(site.settings.values()) + list(site.unknown.values()) + ([site.model] if site.model else [])
                 if x is not None and x.syntax in ("yaml-config", "framework-config") and x.file == ch.file]
    if s is not None and s.syntax in ("yaml-config", "framework-config"):
        a, b = edits_mod.yaml_block(text, s.line, key_lines)
        if ch.op == "unset" or ch.after is None:
            return TextEdit(a, b, "")
        indent = edits_mod.indent_of(text[a:b], " \t-")  # keep the key's place in a nested mapping
        return TextEdit(a, b, indent + ch.after + "\n")
    if ch.syntax == "framework-config" and "." in (ch.after or "").split(":")[0]:
        return None  # a new nested key: shown as a snippet, not inserted
    if ch.op != "set" or not ch.after:
        return None
    end = len(text)
    return TextEdit(end, end, ("" if text.endswith("\n") or not text else "\n") + ch.after + "\n")
