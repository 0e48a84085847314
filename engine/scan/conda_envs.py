"""Conda environment files under any name, and the one a launch script activates.

`conda env create -f gen-eval.yaml` reads a file of any name: what makes it an environment file
is its shape (conda's own spec: `name`, `channels`, `dependencies`, `prefix`, `variables` at the
top, `dependencies` a list), not `environment.yml`. Its `- pip: [vllm==X]` pins the folder as
environment.yml does (pins.py `_conda`). A launch script that runs `conda activate NAME` (or
`mamba`/`micromamba`, `source activate NAME`) starts vLLM in the environment whose file says
`name: NAME`: that file's vllm requirement is the launch's, whatever else the folder pins
(engine/scan/script_installs.py reads it in path order with the script's own installs)."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.requirement import Pin

_KEYS = frozenset(("name", "channels", "dependencies", "prefix", "variables"))
_HEAD = re.compile(r"^dependencies\s*:", re.M)
# `conda activate NAME`, `source activate NAME` (conda's old spelling); `-n NAME` of `conda run` is not an activation
# `conda run -n NAME …` / `mamba run --name NAME …`: that one command runs in the environment
RUN = re.compile(r"^[ \t]*(?:\w+=\S*[ \t]+)*(?:conda|mamba|micromamba)[ \t]+run[ \t]+(?:--no-capture-output[ \t]+|--live-stream[ \t]+)*(?:-n|--name)[ \t=]+([\w.+-]+)")
# (any word: `$ENV` or a path names an environment no file here describes, which still leaves the one before)
ACTIVATE = re.compile(r"^[ \t]*(?:(?:conda|mamba|micromamba)[ \t]+activate|source[ \t]+activate)[ \t]+([^\s;&#|]+)[ \t]*(?:[;&#|]|$)")


def is_env_file(rel: str, text: str) -> bool:
    """Whether a YAML file is a conda environment file by its shape (any name)."""
    if not rel.lower().endswith((".yml", ".yaml")) or not _HEAD.search(text):
        return False
    try:
        data = yamlio.load(text).data
    except (yamlio.YamlError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and isinstance(data.get("dependencies"), list) and set(data) <= _KEYS \
        and any(isinstance(d, dict) and "pip" in d or isinstance(d, str) for d in data["dependencies"])


def by_name(ctx) -> dict[str, tuple[str, list[Pin]]]:
    """{environment name: (its file, its pins)} of the project's environment files, read once."""
    got = ctx.__dict__.get("_conda_envs")
    if got is not None:
        return got
    from vllm_kb.engine.scan import pins as pins_mod

    got = {}
    for rel in ctx.files:
        if not rel.lower().endswith((".yml", ".yaml")):
            continue
        text = ctx.read(rel)
        if text is None or "vllm" not in text.lower() or not is_env_file(rel, text):
            continue
        m = re.search(r"^name\s*:\s*['\"]?([\w.+-]+)", text, re.M)
        if m:
            got.setdefault(m.group(1), (rel, pins_mod.conda_pins(rel, text)))
    ctx.__dict__["_conda_envs"] = got
    return got
