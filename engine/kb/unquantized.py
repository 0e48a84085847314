"""Which layers a quantized checkpoint keeps in 16 bits: the ignore / not-to-convert list of its
quantization_config (compressed-tensors `ignore`, fbgemm/bitsandbytes/AWQ `modules_to_not_convert`,
ModelOpt `exclude_modules`), or what the catalog says of a publisher's checkpoints. Meta's
Llama-3.1-405B FP8, for one, leaves every attention block and the first and last MLP in bf16 —
about a fifth of the weights — so counting all of it at one byte under-states each GPU's weights
by ~10 GiB at TP 8. The memory estimate (engine/check/memory/weights.py) counts these parameters
at 16 bits."""
from __future__ import annotations

import re
from typing import Any

_LISTS = ("ignore", "modules_to_not_convert", "exclude_modules", "ignored_layers", "skip_modules")
_ATTN = re.compile(r"self_attn|\battn\b|attention|[qkvo]_proj|qkv|\.wq|\.wk|\.wv|\.wo")
_MLP = re.compile(r"\bmlp\b|feed_forward|gate_proj|up_proj|down_proj|gate_up|w1|w2|w3")
_MOE = re.compile(r"expert|router|\.gate$|shared")
_INDEX = re.compile(r"layers?\.(\d+)\.")


def coverage(quant: dict) -> dict[str, Any] | None:
    """{'attention': 'all' | [layer indices], 'mlp': 'all' | [indices]} from a quantization_config,
    or None when it lists nothing that sizing cares about."""
    entries = []
    for key in _LISTS:
        v = quant.get(key)
        if isinstance(v, list):
            entries += [str(x) for x in v if isinstance(x, str)]
    if not entries:
        return None
    out: dict[str, Any] = {}
    for kind, rx in (("attention", _ATTN), ("mlp", _MLP)):
        idx: set[int] = set()
        every = False
        for e in entries:
            s = e.lower()
            if not rx.search(s) or (kind == "mlp" and _MOE.search(s)) or "vision" in s or "visual" in s:
                continue
            m = _INDEX.search(s)
            if m and not s.startswith("re:"):
                idx.add(int(m.group(1)))
            else:
                every = True
        if every:
            out[kind] = "all"
        elif idx:
            out[kind] = sorted(idx)
    return out or None


# the shards a fused layer is loaded from, by the fused layer's name
_FUSED = {"gate_up_proj": ("gate_proj", "up_proj")}


def ignore_unfused(quant: dict) -> list[str]:
    """The fused layers ("visual.gate_up_proj") whose shards a compressed-tensors ignore list names one
    by one (`visual.blocks.0.mlp.gate_proj`) while no entry names or matches the fused layer itself: a
    release whose class gives compressed-tensors no mapping from the fused name back to the shards
    (should_ignore_layer, compressed_tensors/utils.py) quantizes that layer. Scope: the vision tower
    ("visual"/"vision" in the name) or "text"."""
    if str(quant.get("quant_method", "")).lower().replace("_", "-") != "compressed-tensors":
        return []
    listed = quant.get("ignore")
    names = [x for x in listed if isinstance(x, str)] if isinstance(listed, list) else []  # a hand-edited config may hold anything
    out: set[str] = set()
    for e in names:
        if e.startswith("re:"):
            continue
        head, _, last = e.rpartition(".")
        for fused, shards in _FUSED.items():
            if last not in shards:
                continue
            whole = f"{head}.{fused}"
            if not any(t == whole or (t.startswith("re:") and _match(t[3:], whole)) for t in names):
                out.add(("visual." if "visual" in e or "vision" in e else "text.") + fused)
    return sorted(out)


def _match(pattern: str, name: str) -> bool:
    try:
        return re.match(pattern, name) is not None  # vLLM's _is_equal_or_regex_match: re.match
    except re.error:
        return False
