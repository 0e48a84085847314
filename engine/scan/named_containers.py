"""Containers the project's other scripts start by name: `docker run --name NAME …` in one script
(run_xinference.sh) and `docker exec NAME CMD …` in another (launch_model.sh) run CMD in that one
container, with its GPUs, IPC namespace and /dev/shm (heldout47 xinference-1622: a server container
started without --shm-size, a model launched into it on eight GPUs). The same script's own
containers are read in order by shell_containers.Containers.docker_exec; this is only the fallback
for a name that script does not start. A name two scripts start with different settings is not
used: which one the exec reaches is not known."""
from __future__ import annotations

from vllm_kb.engine.scan.context import texts_with

_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh")
_BUSY = "_named_containers_busy"  # set while the index is built: a script read for it may exec too
_CACHE = "_named_containers"


def started_elsewhere(ctx, rel: str, name: str, runner) -> dict | None:
    """The facts of the container NAME a project script other than `rel` starts (its docker run),
    or None where no other script starts it, or two start it differently. `runner`: the shell
    runner class that reads the scripts (shell_run.Runner, passed in: it imports this module's caller)."""
    index = _index(ctx, runner)
    got = [facts for where, facts in index.get(name, []) if where != rel]
    if not got or any(_settings(g) != _settings(got[0]) for g in got[1:]):
        return None
    # two scripts that start it alike: the same container either way, but no one `docker run` to edit
    return dict(got[0]) if len(got) == 1 else _settings(got[0])


def _settings(facts: dict) -> dict:
    return {k: v for k, v in facts.items() if k != "run_at"}


def _index(ctx, runner_cls) -> dict[str, list[tuple[str, dict]]]:
    cached = getattr(ctx, _CACHE, None)
    if cached is not None:
        return cached
    if getattr(ctx, _BUSY, False):
        return {}
    from vllm_kb.engine.scan.shell import ShellSyntaxError

    setattr(ctx, _BUSY, True)
    out: dict[str, list[tuple[str, dict]]] = {}
    try:
        for rel, text in texts_with(ctx, ctx.files, _SUFFIXES, "docker", "--name"):
            runner = runner_cls(ctx, rel, lambda _c: None, quiet=True)
            try:
                runner.run_text(text)
            except (ShellSyntaxError, RecursionError):
                continue
            for name, facts in runner.st.containers.items():
                out.setdefault(name, []).append((rel, facts))
    finally:
        setattr(ctx, _BUSY, False)
    setattr(ctx, _CACHE, out)
    return out
