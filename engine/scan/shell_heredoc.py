"""Here-documents that are scripts: the body of `bash <<EOF` / `sh -s <<EOF` (the shell reads its
commands from it), `sbatch <<EOT` with no batch-script argument (SLURM takes the job script from
stdin), `ssh HOST <<EOF` / `ssh HOST bash -s <<EOF` (the remote shell reads it), and a shell script
written out with `cat > start.sh <<'EOF'` / `tee run.sh <<EOF` (a `.sh` file or a body that starts
with `#!`), run later. Each body is read as a script at its own lines; an unquoted delimiter's body is
expanded with the writer's variables, a quoted one reaches its reader as written."""
from __future__ import annotations

import re

from vllm_kb.engine.scan import shell_cat
from vllm_kb.engine.scan.shell import SHELLS, Heredoc, Word
from vllm_kb.engine.scan.shell_wrap import TAKES, command_words

_SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh")


def _options_only(vals: list[str | None], takes: frozenset | set = frozenset(), shell: bool = True) -> bool:
    """Nothing after the program but its options: no `-c` string, `--wrap` or script file, which
    would be what runs instead of standard input."""
    k = 0
    while k < len(vals):
        v = vals[k]
        if v is None or v == "--wrap" or v.startswith("--wrap="):
            return False
        if v != "-" and not v.startswith("-"):
            return False  # a script file, or the command itself
        if shell and v.startswith("-") and not v.startswith("--") and "c" in v[1:]:
            return False  # `-c`, `-lc`: the string runs, not the body
        k += 2 if v in takes else 1
    return True


_SEP = re.compile(r"&&|\|\||[;|&(]")
_HOLE = re.compile("\ue000[^\ue001]*\ue001")
_LEADS = {"env", "exec", "nohup", "command"}


def _remote_shell(words: list[Word]) -> bool:
    """`ssh HOST` (the login shell reads stdin), `ssh HOST bash -s`, or one remote command string
    that ends in a shell reading stdin — `ssh $OPTS "$host" "$(env_prefix) NODE_RANK=1 bash -s"`
    (jasl/vllm-ds4-sm120-harness dgx_spark_start_mp_serve.sh, eval68): ssh joins its words with
    spaces for the remote shell, so the last command of that line is what reads the body. Unknown
    parts in front of the shell (holes, `X=1` settings, `env`) are what it runs under."""
    got = command_words([w.value for w in words], 0, [w.shape for w in words])
    if got is None:
        return True
    line = _HOLE.sub("\ue000", " ".join(w.shape for w in words[got[0]:got[1]]))  # a hole is one token
    toks = _SEP.split(line)[-1].split()
    for k, t in enumerate(toks):
        if t.rsplit("/", 1)[-1] in SHELLS:
            return _options_only(toks[k + 1:])  # type: ignore[arg-type]
        if not ("\ue000" in t or "=" in t or t in _LEADS):
            return False
    return False


def fed_scripts(fields: list[Word], prog_i: int, base: str, heredocs: list[list], writes: list[Word] | None) -> list[Heredoc]:
    """The bodies of the command's here-documents that a shell runs, or that become a script file."""
    bodies = [h for sink in heredocs for h in sink]
    if not bodies:
        return []
    vals = [f.value for f in fields[prog_i + 1:]]
    if base in SHELLS:
        ok = _options_only(vals)
    elif base == "sbatch":
        ok = _options_only(vals, TAKES["sbatch"], shell=False)
    elif base == "ssh":
        ok = _remote_shell(fields[prog_i:])
    elif base in ("cat", "tee"):
        # a redirection's target is not expanded: its text as written (`> run.sh`, `> "$DIR/run.sh"`)
        targets = [f.value or f.literal for f in (writes or [])] if base == "cat" else [v for v in vals if v and not v.startswith("-")]
        script = any((t or "").endswith(_SCRIPT_SUFFIXES) for t in targets)
        return [h for h in bodies if targets and (script or h.text.lstrip().startswith("#!"))]
    else:
        return []
    return bodies if ok else []


_RUN_AT_EOL = re.compile(r"(\\+)(?=\n)")


def as_written_out(h: Heredoc) -> str:
    r"""The body as the writing shell hands it on. In an unquoted here-document bash turns `\\` into
    `\`, so `--port 8000 \\` at a line's end writes `--port 8000 \`: a line continuation for the
    shell that runs the file, not a stray `\\` argument (parallelworks/activate-rag-vllm
    start_service_v5.sh, `cat > launch.sh <<LAUNCHEOF`). An even run of backslashes before a newline
    is halved, padded with spaces in front so that offsets into the file still hold; an odd run
    joins the lines as the writer does, which the reader's own `\`-newline already reads the same
    for a run of one. A quoted delimiter's body is written as is."""
    if h.quoted or "\\\\" not in h.text:
        return h.text
    return _RUN_AT_EOL.sub(lambda m: m.group(1) if len(m.group(1)) % 2 else " " * (len(m.group(1)) // 2) + "\\" * (len(m.group(1)) // 2), h.text)


def read_whole(vals: list[str | None], heredocs: list | None, ex) -> str | None:
    """`read -r -d '' CMD <<EOF … EOF`: read stops at a NUL that never comes, so the variable is the
    whole here-document as the shell expands it (an unquoted delimiter: `$VAR` expanded and
    backslash-newline joined), leading and trailing blanks trimmed (ZetangForward/MyRLHF
    train_iterative_dpo_llama.sh, eval75, then `python -m $CMD`). Only a body with no quote or
    backslash left, which reads the same as one double-quoted word; None otherwise."""
    if not any(v is not None and v.startswith("-") and v.endswith("d") and k + 1 < len(vals) and vals[k + 1] == ""
               for k, v in enumerate(vals)):
        return None
    bodies = [h for sink in (heredocs or []) for h in sink]
    return shell_cat.whole(bodies[0], ex) if len(bodies) == 1 else None


def read_array(ex, name: str, n) -> None:
    """`read -r -a ARGS <<<"$EXTRA"`: ARGS is the here-string split at IFS (ORGRUI serve_vllm_glm51.sh
    reads VLLM_EXTRA_ARGS so, eval75; `IFS=',' read -ra GPUS <<< "$DEVICES"` splits at commas); a word
    with an unknown part, or an IFS this does not reproduce, has an unknown number of fields."""
    import re

    from vllm_kb.engine.scan.shell_expand import hole, is_known, split_assignment

    ifs = ex.vars.get("IFS", " \t\n")
    for w in n.words:  # `IFS=, read …`: for this command only
        if (got := split_assignment(w)) is not None and got[0] == "IFS":
            ifs = ex.expand(got[1]).value
    text = ex.expand(n.herestrings[-1]).text if n.herestrings else None
    fields = None
    if is_known(text) and is_known(ifs) and "\\" not in text:
        text = text.rstrip("\n")  # the here-string's own newline ends the line
        if ifs and all(c in " \t\n" for c in ifs):
            fields = text.split()
        elif ifs and not any(c in " \t\n" for c in ifs):
            fields = re.split("[" + re.escape(ifs) + "]", text)
            fields = fields[:-1] if fields and fields[-1] == "" else fields  # a trailing delimiter ends the last
    if fields is not None:
        ex.arrays[name] = [(f, None) for f in fields]
        ex.unsized.discard(name)
        return
    ex.arrays[name] = [(hole("read"), None)]
    ex.unsized.add(name)


def read_builtin(ex, argv: list[Word], n) -> None:
    """`read` sets its names to what it reads: unknown, except the whole here-document of `read -r -d ''
    CMD <<EOF` and the here-string's fields of `read -r -a ARGS <<<WORD`."""
    from vllm_kb.engine.scan.shell_expand import hole

    names = [w.value for w in argv[1:] if w.value and not w.value.startswith("-")]
    array = any((w.value or "").startswith("-") and "a" in (w.value or "") for w in argv[1:])
    for name in names[-1:] if array else names:
        if array:  # the here-string's fields, else as many as the line splits into: unknown, never 1
            read_array(ex, name, n)
        else:
            ex.vars[name] = (len(names) == 1 and read_whole([w.value for w in argv[1:]], n.heredocs, ex)) or hole("read")
