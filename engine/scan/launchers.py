"""Recognising a vLLM launch inside a shell command: skip env assignments and wrappers
(nohup, env, exec, timeout, numactl, uv run …), then match the program."""
from __future__ import annotations

import re
from dataclasses import dataclass

from vllm_kb.engine.scan.shell import Seg, Word
from vllm_kb.engine.scan.shell_expand import HOLE_CLOSE, HOLE_OPEN, is_known, split_assignment

# wrapper → options of it that take a value
WRAPPERS: dict[str, set[str]] = {
    "nohup": set(), "exec": {"-a"}, "time": {"-o", "-f", "--output", "--format"}, "command": set(), "builtin": set(),
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U"}, "nice": {"-n"},
    "ionice": {"-c", "-n", "-p"}, "stdbuf": {"-i", "-o", "-e"}, "setsid": set(),
    "taskset": set(), "numactl": {"--cpunodebind", "--membind", "--physcpubind", "--interleave", "-N", "-m", "-C", "-i"},
    "timeout": {"-s", "-k", "--signal", "--kill-after"}, "env": {"-u", "--unset", "-C", "--chdir"},
    "then": set(), "do": set(), "else": set(), "elif": set(), "!": set(), "{": set(),
    "xargs": set(), "unbuffer": set(),
    # `screen -dmS NAME cmd …` runs cmd itself (no shell); `uvx [--from vllm==X] vllm serve …`
    "screen": {"-S", "-c", "-Logfile", "-t", "-h", "-p", "-e", "-T", "-s"},
    "uvx": {"--from", "--with", "-w", "--python", "-p", "--index", "--index-url", "--extra-index-url", "--default-index",
            "--with-requirements", "--with-editable", "--constraints", "--overrides", "--torch-backend"},
    # cluster launchers (options that take a separate value; `--opt=v` is one word)
    "srun": {"-N", "-n", "-c", "-p", "-G", "-w", "-t", "-J", "-o", "-e", "-A", "-q", "--nodes", "--ntasks", "--gpus",
             "--partition", "--job-name", "--time", "--account", "--qos", "--nodelist", "--cpus-per-task",
             "--gres", "--ntasks-per-node", "--mem", "--container-image", "--container-mounts", "--jobid",
             "--gpus-per-node", "--gpus-per-task", "--cpus-per-gpu", "--mem-per-gpu", "--export", "--nodefile"},
    "salloc": {"-N", "-n", "-c", "-p", "-G", "-w", "-t", "-J", "-A", "-q", "--nodes", "--ntasks", "--gpus", "--partition",
               "--job-name", "--time", "--account", "--qos", "--nodelist", "--cpus-per-task", "--gres", "--ntasks-per-node",
               "--mem", "--gpus-per-node", "--gpus-per-task", "--cpus-per-gpu", "--mem-per-gpu"},
    "mpirun": {"-np", "-n", "-x", "--host", "-H", "--hostfile", "-hostfile", "--map-by", "--bind-to", "-N"},
    "mpiexec": {"-np", "-n", "-x", "--host", "-H", "--hostfile", "-hostfile", "--map-by", "--bind-to", "-N"},
    # process, user and container-init wrappers (`gosu USER cmd`: the user is a positional, see _POSITIONALS)
    "chrt": set(), "flock": {"-w", "--timeout", "-E", "--conflict-exit-code"}, "caffeinate": {"-t", "-w"},
    "dumb-init": {"-r", "--rewrite"}, "tini": {"-p", "-e"}, "gosu": set(), "su-exec": set(), "doas": {"-u", "-C"},
    "runuser": {"-u", "-g", "-G", "--user", "--group", "--supp-group"}, "setpriv": {"--reuid", "--regid", "--groups"},
    "xvfb-run": {"-s", "--server-args", "-n", "--server-num", "-e", "--error-file", "-f", "--auth-file", "-w", "--wait"},
    "systemd-run": {"-p", "--property", "-u", "--unit", "--slice", "-E", "--setenv", "--uid", "--gid", "--working-directory",
                    "--description", "-M", "--machine", "-H", "--host", "--nice", "--on-active", "--on-calendar"},
    "strace": {"-o", "-e", "-p", "-s", "-E", "-u", "-P", "-a", "-X"}, "prlimit": {"-p", "--pid"},
    "nsys": {"-o", "--output", "-t", "--trace", "-s", "--sample", "-d", "--duration", "-y", "--delay", "-c", "--capture-range",
             "--capture-range-end", "-e", "--env-var", "-f", "--force-overwrite", "-b", "--backtrace", "--stats", "-w",
             "--show-output", "-x", "--stop-on-exit", "-p", "--nvtx-capture", "--cuda-memory-usage", "--cuda-graph-trace",
             "--trace-fork-before-exec", "--gpu-metrics-device", "--session-new", "--wait", "--cudabacktrace"},
    "py-spy": {"-o", "--output", "-f", "--format", "-r", "--rate", "-d", "--duration", "-p", "--pid"},
    "watchmedo": {"-d", "--directory", "-p", "--patterns", "-i", "--ignore-patterns", "--signal", "--kill-after",
                  "--debounce-interval"},
    "enroot": {"-m", "--mount", "-e", "--env", "-c", "--conf"},
}
# words a wrapper takes after its options before the command: `gosu USER cmd`, `chrt -f 10 cmd`,
# `flock LOCKFILE cmd`, `enroot start NAME cmd`
_POSITIONALS = {"gosu": 1, "su-exec": 1, "chrt": 1, "flock": 1, "enroot": 1}
# cluster launchers whose options scripts keep in a variable (`srun $SRUN_ARGS cmd …`)
_OPTS_IN_VARS = frozenset({"srun", "salloc", "mpirun", "mpiexec"})
# a wrapper that runs the command only under one of its subcommands: `nsys profile … cmd`
_SUBCOMMANDS = {"nsys": {"profile", "launch"}, "py-spy": {"record", "top"}, "watchmedo": {"auto-restart", "shell-command"},
                "enroot": {"start"}}
RUNNERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("conda", "run"), ("micromamba", "run"), ("mamba", "run"), ("pixi", "run"), ("hatch", "run"), ("rye", "run")}
_PYTHON = re.compile(r"^(.*/)?python(\d(\.\d+)?)?$")


@dataclass
class Launch:
    kind: str  # 'vllm serve' | 'api_server' | 'legacy api_server'
    argv_start: int  # index of the first argument word after the program
    positional_model: bool
    env: list[tuple[str, Word, int]]  # prefix assignments: name, value word, word index
    program_start: int


def program_start(words: list[Word]) -> tuple[int, list[tuple[str, Word, int]]] | None:
    """Where the program of a command starts, past env assignments, wrappers (nohup, srun, …),
    runners (uv run, …) and `ray job submit … --`, with the assignments seen on the way; None
    when a word before the program cannot be resolved or there is no program."""
    vals = [w.value for w in words]
    i, n = 0, len(words)
    env: list[tuple[str, Word, int]] = []
    after_env = False
    while i < n:
        v = vals[i]
        a = split_assignment(words[i]) or (_env_argv_assignment(words[i]) if after_env else None)
        if a is not None:
            env.append((a[0], a[1], i))
            i += 1
            continue
        if v is None and (v := known_program(words[i]) or _interpreter_by_module(words, i)) is None:
            if after_env and words[i].bare_var:
                i += 1  # `env A=0 $EX $PY -m vllm…`, EX set to one of several NAME=VALUE lists: env's, not the program
                continue
            return None
        base = v.rsplit("/", 1)[-1]
        after_env = base == "env"
        if base in WRAPPERS:
            takes = WRAPPERS[base]
            i += 1
            if base in _SUBCOMMANDS:
                if i >= n or vals[i] not in _SUBCOMMANDS[base]:
                    return None  # `nsys stats report.nsys-rep`: no command of its own
                i += 1
            if base == "timeout":
                while i < n and (vals[i] or "").startswith("-"):
                    i += 2 if vals[i] in takes else 1
                i += 1  # the duration
                continue
            if base == "taskset":
                while i < n and (vals[i] or "").startswith("-"):
                    i += 1
                i += 1  # the mask
                continue
            while i < n:
                word = words[i].shape
                if vals[i] is None and base in _OPTS_IN_VARS and words[i].bare_var and i + 1 < n:
                    i += 1  # `srun $SRUN_ARGS vllm serve …`: the launcher's own options, held in a variable
                    continue
                if not word.startswith("-") or word.startswith("--model"):
                    break
                # screen's flags combine, the last one taking the value: `-dmS NAME`
                combined = base == "screen" and not word.startswith("--") and len(word) > 2 and "-" + word[-1] in takes
                i += 2 if (word.split("=")[0] in takes or combined) and "=" not in word else 1
                if i < n and vals[i] is None and "=" not in (words[i - 1].value or "="):
                    i += 1  # `--jobid $SLURM_JOB_ID`: an unknown value of an option we do not list
            i += _POSITIONALS.get(base, 0)
            continue
        if base == "ray" and i + 2 < n and vals[i + 1] == "job" and vals[i + 2] == "submit":
            # `ray job submit [options] -- vllm serve …`: the job's command follows `--`
            j = next((k for k in range(i + 3, n) if vals[k] == "--"), None)
            if j is None:
                return None
            i = j + 1
            continue
        if base in ("uv", "pipx") and i + 2 < n and vals[i + 1] in ("tool", "run") and vals[i + 2] == "run" \
                or base == "pipx" and i + 1 < n and vals[i + 1] == "run":
            # `uv tool run [opts] vllm serve …` is uvx; `pipx run [--spec vllm==X] vllm serve …`
            i += 3 if vals[i + 1] == "tool" else 2
            takes = WRAPPERS["uvx"] | {"--spec"}
            while i < n and (vals[i] or "").startswith("-"):
                i += 2 if vals[i] in takes else 1
            continue
        if i + 1 < n and (base, vals[i + 1]) in RUNNERS:
            i += 2
            while i < n and (vals[i] or "").startswith("-"):
                if base == "uv" and vals[i] == "-m":
                    return i, env  # `uv run --extra fsdp -m pkg.mod` runs the project's Python on a module (SkyRL's scripts)
                i += 2 if vals[i] in _RUNNER_TAKES else 1
            continue
        return i, env
    return None


# a runner's options that take a value (`uv run --isolated --extra fsdp …`: fsdp is the extra, not the program)
_RUNNER_TAKES = frozenset({"-n", "--name", "-p", "--prefix", "--with", "--python", "-e", "--env", "--project", "--extra", "--group",
                           "--only-group", "--no-group", "--package", "--index", "--index-url", "--extra-index-url", "--env-file",
                           "--directory", "--with-requirements", "--with-editable"})


_ENV_ARG = re.compile(r"^([A-Za-z_]\w*)=(.*)$", re.S)


def _env_argv_assignment(w: Word) -> tuple[str, Word] | None:
    """`env "$@" python -m vllm…` / `env A=0 $EX python …` (EX="B=1"): env reads NAME=VALUE from its
    argv, quoted or expanded, where bash takes only a literal one before the command (StellaLee/
    vllm-experiment, eval75). The value has no bytes of its own in the file: no fix writes over it."""
    m = _ENV_ARG.match(w.value or "")
    if m is None:
        return None
    return m.group(1), Word(raw=m.group(2), line=w.line, segs=[Seg("lit", m.group(2), quoted=True)], start=-1, end=-1)


# a vllm executable installed under its release's name (GPUStack's /var/lib/gpustack/bin/vllm_v0.10.0)
_VERSIONED_VLLM = re.compile(r"^vllm[_-]v?(\d+(?:\.\d+)+)$")


# what a runner installs for the one command: `uvx --from vllm==0.10.1`, `uv run --with vllm==0.9.2`,
# `pipx run --spec vllm==X`, `uvx vllm@0.10.1 serve`
_RUNNER_PIN = re.compile(r"^vllm(?:\[[^\]]*\])?(?:==|@)v?(\d+(?:\.\d+)+(?:\.post\d+)?)$")
_RUNNER_PIN_OPTS = ("--from", "--with", "-w", "--spec")


def executable_release(words: list[Word], launch: Launch) -> str | None:
    """The release a versioned executable names (`vllm_v0.10.0 serve` → 0.10.0), or the one the
    runner installs for this command (`uvx --from vllm==0.10.1 vllm serve`, `uvx vllm@0.10.1
    serve`): that is what runs, whatever the project pins."""
    prog = (words[launch.program_start].value or "").rsplit("/", 1)[-1]
    m = _VERSIONED_VLLM.match(prog) or _RUNNER_PIN.match(prog)
    if m:
        return m.group(1)
    vals = [w.value or "" for w in words[:launch.program_start]]
    for k, v in enumerate(vals):
        opt, eq, inline = v.partition("=") if v.startswith("--") else (v, "", "")
        if opt in _RUNNER_PIN_OPTS:
            spec = inline if eq else (vals[k + 1] if k + 1 < len(vals) else "")
            for part in spec.split(","):
                if (m := _RUNNER_PIN.match(part.strip().strip("'\""))):
                    return m.group(1)
    return None


def find_launch(words: list[Word]) -> Launch | None:
    if (got := program_start(words)) is None:
        return _after_prefix(words)
    i, env = got
    vals, n = [w.value for w in words], len(words)
    base = "python" if vals[i] == "-m" else (vals[i] or known_program(words[i]) or _interpreter_by_module(words, i) or "").rsplit("/", 1)[-1]
    if base == "vllm" or _VERSIONED_VLLM.match(base) or _RUNNER_PIN.match(base):
        if i + 1 < n and vals[i + 1] == "serve":
            return Launch("vllm serve", i + 2, True, env, i)
        return None
    if _PYTHON.match(base):
        j = i if vals[i] == "-m" else i + 1  # `uv run -m …`: the runner's Python (program_start)
        while j < n and (vals[j] or "").startswith("-") and vals[j] != "-m":
            j += 1
        if j + 1 < n and vals[j] == "-m":
            mod = vals[j + 1] or ""
            if mod in ("vllm.entrypoints.openai.api_server",):
                return Launch("api_server", j + 2, False, env, i)
            if mod == "vllm.entrypoints.cli.main" and j + 2 < n and vals[j + 2] == "serve":
                return Launch("vllm serve", j + 3, True, env, i)
            if mod == "vllm.entrypoints.api_server":
                return Launch("legacy api_server", j + 2, False, env, i)
        return None
    if _PROJECT_SCRIPT.match(vals[i] or ""):
        # a project's own launcher handed the command to run (`./launch-cluster.sh exec vllm serve M …`,
        # `./run_in_env.sh vllm serve M`): the words from `vllm serve` on are the launch it makes
        for k in range(i + 1, min(n - 1, i + 6)):
            if (vals[k] or "").rsplit("/", 1)[-1] == "vllm" and vals[k + 1] == "serve":
                return Launch("vllm serve", k + 2, True, env, k)
    return None


def _after_prefix(words: list[Word]) -> Launch | None:
    """`${NSYS_CMD} vllm serve …`: a variable the script leaves empty or sets to a profiler's command
    line (crazyguitar/pysheeet's run.sbatch, `nsys profile … -o PATH` behind `--nsys`), written alone in
    front of `vllm serve`: either way vLLM is what runs, whatever runs it."""
    if len(words) < 3 or words[0].value is not None or (words[1].value or "").rsplit("/", 1)[-1] != "vllm" \
            or words[2].value != "serve":
        return None
    text = words[0].text or ""
    whole_hole = text.startswith(HOLE_OPEN) and text.endswith(HOLE_CLOSE) and text.count(HOLE_OPEN) == 1
    return Launch("vllm serve", 3, True, [], 1) if words[0].bare_var or whole_hole else None


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.\w+)+")


def _interpreter_by_module(words: list[Word], i: int) -> str | None:
    """`"${PYTHON_BIN}" -m vllm.entrypoints.openai.api_server`: an interpreter held in a variable the
    script sets in branches (LiveMCP-GRPO's generate_data.sh), or given by a command substitution
    (`"$(sol_python)" -m verl.trainer.main_ppo`, GRPO_testbed in eval68), is a Python by what it runs:
    `-m` and a dotted module. What the module is decides whether the command is a launch at all."""
    if i + 2 < len(words) and words[i].value is None and words[i + 1].value == "-m" \
            and _DOTTED.fullmatch(words[i + 2].value or ""):
        return "python"
    return None


def known_program(w: Word) -> str | None:
    """A program whose folder is unknown but whose name is written (`$VENV/bin/vllm`, a unit template's
    `{{ venv }}/bin/vllm`): its text, holes and all, when the part after the last `/` is known."""
    text = w.text
    if w.value is not None or not text or "/" not in text:
        return w.value
    tail = text.rsplit("/", 1)[1]
    # a `/` inside a hole (`$PY: one of /opt/bin/python | python`) is no folder of the program's
    return text if is_known(tail) and "\ue001" not in tail else None


_PROJECT_SCRIPT = re.compile(r"^(?:\.{1,2}/)[\w./-]+$|^[\w./-]+\.sh$")


# what a script counts the GPUs with: `$(nvidia-smi -L | wc -l)`, `nvidia-smi --query-gpu=… | wc -l`,
# torch.cuda.device_count(), or the ids CUDA_VISIBLE_DEVICES lists
_GPU_COUNT = re.compile(r"nvidia-smi\s[^|)]*(?:-L\b|--list-gpus|--query-gpu)[^|)]*\|\s*(?:grep[^|)]*\|\s*)?wc\s+-l"
                        r"|torch\.cuda\.device_count\(\)|CUDA_VISIBLE_DEVICES\b[^)]*(?:wc\s+-[lw]|NF\b|\.split\(['\"],)")


def gpu_count_idiom(text: str | None) -> bool:
    """The value is the number of GPUs the process sees (sized by --gpu, else unknown)."""
    return bool(text and _GPU_COUNT.search(text))
