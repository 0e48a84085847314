"""Parameter expansion for the shell model's Expander (engine/scan/shell_expand.py): `$VAR`,
`${VAR:-default}` and the other operators (`:=`, `:+`, `#`, `%`, `/`), arrays (`${ARGS[@]}`,
`${ARGS[0]}`, `${#ARGS[@]}`), positional parameters and `$(( arithmetic ))`, each against the
assignments seen so far. A mixin of shell_expand.Expander."""
from __future__ import annotations

import ast
import fnmatch
import operator
import re
from typing import TYPE_CHECKING

from vllm_kb.engine.scan.shell import Seg, Word
from vllm_kb.engine.scan.shell_holes import hole, is_known
from vllm_kb.engine.scan.shell_lexer import outer_unquoted

_ARRAY_ALL = re.compile(r"\$\{([A-Za-z_]\w*)\[[@*]\]\}")
PWD_NOTE = "{} read as the folder the command runs in"


class ParameterOps:
    if TYPE_CHECKING:  # the state shell_expand.Expander, the class this is mixed into, holds
        vars: dict[str, str]
        notes: dict[str, str]
        arrays: dict[str, list[tuple[str, Word | None]]]
        unsized: set[str]
        unset: set[str]
        positional: list[tuple[str, Word | None]] | None
        script_dir_hole: str

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
            if s.op in ("+", ":+") and (m := _ARRAY_ALL.fullmatch(outer_unquoted(s.arg, padded=True).strip())):
                # `${A+"${A[@]}"}`, the `set -u`-safe spelling of "${A[@]}": the array's words
                return (list(self.arrays.get(m.group(1), [])) if items else []), None
            idx = self.arith(s.index or "0")
            val = items[idx][0] if idx is not None and 0 <= idx < len(items) else None
            return self._apply(s, val is not None, val, None)
        if s.op == "#len":
            v = self.vars.get(name)
            return (str(len(v)), None) if is_known(v) else (None, None)
        if name == "PWD" and name not in self.vars and name not in self.unset:
            return self._apply(s, True, ".", PWD_NOTE.format("$PWD"))
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
        text = outer_unquoted(text, padded=True)
        return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)", sub, text)


def _glob(pattern: str) -> str:
    return outer_unquoted(pattern, padded=True)


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
