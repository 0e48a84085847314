"""Environment files, read the way the tools that load them do: compose's `.env` and `env_file:`
(docker compose's own rules: `KEY=VALUE`, `export KEY=…`, comments, single quotes literal, double
quotes with escapes, `$$`, `${A}`, `$A`, `${A:-d}`, `${A-d}`, `${A:+r}`, `${A:?e}` against the
variables defined above in the same file), and python-dotenv's `load_dotenv()`/`dotenv_values()`
(the same grammar; `${A}` only with braces). A value that names a variable the file does not set
is unknown — the shell that runs the tool may set it — never a guess."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class EnvValue:
    name: str
    value: str | None  # None: names a variable nothing here sets
    file: str
    line: int
    raw: str  # the value as written
    why: str | None = None  # why it is unknown

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


class _Missing(Exception):
    def __init__(self, name: str):
        self.name = name


def interpolate(text: str, lookup, braces_only: bool = False) -> str:
    """compose's interpolation of one string; raises _Missing for a variable nothing sets (that
    has no default). `lookup(name)` → str or None."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c != "$":
            out.append(c)
            i += 1
            continue
        if text.startswith("$$", i):
            out.append("$")
            i += 2
            continue
        if text.startswith("${", i):
            end = _closing(text, i + 2)
            if end < 0:
                out.append(text[i:])
                break
            out.append(_braced(text[i + 2:end], lookup, braces_only))
            i = end + 1
            continue
        m = _NAME.match(text, i + 1)
        if m and not braces_only:
            got = lookup(m.group(0))
            if got is None:
                raise _Missing(m.group(0))
            out.append(got)
            i = m.end()
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _closing(text: str, start: int) -> int:
    depth = 1
    for j in range(start, len(text)):
        if text.startswith("${", j):
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _braced(body: str, lookup, braces_only: bool) -> str:
    m = _NAME.match(body)
    if not m:
        raise _Missing(body)
    name, rest = m.group(0), body[m.end():]
    got = lookup(name)
    for op in (":-", "-", ":+", "+", ":?", "?"):
        if rest.startswith(op):
            arg = rest[len(op):]
            empty_counts = op.startswith(":")
            unset = got is None or (empty_counts and got == "")
            if op.endswith("-"):
                return interpolate(arg, lookup, braces_only) if unset else got
            if op.endswith("+"):
                return "" if unset else interpolate(arg, lookup, braces_only)
            if unset:
                raise _Missing(name)
            return got
    if rest:
        raise _Missing(body)
    if got is None:
        raise _Missing(name)
    return got


def parse(text: str, file: str, outer: dict[str, str] | None = None, braces_only: bool = False) -> dict[str, EnvValue]:
    """KEY → EnvValue for every assignment of an env file, later lines winning."""
    out: dict[str, EnvValue] = {}
    known: dict[str, str] = dict(outer or {})
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        line, at = lines[k], k + 1
        k += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            continue
        name, rest = m.group(1), m.group(2)
        quote = rest[:1] if rest[:1] in ("'", '"') else ""
        if quote:
            body = rest[1:]
            while _unclosed(body, quote) and k < len(lines):  # a quoted value may run over lines
                body += "\n" + lines[k]
                k += 1
            end = _quote_end(body, quote)
            raw = body[:end] if end >= 0 else body
            if quote == '"':
                raw = re.sub(r"\\([\\\"$nt])", lambda mm: {"n": "\n", "t": "\t"}.get(mm.group(1), mm.group(1)), raw)
        else:
            raw = re.split(r"\s+#", rest, maxsplit=1)[0].strip()
        if quote == "'":
            value: str | None = raw
            why = None
        else:
            try:
                value, why = interpolate(raw, known.get, braces_only), None
            except _Missing as e:
                value, why = None, f"${{{e.name}}} is set by nothing in {file}"
        if value is not None:
            known[name] = value
        else:
            known.pop(name, None)
        out[name] = EnvValue(name, value, file, at, raw, why)
    return out


def _quote_end(body: str, quote: str) -> int:
    j = 0
    while j < len(body):
        if body[j] == "\\" and quote == '"':
            j += 2
            continue
        if body[j] == quote:
            return j
        j += 1
    return -1


def _unclosed(body: str, quote: str) -> bool:
    return _quote_end(body, quote) < 0


def load(ctx, rel: str, braces_only: bool = False) -> dict[str, EnvValue] | None:
    """The env file at `rel` (project-relative), read once per scan; None when there is none."""
    cache = ctx.__dict__.setdefault("_envfiles", {})
    key = (rel, braces_only)
    if key in cache:
        return cache[key]
    got = None
    try:
        if (ctx.root / rel).is_file():
            text = ctx.read(rel)
            got = parse(text, rel, braces_only=braces_only) if text is not None else None
    except (OSError, ValueError):
        got = None
    cache[key] = got
    return got


def beside(rel: str, name: str = ".env") -> str:
    """`name` in the folder of `rel` (the path a tool resolves it against), project-relative."""
    if rel.startswith("/") or rel.rpartition("/")[2] in ("", "."):
        folder = PurePosixPath(rel).parent
        joined = PurePosixPath(folder, name) if not name.startswith("/") else PurePosixPath(name.lstrip("/"))
        segments: list[str] | tuple[str, ...] = joined.parts
    else:  # the parts PurePosixPath gives (empty and `.` segments dropped), without building paths
        path = name.lstrip("/") if name.startswith("/") else f"{rel.rpartition('/')[0]}/{name}"
        segments = [p for p in path.split("/") if p and p != "."]
    parts: list[str] = []
    for p in segments:
        if p == "..":
            if not parts:
                return ""
            parts.pop()
        elif p != ".":
            parts.append(p)
    return "/".join(parts)


def values(env: dict[str, EnvValue] | None) -> dict[str, str]:
    """The resolved values only: what a `${VAR}` elsewhere can be expanded with."""
    return {k: v.value for k, v in (env or {}).items() if v.value is not None}


_DOTENV_CALLS = ("load_dotenv", "dotenv_values")


def dotenv_file(ctx, rel: str, call: ast.Call) -> str | None:
    """The env file a `load_dotenv(…)`/`dotenv_values(…)` call reads: the path it is given (a
    literal, resolved beside the module, else from the project root), or — given none —
    python-dotenv's `find_dotenv()`: `.env` in the module's folder or the nearest folder above."""
    arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "dotenv_path"), None)
    if arg is not None:
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            return None
        for cand in (beside(rel, arg.value), beside("x", arg.value)):
            if cand and load(ctx, cand, braces_only=True) is not None:
                return cand
        return None
    folder = PurePosixPath(rel).parent
    while True:
        cand = beside((folder / "x").as_posix())
        if load(ctx, cand, braces_only=True) is not None:
            return cand
        if folder == folder.parent or not folder.parts:
            return None
        folder = folder.parent


def dotenv_call(func: ast.expr) -> str | None:
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return name if name in _DOTENV_CALLS else None
