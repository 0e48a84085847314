#!/usr/bin/env python3
"""Build knowledge/vllm/transformers_calls.yaml: per vLLM release, the transformers functions vLLM's own
config classes (vllm/transformers_utils/configs/*.py, the classes _CONFIG_REGISTRY maps a model type to)
call while the config is built, with more positional arguments (or keywords) than some transformers
release's function takes.

vLLM writes its config classes against the transformers of the day; a helper whose signature grew
later is then called in a form the older releases refuse, although vLLM's requirement still admits
them. vLLM 0.17.1's configs/qwen3_5.py calls `layer_type_validation(self.layer_types,
self.num_hidden_layers)` (line 101) while `transformers >= 4.56.0, < 5` (requirements/common.txt:10)
admits 4.56.x, whose function takes the layer types alone (configuration_utils.py 4.56.2:1355): parsing a
Qwen3.5 config stops with "TypeError: layer_type_validation() takes 1 positional argument but 2 were
given" (xorbitsai/inference#4869). Only calls inside a config class's `__init__` (or at module level)
are read: they run whenever the model type's config is built. A row is kept only where vLLM's own
requirement admits a scanned transformers that refuses the call (one it excludes cannot be installed
beside it by pip); `accepts`: spans over `transformers_scanned` of the releases whose function takes it.

Usage: python tools/vllm_transformers_calls.py --wheels DIR [--vllm-src /work/sdists/src]
       [-o knowledge/vllm/transformers_calls.yaml] [--check]
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from transformers_model_types import assigned_keys  # noqa: E402
from vllm_catalog import vkey  # noqa: E402
from vllm_transformers_imports import _spans, admitted, render, run, sources  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "knowledge" / "vllm" / "transformers_calls.yaml"
FIRST_VLLM = "0.10.0"


def _registry(cfg: Path) -> dict[str, str]:
    """model_type → config class name of the release's _CONFIG_REGISTRY (a dict literal, or the
    LazyConfigDict(key="Class") call of later releases)."""
    tree = ast.parse(cfg.read_text("utf-8"))
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if not (isinstance(target, ast.Name) and target.id == "_CONFIG_REGISTRY") or node.value is None:
            continue
        value = node.value
        if isinstance(value, ast.Call):
            for kw in value.keywords:
                if kw.arg and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    out[kw.arg] = kw.value.value
            value = value.args[0] if value.args and isinstance(value.args[0], ast.Dict) else None
        if isinstance(value, ast.Dict):
            for k, v in zip(value.keys, value.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    name = v.value if isinstance(v, ast.Constant) else getattr(v, "id", None)
                    if isinstance(name, str):
                        out[k.value] = name
    return out


def _tf_functions(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """Local name → (transformers module, function name) of the `from transformers… import f` of lower-case
    names (functions; classes are transformers_since.yaml's), at module level or inside a function (0.19.0's
    qwen3_5.py imports layer_type_validation in __init__'s transformers-4 branch)."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "transformers":
            for a in node.names:
                if a.name[:1].islower() and a.name != "*":
                    out[a.asname or a.name] = (node.module, a.name)
    return out


def _calls(tree: ast.Module, names: dict[str, tuple[str, str]]):
    """(line, local name, positional count, keywords) of each call of an imported function made at module
    level or in a class's __init__, without *args/**kwargs."""
    scopes: list[ast.AST] = [n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        scopes += [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"]
    for scope in scopes:
        for node in ast.walk(scope):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
                if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                    continue
                yield node.lineno, node.func.id, len(node.args), tuple(k.arg for k in node.keywords)


def _signature(wheel, mod: str, name: str) -> ast.arguments | None:
    path = wheel.module(mod)
    if path is None:
        return None
    try:
        tree = ast.parse(wheel.text(path))
    except SyntaxError:
        return None
    return next((n.args for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _takes(sig: ast.arguments | None, positional: int, keywords: tuple[str, ...]) -> bool | None:
    """Whether a def with this signature takes the call (None: the function is not there: not this table's)."""
    if sig is None:
        return None
    params = [a.arg for a in sig.posonlyargs + sig.args]
    if positional > len(params) and sig.vararg is None:
        return False
    named = set(params[positional:]) | {a.arg for a in sig.kwonlyargs}
    return all(k in named for k in keywords) or sig.kwarg is not None


def _error(name: str, sig: ast.arguments, positional: int) -> str:
    """Python's words for too many positional arguments."""
    params = len(sig.posonlyargs + sig.args)
    least = params - len(sig.defaults)
    takes = f"{params}" if least == params else f"from {least} to {params}"
    plural = "argument" if params == 1 and least == params else "arguments"
    return f"TypeError: {name}() takes {takes} positional {plural} but {positional} were given"


def build(wheel_dir: Path, vsrc: Path) -> dict:
    tversions, wheels, vversions = sources(wheel_dir, vsrc, FIRST_VLLM)
    admits = admitted(tversions)
    rows: dict[tuple, dict] = {}
    for version in vversions:
        configs = vsrc / version / "vllm" / "transformers_utils" / "configs"
        cfg = vsrc / version / "vllm" / "transformers_utils" / "config.py"
        if not configs.is_dir() or not cfg.is_file():
            continue
        allowed = admits(version)
        registry = _registry(cfg)
        for path in sorted(configs.glob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
            types = sorted(t for t, c in registry.items() if c in classes)
            names = _tf_functions(tree)
            if not types or not names:
                continue
            for line, local, positional, keywords in _calls(tree, names):
                mod, name = names[local]
                sigs = [_signature(w, mod, name) for w in wheels]
                ok = [_takes(s, positional, keywords) for s in sigs]
                refused = [i for i in allowed if ok[i] is False]
                if not refused:
                    continue
                accepts = [v for v, o in zip(tversions, ok) if o]
                last = refused[-1]
                rel = f"vllm/transformers_utils/configs/{path.name}"
                key = (f"{mod}.{name}", positional, keywords, rel, tuple(types))
                row = rows.setdefault(key, {"call": f"{mod}.{name}", "positional": positional, "keywords": list(keywords),
                                            "accepts": _spans(accepts, tversions), "error": _error(name, sigs[last], positional),
                                            "file": rel, "line": line, "model_types": types, "releases": []})
                row["line"] = line  # the newest release's line
                row["releases"].append(version)
    out = []
    for row in sorted(rows.values(), key=lambda r: (r["model_types"][0], r["call"], vkey(r["releases"][0]))):
        rel = row.pop("releases")
        out.append({**{k: row[k] for k in ("call", "positional", "keywords", "accepts", "error", "file", "line")},
                    "at": rel[-1], "vllm": _spans(rel, vversions), "model_types": row["model_types"]})
    return {"version": 1, "transformers_scanned": tversions, "vllm_releases": vversions, "calls": out}


HEADER = """\
# Per vLLM release, the calls vLLM's own config classes (vllm/transformers_utils/configs, the classes its
# _CONFIG_REGISTRY maps `model_types` to) make to a transformers function in their __init__ whose signature
# some transformers release that vLLM's requirement admits does not take: `positional` arguments and
# `keywords`. `accepts`: spans over `transformers_scanned` of the releases whose function takes the call; a
# release the pin allows outside them makes building the model's config fail with `error`, before any
# weights load. `file`/`line`: in vLLM `at` (the newest release of the row). GENERATED by
# tools/vllm_transformers_calls.py from vLLM's sdists and the transformers wheels — do not edit by hand.
"""


def main(argv=None) -> int:
    return run(__doc__, build, lambda data: render(data, HEADER), OUT, argv)


if __name__ == "__main__":
    sys.exit(main())
