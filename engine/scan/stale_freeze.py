"""A pip freeze left in a project's folder beside the package's own declaration.

`pip freeze > requirements.txt` writes one exact pin per installed distribution: a snapshot of the
author's environment on one day, not the project's install. Where the same folder's pyproject.toml or
setup.py declares the package's own vLLM requirement and no instruction of the project (README, script,
Dockerfile, CI) installs the freeze, the declaration is what an install brings: the freeze's pins stand
aside, all of them (its vLLM, transformers and torch come from the same old environment).
TIGER-AI-Lab/verl-tool (eval117): a 220-line freeze's `vllm==0.8.4` (requirements.txt:210) beat
pyproject.toml's `vllm<=0.11.0` extra, which the install guide installs (`uv pip install -e ".[vllm,…]"`),
and its vendored verl's `vllm>=0.8.5,<=0.11.0`: one false L139 P0, 54 false L43 and 179 copies of one L115.
"""
from __future__ import annotations

from typing import Callable

from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet
from vllm_kb.engine.scan import req_file

_MIN_LINES = 30  # a hand-written requirements file of the project's own rarely pins so many, all exactly
_EXACT_SHARE = 0.9


def is_freeze(text: str) -> bool:
    """Many requirements, nearly every one an exact version or a direct reference (`pkg @ git+…@sha`)."""
    reqs = [line for _n, line in req_file.lines(text) if line[0].isalnum()]
    if len(reqs) < _MIN_LINES:
        return False
    exact = sum(1 for r in reqs if "==" in r or " @ " in r)
    return exact >= _EXACT_SHARE * len(reqs)


def drop(pins: list, read: Callable[[str], str | None]) -> list:
    """The pins without those of a stale freeze: one in a folder whose own package declaration (pyproject.toml,
    setup.py) names vLLM, which no instruction installs or whose vLLM lies outside a declaration of that folder
    or of a package below it (verl-tool's vendored verl/setup.py `vllm>=0.8.5,<=0.11.0` against the freeze's 0.8.4)."""
    declared = [p for p in pins if p.package == "vllm" and p.kind in ("pyproject", "setup") and not p.own and not p.above]
    folders = {p.folder for p in declared}
    stale = {p.file for p in pins if p.kind == "requirements" and p.package == "vllm" and p.exact and not p.above
             and p.folder in folders and p.included_in is None and p.installed_in is None
             and (not p.envs or any(_below(d.folder, p.folder) and _outside(p.exact, d.spec) for d in declared))}
    stale = {f for f in stale if is_freeze(read(f) or "")}
    return [p for p in pins if p.file not in stale] if stale else pins


def _below(folder: str, top: str) -> bool:
    return top in ("", ".") or folder == top or folder.startswith(top + "/")


def _outside(version: str, spec: str) -> bool:
    try:
        return bool(spec) and not SpecifierSet(spec).contains(version)
    except (InvalidSpecifier, ValueError):
        return False
