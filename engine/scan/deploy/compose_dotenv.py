"""The variables compose interpolates a compose file's `${VAR}` with (`command: ${VLLM_ARGS}`,
`image: vllm/vllm-openai:${TAG}`): the `.env` beside the file. A repository seldom holds that
file (it is git-ignored); what it holds instead says what the project runs with: the one
`--env-file FILE` its scripts pass `docker compose` (which replaces `.env`), else the template
committed beside the compose file (`.env.example`). Values read from either are marked as
assumed: the file that is read when the project starts may differ."""
from __future__ import annotations

import posixpath
import re
from dataclasses import replace

from vllm_kb.engine.scan import envfile
from vllm_kb.engine.scan.context import texts_with

_TEMPLATES = (".env.example", ".env.sample", ".env.template", ".env.dist", "example.env", "env.example", "sample.env")
# `docker compose --env-file F up`, `docker-compose -f x.yml --env-file=F up`
_ENV_FILE = re.compile(r"\bcompose\b[^\n;&|]*?\s--env-file(?:=|\s+)([^\s;&|'\"]+)")
_SCRIPTS = (".sh", ".bash", ".md", ".mk", ".yml", ".yaml", "Makefile", "makefile", "Justfile", "justfile")


def dotenv_for(ctx, rel: str, needed: bool) -> tuple[dict[str, envfile.EnvValue] | None, str | None]:
    """(the variables, why they are only assumed, or None for the `.env` itself) for the compose
    file `rel`; the stand-ins are looked for only where a `${VAR}` needs them (`needed`)."""
    got = envfile.load(ctx, envfile.beside(rel))
    if got is not None or not needed:
        return got, None
    named = _script_env_files(ctx, rel)
    if len(named) == 1 and (got := envfile.load(ctx, named[0][0])) is not None:
        return got, f"from {named[0][0]}, the --env-file {named[0][1]} passes docker compose"
    for name in _TEMPLATES:
        path = envfile.beside(rel, name)
        if path and (got := envfile.load(ctx, path)) is not None:
            return _unfilled(got), f"from {path}, the template of the .env this compose file reads"
    return None, None


# a value a template leaves for its user or a set-up script to fill in: `VLLM_EXTRA_ARGS="__VLLM_EXTRA_ARGS__"`
# (parallelworks/activate-rag-vllm docker/env.example, which run_local.sh fills with sed), `HF_TOKEN=<your token>`
_PLACEHOLDER = re.compile(r"^(?:__[A-Za-z0-9_]+__|<[^<>]+>)$")


def _unfilled(got: dict) -> dict:
    """The template's variables, a placeholder value unknown: read as written, `__VLLM_EXTRA_ARGS__` was
    the model positional beside --model, a false L33 P0 (eval60)."""
    return {k: replace(v, value=None, why=f"{v.raw} in {v.file} is a placeholder to be filled in")
            if v.value is not None and _PLACEHOLDER.match(v.value.strip()) else v for k, v in got.items()}


def _script_env_files(ctx, rel: str) -> list[tuple[str, str]]:
    """The distinct project files that `--env-file` names on a `compose` command line, each with
    the script that names it (a path is the shell's: relative to the script's folder, else the
    project root, else the compose file's folder)."""
    found: dict[str, str] = {}
    for script, text in texts_with(ctx, list(getattr(ctx, "files", None) or []), _SCRIPTS, "--env-file"):
        for m in _ENV_FILE.finditer(text):
            arg = m.group(1)
            if "$" in arg or arg.startswith("/"):
                continue
            for base in (posixpath.dirname(script), "", posixpath.dirname(rel)):
                path = posixpath.normpath(posixpath.join(base, arg))
                if not path.startswith("..") and (ctx.root / path).is_file():
                    found.setdefault(path, script)
                    break
    return sorted(found.items())
