"""startup facts of the attention backend a site forces (--attention-backend or
VLLM_ATTENTION_BACKEND): its name, whether the release knows it, whether the GPU can run it, and
whether the variable names one the selector would refuse if forced by the flag."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_common import since
from vllm_kb.engine.check.startup_selector import selector_facts
from vllm_kb.engine.kb.catalog import Catalog


def env_backend_refused(facts: dict, selector: dict, version: str, startup: dict) -> dict[str, Any]:
    """startup.env_backend_refused: the backend VLLM_ATTENTION_BACKEND names is one the selector
    would refuse for this model on this GPU if it were forced with --attention-backend (0.13+,
    where F2 proposes that move): the move must not be proposed then."""
    name = (facts.get("env") or {}).get("VLLM_ATTENTION_BACKEND")
    if not isinstance(name, str) or not name.strip() or (facts.get("engine") or {}).get("attention_backend") \
            or not since(version, "0.13.0"):
        return {}
    got = selector_facts(facts, selector, version, {**startup, "backend": name.strip()})
    return {"env_backend_refused": True} if got.get("attn_forced_invalid") else {}


def backend_facts(facts: dict, table: dict, cat: Catalog, version: str) -> dict[str, Any]:
    """The attention backend a site forces: `--attention-backend` (0.13+), else the
    VLLM_ATTENTION_BACKEND variable in the releases that read it (0.4.2–0.14.x)."""
    engine, env, gpu = facts.get("engine") or {}, facts.get("env") or {}, facts.get("gpu") or {}
    name = engine.get("attention_backend") if since(version, "0.13.0") else None
    if not name and since(version, "0.4.2") and not since(version, "0.15.0"):
        name = env.get("VLLM_ATTENTION_BACKEND")
    if not isinstance(name, str) or not name.strip():
        return {}
    name = name.strip()
    out: dict[str, Any] = {"backend": name}
    e = cat.enum("attention_backends")
    if e is not None and e.exists(version):
        out["backend_known"] = name in (e.field("values", version) or [])
    need = table["attention"]["backends"].get(name)
    cc = gpu.get("compute_capability")
    if need is not None and cc is not None:
        ok = cc >= need["min"] if "min" in need else True
        if "majors" in need:
            ok = ok and int(cc) in need["majors"]
        out["backend_gpu_ok"] = ok
    return out
