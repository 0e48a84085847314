"""Read one vLLM release's Python sources with `ast` and return a catalog snapshot.

vLLM builds its CLI at run time (dataclass fields turned into flags by `get_kwargs`, frontend
dataclasses looped over, kwargs dicts patched before `add_argument`), so a plain grep for
`add_argument` misses most flags. This module runs a very small interpreter over the few
functions that build the `vllm serve` parser, and over `vllm/envs.py`, without importing vLLM:
anything it cannot work out statically becomes UNSET, and UNSET becomes None in the snapshot.

    snapshot_from_source(Path("/tmp/wheels/src/0.20.0"), "0.20.0")
"""
from __future__ import annotations

import sys
from pathlib import Path

# tools/ is not a package: make the sibling package importable however this module was reached.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from catalog_extract.configs import config_fields  # noqa: E402
from catalog_extract.env_enums import enums, env_vars  # noqa: E402
from catalog_extract.features import engines, spawn, v1_fallbacks, v1_spec_methods  # noqa: E402
from catalog_extract.flags import cli_flags, engine_args  # noqa: E402
from catalog_extract.interp import Interp  # noqa: E402
from catalog_extract.registries import level_enums, parsers  # noqa: E402
from catalog_extract.runtime_defaults import runtime_defaults  # noqa: E402
from catalog_extract.sources import Source  # noqa: E402

__all__ = ["snapshot_from_source"]


def snapshot_from_source(root: Path, version: str) -> dict:
    """The catalog snapshot of one release whose sources lie at root/vllm/ (version is for messages)."""
    root = Path(root)
    if not (root / "vllm").is_dir():
        raise FileNotFoundError(f"{root}/vllm: no vLLM {version} sources there")
    src = Source(root)
    it = Interp(src)
    env = env_vars(it)  # first: config defaults may read envs.VLLM_*
    engine = engine_args(it)
    flags, frontend, choices = cli_flags(it, engine)
    enum = enums(it, choices)
    enum.update({k: {"values": v} for k, v in parsers(root, choices).items()})
    enum.update(level_enums(src))
    context, modes = runtime_defaults(it)
    methods = (enum.get("speculative_methods") or {}).get("values") or []
    eng = engines(root, env)
    features = {**eng, **v1_fallbacks(src, engine, eng["engine.v0"]["value"]), **v1_spec_methods(root, src, methods), **spawn(root)}
    return {"engine_args": engine, "frontend_args": frontend, "cli_flags": flags, "env_vars": env,
            "enums": enum, "config_fields": config_fields(it, engine), "context_defaults": context,
            "performance_modes": modes, "features": features}
