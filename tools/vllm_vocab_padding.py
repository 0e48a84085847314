#!/usr/bin/env python3
"""How each vLLM release splits a model's vocabulary over tensor-parallel ranks, read from its sources.

The embedding and the LM head are split by vocabulary rows with `divide()`, which asserts
"<rows> is not divisible by <tp>" while the model is built. From the release whose
vllm/model_executor/layers/vocab_parallel_embedding.py defines `pad_vocab_size` the layer pads the
rows to a multiple of DEFAULT_VOCAB_PADDING_SIZE (64) itself; before it, only the model files that
round the vocabulary up (`(vocab_size + 63) // 64 * 64`) do, and every other architecture splits the
checkpoint's vocabulary as it is.

Writes knowledge/vllm/vocab_padding.yaml:
  layer_pads: [first, last]   the releases whose embedding layer pads (pad_to: its padding size)
  model_pads: {arch: [[first, last], ...]}   before those, the architectures whose model file pads
  split: {arch: [[first, last], ...]}        before those, the architectures whose vocabulary is split

Run: python tools/vllm_vocab_padding.py [--source /work/sdists/src]
"""
from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "knowledge" / "vllm" / "vocab_padding.yaml"
_PAD = re.compile(r"\+\s*63\)\s*//\s*64\)?\s*\*\s*64")
_SPLIT = re.compile(r"VocabParallelEmbedding\(|ParallelLMHead\(")


def _key(v: str) -> tuple:
    return tuple(int(p) for p in v.split("."))


def _registry(tree: Path) -> dict[str, str]:
    """arch → class name of the release's model registry (model_loader.py up to 0.2.x)."""
    src = tree / "vllm/model_executor/model_loader.py"
    if not src.is_file():
        return {}
    for node in ast.walk(ast.parse(src.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_MODEL_REGISTRY" for t in node.targets) \
                and isinstance(node.value, ast.Dict):
            return {k.value: (v.id if isinstance(v, ast.Name) else "") for k, v in zip(node.value.keys, node.value.values)
                    if isinstance(k, ast.Constant)}
    return {}


def read(tree: Path) -> dict:
    """{"layer_pad": int | None, "pads": [arch], "split": [arch]} of one release."""
    layer = tree / "vllm/model_executor/layers/vocab_parallel_embedding.py"
    if layer.is_file() and "def pad_vocab_size" in (text := layer.read_text(encoding="utf-8")):
        m = re.search(r"DEFAULT_VOCAB_PADDING_SIZE\s*=\s*(\d+)", text) or re.search(r"pad_to: int = (\d+)", text)
        return {"layer_pad": int(m.group(1)) if m else 64, "pads": [], "split": []}
    files = {p: p.read_text(encoding="utf-8") for p in (tree / "vllm/model_executor/models").glob("*.py")}
    pads, split = [], []
    for arch, cls in sorted(_registry(tree).items()):
        body = next((t for t in files.values() if re.search(rf"^class {re.escape(cls)}\(", t, re.M)), None)
        if body is None or not _SPLIT.search(body):
            continue
        split.append(arch)
        if _PAD.search(body):
            pads.append(arch)
    return {"layer_pad": None, "pads": pads, "split": split}


def _spans(releases: list[str], has) -> list[list[str]]:
    out: list[list[str]] = []
    prev = False
    for v in releases:
        if has(v):
            if prev:
                out[-1][1] = v
            else:
                out.append([v, v])
        prev = has(v)
    return out


def build(source: Path) -> dict:
    # post releases repeat their release's code (engine/check/startup_vocab.py compares releases without them)
    releases = sorted((p.name for p in source.iterdir() if (p / "vllm").is_dir() and re.fullmatch(r"\d+(\.\d+)+", p.name)),
                      key=_key)
    per = {v: read(source / v) for v in releases}
    padded = [v for v in releases if per[v]["layer_pad"]]
    early = [v for v in releases if not per[v]["layer_pad"]]
    archs = sorted({a for v in early for a in per[v]["split"]})
    return {
        "version": 1,
        "releases": releases,
        "layer_pads": [padded[0], padded[-1]] if padded else [],
        "pad_to": per[padded[-1]]["layer_pad"] if padded else 64,
        "model_pads": {a: s for a in archs if (s := _spans(early, lambda v, a=a: a in per[v]["pads"]))},
        "split": {a: _spans(early, lambda v, a=a: a in per[v]["split"]) for a in archs},
    }


HEADER = """# How each vLLM release splits the vocabulary over tensor-parallel ranks: the embedding and the LM
# head divide() their rows by the TP size and assert "<rows> is not divisible by <tp>" while the
# model is built. layer_pads: the releases whose VocabParallelEmbedding pads the rows to a multiple
# of pad_to itself; before them, split: the architectures whose vocabulary is split, model_pads:
# those whose model file rounds it up to 64 first. Built by tools/vllm_vocab_padding.py from the
# releases' sources; do not edit by hand. Read by engine/check/startup_vocab.py.
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=Path("/work/sdists/src"))
    args = ap.parse_args()
    data = build(args.source)
    OUT.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, width=120, default_flow_style=None), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(data['releases'])} releases, {len(data['split'])} early architectures")


if __name__ == "__main__":
    main()
