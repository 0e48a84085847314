"""A vLLM or TRL call as a site (engine/scan/python_calls.py finds the calls): `LLM(…)`,
`EngineArgs(…)` with their arguments as settings — a wrapper's own arguments and defaults included —
and a TRL config (`GRPOConfig(use_vllm=True, …)`) through knowledge/frameworks/trl.yaml, its model
the trainer's."""
from __future__ import annotations

import ast

from vllm_kb.engine.kb import deploy_tools
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan import framework_site, trl_section, trl_spread, wrapper_args
from vllm_kb.engine.scan.python_prefilter import TARGETS
from vllm_kb.engine.scan.python_settings import place, setting, spread
from vllm_kb.engine.scan.python_values import walk
from vllm_kb.engine.scan.site import Finding, Site


def _evaluators() -> list[str]:
    return deploy_tools.load("llm_wrappers").get("evaluators", [])


def call_site(ctx, rel, text, version, call, target, resolver, by_id, absorbed, wrapper=None) -> Site:
    kind, mode = TARGETS[target]
    written = call  # edits go into the call as written, a wrapper's own arguments included
    site = Site(file=rel, line=call.lineno, syntax="python-call", kind=kind, mode=mode,
                mode_evidence=f"{rel}:{call.lineno}", end_line=call.end_lineno or call.lineno)
    if wrapper is not None:
        site.mode_evidence += (f" ({wrapper.name} from {wrapper.origin} builds vLLM's {wrapper.target})" if wrapper.forwarder
                               else f" ({wrapper.name}, a subclass of vllm.LLM from {wrapper.origin})")
        site.mode = wrapper.mode or site.mode
        site.tool = wrapper.host or site.tool
        if wrapper.forwarder and wrapper.origin in _evaluators():
            site.launch["evaluator"] = wrapper.origin
        if wrapper.per_call:  # its engine lives only through each call: never beside another's (colocation)
            site.launch["engine_per_call"] = True
        if wrapper.has_init:
            call = wrapper_args.engine_call(site, call, wrapper, rel)
    if call.args:
        first = call.args[0]
        if isinstance(first, ast.Starred):
            site.opaque.append({"code": "spread", "what": "*" + ast.unparse(first.value), "where": f"{rel}:{first.lineno}"})
        else:
            site.model = setting(resolver, "model", first, rel, text, "")
        for extra in call.args[1:]:
            site.remarks.append(Finding("positional-arg", msg("finding.positional_arg", arg=ast.unparse(extra)), rel, extra.lineno, None))
    for kw in call.keywords:
        if kw.arg is None:
            spread(ctx, site, resolver, kw.value, rel, text, version, by_id, absorbed)
            continue
        s = setting(resolver, kw.arg, kw.value, rel, text, getattr(kw, "written", kw.arg), (kw, kw))
        if getattr(kw, "probed", False):  # the wrapper drops it where the release lacks it (catalog_findings)
            s.pos = {**(s.pos or {}), "probed": True}
        place(ctx, site, s, version)
    for s in wrapper_args.wrapper_defaults(site, wrapper, rel, call.lineno, written) if wrapper is not None else ():
        place(ctx, site, s, version)
    site.source = {"call": written, "text": text, "target": target, "func": resolver.lines.segment(call.func) or target}
    if wrapper is not None and not wrapper.rest and (wrapper.forwarder or wrapper.rename):
        # other engine arguments reach vLLM only as its own keywords, inside its mapping (langchain's vllm_kwargs), or not at all
        site.source["wrapper_dict"] = (sorted(wrapper.dicts)[0] if wrapper.dicts else None,
                                       any(k.arg in wrapper.dicts for k in written.keywords))
        site.source["wrapper_keys"] = {e: own for own, e in wrapper.rename}
    return site


def trl_site(ctx, rel, text, call, target, resolver, tree) -> Site | None:
    """GRPOConfig(use_vllm=True, vllm_mode=…, vllm_gpu_memory_utilization=…): TRL's keys, mapped
    to engine arguments by knowledge/frameworks/trl.yaml."""
    from vllm_kb.engine.kb import frameworks

    fw = frameworks.get("trl")
    entries, followed, section = [], set(), None
    for kw in call.keywords:
        if kw.arg is None:
            got = trl_spread.spread_entries(resolver, kw.value, rel, text)
            if got is None and (read := trl_section.python_entries(ctx, resolver, tree, kw.value)) is not None:
                got, section = read[0], read[1:]  # a section of the file the script loads itself
            if got is not None:
                entries += got
                followed.add(id(kw))
            continue
        entries.append(framework_site.Entry(kw.arg, setting(resolver, kw.arg, kw.value, rel, text, kw.arg, (kw, kw))))
    site = framework_site.build_site(fw, entries, file=rel, line=call.lineno, end_line=call.end_lineno or call.lineno,
                                 syntax="python-call", kind=f"{target}()", version=ctx.framework_version(rel, fw.package),
                                 source={"call": call, "text": text, "target": target,
                                         "func": resolver.lines.segment(call.func) or target},
                                 commit=ctx.framework_commit(rel, fw.package))
    if site is not None and section is not None:
        site.config_file = section[0]
        site.source["config_section"] = ".".join(section[1])  # a key it lacks goes there (engine/fix/changes.py)
    if site is not None and any(kw.arg is None for kw in call.keywords):
        for kw in call.keywords:
            if kw.arg is None and id(kw) not in followed:
                site.opaque.append({"code": "spread", "what": "**" + ast.unparse(kw.value), "where": f"{rel}:{kw.value.lineno}"})
    if site is not None and site.model is None:
        node = _trainer_model(tree)
        if node is not None:
            site.model = setting(resolver, "model", node, rel, text, "model")
    return site


def _trainer_model(tree: ast.Module):
    """What vLLM loads in TRL is the policy: `GRPOTrainer(model=…)` (or its first argument) in the
    same file as the config."""
    for node in walk(tree):
        if isinstance(node, ast.Call) and call_name(node.func).endswith("Trainer"):
            for kw in node.keywords:
                if kw.arg == "model":
                    return kw.value
            if node.args:
                return node.args[0]
    return None


def call_name(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
