"""Windows launch scripts read as cmd.exe reads them (PowerShell: engine/scan/powershell.py), enough
to find the commands that start vLLM: a batch file (`.bat`/`.cmd`: `^` continues a line and escapes a character,
`set VAR=…` / `set "VAR=…"`, `%VAR%`, `!VAR!` under delayed expansion, `%~dp0`, `%*`, `&` / `&&` /
`||` / `|` between commands, `rem` / `::` comments, `call`, `start`, `cmd /c`, `if … (` blocks). Each command
comes out as its program's argv the way the C runtime hands it to Python (double quotes group and
are removed); a part that cannot be known (`%1`, `$(…)`, an unset variable) leaves the word
unresolved. Nothing is executed."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from vllm_kb.engine.scan.shell import Seg, Word

ALL_ARGS = "$*"  # how the argv parser knows a script's own arguments are forwarded (engine/scan/scripts.py)


@dataclass
class Stmt:
    """One command: its argv words, its first and last line."""
    words: list[Word]
    line: int
    end_line: int
    env: "Env | None" = None  # the process environment the command starts with


@dataclass
class Env:
    """The variables a script has set by a point (Windows names are case-insensitive)."""
    values: dict[str, str | None] = field(default_factory=dict)  # upper-case name → value (None: unknown)
    names: dict[str, str] = field(default_factory=dict)  # upper-case name → as written
    lines: dict[str, int] = field(default_factory=dict)
    raws: dict[str, str] = field(default_factory=dict)

    def set(self, name: str, value: str | None, line: int, raw: str) -> None:
        key = name.upper()
        self.values[key], self.names[key], self.lines[key], self.raws[key] = value, name, line, raw

    def copy(self) -> "Env":
        return Env(dict(self.values), dict(self.names), dict(self.lines), dict(self.raws))

    def get(self, name: str) -> tuple[bool, str | None]:
        key = name.upper()
        return key in self.values, self.values.get(key)


def word(raw: str, value: str | None, line: int, unresolved: str | None = None) -> Word:
    w = Word(raw=raw, line=line, segs=[Seg("var", name="*")] if unresolved == ALL_ARGS else [Seg("lit", raw)], start=-1, end=-1)
    w.value = value
    w.text = value if value is not None else raw
    w.unresolved = None if value is not None else (unresolved or raw)
    return w


def logical_lines(text: str, cont: str) -> list[tuple[str, int, int]]:
    """(logical line, first line, last line): a line that ends in the continuation character
    (outside double quotes) goes on with the next one."""
    out: list[tuple[str, int, int]] = []
    buf, first = "", 0
    for n, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        if not buf:
            first = n
        stripped = line.rstrip(" \t") if cont == "`" else line
        if stripped.endswith(cont) and not stripped.endswith(cont * 2) and stripped.count('"') % 2 == 0 \
                and not (cont == "`" and stripped.lstrip().startswith("#")):
            buf += stripped[:-1] + (" " if cont == "`" else "")
            continue
        out.append((buf + line, first, n))
        buf = ""
    if buf:
        out.append((buf, first, first))
    return out


# -- cmd.exe ---------------------------------------------------------------------------------------
_BATCH_VAR = re.compile(r"%%|%~[a-z]*\d|%\d|%\*|%([^%\s:]+)(:[^%]*)?%|!([^!\s:]+)!")


def _batch_expand(text: str, env: Env, delayed: bool, line: int) -> tuple[str | None, str | None]:
    """The text with its variables expanded; (None, why) when a part is unknown."""
    why = None

    def sub(m: re.Match) -> str:
        nonlocal why
        tok = m.group(0)
        if tok == "%%":
            return "%"
        if tok.startswith("%~") and tok.endswith("0"):
            return "./"  # %~dp0: the script's own folder (the project path it is read from)
        if tok == "%*":
            why = why or ALL_ARGS
            return tok
        if tok.startswith("!") and not delayed:
            return tok
        name = m.group(1) or m.group(3)
        if name and not m.group(2):
            known, value = env.get(name)
            if known and value is not None:
                return value
        why = why or tok
        return tok

    out = _BATCH_VAR.sub(sub, text)
    return (None, why) if why else (out, None)


def _batch_split(text: str) -> list[str]:
    """The commands of one logical line: `&`, `&&`, `||` and `|` outside double quotes (`^` escapes)."""
    parts, cur, quoted, i = [], [], False, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            quoted = not quoted
        elif c == "^" and not quoted and i + 1 < len(text):
            cur.append(text[i:i + 2])
            i += 2
            continue
        elif c in "&|" and not quoted and not (c == "&" and cur and cur[-1] in "<>"):  # `2>&1` redirects
            parts.append("".join(cur))
            cur = []
            i += 2 if text[i:i + 2] in ("&&", "||") else 1
            continue
        cur.append(c)
        i += 1
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def _argv(text: str) -> list[tuple[str, str]]:
    """(raw, value) words the way the C runtime splits a command line: blanks separate, double quotes
    group and are removed, `^` outside quotes keeps the next character (batch)."""
    out: list[tuple[str, str]] = []
    raw: list[str] = []
    val: list[str] = []
    quoted, started, i = False, False, 0
    while i < len(text):
        c = text[i]
        if c in " \t" and not quoted:
            if started:
                out.append(("".join(raw), "".join(val)))
                raw, val, started = [], [], False
            i += 1
            continue
        started = True
        raw.append(c)
        if c == '"':
            quoted = not quoted
        elif c == "^" and not quoted and i + 1 < len(text):
            raw.append(text[i + 1])
            val.append(text[i + 1])
            i += 1
        else:
            val.append(c)
        i += 1
    if started:
        out.append(("".join(raw), "".join(val)))
    return out


REDIRECT = re.compile(r"^\d?(>>?|<)(&\d)?")
_SET = re.compile(r'^set(?:\s+(/[ap]))?\s+(.*)$', re.I | re.S)


def _strip_if(words: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`if [/i] [not] COND command`: the command."""
    k = 1
    while k < len(words) and words[k][1].lower() in ("/i", "not"):
        k += 1
    if k < len(words) and words[k][1].lower() in ("exist", "defined", "errorlevel", "cmdextversion"):
        k += 2
    elif k < len(words) and "==" in words[k][1]:
        k += 1
    else:
        k += 3
    return words[k:]


def batch_commands(text: str) -> tuple[list[Stmt], Env]:
    """The commands of a batch file, in order, with the variables set before each expanded."""
    env = Env()
    delayed = bool(re.search(r"enabledelayedexpansion", text, re.I))
    out: list[Stmt] = []
    for logical, first, last in logical_lines(text, "^"):
        for part in _batch_split(logical):
            part = part.lstrip("@( \t").rstrip(") \t") if part.lstrip().startswith(("(", "@")) else part
            head = part.split(None, 1)[0].lower() if part.split() else ""
            if not head or head.startswith("::") or head in ("rem", "goto", "echo", "exit", "pause", "setlocal", "endlocal") \
                    or head.startswith(":") or head.startswith("rem/"):
                continue
            m = _SET.match(part)
            if m and head == "set":
                _batch_set(env, m.group(1), m.group(2).strip(), delayed, first)
                continue
            words = _argv(part)
            if words and words[0][1].lower() == "if":
                words = _strip_if(words)
            while words and words[0][1].lower() in ("call", "start") or words and words[0][1].startswith("("):
                if words[0][1].startswith("(") and words[0][1] != "(":
                    words[0] = (words[0][0][1:], words[0][1][1:])
                    continue
                start = words[0][1].lower() == "start"
                words = words[1:]
                if start:  # start ["title"] [/b /wait /min /d dir …] command
                    if words and words[0][0].startswith('"'):
                        words = words[1:]
                    while words and words[0][1].startswith("/"):
                        words = words[2:] if words[0][1].lower() == "/d" else words[1:]
            if len(words) >= 2 and words[0][1].lower() in ("cmd", "cmd.exe") and words[1][1].lower() in ("/c", "/k"):
                inner = " ".join(w[0] for w in words[2:])
                words = _argv(inner[1:-1] if inner.startswith('"') and inner.endswith('"') else inner)
            out.append(Stmt(_batch_words(words, env, delayed, first), first, last, env.copy()))
    return out, env


def _batch_set(env: Env, flag: str | None, body: str, delayed: bool, line: int) -> None:
    if body.startswith('"') and '"' in body[1:]:
        body = body[1:body.rindex('"')]
    name, eq, value = body.partition("=")
    if not eq or not name.strip():
        return
    name = name.strip()
    if flag and flag.lower() == "/p":
        env.set(name, None, line, value)  # read from the keyboard
        return
    got, _why = _batch_expand(value.rstrip("\r"), env, delayed, line)
    if flag and flag.lower() == "/a":
        got = got.strip() if got is not None and re.fullmatch(r"\s*-?\d+\s*", got) else None
    env.set(name, got if got != "" else None, line, value)
    if got == "":
        env.values.pop(name.upper(), None)


def _batch_words(words: list[tuple[str, str]], env: Env, delayed: bool, line: int) -> list[Word]:
    out: list[Word] = []
    skip = False
    for raw, val in words:
        if skip:
            skip = False
            continue
        if not raw.startswith('"') and (r := REDIRECT.match(raw)):
            skip = r.end() == len(raw)  # `> file`: the target is the next word
            continue
        got, why = _batch_expand(val, env, delayed, line)
        out.append(word(raw, got, line, why))
    program(out)
    return out


def program(words: list[Word]) -> None:
    """The program as the launch finder reads it: `C:\\venv\\Scripts\\python.exe` → …/python,
    the `py` launcher → python (its `-3.11` is an interpreter option the finder skips)."""
    if not words or words[0].value is None:
        return
    v = words[0].value.replace("\\", "/")
    v = re.sub(r"\.exe$", "", v, flags=re.I)
    base = v.rsplit("/", 1)[-1]
    if base.lower() in ("py", "python", "python3", "vllm"):
        v = v[: len(v) - len(base)] + ("python" if base.lower() == "py" else base.lower())
    words[0].value = words[0].text = v
