#!/usr/bin/env python3
"""Build knowledge/vllm/example_models.yaml: the public checkpoints vLLM's own tests load per model
architecture (tests/models/registry.py: `"<Architecture>": _HfExamplesInfo("<org/name>", extras={…})`),
so that a model the catalog does not know by family is still known by its architecture when its
name is one of them — the class vLLM resolves it to, for the release checks (L21 model-architecture,
L3 pipeline parallelism, LoRA) — never its shapes.

Read with ast from every release that has the file, newest last, so a later release's mapping wins,
from the `_*_EXAMPLE_MODELS` dicts whose key is the checkpoint's own class (text generation, embedding,
multimodal, reward, classification …). Left out: the speculative-decoding dict (a draft class keyed to
the target model's repository), the Transformers-backend and automatically converted ones, an entry
whose `hf_overrides` rewrites "architectures" (the checkpoint's own config.json names another class),
and a repository listed under two architectures in one release (a converted head: the same weights as
a classifier, an embedding model …).

Usage:
  python tools/vllm_example_models.py --source /work/sdists/src -o knowledge/vllm/example_models.yaml
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, table_main, vkey  # noqa: E402

REGISTRY = "tests/models/registry.py"


def _overrides_architecture(call: ast.Call) -> bool:
    for kw in call.keywords:
        if kw.arg == "hf_overrides" and "architectures" in ast.unparse(kw.value):
            return True
    return False


def _repos(call: ast.Call) -> list[str]:
    out = []
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        out.append(call.args[0].value)
    for kw in call.keywords:
        if kw.arg == "extras" and isinstance(kw.value, ast.Dict):
            out += [v.value for v in kw.value.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return [r for r in out if r.count("/") == 1]


def _example_dicts(tree: ast.Module):
    """The module-level `_*_EXAMPLE_MODELS` dicts whose keys are the class a checkpoint's own
    config.json names; not the speculative-decoding one (its key is the draft's class, its repo the
    target model), nor the Transformers-backend or automatically converted ones (another class than
    the checkpoint's)."""
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict) and target.id.endswith("_EXAMPLE_MODELS") \
                and not target.id.startswith(("_SPECULATIVE", "_TRANSFORMERS", "_AUTOMATIC")):
            yield value


def scan(root: Path) -> dict[str, str] | None:
    """repository → architecture of one release (None without the test registry)."""
    f = root / REGISTRY
    if not f.exists():
        return None
    seen: dict[str, set[str]] = {}
    for node in _example_dicts(ast.parse(f.read_text(encoding="utf-8"))):
        for k, v in zip(node.keys, node.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Call)):
                continue
            name = v.func.id if isinstance(v.func, ast.Name) else getattr(v.func, "attr", "")
            if name != "_HfExamplesInfo" or _overrides_architecture(v):
                continue
            for repo in _repos(v):
                seen.setdefault(repo, set()).add(k.value)
    return {r: next(iter(a)) for r, a in seen.items() if len(a) == 1}


def build(sources: list[Path]) -> dict:
    found = {d.name: d for source in sources for d in source.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / REGISTRY).exists()}
    dirs = sorted(found.values(), key=lambda d: vkey(d.name))
    models: dict[str, str] = {}
    first: dict[str, str] = {}
    releases = []
    for d in dirs:
        got = scan(d)
        if got is None:
            continue
        releases.append(d.name)
        for repo, arch in got.items():
            if models.get(repo) != arch:
                first[repo] = d.name
            models[repo] = arch
    lowered: dict[str, list[str]] = {}
    for repo in models:
        lowered.setdefault(repo.lower(), []).append(repo)
    return {"releases": releases, "models": {r: models[r] for r in sorted(models, key=str.lower) if len(lowered[r.lower()]) == 1}}


def dump(data: dict) -> str:
    lines = [
        "# The public checkpoints vLLM's own tests load per architecture (tests/models/registry.py",
        "# _HfExamplesInfo and its extras), built by tools/vllm_example_models.py from every release that has",
        "# the file (the newest mapping wins). Do not edit by hand. Entries whose hf_overrides rewrite the",
        "# architecture, and repositories listed under two architectures, are left out.",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "models:",
    ]
    lines += [f'  "{r}": {a}' for r, a in data["models"].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    table_main(__doc__, build, dump)

if __name__ == "__main__":
    main()
