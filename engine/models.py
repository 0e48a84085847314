"""Model facts from a model name or path: family, size, MoE / MLA / MTP, multimodal,
pre-quantized checkpoint. Catalog in knowledge/models.yaml; a size written in the name
(`-8B`, `-30B-A3B`) fills in what the catalog does not say."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_SIZE = re.compile(r"(?<![\dA-Za-z.])(\d+(?:\.\d+)?)\s*[bB](?![A-Za-z])")
_ACTIVE = re.compile(r"[-_]A(\d+(?:\.\d+)?)B(?![A-Za-z])", re.I)
_MOE_SIZE = re.compile(r"(\d+)x(\d+(?:\.\d+)?)[bB]", re.I)
FLAGS = ("moe", "mla", "mtp", "multimodal", "sliding_window", "quantized")


@lru_cache(maxsize=256)
def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def model_facts(name: str | None, families: list[dict], markers: list[dict]) -> dict[str, Any]:
    if not name:
        return {}
    base = name.rstrip("/").rsplit("/", 2)
    short = "/".join(base[-2:]) if len(base) > 1 else base[0]
    facts: dict[str, Any] = {"name": name}
    fam = next((f for f in families if _rx(f["match"]).search(short)), None)
    if fam:
        facts["family"] = fam["id"]
        for k in ("params_b", "active_params_b", "max_context", *FLAGS, "quant_method"):
            if k in fam:
                facts[k] = fam[k]
        for size in fam.get("sizes", []):
            if _rx(size["match"]).search(short):
                facts.update({k: v for k, v in size.items() if k != "match"})
        for e in fam.get("eagle", []):
            if _rx(e["match"]).search(short):
                facts["eagle_draft"] = e["draft"]
                facts["eagle_method"] = e["method"]
                break
    if "params_b" not in facts:
        m = _MOE_SIZE.search(short)
        sizes = [float(x) for x in _SIZE.findall(short)]
        if m:
            facts["params_b"] = round(int(m.group(1)) * float(m.group(2)) * 0.8, 1)
            facts.setdefault("moe", True)
        elif sizes:
            facts["params_b"] = max(sizes)
    act = _ACTIVE.search(short)
    if act:
        facts["active_params_b"] = float(act.group(1))
        facts["moe"] = True
    for mk in markers:
        if _rx(mk["match"]).search(short):
            facts["quantized"] = True
            facts["quant_method"] = mk["method"]
            break
    for k in FLAGS:
        facts.setdefault(k, False)
    return facts
