#!/usr/bin/env python3
"""Build knowledge/vllm/weight_prefixes.yaml: the registered classes whose weight loading refuses a
checkpoint tensor under a top-level prefix the class has no module for, per release, read from the sources.

From 0.6.3 AutoWeightsLoader (vllm/model_executor/models/utils.py) walks the model's children by each
weight name's first dotted part and raises "There is no module or parameter named '{prefix}' in {class}"
for a prefix that is neither a child, nor skipped (skip_prefixes), nor ignored (ignore_unexpected_prefixes).
A class whose own load_weights hands its weights to `AutoWeightsLoader(self, …)` therefore refuses a
checkpoint whose tensors sit under a prefix its model file never names — no module built under that name,
no hf_to_vllm_mapper rule, no skip. The prefixes read (PREFIXES) are the two real checkpoints carry for
another class than the one config.json names:
  language_model  a multimodal checkpoint's text tower (`language_model.model.layers.*`) saved under a
                  text-only class's config (Gemma 3 merged by Unsloth as Gemma3ForCausalLM, vLLM #15031);
  score           a sequence-classification head saved under the generative class's name (ms-swift
                  `--task_type seq_cls` on Qwen2-VL, ms-swift #4289).
A class is read only where its file defines every base it has beyond nn.Module and the interface mixins
(a base from another file may build or map what this file does not name), and only from the first release
whose AutoWeightsLoader raises. Written as spans of the scanned releases per class and prefix.

Run: python tools/vllm_weight_prefixes.py [--source /work/sdists/src] [--check]
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, registry_entries, registry_file, vkey, write_or_check  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "knowledge" / "vllm" / "weight_prefixes.yaml"
PREFIXES = ("language_model", "score")
RAISES = "There is no module or parameter named"
_LOADER = re.compile(r"AutoWeightsLoader\(\s*self\b")
_MIXIN = re.compile(r"^(nn\.Module|Module|object|Supports\w+|Has\w+|Is\w+|\w*Mixin|\w*Interface\w*)$")


def _classes(path: Path) -> dict[str, list[str]]:
    """class → the PREFIXES its file never names, for the classes whose own load_weights goes through
    AutoWeightsLoader(self) and whose bases are this file's or mixins."""
    try:
        src = path.read_text(encoding="utf-8")
        tree = ast.parse(src)
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    local = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    absent = [p for p in PREFIXES if p not in src]
    out = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or not absent:
            continue
        lw = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "load_weights"), None)
        if lw is None or not _LOADER.search(ast.get_source_segment(src, lw) or ""):
            continue
        if all(_MIXIN.match(b) or b in local for b in (ast.unparse(x) for x in node.bases)):
            out[node.name] = absent
    return out


def scan(root: Path) -> dict[str, list[str]] | None:
    """architecture → the PREFIXES its class refuses, for one release (None before AutoWeightsLoader raises)."""
    utils = root / "vllm/model_executor/models/utils.py"
    reg = registry_file(root)
    if not utils.is_file() or RAISES not in utils.read_text(encoding="utf-8") or reg is None:
        return None
    models = root / "vllm/model_executor/models"
    per_file: dict[str, dict[str, list[str]]] = {}
    out = {}
    for arch, module, cls in registry_entries(reg):
        if not module:
            continue
        if module not in per_file:
            per_file[module] = _classes(models / f"{module}.py")
        if cls in per_file[module]:
            out[arch] = per_file[module][cls]
    return out


def _spans(flags: list[bool], releases: list[str]) -> list[list[str]]:
    spans: list[list[str]] = []
    for on, v in zip(flags, releases):
        if on and spans and spans[-1][1] == releases[releases.index(v) - 1]:
            spans[-1][1] = v
        elif on:
            spans.append([v, v])
    return spans


def build(sources: list[Path]) -> tuple[list[str], dict[str, dict[str, list[list[str]]]]]:
    found = {d.name: d for s in sources for d in s.iterdir() if VERSION_DIR.fullmatch(d.name)}
    read = sorted(found, key=vkey)
    per = {v: scan(found[v]) for v in read}
    scanned = [v for v in read if per[v] is not None]
    archs = sorted({a for v in scanned for a in per[v] or {}})
    table = {}
    for arch in archs:
        row = {p: _spans([p in ((per[v] or {}).get(arch) or []) for v in scanned], scanned) for p in PREFIXES}
        table[arch] = {p: s for p, s in row.items() if s}
    return scanned, table


def dump(read: list[str], table: dict[str, dict[str, list[list[str]]]]) -> str:
    lines = ["# Generated by tools/vllm_weight_prefixes.py from vLLM's sources; do not edit by hand.",
             "# architecture → prefix → the releases whose class refuses a checkpoint tensor under that top-level prefix.",
             "generated_by: tools/vllm_weight_prefixes.py",
             f'releases_read: ["{read[0]}", "{read[-1]}"]' if read else "releases_read: []",
             f"prefixes: [{', '.join(PREFIXES)}]",
             "architectures:"]
    for arch, row in table.items():
        body = ", ".join(f"{p}: [" + ", ".join(f'["{a}", "{b}"]' for a, b in spans) + "]" for p, spans in row.items())
        lines.append(f"  {arch}: {{{body}}}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, action="append", default=None)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    return write_or_check(OUT, dump(*build(a.source or [Path("/work/sdists/src")])), a.check)


if __name__ == "__main__":
    sys.exit(main())
