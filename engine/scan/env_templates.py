"""A `.env` that a script sources but the project does not ship, because its user makes it from a
template: `cp env-templates/with-mtp1.env .env` in the script's usage or hint lines, or the one
`.env.example` beside where the `.env` goes. What the user runs is that template's values (with
the secrets they fill in), so the script is read with them — the container image a launch names
through `${VLLM_IMAGE}` among them (eval83 wutonglab/spark-llm-deployment-evaluation: every launch
script sources `$SCRIPT_DIR/.env` and says to copy it from `env-templates/`, whose files name
`nvcr.io/nvidia/vllm:26.03.post1-py3`). Where the script names more than one template, none is
read: which one the user copied is not known."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

# `cp [-opts] SOURCE .env` / `cp SOURCE ./.env` / `cp SOURCE "$SCRIPT_DIR/.env"`: in a comment, an echo, a README line
_CP = re.compile(r"\bcp\s+(?:-[A-Za-z]+\s+)*[\"']?([\w.@+/-]+)[\"']?\s+[\"']?(?:\$\{?\w+\}?/|\./)?\.env[\"']?(?=$|[\s;&|)`\\])", re.M)
_STANDARD = (".env.example", ".env.sample", ".env.template", ".env.dist", "example.env", "env.example")


def template_for(ctx, script: str, env_rel: str) -> str | None:
    """The project file the user copies to `env_rel` (a project-relative `.env` the project lacks)."""
    if PurePosixPath(env_rel).name != ".env":
        return None
    named = {m.group(1) for m in _CP.finditer(ctx.read(script) or "") if m.group(1) != ".env"}
    if len(named) > 1:
        return None
    if named:
        return ctx.resolve_ref(env_rel, next(iter(named)))
    found = {got for name in _STANDARD if (got := ctx.resolve_ref(env_rel, name)) is not None
             and PurePosixPath(got).parent == PurePosixPath(env_rel).parent}
    return found.pop() if len(found) == 1 else None
