#!/usr/bin/env python3
"""Which releases build a dual-chunk-attention checkpoint (config.json `dual_chunk_attention_config`:
the Qwen2.5-*-1M uploads) with attention keywords their attention backends do not take (L167).

From 0.9.0 the Qwen2 family's model files hand Attention two extra keywords when the config has a
dual_chunk_attention_config (`"layer_idx": extract_layer_index(prefix)` and
`"dual_chunk_attention_config": …`), and Attention passes every extra keyword on to the backend's
implementation class (`impl_cls(…, **extra_impl_args)`). Only the V0 DualChunkFlashAttention
backend (vllm/attention/backends/dual_chunk_flash_attn.py, picked with
VLLM_ATTENTION_BACKEND=DUAL_CHUNK_FLASH_ATTN) names `layer_idx`; an implementation whose __init__
takes `**kwargs` swallows them; every other one stops the model build with Python's
"TypeError: <Impl>.__init__() got an unexpected keyword argument 'layer_idx'".

For each unpacked release (DIR/<version>) this reads, with `ast`:
- `architectures`: the registered architectures (models/registry.py) whose module passes the two
  keywords to an attention layer;
- `v0_backend`: whether vllm/attention/backends/dual_chunk_flash_attn.py exists;
- `takes_kwargs`: the CUDA attention implementation classes (V1 backends, and V0's where the
  release has them) whose __init__ takes `layer_idx` or `**kwargs`, by the backend name the
  selector uses where the file says it (`get_name()`), else the class name.

Writes knowledge/vllm/dual_chunk.yaml. `--check` exits 1 when the committed file is stale.

Run: python tools/vllm_dual_chunk.py [--source /work/sdists/src] [--check]
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import registry_entries, registry_file, source_main, VERSION_DIR, vkey  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "knowledge" / "vllm" / "dual_chunk.yaml"
BACKEND_DIRS = ("vllm/v1/attention/backends", "vllm/attention/backends")


def _passes_keywords(path: Path) -> bool:
    """The module builds an attention layer with a dict holding both dual-chunk keywords."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if {"layer_idx", "dual_chunk_attention_config"} <= keys:
                return True
    return False


def _backend_name(cls: ast.ClassDef, tree: ast.Module) -> str | None:
    """The name `get_name()` of the backend class that returns this implementation class."""
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        impl = name = None
        for fn in node.body:
            if isinstance(fn, ast.FunctionDef) and fn.body and isinstance(fn.body[-1], ast.Return):
                ret = fn.body[-1].value
                if fn.name == "get_impl_cls" and isinstance(ret, ast.Name):
                    impl = ret.id
                if fn.name == "get_name" and isinstance(ret, ast.Constant) and isinstance(ret.value, str):
                    name = ret.value
        if impl == cls.name and name:
            return name
    return None


def _takes(root: Path) -> list[str]:
    out: set[str] = set()
    for sub in BACKEND_DIRS:
        for path in sorted((root / sub).rglob("*.py")) if (root / sub).is_dir() else ():
            if any(x in path.name for x in ("rocm", "cpu", "pallas", "xpu", "hpu", "ipex", "torch_sdpa")):
                continue
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (OSError, SyntaxError, UnicodeDecodeError):
                continue
            for cls in tree.body:
                if not (isinstance(cls, ast.ClassDef) and cls.name.endswith("Impl")) or "MLA" in cls.name:
                    continue
                for fn in cls.body:
                    if isinstance(fn, ast.FunctionDef) and fn.name == "__init__":
                        names = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
                        if fn.args.kwarg is not None or "layer_idx" in names:
                            out.add(_backend_name(cls, tree) or cls.name)
    return sorted(out)


def scan(root: Path) -> dict | None:
    reg = registry_file(root)
    if reg is None:
        return None
    models = root / "vllm/model_executor/models"
    archs = sorted({arch for arch, module, _ in registry_entries(reg)
                    if module and _passes_keywords(models / f"{module.replace('.', '/')}.py")})
    if not archs:
        return None
    return {"architectures": archs, "v0_backend": (root / "vllm/attention/backends/dual_chunk_flash_attn.py").is_file(),
            "takes_kwargs": _takes(root)}


def build(sources: list[Path]) -> tuple[list[str], dict[str, dict]]:
    found = {d.name: d for s in sources for d in s.iterdir() if VERSION_DIR.fullmatch(d.name)}
    read = sorted(found, key=vkey)
    rows = {v: row for v in read if (row := scan(found[v])) is not None}
    return read, rows


def dump(read: list[str], rows: dict[str, dict]) -> str:
    lines = ["# Generated by tools/vllm_dual_chunk.py from vLLM's sources; do not edit by hand.",
             "generated_by: tools/vllm_dual_chunk.py",
             f'releases_read: ["{read[0]}", "{read[-1]}"]' if read else "releases_read: []",
             "releases:"]
    for v, row in rows.items():
        lines.append(f'  "{v}":')
        lines.append("    architectures: [" + ", ".join(row["architectures"]) + "]")
        lines.append(f"    v0_backend: {'true' if row['v0_backend'] else 'false'}")
        lines.append("    takes_kwargs: [" + ", ".join(row["takes_kwargs"]) + "]")
    return "\n".join(lines) + "\n"


def main() -> int:
    return source_main(__doc__, lambda source: dump(*build(source)), OUT, many=True)


if __name__ == "__main__":
    sys.exit(main())
