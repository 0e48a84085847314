"""How many of the models people launch the audit knows the dimensions of.

    python benchmarks/model_dims.py            # the rate, and the unresolved names
    python benchmarks/model_dims.py -v         # every name with what it resolved to

benchmarks/launched_models.yaml lists model names as public launch reports wrote them (Hub ids,
quantized re-uploads, local folders), each with the report it came from. Each name is audited as
the one argument of `vllm serve NAME` in a project of its own folder (no config.json at hand), the
way a held-out case is, and its model facts are read back: each launch check's inputs are counted apart
(heads and KV heads for L1/L2, the context length for L14, layers and KV width for L15, the parameter
count for L16), and a name is *resolved* when all of them and the vocabulary are known, from the
catalog or a base model the name makes certain. `dims_family` (the family's shapes as a default,
not this model's own) does not count.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import yaml

from vllm_kb.engine.audit import audit

LIST = Path(__file__).resolve().parent / "launched_models.yaml"
# what each launch check reads: L1/L2 (heads and KV heads vs TP), L14 (length vs the model's limit),
# L15 (KV capacity: layers and the KV width), L16 (weights fit: the parameter count)
CHECKS = {
    "heads": ("num_attention_heads", "num_key_value_heads"),
    "context": ("max_context",),
    "kv": ("num_hidden_layers", "num_key_value_heads", "hidden_size"),
    "weights": ("params_b",),
}
ALL = ("num_attention_heads", "num_key_value_heads", "num_hidden_layers", "hidden_size", "vocab_size",
       "max_context", "params_b")


def _known(model: dict, key: str) -> bool:
    if key == "num_key_value_heads" and model.get("kv_lora_rank"):
        return True  # MLA: one latent KV per layer, not KV heads
    return model.get(key) not in (None, 0)


def missing(model: dict, keys: tuple[str, ...] = ALL) -> list[str]:
    """Of `keys`, the dimensions the audit does not know for this model as its own (empty: resolved);
    a family's shapes given as a default (`dims_family`) are not this model's."""
    if model.get("dims_family"):
        return ["(family default)"]
    return [k for k in keys if not _known(model, k)]


def resolve(names: list[str], version: str | None) -> dict[str, dict]:
    """Each name's model facts, from one audit of a project with one launch script per name."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for i, name in enumerate(names):
            (root / f"launch_{i:04d}.sh").write_text(f"#!/bin/sh\nvllm serve {name}\n", encoding="utf-8")
        rep = audit(root, gpu="H100-80GB x8", vllm_version=version)
        by_file = {s.site.file: s.facts.get("model") or {} for s in rep.sites}
        return {name: by_file.get(f"launch_{i:04d}.sh", {}) for i, name in enumerate(names)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-v", "--verbose", action="store_true", help="every name, resolved or not")
    p.add_argument("--vllm-version", default="0.11.0", help="the release the names are judged at")
    ns = p.parse_args(argv)
    rows = yaml.safe_load(LIST.read_text(encoding="utf-8"))["models"]
    names = [r["id"] for r in rows]
    facts = resolve(names, ns.vllm_version)
    done = 0
    per = dict.fromkeys(CHECKS, 0)
    for name in names:
        gap = missing(facts[name])
        done += not gap
        for check, keys in CHECKS.items():
            per[check] += not missing(facts[name], keys)
        if ns.verbose or gap:
            m = facts[name]
            how = m.get("resolved_as") or m.get("family") or "-"
            print(f"{'ok ' if not gap else 'GAP'} {name:70} {how:28} {' '.join(gap)}")
    n = len(names)
    print("  ".join(f"{c} {v}/{n} ({100 * v / n:.0f} %)" for c, v in per.items()))
    print(f"resolved (all of {', '.join(ALL)}): {done}/{n} ({100 * done / n:.0f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
