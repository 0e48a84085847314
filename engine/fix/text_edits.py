"""The text edits a site's changes make in each file, built from the positions the scanners
recorded (a flag's words, a keyword argument, a YAML key), and their unified diffs."""
from __future__ import annotations

import ast

import json
import re
import shlex

from vllm_kb.engine.fix import edits as edits_mod
from vllm_kb.engine.fix import python_edits, yaml_edits, yaml_scalars
from vllm_kb.engine.fix.changes import Change, merge_value
from vllm_kb.engine.fix.container_edits import SYNTAX as CONTAINER_SYNTAX, container_edit
from vllm_kb.engine.fix.deploy_edits import deploy_edit, deploy_rename
from vllm_kb.engine.fix.edits import TextEdit
from vllm_kb.engine.fix.literals import as_written_value, py_literal
from vllm_kb.engine.fix.syntax import DEPLOY_SYNTAXES
from vllm_kb.engine.fix.pins import pin_edit
from vllm_kb.engine.kb.textpos import LineIndex, index as line_index
from vllm_kb.engine.scan import kv_positional
from vllm_kb.engine.scan.site import Site


def file_edits(site: Site, changes: list[Change], read) -> dict[str, list[TextEdit]]:
    """The text edits each change makes, grouped by file. `read(path)` gives a file's text."""
    out: dict[str, list[TextEdit]] = {}
    for ch in changes:
        text = read(ch.file)
        if text is None:
            continue
        got = _edit(site, ch, text)
        if isinstance(got, TextEdit):
            got = [got]
        if got and not all(0 <= e.start <= e.end <= len(text) for e in got):
            # a word the scanner could not place (-1: an array item, an expansion) would make the
            # slice run to the end of the file: the change is left for a person
            continue
        if got:
            out.setdefault(ch.file, []).extend(got)
    return out


def diffs(site: Site, changes: list[Change], read) -> list[dict]:
    """A unified diff per touched file, with the given changes applied (one that collides with an
    earlier one is left out: --fix writes it in its next pass)."""
    per_change = [file_edits(site, [ch], read) for ch in changes]
    taken = _taken(per_change, read, False)
    if any(f.endswith(".py") and not edits_mod.parses_after(f, read(f), es) for f, es in taken.items()):
        taken = _taken(per_change, read, True)  # a Python file would not parse: each change is checked
    blocks = []
    for file, edits in taken.items():
        old = read(file)
        new = edits_mod.apply(old, edits)
        text, withheld = edits_mod.shown_diff(file, old, new)
        if text or withheld:
            block = {"file": file, "lang": "diff", "text": text.rstrip("\n")}
            if withheld:
                block["withheld"] = withheld  # type: ignore[assignment]  # lines whose change is not shown: they hold a secret
            blocks.append(block)
    return blocks


def _taken(per_change: list[dict], read, check: bool) -> dict[str, list[TextEdit]]:
    """The edits of the changes, in order, that go together (one that collides with an earlier one is
    left out; with `check`, also one that would leave a Python file unparsable: edits.checked)."""
    taken: dict[str, list[TextEdit]] = {}
    for by_file in per_change:
        for file, edits in by_file.items():
            try:
                if check:
                    edits_mod.checked(file, read(file), taken.get(file, []) + edits)
                else:
                    edits_mod.apply(read(file), taken.get(file, []) + edits)
            except edits_mod.EditConflict:
                continue
            taken.setdefault(file, []).extend(edits)
    return taken


def _edit(site: Site, ch: Change, text: str) -> TextEdit | list[TextEdit] | None:
    if ch.blocked:
        return None
    if ch.file.endswith(".ipynb") and not (ch.syntax == "pin" and _json_plain(ch.before) and _json_plain(ch.after)):
        # a notebook is JSON: its cells' code sits inside escaped strings, which the edits of a
        # Python or shell file do not address; only a pin (`vllm==0.6.3` in a %pip line), whose bytes
        # are the same inside the JSON string, is written; anything else is reported, not written
        return None
    if ch.op == "rename":
        return _rename_edit(site, ch, text)
    if ch.syntax in ("cli", "hydra-override"):
        return _cli_edit(site, ch, text)
    if ch.syntax == "python-call":
        return _quoting_kept(site, _python_edit(site, ch, text))
    if ch.syntax in ("yaml-config", "framework-config"):
        return _yaml_edit(site, ch, text)
    if ch.syntax in DEPLOY_SYNTAXES or (ch.syntax == "ray-env-kwargs-yaml" and ch.file == site.file):
        return deploy_edit(site, ch, text)  # a Ray runtime_env's env_vars key is edited where it is written
    if ch.syntax == "python-argv" and ch.op == "unset" and ch.file == site.file and ch.setting is not None:
        # a Python argv list's option removed where each of its items is a string in the list literal
        return _quoting_kept(site, python_edits.remove_argv_items(site.source, ch.setting.span, text))
    if ch.syntax == "pin":
        return pin_edit(ch, text)
    if ch.syntax == CONTAINER_SYNTAX:
        return container_edit(site, ch, text)
    return None


# characters a shell would read in the text that holds a Python program (engine/scan/heredoc_python.py):
# a double-quoted `python -c "…"`, a single-quoted one, an unquoted here-document
_SHELL_READS = {"dq": '"$`\\', "sq": "'", "heredoc": "$`\\"}


def _quoting_kept(site: Site, got):
    """The edit, unless it writes into a shell string a character the shell would read there
    (`kv_cache_dtype="fp8"` inside `python -c "…"` ends the string): then it is told, not written."""
    special = _SHELL_READS.get(site.launch.get("shell_quoting") or "")
    if not special or got is None:
        return got
    edits = got if isinstance(got, list) else [got]
    return None if any(c in e.text for e in edits for c in special) else got


def _json_plain(text: str | None) -> bool:
    return bool(text) and all(" " <= c < "\x7f" and c not in '"\\' for c in text)  # type: ignore[union-attr]


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
                return edits_mod.remove_command(text, *pos["cmd"])
            return edits_mod.remove_words(text, a, b)
        if pos and pos["kind"] in ("prefix", "export", "assign"):
            a, b = pos["word"]
            return TextEdit(a, b, f"{ch.target}={shlex.quote(str(ch.value))}")
        if words is None or ch.after is None:
            return None
        if not _in_file(text, words[0]):
            return None  # a command of an inner script (a Makefile recipe, a YAML block): no line of its own here
        return edits_mod.insert_before_line(text, words[0].start, ch.after)
    if words is None or ch.file != site.file:
        return None
    if ch.positional:
        return _positional_edits(src, ch, text)
    if s is not None and s.span is not None:
        if not _placed(words, s.span[0], s.span[1]):
            return None  # a word without a place in this file (an array's item read through "${A[@]}")
        a, b = words[s.span[0]].start, words[s.span[1]].end
        if ch.op == "unset" or ch.after is None:
            return edits_mod.remove_words(text, a, b)
        after = ch.after
        if "=" in words[s.span[0]].raw.split(" ")[0] and " " in after and words[s.span[0]].raw.startswith("--"):
            after = after.replace(" ", "=", 1)  # keep the `--k=v` spelling the script uses
        return TextEdit(a, b, after)
    if ch.op != "set" or not ch.after:
        return None
    launch = src.get("launch")  # a tool's command (`xinference launch`) has no vLLM argv to append to
    if launch is None or not _in_file(text, words[launch.program_start], words[-1]):
        return None
    return edits_mod.append_shell_arg(text, words, launch.program_start, len(words) - 1, ch.after)


def _placed(words: list, first: int, last: int) -> bool:
    """Whether words[first..last] each have their place in the file (-1: a piece of a split
    word, an array's item, a word of an inner script: no span to edit)."""
    return all(0 <= words[i].start <= words[i].end for i in range(first, last + 1))


def _positional_edits(src: dict, ch: Change, text: str) -> list[TextEdit]:
    """`vllm serve … --model M` → `vllm serve M …`: the model first after `serve`, where every
    vLLM release reads it (0.17+ insists on it when --served-model-name is given)."""
    words, launch, s = src["words"], src["launch"], ch.setting
    if (s is not None and s.span is not None and not _placed(words, s.span[0], s.span[1])) or \
            not _placed(words, min(launch.argv_start, len(words) - 1), min(launch.argv_start, len(words) - 1)):
        return []
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


def _python_edit(site: Site, ch: Change, text: str) -> TextEdit | list[TextEdit] | None:
    s = ch.setting
    lines = line_index(text)
    if ch.op == "env":
        if s is not None:
            if not (s.pos and "py_value" in s.pos):
                return None
            l1, c1, l2, c2 = s.pos["py_value"]
            return TextEdit(lines.offset(l1, c1), lines.offset(l2, c2), json.dumps(str(ch.value)))
        call = site.source["call"]
        stmt_start = lines.line_start(call.lineno)
        indent = edits_mod.indent_of(text[stmt_start:])
        prefix = "" if re.search(r"^\s*import os\b|^\s*import .*\bos\b", text, re.M) else f"{indent}import os\n"
        at = edits_mod.above_comments(text, stmt_start)  # keep the call's comments (and suppressions) on it
        return TextEdit(at, at, f"{prefix}{indent}{ch.after}\n")
    if ch.op == "unset_env":
        if s is None or not s.pos:
            return None
        if "py_item" in s.pos:  # one entry of os.environ.update({...})
            l1, c1, l2, c2 = s.pos["py_item"]
            return python_edits.remove_python_item(text, lines.offset(l1, c1), lines.offset(l2, c2))
        if "py_stmt" in s.pos:
            l1, c1, l2, c2 = s.pos["py_stmt"]
            return python_edits.remove_statement(text, lines.offset(l1, c1), lines.offset(l2, c2))
        return None
    if s is not None and s.pos:
        if ch.op == "unset":
            return python_edits.remove_python_item(text, *s.pos["item"]) if "item" in s.pos else None
        a, b = s.pos["value"]
        return TextEdit(a, b, py_literal(merge_value(ch.value, s)))
    if ch.op == "set" and ch.after and ch.file == site.file:
        if site.source.get("target") == "xinference-rest":
            return None  # a REST launch body (a dict): an entry is not written the way a keyword is
        if site.source.get("target") == "openai-server":
            # `run_server(args, **uvicorn_kwargs)` (api_server.py:685 in 0.25.1): a keyword there goes to uvicorn,
            # not the engine, and the re-audit never reads it back (eval113 kaito: --fix added it pass after pass)
            return None
        if any(k.arg is None and _all_fields(k.value) for k in site.source["call"].keywords):
            return None  # `**asdict(engine_args)` carries every field already: a second one is a TypeError at the call
        return python_edits.insert_python_kwarg(text, site.source["call"], lines, ch.after)
    return None


def _all_fields(node: ast.AST) -> bool:
    """A spread of a whole dataclass or object (`asdict(args)`, `vars(args)`, or a merge with one):
    every engine argument is in it, so none can be added beside it."""
    return any(isinstance(n, ast.Call) and (getattr(n.func, "id", None) or getattr(n.func, "attr", None)) in ("asdict", "vars")
               for n in ast.walk(node))


def _yaml_edit(site: Site, ch: Change, text: str) -> list[TextEdit] | None:
    """A key of a YAML (or JSON) file, edited at the parser's positions (engine/fix/yaml_edits.py)."""
    s = ch.setting
    if s is not None and s.syntax in ("yaml-config", "framework-config"):
        if not (s.pos and "yaml" in s.pos):
            return None
        index, path = s.pos["yaml"]
        d = yaml_edits.doc(text, index)
        if d is None:
            return None
        path = tuple(path)
        if ch.op == "unset" or ch.after is None:
            return yaml_edits.remove(text, d, path)
        node = d.get(path)
        patch = isinstance(ch.value, dict) and node is not None and node.kind == "map"
        return yaml_edits.set_value(text, d, path, ch.value if patch else as_written_value(site.source, merge_value(ch.value, s)))
    if ch.op != "set" or not ch.after or not ch.key:
        return None
    src = site.source if isinstance(site.source, dict) else {}
    if ch.syntax == "framework-config":
        if ch.file != site.file or "yaml_doc" not in src:
            return None
        d = yaml_edits.doc(text, src["yaml_doc"])
        # a ROLL role's keys are written under its block (engine/scan/roll_config.py)
        keys = (*src.get("key_base", ()), *(ch.key.split(".") if src.get("flatten") else (ch.key,)))
    elif "yaml_base" in src:  # a key of a mapping inside the file (FlagScale's `engine_args`)
        if ch.file != site.file:
            return None
        d = yaml_edits.doc(text, src.get("yaml_doc", 0))
        keys = (*src["yaml_base"], ch.key)
    else:
        d = yaml_edits.doc(text, 0)
        keys = (ch.key,)
    if d is None:
        return None
    return yaml_edits.set_value(text, d, keys, as_written_value(site.source, ch.value))



def _rename_edit(site: Site, ch: Change, text: str) -> list[TextEdit] | None:
    """The key of a misspelt option rewritten, and nothing else: its value's bytes (a secret
    behind `--api-keyz`) stay as they are."""
    s = ch.setting
    if s is None or not ch.key:
        return None
    old = s.key if s.note == kv_positional.NOTE else s.key.split("=", 1)[0]  # a `name=value` word: all of it
    src = site.source if isinstance(site.source, dict) else {}
    if s.syntax == "cli" and s.span is not None and src.get("words") is not None and s.file == site.file:
        w = src["words"][s.span[0]]
        at = text.find(old, w.start, w.end)
        return [TextEdit(at, at + len(old), ch.key)] if at >= 0 else None
    if s.syntax == "yaml-config" and s.pos and "yaml" in s.pos:
        index, path = s.pos["yaml"]
        d = yaml_edits.doc(text, index)
        node = d.get(tuple(path)) if d is not None else None
        if node is None or node.key is None:
            return None
        a, b = node.key
        quoted = text[a:a + 1] in ("'", '"')
        return [TextEdit(a, b, json.dumps(ch.key) if quoted or d.json else yaml_scalars.key(ch.key))]  # type: ignore[union-attr]
    if s.syntax == "python-call" and s.pos and "item" in s.pos:
        a, b = s.pos["item"][0], s.pos["value"][0]
        m = re.search(r"(?<![\w])" + re.escape(old) + r"(?![\w])", text[a:b])
        return [TextEdit(a + m.start(), a + m.end(), ch.key)] if m else None
    if s.syntax in DEPLOY_SYNTAXES:
        return deploy_rename(site, ch, text)
    return None
