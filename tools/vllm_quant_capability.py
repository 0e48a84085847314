#!/usr/bin/env python3
"""Check the `min_capability:` and `scheme_min_capability:` tables of knowledge/vllm/startup.yaml
against every unpacked vLLM release: the minimum compute capability each quantization method
(and each compressed-tensors scheme: SCHEMES; `any`: the lowest of all its schemes) needs
(QuantizationConfig.get_min_capability(), compared with the GPU's by the model loader before 0.6.4
and by VllmConfig._get_quantization_config after). Prints each method whose rows differ from what
the sources say (the rows the sources give, to paste) and exits 1; 0 when they agree.

Per release: the method → config class map is the string-keyed dict literal of
vllm/model_executor/layers/quantization/__init__.py (QUANTIZATION_METHODS up to 0.6, the
method_to_config dict inside get_quantization_config after; 0.2.0–0.2.1 kept the package in
vllm/model_executor/quantization_utils/ with its _QUANTIZATION_REGISTRY); each class's get_min_capability is
read with ast from any module of the quantization package (following its bases), and kept only
when it is one `return <int>` — a method whose value depends on run-time state is left out
(to be read by hand). 0.4.0 has no sdist: a row starting at 0.4.0 is compared from 0.4.1.

Usage:
  python tools/vllm_quant_capability.py --source /work/sdists/src [--table knowledge/vllm/startup.yaml]
"""
from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
QUANT = "vllm/model_executor/layers/quantization"
QUANT_020 = "vllm/model_executor/quantization_utils"  # 0.2.0–0.2.1


def quant_dir(root: Path) -> Path | None:
    """The release's quantization package, where it has one."""
    return next((d for d in (root / QUANT, root / QUANT_020) if d.is_dir()), None)


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _classes(root: Path) -> dict[str, tuple[list[str], int | None, bool]]:
    """class name → (base names, the constant get_min_capability returns, defines it) over the
    quantization package; a name defined twice is dropped (ambiguous)."""
    seen: dict[str, tuple[list[str], int | None, bool]] = {}
    twice: set[str] = set()
    for f in quant_dir(root).rglob("*.py"):
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            bases = [b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else "?" for b in node.bases]
            fn = next((s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "get_min_capability"), None)
            value = None
            if fn is not None:
                rets = [r for r in ast.walk(fn) if isinstance(r, ast.Return)]
                if len(rets) == 1 and isinstance(rets[0].value, ast.Constant) and isinstance(rets[0].value.value, int):
                    value = rets[0].value.value
            if node.name in seen:
                twice.add(node.name)
            seen[node.name] = (bases, value, fn is not None)
    for n in twice:
        seen.pop(n, None)
    return seen


def _capability(classes: dict, cls: str, depth: int = 0) -> int | None:
    entry = classes.get(cls)
    if entry is None or depth > 8:
        return None
    bases, value, defines = entry
    if defines:
        return value
    for b in bases:
        got = _capability(classes, b, depth + 1)
        if got is not None:
            return got
    return None


def _methods(init: Path) -> dict[str, str]:
    """method name → config class name, from the string-keyed dict literals of __init__.py."""
    out: dict[str, str] = {}
    for node in ast.walk(ast.parse(init.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            for k, v in zip(node.keys, node.values):
                if isinstance(v, ast.Name) and v.id.endswith("Config"):
                    out.setdefault(k.value, v.id)
    return out


# compressed-tensors schemes → the scheme classes whose floor the checkpoint's layers need; FP8 W8A8
# falls back to the weight-only W8A16-FP8 (Marlin) scheme where it exists, so its floor is the lower
SCHEMES = {"wna16": ("CompressedTensorsWNA16",), "w8a8_int8": ("CompressedTensorsW8A8Int8",),
           "fp8": ("CompressedTensorsW8A16Fp8", "CompressedTensorsW8A8Fp8"),
           # NVFP4 weights: W4A16 itself, and the scheme a W4A4 checkpoint falls back to off Blackwell (0.9.2+)
           "nvfp4": ("CompressedTensorsW4A16Fp4",)}


def scan(root: Path, schemes: bool = False) -> dict[str, int]:
    pkg = quant_dir(root)
    init = pkg / "__init__.py" if pkg else None
    if init is None or not init.exists():
        return {}
    classes = _classes(root)
    if schemes:
        got = {k: [v for v in (_capability(classes, c) for c in cls) if v is not None] for k, cls in SCHEMES.items()}
        out = {k: min(v) for k, v in got.items() if v}
        floor = scheme_floor(pkg)
        if floor is not None:
            out["any"] = floor
        return out
    out = {}
    for method, cls in _methods(init).items():
        got = _capability(classes, cls)
        if got is not None:
            out[method] = got
    return out


def scheme_floor(pkg: Path) -> int | None:
    """The lowest minimum of any compressed-tensors scheme that quantizes a layer (every class in
    compressed_tensors/schemes/ that defines get_min_capability, the Unquantized one excepted): what
    a checkpoint of an unknown scheme needs at least. None when a scheme's minimum is not a constant
    (a `return` of anything else)."""
    floor = None
    for f in sorted((pkg / "compressed_tensors" / "schemes").glob("*.py")):
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            return None
        for node in tree.body:
            if not isinstance(node, ast.ClassDef) or "Unquantized" in node.name:
                continue
            fn = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "get_min_capability"), None)
            if fn is None:
                continue
            rets = [r.value for r in ast.walk(fn) if isinstance(r, ast.Return)]
            if not rets:  # the abstract base: raises NotImplementedError
                continue
            if not all(isinstance(r, ast.Constant) and isinstance(r.value, int) for r in rets):
                return None
            low = min(r.value for r in rets)
            floor = low if floor is None else min(floor, low)
    return floor


def build(sources: list[Path], schemes: bool = False) -> tuple[list[str], dict[str, list[tuple[str, str | None, int]]]]:
    """(releases, method → rows (first release, first release after, value))."""
    dirs = sorted({d.name: d for s in sources for d in s.iterdir() if VERSION_DIR.fullmatch(d.name) and quant_dir(d)}.values(),
                  key=lambda d: vkey(d.name))
    releases = [d.name for d in dirs]
    per = [scan(d, schemes) for d in dirs]
    rows: dict[str, list[tuple[str, str | None, int]]] = {}
    for m in sorted(set().union(*per)):
        cur: list[tuple[str, str | None, int]] = []
        start = val = None
        for i, got in enumerate(per + [{}]):
            v = got.get(m)
            if v != val:
                if val is not None:
                    cur.append((releases[start], releases[i] if i < len(releases) else None, val))
                start, val = i, v
        rows[m] = cur
    return releases, rows


def spec(a: str, b: str | None) -> str:
    return f">={a},<{b}" if b else f">={a}"


def render(rows: dict) -> list[str]:
    out = []
    for m, rs in rows.items():
        key = f'"{m}"' if not re.fullmatch(r"[a-z0-9_]+", m) else m
        out.append(f"    {key}: [" + ", ".join(f'{{vllm: "{spec(a, b)}", value: {v}}}' for a, b, v in rs) + "]")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, required=True, action="append")
    ap.add_argument("--table", type=Path, default=Path("knowledge/vllm/startup.yaml"))
    a = ap.parse_args()
    text = a.table.read_text(encoding="utf-8").splitlines()
    differ = 0
    for block, schemes in (("  min_capability:", False), ("  scheme_min_capability:", True)):
        _, rows = build(a.source, schemes)
        start = text.index(block) + 1
        end = start
        while end < len(text) and text[end].startswith("    "):
            end += 1
        kept = {line.strip().split(":", 1)[0].strip('"'): line.strip().replace('">=0.4.0', '">=0.4.1') for line in text[start:end]}
        for line in render(rows):
            k = line.strip().split(":", 1)[0].strip('"')
            if kept.get(k) != line.strip():
                differ += 1
                print(f"{block.strip()}\n- {kept.get(k, '(absent)')}\n+ {line.strip()}")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
