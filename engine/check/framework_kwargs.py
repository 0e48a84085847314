"""Engine arguments a framework release passes to vLLM that the pinned vLLM release does not take
(knowledge/frameworks/engine_kwargs.yaml, read from each release's wheel, against the vLLM
catalog's EngineArgs fields per release): vLLM raises `TypeError: … got an unexpected keyword
argument` when the rollout or server builds its engine. Returned as compat rows so the L43 check
and the nearest-pair search treat them like any other known break."""
from __future__ import annotations

import ast
import operator
import re

from vllm_kb.engine.check import framework_imports
from vllm_kb.engine.kb import compat, versions

# keywords LLM(...) itself takes and drops after EngineArgs lost them: "The 'swap_space' parameter is
# deprecated and ignored" (vllm/entrypoints/llm.py, 0.18.0 :261 through 0.25.1; gone in 0.26.0)
_LLM_DROPS = {"swap_space": ">=0.18.0,<0.26.0"}

# what an argument's own `if` is about, when the site can tell whether it holds
_MULTIMODAL_TEST = re.compile(r"mm_plugin|visual|image|vision|multimodal|\bmm_", re.I)
_MM_TEMPLATE = re.compile(r"vl|llava|mllama|paligemma|pixtral|qwen2_audio|minicpm_v|internvl|gemma3|video|omni|glm4v|idefics", re.I)


def multimodal(site, facts: dict) -> bool:
    template = str((site.framework_keys or {}).get("template") or "")
    return bool(_MM_TEMPLATE.search(template)) or bool((facts.get("model") or {}).get("multimodal"))


def _entry_matches(entry: str | None, site, fw: str = "") -> bool:
    if entry is None:
        return True
    if entry == "async":  # verl's rollout server
        return framework_imports.verl_mode(site, fw) == "async"
    if entry == "trl vllm-serve":
        return site.kind == "trl vllm-serve"
    if entry == "colocate":
        return site.kind != "trl vllm-serve" and site.mode in ("rlhf_colocate", "framework_integrated")
    return False  # an entry point no scanner builds a site for (OpenRLHF's batch_inference)


def _value(name: str, site):
    """A setting or framework key the site fixes, by its last name (`config.data_parallel_size`)."""
    if name in (site.framework_keys or {}):
        v = site.framework_keys[name]
    else:
        st = site.settings.get(name)
        if st is None or not st.resolved:
            return None
        v = st.value
    try:
        return float(v) if not isinstance(v, bool) else v
    except (TypeError, ValueError):
        return None


def _test(node: ast.AST, site):
    """A test of the framework's own code answered from the site: comparisons of a number the
    site sets (`int(config.data_parallel_size) > 1`), `not`, `and`/`or`; None where any part is unknown."""
    if isinstance(node, ast.BoolOp):
        got = [_test(v, site) for v in node.values]
        if isinstance(node.op, ast.And):
            return False if False in got else (None if None in got else True)
        return True if True in got else (None if None in got else False)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        got = _test(node.operand, site)
        return None if got is None else not got
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        a, b = _test(node.left, site), _test(node.comparators[0], site)
        if not isinstance(a, float) or not isinstance(b, float):
            return None
        return _OPS[type(node.ops[0])](a, b) if type(node.ops[0]) in _OPS else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float") and len(node.args) == 1:
        return _test(node.args[0], site)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return _value(node.id if isinstance(node, ast.Name) else node.attr, site)
    return None


_OPS = {ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Eq: operator.eq, ast.NotEq: operator.ne}


def _holds(when: str | None, site, facts: dict) -> bool:
    """Whether an argument set under its own `if` reaches vLLM on this site: only tests the site
    can answer count (a number it sets, a multimodal template or model); any other test is left unknown."""
    if not when:
        return True
    try:
        got = _test(ast.parse(when, mode="eval").body, site)
    except (SyntaxError, ValueError, RecursionError):
        got = None
    if isinstance(got, bool):
        return got
    return bool(_MULTIMODAL_TEST.search(when)) and multimodal(site, facts)


def breaks(fid: str, fw: str, vllm: str, site, facts: dict, cat) -> list[compat.Row]:
    """One row per argument the release passes on this site's path that `vllm` does not take."""
    out: list[compat.Row] = []
    seen: set[str] = set()
    rows = [r for code in compat.code_releases(fid, fw) for r in compat.engine_kwargs(fid, code)]
    for row in rows:
        if site.mode == "rlhf_server" and site.kind != "trl vllm-serve" or not _entry_matches(row.get("entry"), site, fw):
            continue
        serve = row["call"] == "vllm serve"
        for name, info in (row.get("kwargs") or {}).items():
            if info.get("guarded") or name in seen or not _holds(info.get("condition"), site, facts):
                continue
            if row["call"] == "LLM" and name in _LLM_DROPS and versions.contains(_LLM_DROPS[name], vllm):
                continue
            entry = cat.arg(name) if serve else cat._entry("engine_args", name)
            # a name the catalog never read is not judged; within_life, not exists: a gap in a
            # name's history is more often an extraction miss than a removal
            if entry is None or entry.within_life(vllm):
                continue
            seen.add(name)
            gone = entry.removed_in()
            was = f"vLLM {entry.first} – {entry.last}" if gone else f"vLLM {entry.first}+"
            error = (f"unrecognized arguments: --{name.replace('_', '-')}" if serve else
                     # LLM(**kwargs) hands its keywords to EngineArgs, which raises
                     f"TypeError: {'EngineArgs' if row['call'] == 'LLM' else row['call']}.__init__() got an unexpected keyword argument '{name}'")
            file, _, line = row["source"].split(" ", 1)[1].rpartition(":")
            pkg = row["source"].split(" ", 1)[0]
            out.append(compat.Row(fid, row["releases"], "", "known_break", {
                "id": f"{fid}-passes-{name}", "effect": "error", "scope": "install",
                "error": f"{error} — {pkg.split('==')[0]} {row['releases']} passes {name} ({file}:{info.get('line', line)}), which {was} takes",
                "where": row["source"],
                "source": {"title": f"{pkg} {file}", "url": f"https://pypi.org/project/{pkg.replace('==', '/')}/"}}))
    return out
