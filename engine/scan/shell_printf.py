"""A script a shell script writes with `printf`/`echo` and runs later: `{ echo "#!/usr/bin/env bash";
printf 'docker run --rm --name %q \\\n' "$NAME"; printf '  %q \\\n' "$IMAGE"; printf '  %q' "${cmd[@]}";
echo; } > "$cmd_file"` then `nohup "$cmd_file"` (ORGRUI/glm51-vllm-deploy-skill
references/serve_vllm_glm51.sh, eval75). The output of the group (or of one `printf … > run.sh`) is
collected while the group is walked — per path where an undecided `if` prints differently, at most
MAX_READS of them — and read as a script at the group's lines when it is one (written to a `.sh`
file or starting with `#!`) that the script runs later (`nohup "$cmd_file"`, `bash launch.sh`). A `%q` argument is one word of the written script, kept with its own
line and value (a placeholder array `"${__printf_N[@]}"` in the text); `%s`, `%d` and echo's
arguments are text, as the file receives it. A format the emulation does not know (widths, `%b`,
`echo -e`) ends the collection: nothing is read rather than something wrong."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.shell import ShellSyntaxError, Word
from vllm_kb.engine.scan.shell_choices import MAX_READS
from vllm_kb.engine.scan.shell_expand import hole
from vllm_kb.engine.scan.shell_nodes import shift_lines

_SPEC = re.compile(r"%(.)|\\(.)", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "a": "\a", "r": "\r"}
_SCRIPT = (".sh", ".bash")
BROKEN = "broken"  # a collection that met something it cannot reproduce


def _text(w: Word) -> str:
    return w.value if w.value is not None else (w.text if w.text is not None else hole(w.raw))


def printed(argv: list[Word]) -> list | None:
    """What `printf FORMAT ARGS…` / `echo ARGS…` writes: a list of text pieces and `%q` words; None
    when it cannot be reproduced."""
    if not argv:
        return None
    if (argv[0].value or "").rsplit("/", 1)[-1] == "echo":
        args, end = argv[1:], "\n"
        while args and args[0].value in ("-n", "-E"):
            end = "" if args[0].value == "-n" else end
            args = args[1:]
        if args and (args[0].value or "").startswith("-") and args[0].value != "-":
            return None  # -e and the like
        return [" ".join(_text(a) for a in args) + end]
    if len(argv) < 2 or argv[1].value is None or argv[1].value.startswith("-"):
        return None  # `printf -v VAR`, or a format the code computes
    fmt, args = argv[1].value, argv[2:]
    out: list = []
    k = 0
    while True:
        used = 0
        pos = 0
        for m in _SPEC.finditer(fmt):
            out.append(fmt[pos:m.start()])
            pos = m.end()
            if m.group(2) is not None:  # a backslash escape
                esc = _ESCAPES.get(m.group(2))
                if esc is None:
                    return None
                out.append(esc)
                continue
            spec = m.group(1)
            if spec == "%":
                out.append("%")
                continue
            if spec not in "sqd":
                return None
            arg = args[k] if k < len(args) else None
            k, used = k + 1, used + 1
            if arg is None:
                out.append("" if spec != "d" else "0")
            elif spec == "q":
                out.append(arg)
            else:
                out.append(_text(arg))
        out.append(fmt[pos:])
        if not used or k >= len(args):  # bash reuses the format while arguments remain
            return out
    return out


def add(capture: list | str, pieces: list | None) -> list | str:
    """The collection after one more printed piece list (every path gets it)."""
    if isinstance(capture, str) or pieces is None:
        return BROKEN
    return [alt + pieces for alt in capture]


def merged(captures: list) -> list | str:
    """The collections of the paths an undecided branch may take: each distinct one, at most MAX_READS."""
    if any(isinstance(c, str) for c in captures):  # BROKEN
        return BROKEN
    out: list = []
    seen: set = set()
    for c in captures:
        for alt in c:
            key = tuple(p if isinstance(p, str) else ("\0q", p.line, _text(p)) for p in alt)
            if key not in seen:
                seen.add(key)
                out.append(alt)
    return out[:MAX_READS]


def as_script(alt: list, target: str | None) -> tuple[str, dict] | None:
    """The written file's text, with a placeholder array for each `%q` word, when it is a script."""
    text_parts: list[str] = []
    arrays: dict[str, list] = {}
    for p in alt:
        if isinstance(p, str):
            text_parts.append(p)
        else:
            name = f"__printf_{len(arrays)}"
            arrays[name] = [(_text(p), p)]
            text_parts.append('"${' + name + '[@]}"')
    text = "".join(text_parts)
    if not (text.lstrip().startswith("#!") or (target or "").endswith(_SCRIPT)):
        return None
    return text, arrays


_RUNS = r"(?:^|[;&|(]|\b(?:nohup|bash|sh|zsh|exec|setsid|source|sudo|srun|env|then|do|else)\b|^\s*\.)\s*[\"']?"


def runs_later(text: str, after: int, target: str) -> bool:
    """Whether the script runs the file it wrote, on a line after `after`: `nohup "$cmd_file"`,
    `bash "${out}"`, `./launch.sh`. A file written as a record of a launch the script makes itself
    (vllm-ds4-sm120-harness run_b200_baseline.sh's serve_command.sh, eval68) is not a second launch."""
    raw = target.strip("\"'")
    name = re.fullmatch(r"\$\{?(\w+)\}?", raw)
    ref = r"\$\{?" + re.escape(name.group(1)) + r"\}?" if name else r"(?:\./)?" + re.escape(raw.removeprefix("./"))
    pat = re.compile(_RUNS + ref + r"[\"']?(?=\s|$|[;&|)>])", re.M)
    rest = "\n".join(text.split("\n")[after:])
    return pat.search(rest) is not None


def run_written(runner, group) -> None:
    """Collect what `{ …; } > FILE` prints while its body runs, then read each way it may be written as
    the script FILE holds."""
    from vllm_kb.engine.scan.shell_builtins import MAX_DEPTH
    from vllm_kb.engine.scan.shell_expand import Expander
    from vllm_kb.engine.scan.shell_tree import parse_tree

    st = runner.st
    outer = st.capture
    if group.subshell:  # `( …; ) > log`: what the body sets stays in the subshell
        runner.st = st.copy()
    runner.st.capture = [[]]
    try:
        runner.run(group.body)
    finally:
        got, runner.st.capture = runner.st.capture, outer
        runner.st = st
        st.capture = outer
    if isinstance(got, str) or not got or runner.depth >= MAX_DEPTH or runner.quiet:
        return
    target = runner.st.ex.expand(group.writes[0]).text if group.writes else None
    if not group.writes or not runs_later(runner.ctx.read(runner.rel) or "", group.end_line or group.line, group.writes[0].raw):
        return
    emit = runner.emit
    if len(got) > 1:
        def emit(c, _outer=runner.emit):  # one launch read several ways: merged into one site (scripts.py)
            c.via = c.via + ("branch",)
            _outer(c)
    for alt in got:
        made = as_script(alt, target)
        if made is None:
            continue
        text, arrays = made
        state = type(st)(Expander(), dict(st.env), containers=st.containers, images=st.images, cwd=st.cwd)
        state.ex.arrays.update(arrays)
        r = type(runner)(runner.ctx, runner.rel, emit, state=state, depth=runner.depth + 1,
                         anchor=runner.anchor or (group.line, group.end_line or group.line), seen=runner.seen)
        try:
            nodes = parse_tree(text)
            shift_lines(nodes, group.line - 1)
            r.run(nodes)
        except (ShellSyntaxError, RecursionError):
            continue
        r.finish()
