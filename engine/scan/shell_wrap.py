"""Commands that hand a command line to another shell rather than running it as argv:
`sbatch [opts] --wrap="vllm serve …"` (SLURM runs the string with sh), `ssh [opts] HOST "cmd"` and
`pdsh -w HOSTS cmd …` (the remote login shell runs the words joined by spaces), `flock FILE -c "cmd"`,
`script -qc "cmd" /dev/null`, `su [-] USER -c "cmd"`. `command_words` says where the command
starts; one word is a script of its own (read as `sh -c` would), several are run as they stand."""
from __future__ import annotations

STRING_RUNNERS = frozenset({"sbatch", "ssh", "pdsh", "flock", "script", "su"})

# options that take a separate value, per runner (`--opt=value` is one word)
TAKES = {
    "ssh": {"-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-E", "-c", "-m", "-b", "-e", "-S", "-W", "-w", "-Q",
            "-O", "-B", "-I"},
    "pdsh": {"-w", "-x", "-l", "-f", "-t", "-u", "-R", "-g", "-X"},
    "sbatch": {"-N", "-n", "-c", "-p", "-G", "-w", "-t", "-J", "-o", "-e", "-A", "-q", "-D", "--nodes", "--ntasks",
               "--gpus", "--partition", "--job-name", "--time", "--account", "--qos", "--nodelist", "--cpus-per-task",
               "--gres", "--ntasks-per-node", "--mem", "--output", "--error", "--chdir", "--gpus-per-node",
               "--gpus-per-task", "--cpus-per-gpu", "--mem-per-gpu", "--export", "--dependency", "-d", "--array", "-a",
               "--constraint", "-C", "--exclude", "-x", "--reservation", "--comment"},
    "flock": {"-w", "--timeout", "-E", "--conflict-exit-code"},
    "script": {"-T", "--log-timing", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-E", "--echo"},
    "su": {"-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"},
}
_COMMAND_OPTS = {"sbatch": ("--wrap",), "flock": ("-c", "--command"), "script": ("-c", "--command"),
                 "su": ("-c", "--command")}


def command_words(vals: list[str | None], i: int, shapes: list[str] | None = None) -> tuple[int, int, str] | None:
    """(first, end, prefix) of the command the runner at `i` hands on — `prefix` is what to drop
    from a one-word `--wrap=…` —; None when there is none or a word it depends on is unknown.
    `shapes` are the words with their unknown parts as holes: an option whose value is unknown
    (`-p $PORT`, `--nodelist=$NODE`) or an unknown host or lock file (`ssh $HEAD "…"`) still has
    its place."""
    base = (vals[i] or "").rsplit("/", 1)[-1]
    takes, n = TAKES.get(base, set()), len(vals)
    opts = _COMMAND_OPTS.get(base, ())
    k = i + 1
    while k < n:
        v = vals[k]
        if v is None:
            shape = shapes[k] if shapes else ""
            if not shape or shape.startswith("-") and shape.partition("=")[0] in opts:
                return None  # the command itself unknown
            v = shape if shape.startswith("-") else "\ue000"  # a hole: an option's or a positional's place
        opt, eq, _ = v.partition("=")
        if opt in opts:
            return (k, k + 1, opt + "=") if eq else ((k + 1, k + 2, "") if k + 1 < n else None)
        if v == "--":
            k += 1
            break
        if not v.startswith("-") or v == "-":
            if base in ("sbatch", "script", "flock", "su") and opts:
                k += 1  # a batch script, a log file, the lock file, the user: the command is an option's
                continue
            break
        k += 2 if v in takes else 1
    if opts:
        return None
    if base == "ssh":
        k += 1  # the host
    return (k, n, "") if k < n else None


def runner_at(vals: list[str | None], lead: int, prog_i: int) -> int | None:
    """The index of a string runner from the command's first word up to its program (`nohup sbatch
    --wrap …`, `flock LOCK -c …`, whose wrapper reading stops at `-c`)."""
    for j in range(lead, min(prog_i, len(vals) - 1) + 1):
        if (vals[j] or "").rsplit("/", 1)[-1] in STRING_RUNNERS:
            return j
    return None


def sweep_serve(fields: list) -> str | None:
    """`vllm bench sweep serve --serve-cmd "vllm serve M …" …` (vLLM 0.11.1 on, benchmarks/sweep/serve.py:
    `shlex.split(args.serve_cmd)`, run once per sweep point): the server command it starts, as a line a
    shell reads. A `--serve-params` file changes its options per run, and an unknown word may be either
    or a later `--serve-cmd` (argparse keeps the last): then the line ends in `"$@"`, options unseen
    (crazyguitar/pysheeet src/llm/vllm/sweep.sbatch, eval73)."""
    vals = [f.value for f in fields]
    i = next((k for k in range(len(vals) - 3) if (vals[k] or "").rsplit("/", 1)[-1] == "vllm"
              and vals[k + 1:k + 4] == ["bench", "sweep", "serve"]), None)
    if i is None:
        return None
    cmd, more = None, False
    k = i + 4
    while k < len(vals):
        v = vals[k]
        if v is None:
            more = True
        elif v == "--serve-cmd" and k + 1 < len(vals):
            cmd, k = fields[k + 1], k + 1
        elif v.startswith("--serve-cmd="):
            cmd = fields[k]
        elif v.partition("=")[0] == "--serve-params":
            more = True
        k += 1
    text = cmd.text if cmd is not None else None
    if text is None:
        return None
    text = text.partition("=")[2] if text.startswith("--serve-cmd=") else text
    return text + ' "$@"' if more else text


# pm2's `start` options that take a separate value (`--name=x` is one word)
_PM2_TAKES = frozenset({"--name", "-n", "--interpreter", "--interpreter-args", "--node-args", "-i", "--instances", "--cwd",
                        "-l", "--log", "-o", "--output", "-e", "--error", "--max-memory-restart", "--namespace", "--env",
                        "--log-date-format", "-c", "--cron", "--cron-restart", "--restart-delay", "--max-restarts",
                        "--kill-timeout", "--exp-backoff-restart-delay", "-u", "--user", "--uid", "--gid", "-p", "--pid",
                        "--listen-timeout", "--ignore-watch", "--log-type", "--instance-var", "--min-uptime"})


def pm2_started(vals: list[str | None], i: int) -> list[int] | None:
    """`pm2 start PROGRAM [pm2 options] -- ARGS…` runs PROGRAM with ARGS (`pm2 start python --name w0 -- -m
    vllm.entrypoints.openai.api_server …`, `pm2 start vllm -- serve M …`), `--interpreter X` before it; `pm2 start
    "vllm serve M …"` runs the string as a shell line: the indices of the words that make the command (one word: a
    line to read as `sh -c` would). None for anything else (an ecosystem file, another subcommand, two programs)."""
    n = len(vals)
    if i + 1 >= n or vals[i + 1] != "start":
        return None
    k, program, interpreter = i + 2, None, None
    while k < n:
        v = vals[k]
        if v is None:  # the program unknown (`pm2 start {sys.executable} -- -m vllm…`: the module says what runs), or an option's value
            program = k if program is None else program
            k += 1
            continue
        opt, eq, inline = v.partition("=")
        if v == "--":
            break
        if opt == "--interpreter":
            interpreter = k if eq else k + 1
        if v.startswith("-"):
            k += 2 if opt in _PM2_TAKES and not eq else 1
            continue
        if program is not None:
            return None  # a second positional: several apps (`pm2 start a.js b.js`)
        program = k
        k += 1
    if program is None or (vals[program] or "").endswith((".json", ".config.js", ".config.cjs", ".yaml", ".yml")):
        return None
    head = ([interpreter] if interpreter is not None and interpreter < n and vals[interpreter] != "none" else []) + [program]
    return head + list(range(k + 1, n)) if k < n else head


def unknown_runner_serve(vals: list[str | None], i: int) -> int | None:
    """Where vLLM's server starts in `RUNNER exec|run [opts] IMAGE vllm serve …` whose runner is unknown
    here (`$RUNNER`, a Python launcher's `[args.container_runner, "exec", args.image, "vllm", "serve", …]`,
    uv-python/raycluster's start-cluster.py): a container tool's verb, then an image, then the command it
    runs in it. Only `vllm serve` or `python -m vllm.entrypoints…` after at least one word (the image):
    what the container gets (GPUs, shared memory, its vLLM release) stays unknown."""
    if i + 2 >= len(vals) or vals[i + 1] not in ("exec", "run"):  # the caller has `vals[i]` unknown
        return None
    for k in range(i + 3, len(vals) - 1):
        v = (vals[k] or "").rsplit("/", 1)[-1]
        if v == "vllm" and vals[k + 1] == "serve" or v.startswith("python") and vals[k + 1] == "-m" \
                and k + 2 < len(vals) and (vals[k + 2] or "").startswith("vllm.entrypoints."):
            # between: options, their values and unknown words, and the image last (`exec box echo vllm
            # serve` runs echo)
            between = vals[i + 2:k]
            ok = all(w is None or w.startswith("-") or j == len(between) - 1 or j and (between[j - 1] or "").startswith("-")
                     for j, w in enumerate(between))
            return k if ok else None
    return None
