"""Shell words expanded as bash would for a launch: `$VAR`, `${VAR:-default}`, exported and
assigned variables, and `NAME=value` assignments split."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.shell import Seg, Word, _show_var


class Expander:
    """Expands words against literal assignments seen so far in the script."""

    def __init__(self, initial: dict[str, str] | None = None):
        self.vars: dict[str, str] = dict(initial or {})
        self.notes: dict[str, str] = {}  # why a variable's value is only an assumption
        self.unknown: set[str] = set()

    def expand(self, w: Word) -> Word:
        out: list[str] = []
        assumed = None
        unresolved = None
        for s in w.segs:
            if s.kind == "lit":
                out.append(s.text)
            elif s.kind == "cmd":
                unresolved = unresolved or s.arg
            else:
                val, how = self._var(s)
                if val is None:
                    unresolved = unresolved or _show_var(s)
                else:
                    out.append(val)
                    if how:
                        assumed = assumed or how
        w.value = None if unresolved else "".join(out)
        w.assumed = assumed
        w.unresolved = unresolved
        return w

    def _var(self, s: Seg) -> tuple[str | None, str | None]:
        known = s.name in self.vars
        val = self.vars.get(s.name)
        note = self.notes.get(s.name)
        if s.op in ("", ):
            return (val, note) if known else (None, None)
        if s.op in (":-", "-", ":=", "="):
            if known and (val != "" or s.op in ("-", "=")):
                return val, note
            default = self._expand_text(s.arg)
            if s.op in (":=", "="):
                self.vars[s.name] = default
            return default, "default of ${" + s.name + s.op + s.arg + "}"
        if s.op in (":+", "+"):
            return (self._expand_text(s.arg), None) if known and val else ("", None) if s.name in self.vars else (None, None)
        return None, None

    def _expand_text(self, text: str) -> str:
        def sub(m):
            name = m.group(1) or m.group(2)
            return self.vars.get(name, m.group(0))
        return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)", sub, text)

    def assign(self, name: str, w: Word) -> None:
        self.expand(w)
        self.notes.pop(name, None)
        if w.value is None:
            self.vars.pop(name, None)
            self.unknown.add(name)
        else:
            self.vars[name] = w.value
            if w.assumed:
                self.notes[name] = w.assumed


ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?=)")


def split_assignment(w: Word) -> tuple[str, Word] | None:
    """`NAME=value` as (NAME, value-word), keeping the value's segments."""
    if not w.segs or w.segs[0].kind != "lit" or w.segs[0].quoted:
        return None
    m = ASSIGN.match(w.segs[0].text)
    if not m:
        return None
    name = m.group(1)
    rest_text = w.segs[0].text[m.end():]
    segs = ([Seg("lit", rest_text)] if rest_text else []) + w.segs[1:]
    eq = w.raw.index("=") + 1 if "=" in w.raw else len(w.raw)
    return name, Word(raw=w.raw[eq:], line=w.line, segs=segs or [Seg("lit", "")], start=w.start + eq, end=w.end)
