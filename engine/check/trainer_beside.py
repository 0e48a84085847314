"""A trainer the project itself starts on the engine's GPU, where no RL framework says so: the training
loop of a Python script that starts the server as a subprocess (atropos's community GRPO examples:
the policy is moved to "cuda" and trained in the process that launches vLLM's api_server, with no
CUDA_VISIBLE_DEVICES split), or a trainer command a shell script runs with the same
CUDA_VISIBLE_DEVICES text as the engine (atropos's shared-weights mode: both on `$SHARED_GPU`).
`launch.trainer_beside` names where; B1 then leaves a low gpu_memory_utilization alone, since what
it leaves is what the trainer runs in (unsetting it, 1.0 with 0.34's extensible KV cache, starves it)."""
from __future__ import annotations

import re
from typing import Any, Callable

_BACKWARD = re.compile(r"\.backward\(")
_CUDA = re.compile(r"""\.cuda\(|["']cuda(?::\d+)?["']""")
_VLLM = re.compile(r"vllm\s+serve|vllm\.entrypoints|api_server")
# a training entry point by its name (`-m example_trainer.grpo`, train_sft.py, torchrun …)
_TRAINER = re.compile(r"(?<![A-Za-z0-9])(?:train(?:er|ing)?|grpo|ppo|dpo|sft|torchrun|deepspeed|accelerate\s+launch)(?![A-Za-z0-9])", re.I)


def annotate(items: list[tuple[Any, dict]], read: Callable[[str], str | None]) -> None:
    for site, facts in items:
        if site.syntax == "python-argv":
            where = _python_trainer(site, read(site.file) or "")
        elif site.syntax == "cli" and (cvd := site.env.get("CUDA_VISIBLE_DEVICES")) is not None and cvd.file:
            where = _shell_trainer(cvd, read(cvd.file) or "")
        else:
            continue
        if where:
            facts.setdefault("launch", {})["trainer_beside"] = where


def _python_trainer(site, text: str) -> str | None:
    """The line of the backward pass of a script that also puts its model on CUDA; none where the script
    names CUDA_VISIBLE_DEVICES anywhere (it may hand the server GPUs of its own)."""
    if "CUDA_VISIBLE_DEVICES" in text or not _CUDA.search(text):
        return None
    m = _BACKWARD.search(text)
    return f"{site.file}:{text.count(chr(10), 0, m.start()) + 1}" if m else None


def _logical_lines(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each command, backslash continuations joined."""
    out: list[tuple[int, int, str]] = []
    buf, start = "", 0
    for n, line in enumerate(text.splitlines(), 1):
        if not buf:
            start = n
        body = line.split(" #", 1)[0].rstrip()
        if body.endswith("\\"):
            buf += body[:-1] + " "
            continue
        out.append((start, n, buf + body))
        buf = ""
    if buf:
        out.append((start, start, buf))
    return out


def _shell_trainer(cvd, text: str) -> str | None:
    """A command of the script that sets the engine's CUDA_VISIBLE_DEVICES, other than the engine's own and
    no vLLM launch, that sets it to the very text the engine's does and runs a trainer."""
    lines = text.splitlines()
    # as written on the engine's line (the setting keeps the value a dispatcher resolved it to)
    m = re.search(r"CUDA_VISIBLE_DEVICES=(\S+)", lines[cvd.line - 1]) if 0 < cvd.line <= len(lines) else None
    raw = m.group(1).strip("\"'") if m else ""
    if not raw:
        return None
    want = re.compile(r"CUDA_VISIBLE_DEVICES=[\"']?" + re.escape(raw) + r"[\"']?(?=\s)")
    for start, end, cmd in _logical_lines(text):
        if start <= cvd.line <= end or cmd.lstrip().startswith(("#", "printf", "echo", "log ")):
            continue
        m = want.search(cmd)
        if m and not _VLLM.search(cmd) and _TRAINER.search(cmd[m.end():]):
            return f"{cvd.file}:{start}"
    return None
