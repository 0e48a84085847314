"""An option of the `docker run` that starts the site's container (`{container: ipc, value: host}`:
`--ipc=host`, check L40; `{container: gpus, value: all}`: `--gpus=all`, check L278), written right after its `run` word — in the script that runs the container,
which for `docker exec NAME vllm serve …` is often another one (engine/scan/named_containers.py:
run_xinference.sh starts it, launch_model.sh serves in it). Only those bytes are added; a `docker run`
whose `run` word is not where the scanner read it (inside `bash -c "…"`, an `eval`, a variable) or
that two scripts start alike is left for a person. Never safe: the option changes what the container
shares with its host."""
from __future__ import annotations

from vllm_kb.engine.fix.changes import PRIORITY_ORDER, Change, Fixable
from vllm_kb.engine.fix.edits import TextEdit

SYNTAX = "docker-run"


def container_changes(site, items: list[Fixable]) -> list[Change]:
    """One change per container option asked for (the most urgent item first), at the site's `docker run`."""
    c = site.container if isinstance(site.container, dict) else {}
    # a run that sets its IPC mode or /dev/shm already (`--shm-size 512m`, a tmpfs there) is a person's to
    # change: podman refuses --shm-size beside --ipc=host, and a second --ipc overrides the first; likewise
    # a run that hands the container a device or a runtime already gets no `--gpus` beside it
    written = {"ipc": bool(c.get("ipc")) or "shm_size" in c, "gpus": bool(c.get("device_opts"))}
    out: dict[str, Change] = {}
    for item in sorted(items, key=lambda x: PRIORITY_ORDER.get(x.priority, 3)):
        for op, value in item.ops:
            if op.kind != "container" or value in (None, ""):
                continue
            if op.target in out:
                if out[op.target].value == value and item.id not in out[op.target].checks:
                    out[op.target].checks.append(item.id)
                continue
            run_at = c.get("run_at") if not written.get(op.target, True) else None
            if run_at is None:
                continue  # a compose service, a pod, a container the project does not start: said in the reason only
            file, _start, _end, line = run_at
            ch = Change("container", op.target, value, file, SYNTAX, line, None, f"--{op.target}={value}")
            ch.checks.append(item.id)
            ch.priority, ch.safe = item.priority, False
            out[op.target] = ch
    return list(out.values())


def container_edit(site, ch: Change, text: str) -> TextEdit | None:
    """` --ipc=host` (` --gpus=all`) inserted after the `run` word, where that word is in `ch.file` as the scanner read it."""
    run_at = (site.container or {}).get("run_at") if isinstance(site.container, dict) else None
    if run_at is None or ch.after is None:
        return None
    file, start, end, line = run_at
    if file != ch.file or not 0 <= start < end <= len(text) or text[start:end] != "run" or text.count("\n", 0, start) + 1 != line:
        return None  # a word of an inner script (`bash -c "…"`, a workflow's `run: |`) has no bytes of its own here
    return TextEdit(end, end, " " + ch.after)
