"""Shell words expanded as bash would for a launch: `$VAR`, `${VAR:-default}` and the other
parameter operators, arrays (`${ARGS[@]}`, `${ARGS[0]}`, `${#ARGS[@]}`), positional parameters,
`$(( arithmetic ))`, and word splitting of unquoted expansions. A value that cannot be known
statically (a command substitution, an unset environment variable) travels through assignments
as a *hole* — a marked span inside the text — so the rest of a string stays known; a word with a
hole has no value and says which expansion it depends on (engine/scan/shell_holes.py). The
parameter operators and arithmetic: engine/scan/shell_params.py."""
from __future__ import annotations

import re
from dataclasses import replace

from vllm_kb.engine.kb.safe_text import HOLE_CLOSE, HOLE_OPEN
from vllm_kb.engine.scan import shell_cat, shell_which
from vllm_kb.engine.scan.shell import Seg, Word
from vllm_kb.engine.scan.shell_holes import HOLE, hole, holes, is_known, shown
from vllm_kb.engine.scan.shell_params import PWD_NOTE, ParameterOps
from vllm_kb.engine.scan.shell_words import show_var

_IFS = re.compile(r"[ \t\n]+")
# the folder the command runs in: read as ".", so `$(pwd)/models/x` and `-v $PWD/models:/models`
# name the project's own folders (relative to the script, else to the project root)
_PWD_CMD = re.compile(r"\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd(?:\s+-[LP])?\s*`")


class Expander(ParameterOps):
    """Expands words against the assignments seen so far. `vars` holds text (possibly with holes);
    a name in neither `vars` nor `unset` comes from the environment and is unknown."""

    def __init__(self, initial: dict[str, str] | None = None):
        self.vars: dict[str, str] = dict(initial or {})
        self.notes: dict[str, str] = {}  # why a variable's value is only an assumption
        self.unknown: set[str] = set()
        self.arrays: dict[str, list[tuple[str, Word | None]]] = {}
        self.unsized: set[str] = set()  # arrays whose length is unknown (`read -a`, `($UNKNOWN)`): never 1
        self.unset: set[str] = set()
        self.exported: set[str] = set()
        self.positional: list[tuple[str, Word | None]] | None = None  # None: the script's own arguments
        self.script_dir_hole = hole("$(dirname $0)")
        self.origins: dict[str, str] = {}  # variable → "file:line" of the assignment that set it

    # -- single value (assignments, env prefixes, YAML strings) ---------------------------------
    def expand(self, w: Word) -> Word:
        fields, note = self._fields(w, split=False)
        text = "".join(t for t, _ in fields[0]) if fields else ""
        return _finish(w, text, note)

    def value_text(self, w: Word) -> tuple[str, str | None]:
        """The word's text with holes, and the assumption note when it rests on a default."""
        fields, note = self._fields(w, split=False)
        return ("".join(t for t, _ in fields[0]) if fields else ""), note

    # -- argv (commands): splitting and arrays --------------------------------------------------
    def expand_fields(self, w: Word) -> list[Word]:
        if w.array is not None:
            return [self.expand(w)]
        fields, note = self._fields(w, split=True)
        out = []
        for parts in fields:
            text = "".join(t for t, _ in parts)
            # an empty piece (the quote closing "$@") is no origin: the last argument keeps its own line
            origins = {id(o): o for t, o in parts if o is not None and (t or len(parts) == 1)}
            if len(fields) == 1 and not any(o is not w for o in origins.values()):
                out.append(_finish(w, text, note))
                continue
            origin = next(iter(origins.values())) if len(origins) == 1 else None
            if origin is w:
                origin = None  # a piece of a split word: no span of its own in the file
            base = origin if origin is not None else w
            nw = Word(raw=shown(text), line=base.line, segs=[Seg("lit", shown(text), quoted=True)],
                      start=base.start if origin is not None else -1, end=base.end if origin is not None else -1)
            if origin is not None:
                nw.raw = origin.raw
            out.append(_finish(nw, text, note))
        return out

    def _fields(self, w: Word, split: bool) -> tuple[list[list[tuple[str, Word | None]]], str | None]:
        fields: list[list[tuple[str, Word | None]]] = [[]]
        started = False  # the current field exists even if empty ("" or a quoted empty expansion)
        note = None
        after_list = False  # the piece before was "$@" or "${A[@]}"
        for s in w.segs:
            closing = after_list and s.kind == "lit" and s.text == "" and s.quoted
            after_list = s.kind == "var" and s.quoted and (s.name == "@" or s.index == "@")
            if s.kind == "lit":
                # the parser closes `"$@"` with an empty quoted piece: after a "$@" (or "${A[@]}") of no
                # items it makes no word, as bash gives none (eval89 inference-engineering-portfolio: a
                # helper's `shift 2` then `"$@"`, called with just two arguments, passes vLLM nothing more)
                if closing and not fields[-1] and not started:
                    continue
                fields[-1].append((s.text, w))
                started = True
                continue
            if s.kind == "cmd":
                if _PWD_CMD.fullmatch(s.arg.strip()):
                    fields[-1].append((".", w))
                    note = note or PWD_NOTE.format("$(pwd)")
                else:
                    fields[-1].append((self._command(s), w))
                started = True
                continue
            val, how = self._var(s)
            note = note or how
            if isinstance(val, list):  # "${A[@]}", "$@"
                items = val
                if not s.quoted and split:
                    items = [(p, o) for t, o in val for p in _split(t)]
                if not items:
                    continue
                for k, (t, o) in enumerate(items):
                    if k:
                        fields.append([])
                    fields[-1].append((t, o or w))
                started = True
                continue
            if val is None:
                fields[-1].append((hole(show_var(s)), w))
                started = True
                continue
            if s.quoted or not split:
                fields[-1].append((val, w))
                started = True
                continue
            pieces = _ifs_split(val)
            for k, p in enumerate(pieces):
                if k:
                    if fields[-1] or started:
                        fields.append([])
                        started = False
                if p:
                    fields[-1].append((p, w))
                    started = True
        if split and not fields[-1] and not started:
            fields.pop()
        return (fields or ([] if split else [[]])), note

    def _command(self, s: Seg) -> str:
        arg = s.arg
        if arg.startswith("$((") and arg.endswith("))"):
            got = self.arith(arg[3:-2])
            if got is not None:
                return str(got)
        if (up := shell_which.script_dir(arg)) is not None:
            return self.script_dir_hole + up
        if (prog := shell_which.located(arg)) is not None:
            return prog
        return shell_cat.cat_output(arg, self) or hole(arg)


    # -- state -------------------------------------------------------------------------------
    def assign(self, name: str, w: Word, append: bool = False) -> None:
        self.unset.discard(name)
        if w.array is not None:
            elems: list[tuple[str, Word | None]] = []
            sized = name not in self.unsized or not append
            for e in w.array:
                for f in self.expand_fields(e):
                    elems.append((f.value if f.value is not None else hole(f.unresolved or f.raw), e))
                    # an unknown unquoted expansion splits into any number of elements
                    sized = sized and (f.value is not None or all(g.quoted or g.kind == "lit" for g in e.segs))
            self.arrays[name] = (self.arrays.get(name, []) if append else []) + elems
            (self.unsized.discard if sized else self.unsized.add)(name)
            self.vars.pop(name, None)
            return
        text, note = self.value_text(w)
        if append and name in self.arrays:
            self.arrays[name] = self.arrays[name] + [(text, w)]
            return
        if append:
            text = self.vars.get(name, "") + text
        self.arrays.pop(name, None)
        self.notes.pop(name, None)
        self.vars[name] = text
        if note:
            self.notes[name] = note
        if not is_known(text):
            self.unknown.add(name)
        else:
            self.unknown.discard(name)
        _finish(w, text, note)

    def bind(self, name: str, value: str) -> None:
        """A value a branch's condition proves (shell_nodes.Bind): known there, no longer a default."""
        self.vars[name] = value
        self.notes.pop(name, None)
        self.unknown.discard(name)
        self.arrays.pop(name, None)

    def forget(self, name: str) -> None:
        self.unsized.discard(name)
        self.vars.pop(name, None)
        self.arrays.pop(name, None)
        self.notes.pop(name, None)
        self.unset.add(name)

    def copy(self) -> "Expander":
        ex = Expander(self.vars)
        ex.notes = dict(self.notes)
        ex.unknown = set(self.unknown)
        ex.arrays, ex.unsized = {k: list(v) for k, v in self.arrays.items()}, set(self.unsized)
        ex.unset = set(self.unset)
        ex.exported = set(self.exported)
        ex.positional = self.positional.copy() if self.positional is not None else None
        ex.origins = dict(self.origins)
        return ex


def _finish(w: Word, text: str, note: str | None) -> Word:
    hs = holes(text)
    w.value = None if hs else text
    w.unresolved = hs[0] if hs else None
    w.assumed = note if not hs else None
    w.text = text
    return w


def _ifs_split(text: str) -> list[str]:
    """Word splitting that keeps a hole whole: what stands for an unknown value ("$TP: one of
    2 | 8") is one field however it is written."""
    if HOLE_OPEN not in text:
        return _IFS.split(text)
    keep = HOLE.sub(lambda m: m.group(0).replace(" ", "\x00s").replace("\t", "\x00t").replace("\n", "\x00n"), text)
    return [p.replace("\x00s", " ").replace("\x00t", "\t").replace("\x00n", "\n") for p in _IFS.split(keep)]


def _split(text: str) -> list[str]:
    return [p for p in _ifs_split(text) if p]


ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?=)")


def split_assignment(w: Word) -> tuple[str, Word] | None:
    """`NAME=value` as (NAME, value-word), keeping the value's segments (and array elements)."""
    if not w.segs or w.segs[0].kind != "lit" or w.segs[0].quoted:
        return None
    m = ASSIGN.match(w.segs[0].text)
    if not m:
        return None
    name = m.group(1)
    rest_text = w.segs[0].text[m.end():]
    segs = ([Seg("lit", rest_text)] if rest_text else []) + w.segs[1:]
    eq = w.raw.index("=") + 1 if "=" in w.raw else len(w.raw)
    out = Word(raw=w.raw[eq:], line=w.line, segs=segs or [Seg("lit", "")], start=w.start + eq, end=w.end)
    out.array = w.array
    return name, out


def is_append(w: Word) -> bool:
    m = ASSIGN.match(w.segs[0].text) if w.segs and w.segs[0].kind == "lit" else None
    return bool(m and m.group(2) == "+=")


__all__ = ["Expander", "split_assignment", "is_append", "hole", "holes", "shown", "is_known", "replace", "HOLE_OPEN", "HOLE_CLOSE"]
