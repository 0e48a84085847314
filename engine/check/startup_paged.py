"""Whether the V0 engine runs the model's head size: knowledge/vllm/paged_head_sizes.yaml
(tools/vllm_paged_heads.py) lists the head sizes PagedAttention takes per release and who raises for
the others. Up to 0.3.3 every attention layer raises; in 0.4.0-0.4.2 both CUDA backends do
(FlashAttention decoded with PagedAttention); from 0.4.3 only XFormers, which V0 picks below compute
capability 8.0, for float32, for a forced XFORMERS and, where the selector falls back by head size
(vllm/attention/selector.py 0.4.3-0.6.6, vllm/platforms/cuda.py 0.7.0-0.10.x), for a head size
FlashAttention lacks. Anything else that might send V0 to XFormers (an FP8 cache, a missing
vllm-flash-attn package) is not assumed. The change proposed is the first later release that
runs it: a V0 release (up to 0.7.3, where V0 is the default) or one whose 0.11.1+ selector finds
a backend (knowledge/vllm/attn_selector.yaml)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_selector import pick
from vllm_kb.engine.kb.mla import known_mla
from vllm_kb.engine.kb.versions import Version, try_parse

_V0_DEFAULT_LAST = Version("0.7.3")  # the last release whose default engine is V0


def _span(table: dict, v: Version) -> dict | None:
    return next((s for s in table.get("spans") or () if Version(s["first"]) <= v <= Version(s["last"])), None)


def _why(span: dict, head: int, cc: float | None, dtype: str | None, forced: str | None) -> str | None:
    """Why this release's V0 refuses the head size (None: it runs it, or that is not known)."""
    if head in span["paged"]:
        return None
    if span["fa_paged"] is None:
        return "kernel"
    if span["fa_paged"]:
        return "both"
    if forced == "XFORMERS":
        return "forced"
    if isinstance(cc, (int, float)) and cc < 8.0:
        return "gpu"
    if dtype == "float32":
        return "float32"
    if span["fallback"] and span["fa_heads"] and head not in span["fa_heads"]:
        return "head"
    return None


def _later(paged: dict, selector: dict, v: Version, head: int, cc: float | None, dtype: str | None) -> str | None:
    for s in paged.get("spans") or ():
        first = Version(s["first"])
        # from 0.4.3 a head size PagedAttention lacks runs only where FlashAttention is picked,
        # which needs the GPU and the dtype known
        runs = head in s["paged"] or (s["fa_paged"] is False and cc is not None and dtype is not None
                                      and _why(s, head, cc, dtype, None) is None)
        if v < first <= _V0_DEFAULT_LAST and runs:
            return s["first"]
    if not isinstance(cc, (int, float)) or dtype is None:
        return None
    cfg = {"cc": round(float(cc), 1), "mla": False, "head_size": head, "dtype": dtype, "kv": "auto", "sink": None,
           "sparse": False}
    return next((s["first"] for s in selector.get("spans") or () if Version(s["first"]) > v and pick(s, cfg)[0]), None)


def paged_facts(facts: dict, paged: dict, selector: dict, version: str | None, startup: dict) -> dict[str, Any]:
    """startup.paged_refused with paged_head_size, paged_sizes, paged_error (vLLM's words, holes
    filled), paged_why (kernel, both, forced, gpu, float32, head), paged_alt (unset_backend, dtype:
    FlashAttention then runs it in this release) and paged_pin (>=X) where a later release runs it."""
    # the site's own release: the catalog reads one older than 0.4.0 as 0.4.0, the table does not
    own = str((facts.get("vllm") or {}).get("version") or version or "").partition("+")[0]
    v = try_parse(own) if own else None
    if v is None:
        return {}
    span = _span(paged, v)
    head = startup.get("head_size")
    model = facts.get("model") or {}
    if span is None or startup.get("v1") or not isinstance(head, int) or known_mla(model):
        return {}
    forced = startup.get("backend")
    if forced not in (None, "XFORMERS", "FLASH_ATTN"):
        return {}
    cc = (facts.get("gpu") or {}).get("compute_capability")
    dtype = startup.get("dtype")
    why = _why(span, head, cc, dtype, forced)
    if why is None:
        return {}
    sizes = str(span["paged"])
    text = span["text"]
    for hole in ("{self.head_size}", "{head_size}"):
        text = text.replace(hole, str(head))
    for hole in ("{_SUPPORTED_HEAD_SIZES}", "{suppored_head_sizes}", "{supported_head_sizes}"):
        text = text.replace(hole, sizes)
    out: dict[str, Any] = {"paged_refused": True, "paged_head_size": head, "paged_sizes": sizes, "paged_error": text,
                           "paged_why": why}
    fa_runs = span["fa_paged"] is False and isinstance(cc, (int, float)) and cc >= 8.0 and head in (span["fa_heads"] or ())
    if why == "forced" and fa_runs and dtype != "float32":
        out["paged_alt"] = "unset_backend"  # V0 picks FlashAttention by itself there
    elif why == "float32" and fa_runs and forced != "XFORMERS":
        out["paged_alt"] = "dtype"
    later = _later(paged, selector, v, head, cc, dtype)
    if later:
        out["paged_pin"] = ">=" + later
        out["paged_release"] = later
    return out
