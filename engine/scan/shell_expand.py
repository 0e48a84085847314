"""Shell words expanded as bash would for a launch: `$VAR`, `${VAR:-default}` and the other
parameter operators, arrays (`${ARGS[@]}`, `${ARGS[0]}`, `${#ARGS[@]}`), positional parameters,
`$(( arithmetic ))`, and word splitting of unquoted expansions. A value that cannot be known
statically (a command substitution, an unset environment variable) travels through assignments
as a *hole* — a marked span inside the text — so the rest of a string stays known; a word with a
hole has no value and says which expansion it depends on."""
from __future__ import annotations

import ast
import fnmatch
import operator
import re
from typing import TypeGuard
from dataclasses import replace

from vllm_kb.engine.kb.safe_text import HOLE_CLOSE, HOLE_OPEN
from vllm_kb.engine.scan import shell_cat, shell_which
from vllm_kb.engine.scan.shell import Seg, Word, _show_var

_HOLE = re.compile("\ue000([^\ue001]*)\ue001")
_IFS = re.compile(r"[ \t\n]+")
_ARRAY_ALL = re.compile(r"\$\{([A-Za-z_]\w*)\[[@*]\]\}")
# the folder the command runs in: read as ".", so `$(pwd)/models/x` and `-v $PWD/models:/models`
# name the project's own folders (relative to the script, else to the project root)
_PWD_CMD = re.compile(r"\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd(?:\s+-[LP])?\s*`")
_PWD_NOTE = "{} read as the folder the command runs in"


def hole(what: str) -> str:
    return HOLE_OPEN + what.replace(HOLE_OPEN, "").replace(HOLE_CLOSE, "") + HOLE_CLOSE


def holes(text: str) -> list[str]:
    return _HOLE.findall(text)


def shown(text: str) -> str:
    """The text with each hole written as the expansion it stands for."""
    return _HOLE.sub(lambda m: m.group(1), text)


def is_known(text: str | None) -> TypeGuard[str]:
    return text is not None and HOLE_OPEN not in text


class Expander:
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
        for s in w.segs:
            if s.kind == "lit":
                fields[-1].append((s.text, w))
                started = True
                continue
            if s.kind == "cmd":
                if _PWD_CMD.fullmatch(s.arg.strip()):
                    fields[-1].append((".", w))
                    note = note or _PWD_NOTE.format("$(pwd)")
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
                fields[-1].append((hole(_show_var(s)), w))
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

    def arith(self, expr: str) -> int | None:
        """`$(( a * b + 1 ))` with the script's variables; None when something is unknown."""
        def sub(m):
            name = m.group(1) or m.group(3) or m.group(4)
            val = self.vars.get(name)
            if (val is None or val == "") and m.group(2) is not None:
                val = m.group(2)
            if val is None or not re.fullmatch(r"\s*-?\d+\s*", val):
                raise ValueError(name)
            return val.strip()
        try:
            text = re.sub(r"\$\{([A-Za-z_]\w*)(?::-(-?\d+))?\}|\$([A-Za-z_]\w*)|(?<![\w$])([A-Za-z_]\w*)", sub, expr)
            return _safe_int(text)
        except (ValueError, SyntaxError, ZeroDivisionError, TypeError, RecursionError):
            return None

    def _var(self, s: Seg):
        name = s.name
        if s.op == "?bad":
            return None, None
        if name in ("BASH_SOURCE", "0") and s.op in ("%", "%%") and s.arg == "/*":
            return self.script_dir_hole, None  # `${BASH_SOURCE%/*}`: the script's folder
        if name in ("@", "*"):
            if self.positional is None:
                return None, None
            return list(self.positional), None
        if name.isdigit():
            if self.positional is None:
                known, val = False, None
            else:
                k = int(name) - 1
                known, val = True, (self.positional[k][0] if 0 <= k < len(self.positional) and k <= getattr(self.positional, "upto", k) else None)
            return self._apply(s, known and val is not None, val, None)
        if name == "#":
            return (str(len(self.positional)), None) if self.positional is not None and not hasattr(self.positional, "upto") else (None, None)
        if name in self.arrays:
            items = self.arrays[name]
            if s.op == "#len":
                return (None, None) if name in self.unsized else (str(len(items)), None)
            if s.index in ("@", "*"):
                return list(items), None
            if s.op in ("+", ":+") and (m := _ARRAY_ALL.fullmatch(_unquote(s.arg).strip())):
                # `${A+"${A[@]}"}`, the `set -u`-safe spelling of "${A[@]}": the array's words
                return (list(self.arrays.get(m.group(1), [])) if items else []), None
            idx = self.arith(s.index or "0")
            val = items[idx][0] if idx is not None and 0 <= idx < len(items) else None
            return self._apply(s, val is not None, val, None)
        if s.op == "#len":
            v = self.vars.get(name)
            return (str(len(v)), None) if is_known(v) else (None, None)
        if name == "PWD" and name not in self.vars and name not in self.unset:
            return self._apply(s, True, ".", _PWD_NOTE.format("$PWD"))
        known = name in self.vars
        val = self.vars.get(name)
        return self._apply(s, known, val, self.notes.get(name) if known else None, external=not known and name not in self.unset)

    def _apply(self, s: Seg, known: bool, val: str | None, note: str | None, external: bool = True):
        op = s.op
        if op == "":
            return (val, note) if known else (None, None)
        if op in (":-", "-", ":=", "="):
            if known and (val != "" or op in ("-", "=")):
                return val, note
            default = self._expand_text(s.arg)
            if op in (":=", "=") and not s.name.isdigit():
                self.vars[s.name] = default
                self.notes[s.name] = "default of ${" + s.name + op + s.arg + "}"
            how = "default of ${" + s.name + op + s.arg + "}" if (not known and external) or s.name.isdigit() else note
            return default, how
        if op in (":+", "+"):
            if known and (val or op == "+"):
                return self._expand_text(s.arg), note
            return "", ("${" + s.name + op + s.arg + "} with " + s.name + " unset" if not known else None)
        if op in ("?", ":?"):
            return (val, note) if known else (None, None)
        if not known or not is_known(val):
            return None, None
        pat = _glob(self._expand_text(s.arg.split("/", 1)[0] if op in ("/", "//") else s.arg))
        if op in ("#", "##"):
            return _strip(val, pat, longest=op == "##", prefix=True), note
        if op in ("%", "%%"):
            return _strip(val, pat, longest=op == "%%", prefix=False), note
        if op in ("/", "//"):
            rep = self._expand_text(s.arg.split("/", 1)[1]) if "/" in s.arg else ""
            if not re.fullmatch(r"[\w.\-]+", pat):
                return None, None
            return (val.replace(pat, rep) if op == "//" else val.replace(pat, rep, 1)), note
        return None, None

    def _expand_text(self, text: str) -> str:
        """A default's text (`${X:-$Y}`, `${X:-"a b"}`): its own expansions against the variables."""
        def sub(m):
            name = m.group(1) or m.group(2)
            if name in self.vars:
                return self.vars[name]
            return hole(m.group(0))
        text = _unquote(text)
        return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)", sub, text)

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
    keep = _HOLE.sub(lambda m: m.group(0).replace(" ", "\x00s").replace("\t", "\x00t").replace("\n", "\x00n"), text)
    return [p.replace("\x00s", " ").replace("\x00t", "\t").replace("\x00n", "\n") for p in _IFS.split(keep)]


def _split(text: str) -> list[str]:
    return [p for p in _ifs_split(text) if p]


def _unquote(text: str) -> str:
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    return text


def _glob(pattern: str) -> str:
    return _unquote(pattern)


def _strip(val: str, pat: str, longest: bool, prefix: bool) -> str:
    rng = range(len(val), -1, -1) if longest else range(0, len(val) + 1)
    for k in rng:
        part = val[:k] if prefix else val[len(val) - k:]
        if fnmatch.fnmatchcase(part, pat):
            return val[k:] if prefix else val[:len(val) - k]
    return val


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Div: operator.floordiv, ast.Mod: operator.mod}


def _safe_int(text: str) -> int:
    node = ast.parse(text.strip() or "0", mode="eval").body

    def ev(n):
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
            return n.value
        if isinstance(n, ast.BinOp) and type(n.op) in _OPS:
            a, b = ev(n.left), ev(n.right)
            if abs(a) > 10**15 or abs(b) > 10**15:
                raise ValueError("too large")
            return _OPS[type(n.op)](a, b)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        raise ValueError("not arithmetic")
    return ev(node)


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


__all__ = ["Expander", "split_assignment", "is_append", "hole", "holes", "shown", "is_known", "replace"]

