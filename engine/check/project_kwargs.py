"""The keywords the project's own code passes to vLLM's constructors (engine/scan/project_calls.py)
against those the site's release takes (knowledge/frameworks/vllm_classes.json,
tools/vllm_class_kwargs.py). A keyword the release's signature lacks (no **kwargs there) is a
TypeError where the call runs: Python's "__init__() got an unexpected keyword argument 'x'", or
msgspec's "Unexpected keyword argument 'x'" for a msgspec.Struct (SamplingParams from 0.5.5).
The facts feed check L140."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb import vllm_classes
from vllm_kb.engine.scan import project_calls


def _bad(call, vllm: str) -> str | None:
    return next((kw for kw in call.keywords if vllm_classes.takes(call.cls, kw, vllm) is False), None)


def _error(cls: str, kw: str, vllm: str) -> str:
    if vllm_classes.is_msgspec(cls, vllm):
        return f"TypeError: Unexpected keyword argument '{kw}'"
    return f"TypeError: {cls}.__init__() got an unexpected keyword argument '{kw}'"


def nearest(releases: list[str], vllm: str, ok) -> str | None:
    """`==X` for the release in `releases` nearest to `vllm` (the newer first at equal distance)
    for which `ok(X)` holds; None when `vllm` is not one of them or none does."""
    if vllm not in releases:
        return None
    here = releases.index(vllm)
    for d in range(1, len(releases)):
        for i in (here + d, here - d):
            if 0 <= i < len(releases) and ok(releases[i]):
                return "==" + releases[i]
    return None


def kwarg_facts(parsed: list, vllm: str, certain_in: list[str], passes=None) -> dict[str, Any]:
    """`launch.vllm_kwarg_*` facts of the first constructor call (at start first) that passes a
    keyword the release does not take. `passes(spellings, file)`: whether the project gives an option
    anywhere but the file defining it; a call behind an option it never gives runs only for a
    user who adds the option (`vllm_kwarg_when`), and comes after every call that runs anyway."""
    found = [c for path, module in parsed for c in project_calls.calls(path, module)]

    def optional(c) -> str | None:
        return c.guard if c.guard and passes is not None and not passes(c.guard_flags or (c.guard,), c.file) else None

    broken = sorted((c for c in found if _bad(c, vllm)), key=lambda c: (optional(c) is not None, not c.at_start))
    if not broken:
        return {}
    call = broken[0]
    kw = _bad(call, vllm) or ""
    out: dict[str, Any] = {
        "vllm_kwarg": f"`{call.cls}({kw}=…)` ({call.file}:{call.line})",
        "vllm_kwarg_error": _error(call.cls, kw, vllm),
        "vllm_kwarg_at_start": call.at_start,
        "vllm_kwarg_certain": bool(certain_in) and all(vllm_classes.takes(call.cls, kw, v) is False for v in certain_in),
    }
    if when := optional(call):
        out["vllm_kwarg_when"] = when
    have = vllm_classes.keyword_spans(call.cls, kw)
    if have:
        out["vllm_kwarg_have"] = " or ".join(have)
    first = [c for c in broken if c.at_start and not optional(c)] or broken
    fit = nearest(vllm_classes.read_releases(), vllm, lambda x: not any(_bad(c, x) for c in first))
    if fit:
        out["vllm_kwarg_fit"] = fit
    return out


# what the V1 engine refuses per request while V0 still runs it: SamplingParams(logits_processors=[…])
# raises "vLLM V1 does not support per request user provided logits processors" in 0.8.0 … 0.16.0
# (0.8.5 v1/engine/processor.py:119-121, 0.16.0 v1/engine/input_processor.py:183); V0 exists to 0.10.2
_V0_ONLY = {("SamplingParams", "logits_processors")}


def v0_feature(parsed: list) -> str | None:
    """The first call the project makes that only the V0 engine takes (A4 stays quiet on VLLM_USE_V1=0)."""
    for path, module in parsed:
        for c in project_calls.calls(path, module):
            kw = next((k for k in c.keywords if (c.cls, k) in _V0_ONLY and k not in c.empty), None)
            if kw:
                return f"`{c.cls}({kw}=…)` ({c.file}:{c.line})"
    return None
