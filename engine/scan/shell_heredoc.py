"""Here-documents that are scripts: the body of `bash <<EOF` / `sh -s <<EOF` (the shell reads its
commands from it), `sbatch <<EOT` with no batch-script argument (SLURM takes the job script from
stdin), `ssh HOST <<EOF` / `ssh HOST bash -s <<EOF` (the remote shell reads it), and a shell script
written out with `cat > start.sh <<'EOF'` / `tee run.sh <<EOF` (a `.sh` file or a body that starts
with `#!`), run later. Each body is read as a script at its own lines; an unquoted delimiter's body is
expanded with the writer's variables, a quoted one reaches its reader as written."""
from __future__ import annotations

import re

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
        targets = [f.value for f in (writes or [])] if base == "cat" else [v for v in vals if v and not v.startswith("-")]
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
