"""What vLLM sets at start-up for arguments a site leaves unset: its usage context (the OpenAI
server, LLM(), another entry point), the catalog's context defaults by GPU and performance_mode,
then knowledge/vllm/effective_defaults.yaml."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.knowledge import Knowledge
from vllm_kb.engine.scan import argv_entry


def usage_context(site: dict) -> str | None:
    """vLLM's UsageContext for a site's facts: the OpenAI server, LLM(), or another entry point
    (EngineArgs()/AsyncEngineArgs() build engines in ENGINE_CONTEXT); None for a framework's
    own engine, whose context is the framework's business."""
    if site.get("serves_http"):
        return "serve"
    kind = site.get("kind")
    built = argv_entry.engine_of(kind)  # a project script that hands its command line to vLLM
    # `trl vllm-serve` builds its engine with LLM(…) in every release (trl/scripts/vllm_serve.py,
    # knowledge/frameworks/engine_kwargs.yaml `call: LLM`): LLM_CLASS defaults, 1024 sequences on
    # a GPU of 70 GiB or more from 0.8 (the sampler warm-up of trl#3523)
    if kind in ("LLM()", "trl vllm-serve") or built == "LLM":
        return "llm"
    if kind in ("EngineArgs()", "AsyncEngineArgs()") or built in ("EngineArgs", "AsyncEngineArgs"):
        return "other"
    return None


def context_defaults(facts: dict, version: str, cat: Catalog | None = None) -> dict[str, Any]:
    """max_num_seqs / max_num_batched_tokens as vLLM sets them when unset, by usage context and
    GPU (the catalog's context_defaults), doubled or halved by a performance_mode."""
    from vllm_kb.engine.kb import catalog as catalog_mod

    cat = cat or catalog_mod.load()
    ctx = usage_context(facts.get("site") or {})
    if ctx is None:
        return {}
    g = facts.get("gpu")
    gpu = {"memory_gib": g.get("memory_gib"), "name": g.get("name"), "capability": g.get("compute_capability")} if g else None
    out = {}
    for arg in ("max_num_seqs", "max_num_batched_tokens"):
        value = cat.context_default(arg, version, ctx, gpu)
        if value is not None:
            out[arg] = value
    if ctx == "other" and "max_num_batched_tokens" not in out and (batched := scheduler_batched(facts, version)):
        out["max_num_batched_tokens"] = batched
    args = facts.get("args") or {}
    mode = args.get("performance_mode")
    effects = cat.performance_mode(str(mode), version) if mode else None
    for arg, eff in (effects or {}).items():
        if arg in out and arg not in args and "multiply" in eff:
            out[arg] = out[arg] * eff["multiply"]
    return out


def scheduler_batched(facts: dict, version: str) -> int | None:
    """max_num_batched_tokens for EngineArgs()/AsyncEngineArgs() on the V1 engine of 0.8.0-0.11.0:
    their EngineArgs tables leave ENGINE_CONTEXT out, so SchedulerConfig.__post_init__ fills it — 2048
    with chunked prefill, which V1 forces on a generative model, raised to 5120 for a multimodal one
    (0.8.0 config.py:1657-1686, 0.10.1 config/scheduler.py:188-209); the estimate's 8192 stand-in would
    charge the profile run four times the tokens it runs. A pooling model's default follows its
    pooler: facts.py drops the value once the site is known to pool."""
    from vllm_kb.engine.kb.versions import Version, try_parse

    v = try_parse(version)
    site = facts.get("site") or {}
    if v is None or not Version("0.8.0") <= v < Version("0.11.1") or (facts.get("vllm") or {}).get("engine") != "v1" \
            or usage_context(site) != "other":
        return None
    return 5120 if (facts.get("model") or {}).get("multimodal") else 2048


def effective_defaults(kb: Knowledge, facts: dict, version: str) -> dict[str, Any]:
    """Defaults vLLM decides at start-up (declared None in EngineArgs): the catalog's context
    defaults, then knowledge/vllm/effective_defaults.yaml."""
    from vllm_kb.engine.kb.versions import SpecifierSet, Version, try_parse

    def version_lt(a: str, b: str) -> bool:
        va = try_parse(a)
        return va is not None and va < Version(b)

    v0_fallback = (facts.get("vllm") or {}).get("engine") == "v0" and not version_lt(version, "0.8.0")
    # the catalog's context defaults are the V1 engine's; a V0 fallback keeps V0's own
    out: dict[str, Any] = {} if v0_fallback else context_defaults(facts, version)
    act = cel.Activation(facts)
    for d in kb.effective_defaults:
        if d.get("vllm") and not SpecifierSet(d["vllm"]).contains(version):
            continue
        if d.get("when"):
            res = cel.compile(d["when"]).evaluate(act)
            if res.value is not True:
                continue
        out.setdefault(d["arg"], d["value"])
    return out
