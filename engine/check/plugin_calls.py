"""A vLLM general plugin the project installs whose registered function imports a vLLM module the
pinned release lacks (knowledge/vllm/plugins.yaml `call_imports`: PaddleX's register_models imports
vllm.model_executor.models.ernie45). vLLM catches what loading the entry point raises, but from 0.7.0
it calls the loaded function outside that try (vllm/plugins/__init__.py load_general_plugins), so the
ModuleNotFoundError stops EngineArgs before any model is read. The plugin decides at run time whether
it imports at all (the packages it finds installed), so the finding is a P1 (L43)."""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.kb import plugins as kb_plugins
from vllm_kb.engine.kb import versions

# releases that call a general plugin's function outside the try that guards its load
# (0.6.6.post1 vllm/plugins/__init__.py:74-76 call it inside; 0.7.0 :79-80, 0.34.0 :89-90 outside)
_CALL_UNCAUGHT = ">=0.7.0"


def _allowed(env: dict, entry: str) -> bool:
    """Whether VLLM_PLUGINS lets vLLM load the entry point: unset loads every plugin, a value only the
    names it lists (`VLLM_PLUGINS=""` none); a value the audit cannot read is taken to load it."""
    if "VLLM_PLUGINS" not in env:
        return True
    value = env.get("VLLM_PLUGINS")
    return not isinstance(value, str) or entry in value.split(",")


def plugin_call_facts(facts: dict, pin_of: Callable[[str], Any]) -> dict[str, Any]:
    """`plugin_call_*` launch facts for the first installed plugin whose registered function imports a
    module the pinned vLLM lacks; empty where none does, the vLLM release is not pinned, or
    VLLM_PLUGINS keeps the plugin out."""
    v = facts.get("vllm") or {}
    vllm = v.get("version")
    if not vllm or not v.get("pinned") or not versions.contains(_CALL_UNCAUGHT, vllm):
        return {}
    env = facts.get("env") or {}
    for p in kb_plugins.known().values():
        entry = p.registers_models
        if not p.call_imports or not entry or not _allowed(env, entry):
            continue
        pin = pin_of(p.package)
        if pin is None:
            continue
        rel = getattr(pin, "exact", None)
        for imp in p.call_imports:
            if rel and not versions.contains(imp["releases"], rel) or versions.contains(imp["vllm"], vllm):
                continue
            return {"plugin_call": p.package, "plugin_call_release": rel or "(release not pinned)",
                    "plugin_call_entry": entry, "plugin_call_module": imp["module"], "plugin_call_vllm": imp["vllm"],
                    "plugin_call_at": imp["at"], "plugin_call_only_if": imp.get("only_if") or "—"}
    return {}
