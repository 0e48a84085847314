"""Python programs a shell script hands to Python in a here-document: `python - <<'EOF'`, `python3 <<EOF`,
`cat <<EOF | python`, or a file the script writes with `cat > smoke.py <<PY` / `tee x.py <<EOF` (a `.py`
target, or a body that begins as Python: a python shebang, an `import`/`from` line) and runs later; and
the program of `python -c "…"` / `python -c '…'`.
The body is read by the Python scanner at the script's own lines and columns: every other line is
blanked, as engine/scan/yaml_python.py does for a ConfigMap's file (PshySimon/DB-Opt-R1's
setup_sm120_vllm_flashinfer_env.sh writes its `LLM(…)` smoke test so, eval66).

In an unquoted here-document the writing shell expands `$X`, `${X:-d}`, `$(…)` and backquotes first.
What they give is not read here: each is written over, at its own length, with a name the Python
reader cannot resolve (one inside a string literal makes the whole literal that name), so the value
is unknown — never its `$…` text — and every other byte stays where it is for `--fix`. Inside a
double-quoted `-c` string the shell also turns `\"` into `"`: the backslash becomes a space on the
side of the quote that lies outside the Python string, so the literal's value is what Python sees."""
from __future__ import annotations

import re

from vllm_kb.engine.scan import python_calls, script_installs
from vllm_kb.engine.scan.site import Setting, Site

# a here-document's opening line: the command before `<<`, the delimiter, and what follows it on the line
_OPEN = re.compile(r"^(?P<line>[^\n]*?)(?<!<)<<(?P<dash>-?)[ \t]*(?P<q>['\"]?)(?P<delim>[A-Za-z_]\w*)(?P=q)(?P<rest>[^\n]*)$", re.M)
# Python as the reader: `python -`, `python3.11`, `"${PYTHON_BIN}"`, `uv run python`, `… | python`
_PY_RUN = re.compile(r"(?:^|[\s/|;&(\"'])(?:python[\d.]*|\$\{?PYTHON\w*\}?)(?=[\s\"'}]|$)")
_WRITER = re.compile(r"^[ \t]*(?:cat|tee)\b")
_PY_HEAD = re.compile(r"\A\s*(?:#![^\n]*python|(?:from\s+[\w.]+\s+)?import\s+\w)")
_NAME = re.compile(r"[A-Za-z_]\w*")


def bodies(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, quoted) of each here-document body that Python runs or that is written as a
    Python file, and that names vLLM."""
    out = []
    for m in _OPEN.finditer(text):
        head = m.group("line") + " " + m.group("rest")
        start = m.end() + 1
        close = re.compile(r"^" + ("\t*" if m.group("dash") else "") + re.escape(m.group("delim")) + r"[ \t]*$", re.M)
        end = close.search(text, start)
        if end is None or "vllm" not in (body := text[start:end.start()]):
            continue
        if _WRITER.match(m.group("line")):
            piped = head.split("|", 1)[1] if "|" in head else ""
            ok = _PY_RUN.search(piped) if piped else _python_file(_target(head), body)
        else:
            ok = _PY_RUN.search(head)
        if ok:
            out.append((start, end.start(), bool(m.group("q"))))
    return out


# `python -c "…"`, `python3 -u -c '…'`, `"$PY" -c "…"`: the program text after the opening quote
_INLINE = re.compile(r"(?:^|[\s;&|(`])(?:python[\d.]*|\"?\$\{?PYTHON\w*\}?\"?)[ \t]+(?:-[A-Za-z]+[ \t]+)*-c[ \t]*(?P<q>[\"'])", re.M)


def inline_bodies(text: str) -> list[tuple[int, int, str]]:
    """(start, end, "dq" | "sq") of each `python -c` program that names vLLM."""
    out = []
    for m in _INLINE.finditer(text):
        start = m.end()
        if m.group("q") == "'":
            end = text.find("'", start)
        else:
            end, k = -1, start
            while k < len(text):
                if text[k] == "\\":
                    k += 2
                    continue
                if text[k] == '"':
                    end = k
                    break
                k += 1
        if end > start and "vllm" in text[start:end]:
            out.append((start, end, "dq" if m.group("q") == '"' else "sq"))
    return out


def _dq(body: str) -> str:
    """A double-quoted shell string as Python reads it, offsets kept: `\"` is `"` with a space on the
    side outside the Python string it opens or closes."""
    chars, q, k = list(body), None, 0
    while k < len(body):
        c = body[k]
        if c == "\\" and k + 1 < len(body) and body[k + 1] == '"':
            if q is None:
                chars[k], chars[k + 1], q = " ", '"', '"'
            elif q == '"':
                chars[k], chars[k + 1], q = '"', " ", None
            else:
                chars[k] = " "
            k += 2
            continue
        if c == "\\":
            k += 2
            continue
        if c in "'\"" and q is None:
            q = c
        elif c == q:
            q = None
        elif c == "#" and q is None:
            k = body.find("\n", k) if "\n" in body[k:] else len(body)
            continue
        k += 1
    return "".join(chars)


def _target(head: str) -> str | None:
    """The file `cat > F <<EOF` / `tee F <<EOF` writes, quotes removed; None when it writes none."""
    m = re.match(r"[ \t]*tee\s+(?:-\w+\s+)*([^\s<>;|&]+)", head) or re.search(r">>?[ \t]*(\"[^\"]*\"|'[^']*'|[^\s;|&]+)", head)
    return m.group(1).strip("\"'") if m else None


def _python_file(target: str | None, body: str) -> bool:
    """A `.py` file, or one whose name the shell fills (`"$SMOKE_SCRIPT"`) holding what begins as Python."""
    if target is None or target.startswith("/dev/"):
        return False
    name = target.rsplit("/", 1)[-1]
    if name.endswith(".py"):
        return True
    return "$" in name and "." not in name.replace("${", "").split("}")[-1] and bool(_PY_HEAD.match(body))


def scan(ctx, rel: str, text: str, spans: list[tuple]) -> list[Site]:
    """`spans`: (start, end, quoted) of bodies() — True for a quoted delimiter — and of inline_bodies()."""
    out: list[Site] = []
    for start, end, quoted in spans:
        raw = text[start:end]
        literal = quoted is True or quoted == "sq"  # a quoted delimiter, a single-quoted string: no expansion
        body = raw if literal else filled(_dq(raw) if quoted == "dq" else raw)
        found = python_calls.scan(ctx, rel, _padded(text, start, end, body))
        shell = [(start + a, start + b) for a, b in ([] if literal else _expansions(raw))]
        for site in found:
            if quoted is not True:  # what --fix may write there (engine/fix/text_edits._quoting_kept)
                site.launch["shell_quoting"] = quoted if quoted in ("dq", "sq") else "heredoc"
            for setting in (*site.settings.values(), *([site.model] if isinstance(site.model, Setting) else [])):
                _as_written(setting, text, shell)
        out += found
    script_installs.adopt(ctx, rel, text, out)  # `pip install vllm==X` earlier in the script is what it runs
    return out


def _as_written(setting: Setting, text: str, shell: list[tuple[int, int]]) -> None:
    """A value the writing shell fills (`model="$MODEL"`) is shown as written in the script, not as
    the name that stood in for it."""
    span = (setting.pos or {}).get("value")
    if span and any(a < span[1] and span[0] < b for a, b in shell):
        setting.raw = text[span[0]:span[1]]
        setting.note = f"{setting.raw}: filled in by the shell that writes the here-document"


def _padded(text: str, start: int, end: int, body: str) -> str:
    """The script with the body (its expansions filled) in place and every other character a space
    (newlines kept); a body written indented (`<<-` with tabs, or inside a function) is opened by
    `if 1:` on the writer's line, which engine/scan/context.parse_python reads as the module's body."""
    before = re.sub(r"[^\n]", " ", text[:start])
    after = re.sub(r"[^\n]", " ", text[end:])
    first = next((ln for ln in body.split("\n") if ln.strip()), "")
    line_start = text.rfind("\n", 0, start) + 1
    if line_start < start and body.split("\n", 1)[0].strip():  # `python -c "from vllm …`: on the command's line
        if start - line_start >= 5:
            before = before[:line_start] + "if 1:" + before[line_start + 5:]
    elif first[:1] in (" ", "\t"):
        head_start = text.rfind("\n", 0, start - 1) + 1
        if start - 1 - head_start >= 5:
            before = before[:head_start] + "if 1:" + before[head_start + 5:]
    return before + body + after


def filled(body: str) -> str:
    """The body with each shell expansion written over by a name of its length."""
    chars = list(body)
    spans = _expansions(body)
    literals = _literals(body)
    for a, b in spans:
        lit = next(((s, e) for s, e in literals if s <= a < e), None)
        if lit is not None and "\n" not in body[lit[0]:lit[1]]:
            a, b = lit  # `"$BASE_MODEL"`: the literal is the shell's value, unknown here
        name = "_" + "".join(_NAME.findall(body[a:b])).replace("_", "")[:40]
        for k in range(a, b):
            if chars[k] != "\n":
                chars[k] = "_"
        for k, c in enumerate(name[: b - a]):
            if chars[a + k] != "\n":
                chars[a + k] = c
    return "".join(chars)


def _expansions(body: str) -> list[tuple[int, int]]:
    out, i, n = [], 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            j = body.find("`", i + 1)
            if j > 0:
                out.append((i, j + 1))
                i = j + 1
                continue
        if c == "$" and i + 1 < n:
            nxt = body[i + 1]
            if nxt in "{(":
                end = _matching(body, i + 1, nxt, "}" if nxt == "{" else ")")
                if end is not None:
                    out.append((i, end + 1))
                    i = end + 1
                    continue
            elif (m := _NAME.match(body, i + 1)) is not None:
                out.append((i, m.end()))
                i = m.end()
                continue
            elif nxt.isdigit() or nxt in "@*#?$!":
                out.append((i, i + 2))
                i += 2
                continue
        i += 1
    return out


def _matching(body: str, at: int, open_: str, close: str) -> int | None:
    depth = 0
    for k in range(at, len(body)):
        if body[k] == open_:
            depth += 1
        elif body[k] == close:
            depth -= 1
            if depth == 0:
                return k
    return None


_STRING = re.compile(r"(?i:[rbuf]{0,2})('''|\"\"\"|'|\")")


def _literals(body: str) -> list[tuple[int, int]]:
    """(start, end) of the Python string literals of the body, prefix and quotes included."""
    out, i, n = [], 0, len(body)
    while i < n:
        c = body[i]
        if c == "#":
            j = body.find("\n", i)
            i = n if j < 0 else j
            continue
        m = _STRING.match(body, i) if c in "'\"rRbBuUfF" and (i == 0 or not (body[i - 1].isalnum() or body[i - 1] == "_")) else None
        if m is None:
            i += 1
            continue
        q, k = m.group(1), m.end()
        while k < n and not body.startswith(q, k) and not (len(q) == 1 and body[k] == "\n"):
            k += 2 if body[k] == "\\" else 1
        end = min(n, k + len(q))
        out.append((i, end))
        i = end
    return out
