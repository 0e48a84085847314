"""The vLLM imports of a framework copy inside the tree (engine/scan/framework_source.py: a vendored
copy, a checkout of git main installed in place) against the pinned vLLM, from vLLM's importable
names per release (knowledge/frameworks/vllm_symbols.json). Such a copy runs its own code, not a
release's: its declared range may hold the pinned vLLM while an import it added later does not
(verl's main of November 2025 declared vllm>=0.8.5 and imported a name vLLM has from 0.9.0 on).

Only an import the table proves missing is a break: Python raises `ImportError: cannot import
name 'Y' from 'vllm.X'` (or `No module named 'vllm.X'`) when the framework loads its adapter,
before an engine is built. An import the table cannot judge is left alone."""
from __future__ import annotations

from vllm_kb.engine.check import framework_imports
from vllm_kb.engine.kb import compat, versions, vllm_symbols


def breaks(copy, fw: str | None, vllm: str, site) -> list[compat.Row]:
    """One row for the first import on this site's path that does not resolve in `vllm`."""
    for imp in copy.imports:
        if not framework_imports.entry_loaded(copy.framework, imp.entry, site, fw or ""):
            continue
        if vllm_symbols.resolves(imp.module, imp.name, vllm) is not False:
            continue
        first = vllm_symbols.first_release(imp.module, imp.name)
        gone = vllm_symbols.missing_module(imp.module, vllm)
        if imp.name is not None and gone is None:
            error = f"ImportError: cannot import name '{imp.name}' from '{imp.module}'"
        else:
            error = f"ModuleNotFoundError: No module named '{gone or imp.module}'"
        where = f"{imp.file}:{imp.line}"
        # a name that came later, or one that is gone: the releases that have it
        pf, pv = versions.try_parse(first or ""), versions.try_parse(vllm)
        older = pf is not None and pv is not None and pv < pf
        since = f"; vLLM has it from {first} on" if older else f"; vLLM has it in releases {' or '.join(vllm_symbols.spans(imp.module, imp.name) or [])}"
        return [compat.Row(copy.framework, "", "", "known_break", {
            "id": f"{copy.framework}-copy-imports-{imp.spelled}", "effect": "error", "scope": "install",
            "error": f"{error} — {copy.label or f'the {copy.framework} code in this project'} imports it ({where}){since}",
            "where": where, "import": imp.spelled, "first": first or "", "moving": copy.moving,
            "source": {"title": f"{copy.framework} copy in this project", "url": where}})]
    return []
