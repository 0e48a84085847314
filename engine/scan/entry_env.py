"""The GPUs a project Python file runs on when a shell script starts it: `CUDA_VISIBLE_DEVICES=0
accelerate launch train.py`, `export CUDA_VISIBLE_DEVICES=1,2` before `torchrun … train.py`, or
`python infer.py`. The variable is inherited by the process (and every rank a launcher spawns), so
the file's sites see those devices; a value the file sets itself (`os.environ[...] = …`) comes later
and wins. Each launching command is noted while the scripts are walked (`note`); after the whole
tree is read, a file launched by exactly one device set gets it (`carry`), with where it was written
and how many processes the launcher starts (`--num_processes`, `--nproc_per_node`, `--num_gpus`).
Besides the device set only VLLM_USE_V1 travels (`VLLM_USE_V1=0 accelerate launch train.py`, as TRL's
colocate recipes ran): the engine it picks decides vLLM's start-up defaults. Other variables of a
launcher are read where they are written."""
from __future__ import annotations

from vllm_kb.engine.scan.launchers import _PYTHON
from vllm_kb.engine.scan.site import Setting

CARRIED = ("CUDA_VISIBLE_DEVICES", "VLLM_USE_V1")
_LAUNCHERS = {"accelerate": ("--num_processes", "--num-processes"), "torchrun": ("--nproc_per_node", "--nproc-per-node"),
              "deepspeed": ("--num_gpus", "--num-gpus")}
# torchrun's and deepspeed's counts are per node: with more nodes the world is larger
_NODES = {"torchrun": ("--nnodes",), "deepspeed": ("--num_nodes", "--num-nodes", "--hostfile", "-H")}


def _entry(vals: list) -> tuple[str, int | None] | None:
    """The .py file a command runs and the process count its launcher is given."""
    got_start = None
    for k, v in enumerate(vals):
        if v is not None:
            got_start = k
            break
    if got_start is None:
        return None
    base = (vals[got_start] or "").rsplit("/", 1)[-1]
    if base not in _LAUNCHERS and not _PYTHON.match(base):
        return None
    if base == "accelerate" and (len(vals) <= got_start + 1 or vals[got_start + 1] != "launch"):
        return None
    procs, multi = None, False
    for k in range(got_start + 1, len(vals)):
        v = vals[k]
        if v is None:
            if k > got_start + 1 and vals[k - 1] in _LAUNCHERS.get(base, ()):
                return None  # `--num_processes $N`: the count is not known, nor what follows it
            continue
        if v == "-m" and _PYTHON.match(base):
            return None
        opt, _, val = v.partition("=")
        if opt in _NODES.get(base, ()):
            raw = val if val else (vals[k + 1] if k + 1 < len(vals) else None)
            if raw != "1":
                multi = True  # a count per node on more than one node (or an unread count of nodes)
        if opt in _LAUNCHERS.get(base, ()):
            raw = val if val else (vals[k + 1] if k + 1 < len(vals) else None)
            procs = int(raw) if raw and raw.isdigit() else None
            continue
        if v.endswith(".py") and not v.startswith("-"):
            return v, None if multi else procs
    return None


def note(ctx, rel: str, words: list, start: int, env: dict[str, Setting], line: int) -> None:
    """Record that the command at `rel:line` (its program at word `start`) runs a project Python
    file with this env (exported variables and the command's own assignments)."""
    found = _entry([w.value for w in words[start:]])
    if found is None:
        return
    target = ctx.resolve_ref(rel, found[0])
    if target is None:
        return
    carried = {k: env[k] for k in CARRIED if k in env}
    ctx.entry_env.setdefault(target, []).append({"file": rel, "line": line, "env": carried, "procs": found[1]})


def carry(sites: list, ctx) -> None:
    """Give each site of a launched Python file the device set its launcher sets, when every
    command that starts the file agrees on it and the file does not set it itself."""
    for site in sites:
        runs = ctx.entry_env.get(site.file)
        if not runs or not site.file.endswith(".py"):
            continue
        site.launch["launcher"] = f"{runs[0]['file']}:{runs[0]['line']}" if len(runs) == 1 else None
        procs = {r["procs"] for r in runs}
        if len(procs) == 1 and (n := procs.pop()) is not None:
            site.launch["launcher_processes"] = n
            if site.launch.get("engine_device_auto"):  # TRL's vllm_device "auto": cuda:{num_processes}
                site.launch["engine_device"] = n
        if site.launch["launcher"] is None:
            del site.launch["launcher"]
        for name in CARRIED:
            values = {(r["env"][name].value if name in r["env"] else None) for r in runs}
            if name in site.env or len(values) != 1:
                continue
            s = runs[0]["env"].get(name)
            if s is not None and s.resolved:
                site.env[name] = Setting(name, s.value, True, s.file, s.line, s.key or name, s.raw, s.syntax,
                                         f"set by {runs[0]['file']}:{runs[0]['line']}, which runs this file")
