"""A TP change where the framework starts several vLLM engines of that TP (OpenRLHF's
`--vllm_num_engines`: create_vllm_engines asks Ray for num_engines × tensor_parallel_size GPUs).
Raising TP alone multiplies the GPUs the job needs (R1-Searcher's 70B script: 8 engines at TP 2 on 16
GPUs; TP 4 alone asks for 32 and Ray waits for GPUs that never come). The change keeps the rollout's
GPUs: the engine count moves with TP, or no TP change is written. verl derives its rollout replicas
from the GPUs and TP itself, so only frameworks with a key of role `enable_count` take part."""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.fix import syntax as site_syntax
from vllm_kb.engine.kb import frameworks
from vllm_kb.engine.scan.site import Site

BLOCKED = "engine_count"


def _count_key(site: Site):
    if site.framework in (None, "none"):
        return None
    fw = frameworks.get(site.framework)
    return next((k for k in fw.keys if k.role == "enable_count"), None) if fw else None


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def paired(site: Site, changes: list, make: Callable[..., Any], as_written: Callable[[Any], str]) -> list:
    """The engine-count changes that keep engines × TP for each TP change of `changes`; a TP change
    that no whole engine count keeps within the GPUs the site asks for is blocked instead."""
    key = _count_key(site)
    out: list = []
    for ch in changes:
        if key is None or ch.op != "set" or ch.target != "tensor_parallel_size" or ch.blocked:
            continue
        engines = _int(site.framework_keys.get(key.key))
        tp = site.settings.get("tensor_parallel_size")
        old = _int(tp.value) if tp is not None and tp.resolved else (1 if tp is None else None)
        new = _int(ch.value)
        own = next((s for w, s in (site.framework_written or {}).items()
                    if w.lstrip("-") in (key.key, *key.aliases) and not s.implied and s.resolved), None)
        if engines is None:
            continue  # one engine (the key unset): TP alone decides the GPUs, as for any launch
        if old is None or not new or own is None or (engines * old) % new or engines * old < new:
            ch.blocked = BLOCKED
            continue
        count = engines * old // new
        if count == engines:
            continue
        after = site_syntax.framework_text(site, own.key, count, own, own.syntax)
        out.append(make("set", key.key, count, own.file, own.syntax, own.line, as_written(own), after,
                        checks=list(ch.checks), priority=ch.priority, safe=ch.safe, setting=own))
    return out
