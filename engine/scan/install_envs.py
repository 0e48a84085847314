"""Which Python environment the project's own instructions install each requirements file into.

A README or setup script often keeps training and vLLM apart: `conda create -n serve … && conda
activate serve && pip install -r requirements-vllm.txt`, another env for `requirements.txt`, or a
separate Dockerfile per file. Pins of two files installed only into different environments never
meet: no resolver joins them and neither install replaces the other's torch (check L115 then has
nothing to say about the pair). The environment a `pip install -r FILE` lands in is the one
activated before it in the same file (`conda activate X`, `source X/bin/activate`, `.venv/bin/pip`),
`default` where none is, and the image for a Dockerfile's RUN. A file installed into several
environments has them all; a file no instruction installs has none (nothing known).
"""
from __future__ import annotations

import posixpath
import re
import shlex

from vllm_kb.engine.scan import pip_lines

_CONDA_ACTIVATE = re.compile(r"^(?:conda|mamba|micromamba|source|\.)\s+activate\s+(\S+)")
_VENV_ACTIVATE = re.compile(r"^(?:source|\.)\s+(\S+?)/bin/activate\b")
_DEACTIVATE = re.compile(r"^(?:(?:conda|mamba|micromamba)\s+)?deactivate\b")
# `venv/bin/pip install`, `/opt/conda/envs/x/bin/python -m pip install`: the interpreter names the env
_PIP_BY_PATH = re.compile(r"^(\S+?)/bin/(?:pip|python)[\d.]*\b")
_CONDA_RUN = re.compile(r"^(?:conda|mamba|micromamba)\s+run\s+(?:-n|--name|-p|--prefix)\s+(\S+)")
_DOCKER_NAMES = ("dockerfile", "containerfile")
# `cd evalplus` before `pip install -r requirements.txt` (TIGER-AI-Lab/verl-tool benchmarks/README.md:78): the
# file is the sub-project's, not the one beside the README or at the root
_CD = re.compile(r"^cd\s+(\S+)$")


def _commands(text: str, docker: bool):
    """(line, command) for each shell command that can install or activate (the only ones
    `file_envs` reads: every pattern it matches holds `install` or `activate`), `&&`/`;`/`||`
    chains split, continuations joined."""
    for start, _, logical in pip_lines.logical_lines(text):
        body = logical.strip()
        if docker:
            head = body.split(None, 1)
            if not head or head[0].upper() not in ("RUN", "FROM"):
                continue
            if head[0].upper() == "FROM":
                yield start, "FROM"
                continue
            body = head[1] if len(head) > 1 else ""
        if body.startswith("```"):
            yield start, "FENCE"  # a README's next code block starts where its reader stands
            continue
        if "install" not in body and "activate" not in body and "cd " not in body:  # most lines of a README: no regex run on them
            continue
        body = re.sub(r"^(?:[$>]\s+|[!%])", "", body)
        for part in re.split(r"&&|\|\||;", body):
            if part.strip():
                yield start, part.strip()


def _env_name(path: str) -> str:
    return path.rstrip("/").removeprefix("./") or "."


def _activation(cmd: str) -> tuple[str, str | None] | None:
    """What a command switches the shell to: ("env", "env:NAME") for a named conda env or a venv,
    ("base", None) for `conda activate base`, ("off", None) for `deactivate`; None for any other."""
    if m := _CONDA_ACTIVATE.match(cmd):
        return ("env", f"env:{_env_name(m.group(1))}") if m.group(1) != "base" else ("base", None)
    if m := _VENV_ACTIVATE.match(cmd):
        return "env", f"env:{_env_name(m.group(1))}"
    return ("off", None) if _DEACTIVATE.match(cmd) else None


def file_envs(rel: str, text: str, resolve) -> dict[str, set[str]]:
    """{requirements file (project path): environments this file's instructions install it into}."""
    # every install this reads is a `pip … install` (pip_lines.PIP_INSTALL) in the text as written:
    # "-r" alone is in nearly every file (vLLM's tree: 482 files read line by line, half of `detect`)
    if ("-r" not in text and "--requirement" not in text) or "install" not in text or "pip" not in text:
        return {}
    docker = rel.rpartition("/")[2].lower().startswith(_DOCKER_NAMES)
    base = f"image:{rel}" if docker else "default"
    env, images = base, 0
    cwd = ""  # the folder a relative `cd` moved to, from the file's
    out: dict[str, set[str]] = {}
    for _, cmd in _commands(text, docker):
        if cmd == "FENCE":
            cwd = ""
            continue
        if (m := _CD.match(cmd)) and not docker:
            # a relative `cd` moves the files named after it; an absolute one or `$DIR` is read as before (the file's folder)
            to = m.group(1).strip("\"'")
            cwd = "" if not to or to[0] in "/~$" or "$" in to else posixpath.normpath(posixpath.join(cwd, to))
            continue
        if cmd == "FROM":
            images += 1
            env = f"{base}#{images}"
            continue
        if (act := _activation(cmd)) is not None:
            kind, name = act
            # a Dockerfile's `deactivate` leaves the image's environment as it was
            env = name if name is not None else env if kind == "off" and docker else base
            continue
        if not pip_lines.PIP_INSTALL.search(" " + cmd + " "):
            continue
        here = env
        if m := (_CONDA_RUN.match(cmd) or _PIP_BY_PATH.match(cmd)):
            here = f"env:{_env_name(m.group(1))}"
        try:
            words = shlex.split(cmd, comments=True)
        except ValueError:
            continue
        for k, w in enumerate(words):
            opt, eq, val = w.partition("=")
            if opt not in ("-r", "--requirement"):
                continue
            ref = val if eq else (words[k + 1] if k + 1 < len(words) else "")
            ref = posixpath.normpath(posixpath.join(cwd, ref)) if cwd not in ("", ".") and ref else ref
            if ref and (got := resolve(rel, ref)) is not None:
                out.setdefault(got, set()).add(here)
    return out


def script_env_at(text: str):
    """The environment a setup script's own `pip install X==V` on a line lands in: the one named by
    the `conda activate NAME` / `source DIR/bin/activate` before it, or None where none is (or
    after `deactivate`/`conda activate base`): only a named activation is known
    (02lyx/iterative-dpo: env_setup.sh pins torch in `anno-train`, vLLM lives in gen-eval.yaml's env)."""
    changes: list[tuple[int, str | None]] = []
    for line, cmd in _commands(text, False):
        if (act := _activation(cmd)) is not None:
            changes.append((line, act[1]))

    def at(line: int) -> str | None:
        env = None
        for start, name in changes:
            if start >= line:
                break
            env = name
        return env
    return at


def project_envs(files: list[str], read, resolve, is_instructions) -> dict[str, frozenset[str]]:
    """{requirements file: every environment the project's instructions install it into}."""
    found: dict[str, set[str]] = {}
    for rel in files:
        if not is_instructions(rel):
            continue
        text = read(rel)
        if not text:
            continue
        for req, envs in file_envs(rel, text, resolve).items():
            found.setdefault(req, set()).update(envs)
    return {k: frozenset(v) for k, v in found.items()}


def apart(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two files are installed only into different environments (each by some instruction)."""
    return bool(a) and bool(b) and not (a & b)
