"""A KV-cache connector package whose pinned release does not load with the pinned vLLM.

vLLM's LMCacheConnectorV1 (vllm/distributed/kv_transfer/kv_connector/v1/lmcache_connector.py, 0.8.5+)
imports LMCache's adapter (lmcache.integration.vllm.vllm_v1_adapter) when the engine builds the
connector named by --kv-transfer-config — unless `kv_connector_extra_config.use_native` asks for the
copy vLLM carries itself (0.11.1+). A name that adapter imports from vLLM and the pinned vLLM lacks
stops the engine there ("cannot import name … from 'vllm.…'", "No module named 'vllm.…'").
knowledge/frameworks/vllm_imports.yaml holds each LMCache release's imports (read from its wheel);
compat.yaml the pairs reported to fail for a release PyPI no longer holds. Reported with the nearest
pairs that load: this LMCache release with another vLLM, or another LMCache release with this vLLM.
"""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.check.framework_imports import breaks
from vllm_kb.engine.kb import compat
from vllm_kb.engine.kb.versions import parse, try_parse

# connector name → the package whose adapter vLLM imports for it
CONNECTORS = {"LMCacheConnectorV1": "lmcache"}


def _config(site) -> dict | None:
    s = (site.settings or {}).get("kv_transfer_config")
    value = getattr(s, "value", None) if s is not None and getattr(s, "resolved", True) else None
    return value if isinstance(value, dict) else None


def _native(cfg: dict) -> bool:
    extra = cfg.get("kv_connector_extra_config")
    return isinstance(extra, dict) and str(extra.get("use_native", "")).lower() in ("true", "1")


def _problems(pkg: str, rel: str, vllm: str, site) -> list[compat.Row]:
    return breaks(pkg, rel, vllm, site) + [r for r in compat.problems(pkg, rel, vllm) if r.kind == "known_break"]


def connector_compat(site, facts: dict, pin_of: Callable[[str], Any]) -> dict[str, Any]:
    """launch.addon* for the connector package the site's kv-transfer config loads."""
    v = facts.get("vllm") or {}
    vllm = v.get("version")
    cfg = _config(site)
    if not vllm or not v.get("pinned") or cfg is None or cfg.get("kv_connector_module_path") or _native(cfg):
        return {}
    name = str(cfg.get("kv_connector") or "")
    pkg = CONNECTORS.get(name)
    rel = getattr(pin_of(pkg), "exact", None) if pkg else None
    if not pkg or not rel or try_parse(rel) is None or try_parse(str(vllm)) is None:
        return {}
    rows = _problems(pkg, rel, str(vllm), site)
    if not rows:
        return {}
    out = {"addon": pkg, "addon_release": rel, "addon_via": name, "addon_problem_text": str(rows[0].raw["error"])}
    here, mine = parse(str(vllm)), parse(rel)
    read = [str(x) for x in compat.vllm_imports().get("vllm_releases") or [] if try_parse(str(x)) is not None]
    ok = [x for x in read if not _problems(pkg, rel, x, site)]
    if ok:
        # the nearest release after the pinned one first: a connector is moved forward with vLLM
        later = [x for x in ok if parse(x) > here]
        out["addon_fit_vllm"] = "==" + (min(later, key=parse) if later else max(ok, key=parse))
    known = [r for r in compat.releases(pkg) if try_parse(r) is not None]
    fits = [r for r in known if not _problems(pkg, r, str(vllm), site)]
    if fits:
        newer = [r for r in fits if parse(r) > mine]
        pick = min(newer, key=parse) if newer else max(fits, key=parse)
        # a floor where every release from it on loads (pip may take the newest), else that release
        rest = [r for r in known if parse(r) >= parse(pick)]
        out["addon_fit_release"] = (">=" if set(rest) <= set(fits) else "==") + pick
    return out
