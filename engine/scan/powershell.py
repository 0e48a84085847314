"""PowerShell launch scripts (`.ps1`) read as PowerShell reads them, enough to find the commands
that start vLLM: a backtick continues a line and escapes a character, `$env:VAR = …` and `$var = …`,
`$env:VAR` / `$var` / `${var}` in double quotes and bare arguments, single quotes literal, `#` and
`<# … #>` comments, `;` / `|` / `&&` / `||` between commands, the call operator `&`. Each command
comes out as its program's argv (engine/scan/windows_shell.py has the shared parts); a part that
cannot be known (`$(…)`, `@splat`, an unset variable) leaves the word unresolved."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.windows_shell import ALL_ARGS, REDIRECT, Env, Stmt, logical_lines, program, word

_PS_VAR = re.compile(r"\$\{(?:env:)?([^}]+)\}|\$env:([A-Za-z_][\w]*)|\$([A-Za-z_][\w]*)|\$\(|@([A-Za-z_]\w*)", re.I)
_PS_ASSIGN = re.compile(r"^\$(?:\{)?(env:)?([A-Za-z_][\w]*)\}?\s*=\s*(.+)$", re.I | re.S)
_PS_KEYWORDS = {"if", "switch", "foreach", "for", "while", "do", "try", "function", "param", "begin", "process", "end"}
_PS_AUTOMATIC = {"true": "True", "false": "False", "null": ""}


def _ps_expand(text: str, env: Env, local: Env) -> tuple[str | None, str | None]:
    why = None

    def sub(m: re.Match) -> str:
        nonlocal why
        tok = m.group(0)
        if tok == "$(" or m.group(4):
            why = why or (ALL_ARGS if m.group(4) else tok)
            return tok
        braced, env_name, plain = m.group(1), m.group(2), m.group(3)
        if plain and plain.lower() == "args":
            why = why or ALL_ARGS
            return tok
        if plain and plain.lower() in _PS_AUTOMATIC:
            return _PS_AUTOMATIC[plain.lower()]
        known, value = (env.get(env_name) if env_name else
                        local.get(braced or plain) if not (braced and tok.lower().startswith("${env:")) else env.get(braced))
        if known and value is not None:
            return value
        why = why or tok
        return tok

    out = _PS_VAR.sub(sub, text)
    return (None, why) if why else (out, None)


def _ps_tokens(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """(token raw, [(kind, text)]) pieces: kind 'lit' (no expansion), 'exp' (expands) or 'op'."""
    out, i, n = [], 0, len(text)
    pieces: list[tuple[str, str]] = []
    raw_start = None

    def flush(end: int) -> None:
        nonlocal pieces, raw_start
        if raw_start is not None:
            out.append((text[raw_start:end], pieces))
        pieces, raw_start = [], None

    while i < n:
        c = text[i]
        if c in " \t":
            flush(i)
            i += 1
            continue
        if c == "#" and raw_start is None:
            break
        # an operator ends the word before it too (`python serve.py;echo done`): PowerShell splits there,
        # and a word scan that stops on it without taking it would never move on (unsloth's install.ps1)
        if text.startswith("&&", i) or text.startswith("||", i) or c in ";|":
            flush(i)
            width = 2 if text.startswith(("&&", "||"), i) else 1
            out.append((text[i:i + width], [("op", text[i:i + width])]))
            i += width
            continue
        if raw_start is None:
            raw_start = i
        if c == "'":
            j = i + 1
            buf = []
            while j < n:
                if text[j] == "'" and text.startswith("''", j):
                    buf.append("'")
                    j += 2
                    continue
                if text[j] == "'":
                    break
                buf.append(text[j])
                j += 1
            pieces.append(("lit", "".join(buf)))
            i = j + 1
        elif c == '"':
            j = i + 1
            buf = []
            while j < n and text[j] != '"':
                if text[j] == "`" and j + 1 < n:
                    buf.append({"n": "\n", "t": "\t"}.get(text[j + 1], text[j + 1]) if text[j + 1] not in "$" else "`$")
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            pieces.append(("exp", "".join(buf)))
            i = j + 1
        elif c == "`":  # escapes the next character; a last one stands for itself
            pieces.append(("lit", text[i + 1] if i + 1 < n else c))
            i += 2
        else:
            j = i + 1
            while j < n and text[j] not in " \t'\"`;|" and not text.startswith(("&&", "||"), j):
                j += 1
            pieces.append(("exp", text[i:j]))
            i = j
    flush(n)
    return out


def _ps_value(pieces: list[tuple[str, str]], env: Env, local: Env) -> tuple[str | None, str | None]:
    out, why = [], None
    for kind, t in pieces:
        if kind == "exp":
            got, w = _ps_expand(t, env, local)
            if got is None:
                why = why or w
                continue
            out.append(got.replace("`$", "$"))
        else:
            out.append(t)
    return (None, why) if why else ("".join(out), None)


def _assigned_command(cmd: list) -> list:
    """The command on the right of `$var = prog arg …` (a bare word and its arguments: PowerShell runs it
    and stores its output), or [] for a value or an expression (`"a"`, `$b + 1`, `@(…)`, `(…)`)."""
    at = next((i for i, (raw, _) in enumerate(cmd) if raw == "=" or raw.startswith("=")), None)
    if at is None or cmd[at][0] != "=" or len(cmd) < at + 3:
        return []
    head = cmd[at + 1][0]
    if head in ("&", ".") or (head[:1].isalpha() and head.lower() not in _PS_KEYWORDS):
        return cmd[at + 1:]
    return []


def powershell_commands(text: str) -> tuple[list[Stmt], Env]:
    """The commands of a PowerShell script, in order, with `$env:` and script variables set before
    each expanded. Only the process environment (`$env:`) reaches the programs it runs."""
    text = re.sub(r"<#.*?#>", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    env, local = Env(), Env()
    out: list[Stmt] = []
    for logical, first, last in logical_lines(text, "`"):
        toks = _ps_tokens(logical)
        cmds: list[list] = []
        cur: list = []
        for raw, pieces in toks:
            if pieces and pieces[0][0] == "op":
                cmds.append(cur)
                cur = []
            else:
                cur.append((raw, pieces))
        cmds.append(cur)
        for cmd in cmds:
            if not cmd:
                continue
            joined = " ".join(r for r, _ in cmd)
            m = _PS_ASSIGN.match(joined)
            if m and cmd[0][0].startswith("$"):
                value_toks = _ps_tokens(m.group(3).strip())
                if len(value_toks) == 1:
                    got, _why = _ps_value(value_toks[0][1], env, local)
                else:
                    got = None  # an expression (`"a" + $b`, @(…), a cmdlet's output)
                (env if m.group(1) else local).set(m.group(2), got, first, m.group(3).strip())
                # `$id = docker run … vllm/vllm-openai …`: the right side is a command PowerShell runs, its output kept
                if not (cmd := _assigned_command(cmd)):
                    continue
            if cmd[0][0] in ("&", "."):
                cmd = cmd[1:]
            words, skip = [], False
            for raw, pieces in cmd:
                if skip:
                    skip = False
                    continue
                if (r := REDIRECT.match(raw)) and not raw.startswith(("'", '"')):
                    skip = r.end() == len(raw)  # `> file`: the target is the next word
                    continue
                got, why = _ps_value(pieces, env, local)
                words.append(word(raw, got, first, why))
            program(words)
            if words:
                out.append(Stmt(words, first, last, env.copy()))
    return out, env
