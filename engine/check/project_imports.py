"""The project's own imports of vLLM modules (engine/scan/project_imports.py) against the site's
release, from vLLM's importable names per release (knowledge/frameworks/vllm_symbols.json, read
from the sources of every release by tools/vllm_public_imports.py). An import the table proves
missing is Python's `ImportError: cannot import name 'Y' from 'vllm.X'` or `ModuleNotFoundError:
No module named 'vllm.X'`; an import it cannot judge (a star import, a module `__getattr__`, a
release it did not read) is left alone. The facts feed check L139; the constructor keywords of the
same files, check L140 (engine/check/project_kwargs.py)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check import project_kwargs
from vllm_kb.engine.kb import vllm_symbols
from vllm_kb.engine.scan import project_imports


def _resolves(imp, vllm: str) -> bool | None:
    module, name = (imp.module, imp.name) if imp.name else vllm_symbols.judged_module(imp.module)
    return vllm_symbols.resolves(module, name, vllm)


def _fails(imp, vllm: str) -> bool:
    return _resolves(imp, vllm) is False


def _error(imp, vllm: str) -> str:
    gone = vllm_symbols.missing_module(imp.module, vllm)
    if imp.name is not None and gone is None:
        return f"ImportError: cannot import name '{imp.name}' from '{imp.module}'"
    if gone is None:  # `import vllm.a.b` where the table judges b as a name of vllm.a
        gone = imp.module
    return f"ModuleNotFoundError: No module named '{gone}'"


def _hint(imp, vllm: str) -> dict[str, str]:
    """`vllm_import_moved`: the import that works in this release (the name moved to another
    module), else `vllm_import_have`: the releases that have the import as written."""
    module, name = (imp.module, imp.name) if imp.name else vllm_symbols.judged_module(imp.module)
    if imp.name:
        found = _likely(imp.name, [m for m in vllm_symbols.holders(imp.name, vllm) or [] if m != imp.module])
        if found:
            return {"vllm_import_moved": " / ".join(f"`from {m} import {imp.name}`" for m in found)}
    spans = vllm_symbols.spans(module, name) or []
    return {"vllm_import_have": " or ".join(spans)} if spans else {}


def _fallback(imp, vllm: str, moves) -> dict[str, str]:
    """The path the project's own code falls back to for the same module (a try/except elsewhere),
    where `vllm` has the import there: `vllm_import_moved` with `vllm_import_fallback`, its place."""
    for mv in moves:
        new = mv.moved(imp.module)
        if new is not None and _resolves(type(imp)(new, imp.name, imp.file, imp.line, imp.at_start), vllm) is True:
            spelled = f"from {new} import {imp.name}" if imp.name else f"import {new}"
            return {"vllm_import_moved": f"`{spelled}`", "vllm_import_fallback": f"{mv.file}:{mv.line}"}
    return {}


def _likely(name: str, found: list[str], most: int = 3) -> list[str]:
    """The modules among `found` most likely to define `name` rather than import it: those whose
    file name's words the name spells (OpenAIServingChat: serving_chat, not api_server); at most
    `most` of them, none when more are alike."""
    def score(mod: str) -> int:
        return sum(w in name.lower() for w in mod.rsplit(".", 1)[-1].split("_") if w)
    best = max((score(m) for m in found), default=0)
    top = [m for m in found if score(m) == best]
    return top if len(top) <= most else []


def import_facts(launch: str, vllm: str, certain_in: list[str], launches: project_imports.Launches) -> dict[str, Any]:
    """`launch.vllm_import_*` facts of the first import the release lacks (at start first).
    `certain_in`: the releases the project may run (one for an exact pin, every release a range
    allows; empty when unpinned): the failure is certain only when it holds in each of them.
    `launches`: the audit's one index of the modules each launch file loads."""
    parsed = launches.files(launch)
    imps = project_imports.imports_of(parsed)
    # the constructors the same files call (L140): read only where the project reaches past `vllm`
    # itself, or builds one of them from its top-level names (SamplingParams, LoRARequest)
    out: dict[str, Any] = project_kwargs.kwarg_facts(parsed, vllm, certain_in, launches.passes) if parsed else {}
    if parsed and (v0 := project_kwargs.v0_feature(parsed)):
        out["v0_feature"] = v0  # a per-request feature the V1 engine refuses (A4)
    broken = [imp for imp in imps if _fails(imp, vllm)]
    if not broken:
        return out
    imp = broken[0]
    out |= {
        "vllm_import": f"`{imp.spelled}` ({imp.file}:{imp.line})",
        "vllm_import_error": _error(imp, vllm),
        "vllm_import_at_start": imp.at_start,
        "vllm_import_certain": bool(certain_in) and all(_fails(imp, v) for v in certain_in),
        "vllm_import_count": len(broken),
    } | (_fallback(imp, vllm, launches.fallbacks()) or _hint(imp, vllm))
    first = [b for b in broken if b.at_start] or broken
    # a release proven to have every one of them: one the table cannot judge (vllm.utils's module
    # __getattr__ of 0.11.1-0.13.0, which maps only a few deprecated names) is no way out
    fit = project_kwargs.nearest(vllm_symbols.read_releases(), vllm, lambda x: all(_resolves(b, x) is True for b in first))
    if fit:
        out["vllm_import_fit"] = fit
    return out
