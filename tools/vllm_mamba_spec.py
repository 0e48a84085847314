#!/usr/bin/env python3
"""Which releases refuse speculative decoding on a model with Mamba-style layers, and for which
architectures (L76).

vLLM's V1 engine raised NotImplementedError("Mamba with speculative decoding is not supported
yet.") while it collected the KV-cache specs of a model with state-space layers and a
speculative config: in GPUModelRunner.get_kv_cache_spec (vllm/v1/worker/gpu_model_runner.py,
over the MambaMixer2 layers in 0.9.2, every MambaBase layer from 0.10.0), then in
MambaBase.get_kv_cache_spec (vllm/model_executor/layers/mamba/abstract.py, 0.11.1 on), until
0.17.0 gives the Mamba backends speculative decoding. From 0.10.2 the model_type list the check
skips (`model_type not in ["qwen3_next"]`) lets Qwen3-Next's MTP through.

For each unpacked release (/work/sdists/src/<version>) this reads, with `ast`: where the raise is
(file, line), which layer class it is over, the model_types it skips; the classes deriving from
that layer class (MambaMixer, MambaMixer2, MiniMax's linear attention, ShortConv, Kimi's delta
attention, Plamo2's and Qwen3-Next's mixers …); and the text-generation architectures of
models/registry.py whose module builds one of them. A module that declares SupportsV0Only ran
on the V0 engine in that release, which this refusal is not part of; its architectures are
listed apart.

Writes knowledge/vllm/mamba_spec.yaml. `--check` exits 1 when the committed file is stale.

Run: python tools/vllm_mamba_spec.py [--source /work/sdists/src] [--check]
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "knowledge" / "vllm" / "mamba_spec.yaml"
TEXT = "Mamba with speculative decoding is not supported yet."
PLACES = ("vllm/v1/worker/gpu_model_runner.py", "vllm/model_executor/layers/mamba/abstract.py")
VERSION_DIR = re.compile(r"\d+(\.\d+)+$")


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _raise_site(tree: ast.AST) -> tuple[int, list[str]] | None:
    """The raise's line and the model_types its condition skips."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        for sub in node.body:
            if isinstance(sub, ast.Raise) and TEXT in ast.unparse(sub).replace("'", '"'):
                skipped: list[str] = []
                for cmp in ast.walk(node.test):
                    if isinstance(cmp, ast.Compare) and any(isinstance(o, ast.NotIn) for o in cmp.ops):
                        for c in cmp.comparators:
                            if isinstance(c, (ast.List, ast.Tuple, ast.Set)):
                                skipped += [e.value for e in c.elts if isinstance(e, ast.Constant)]
                return sub.lineno, skipped
    return None


def _layer_class(runner_src: str, line: int) -> str:
    """The layer class get_layers_from_vllm_config collects just above the raise (gpu_model_runner)."""
    window = "\n".join(runner_src.splitlines()[max(0, line - 12):line])
    m = re.search(r"get_layers_from_vllm_config\(\s*self\.vllm_config,\s*(\w+)", window)
    return m.group(1) if m else "MambaBase"


def _subclasses(vllm: Path, base: str) -> set[str]:
    """Classes deriving (transitively) from `base` anywhere under model_executor."""
    parents: dict[str, set[str]] = {}
    for f in (vllm / "model_executor").rglob("*.py"):
        try:
            tree = ast.parse(f.read_text(errors="replace"))
        except SyntaxError:
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.ClassDef):
                parents.setdefault(n.name, set()).update(
                    b.id if isinstance(b, ast.Name) else b.attr for b in n.bases if isinstance(b, (ast.Name, ast.Attribute)))
    out = {base}
    grew = True
    while grew:
        grew = False
        for name, bs in parents.items():
            if name not in out and bs & out:
                out.add(name)
                grew = True
    return out - ({"MambaBase"} if base == "MambaBase" else set())


def _registry(vllm: Path) -> dict[str, str]:
    """Text-generation architecture → module name."""
    tree = ast.parse((vllm / "model_executor" / "models" / "registry.py").read_text())
    for n in ast.walk(tree):
        target = n.targets[0] if isinstance(n, ast.Assign) else n.target if isinstance(n, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "_TEXT_GENERATION_MODELS" and isinstance(n.value, ast.Dict):
            return {k.value: v.elts[0].value for k, v in zip(n.value.keys, n.value.values)
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Tuple)}
    return {}


def release(vllm: Path) -> dict | None:
    for rel in PLACES:
        f = vllm.parent / rel
        if not f.is_file():
            continue
        src = f.read_text(errors="replace")
        if TEXT not in src.replace("\n", " ") and "Mamba with speculative decoding" not in src:
            continue
        site = _raise_site(ast.parse(src))
        if site is None:
            continue
        line, skipped = site
        base = _layer_class(src, line) if rel.endswith("gpu_model_runner.py") else "MambaBase"
        layers = _subclasses(vllm, base)
        call = re.compile(r"\b(" + "|".join(sorted(map(re.escape, layers))) + r")\(")
        archs, v0_only, skipped_archs = [], [], []
        for arch, module in sorted(_registry(vllm).items()):
            mf = vllm / "model_executor" / "models" / f"{module}.py"
            if not mf.is_file():
                continue
            text = mf.read_text(errors="replace")
            if not call.search(text):
                continue
            if module in skipped:
                skipped_archs.append(arch)
            elif "SupportsV0Only" in text:
                v0_only.append(arch)
            else:
                archs.append(arch)
        return {"file": rel, "line": line, "layer": base, "skipped_model_types": skipped,
                "skipped": skipped_archs, "v0_only": v0_only, "architectures": archs}
    return None


def build(source: Path) -> dict:
    versions = sorted((p.name for p in source.iterdir() if VERSION_DIR.fullmatch(p.name)), key=vkey)
    out: dict[str, dict] = {}
    for v in versions:
        got = release(source / v / "vllm")
        if got:
            out[v] = got
    return {"generated_by": "tools/vllm_mamba_spec.py", "text": TEXT,
            "releases_read": [versions[0], versions[-1]], "releases": out}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", default="/work/sdists/src", type=Path)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    data = build(a.source)
    text = "# Generated by tools/vllm_mamba_spec.py from vLLM's sources; do not edit by hand.\n" + \
        yaml.safe_dump(data, sort_keys=False, width=200)
    if a.check:
        stale = not OUT.is_file() or OUT.read_text() != text
        print("stale" if stale else "up to date")
        return 1 if stale else 0
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}: {len(data['releases'])} releases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
