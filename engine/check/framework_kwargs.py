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
from vllm_kb.engine.check.entrypoint_findings import LLM_DROPS
from vllm_kb.engine.kb import compat, versions


# what an argument's own `if` is about, when the site can tell whether it holds
_MULTIMODAL_TEST = re.compile(r"mm_plugin|visual|image|vision|multimodal|\bmm_", re.I)
_MM_TEMPLATE = re.compile(r"vl|llava|mllama|paligemma|pixtral|qwen2_audio|minicpm_v|internvl|gemma3|video|omni|glm4v|idefics", re.I)


def multimodal(site, facts: dict) -> bool:
    template = str((site.framework_keys or {}).get("template") or "")
    return bool(_MM_TEMPLATE.search(template)) or bool((facts.get("model") or {}).get("multimodal"))


def _entry_matches(entry: str | None, site, fw: str = "") -> bool:
    if entry == "batch_inference" or getattr(site, "framework_command", None) == "batch_inference":
        # OpenRLHF's batch_inference builds its own LLM(); the training engines' calls are not on its path
        return entry == "batch_inference" and site.framework_command == "batch_inference"
    if entry is None:
        return True
    if entry == "async":  # verl's rollout server
        return framework_imports.verl_mode(site, fw) == "async"
    if entry == "trl vllm-serve":
        return site.kind == "trl vllm-serve"
    if entry == "colocate":
        return site.kind != "trl vllm-serve" and site.mode in ("rlhf_colocate", "framework_integrated")
    if entry.startswith("model_type:"):  # Xinference's engine of one model type (embedding, rerank)
        return str((site.launch or {}).get("model_type", "")).lower() == entry.split(":", 1)[1]
    return False  # an entry point no scanner builds a site for, bundled code


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


_PARSE = {"parse", "Version", "parse_version", "LooseVersion", "StrictVersion"}


def _gate_value(node: ast.AST, vllm: str):
    """("str"|"ver"|"either", value) of one side of a version test, None where it is anything else.
    `vllm.__version__` and `X.base_version` are strings; a bare name about the version (VLLM_VERSION,
    vllm_version) is whichever the other side is: a string against a string, a version against a
    parsed one (as Python would compare them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return ("str", node.value)
    if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) in _PARSE and len(node.args) == 1:
        if isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            return ("ver", node.args[0].value)
        inner = _gate_value(node.args[0], vllm)  # Version(vllm.__version__), Version(vllm_version)
        return ("ver", vllm) if inner is not None and inner[0] != "ver" else None
    if isinstance(node, ast.Attribute) and node.attr in ("__version__", "base_version", "public"):
        v = versions.try_parse(vllm)
        return ("str", v.public if node.attr != "__version__" and v is not None else vllm)
    if isinstance(node, (ast.Name, ast.Attribute)) and "version" in (node.id if isinstance(node, ast.Name) else node.attr).lower():
        return ("either", vllm)
    return None


def gate_holds(expr: str, vllm: str) -> bool | None:
    """Whether a platform's own test of the vLLM version (`vllm.__version__ >= "0.5.5"`,
    `VLLM_VERSION >= version.parse("0.11.0") or VLLM_VERSION.base_version >= "0.11.0"`) is true for
    this vLLM release, evaluated as its code does: two strings compare character by character, so
    "0.9.2" >= "0.11.0" holds (Xinference #4141). None where any part is not such a test."""
    def ev(node):
        if isinstance(node, ast.BoolOp):
            got = [ev(v) for v in node.values]
            if None in got:
                return None
            return all(got) if isinstance(node.op, ast.And) else any(got)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            got = ev(node.operand)
            return None if got is None else not got
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _OPS:
            a, b = _gate_value(node.left, vllm), _gate_value(node.comparators[0], vllm)
            if a is None or b is None or "either" not in (a[0], b[0]) and a[0] != b[0]:
                return None
            if "ver" in (a[0], b[0]):
                x, y = versions.try_parse(a[1]), versions.try_parse(b[1])
                return None if x is None or y is None else _OPS[type(node.ops[0])](x, y)
            return _OPS[type(node.ops[0])](a[1], b[1])
        if isinstance(node, ast.Compare) and len(node.ops) == 2 and all(type(o) in _OPS for o in node.ops):  # a <= v <= b
            left = ast.Compare(left=node.left, ops=[node.ops[0]], comparators=[node.comparators[0]])
            right = ast.Compare(left=node.comparators[0], ops=[node.ops[1]], comparators=[node.comparators[1]])
            return ev(ast.BoolOp(op=ast.And(), values=[left, right]))
        return None
    try:
        return ev(ast.parse(expr, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None


def breaks(fid: str, fw: str, vllm: str, site, facts: dict, cat, commit_rows=None) -> list[compat.Row]:
    """One row per argument the release passes on this site's path that `vllm` does not take.
    `commit_rows`: the calls of the git commit installed (framework_git), read instead of the releases'."""
    out: list[compat.Row] = []
    seen: set[str] = set()
    rows = list(commit_rows) if commit_rows is not None else \
        [r for code in compat.code_releases(fid, fw) for r in compat.engine_kwargs(fid, code)]
    for row in rows:
        if site.mode == "rlhf_server" and site.kind != "trl vllm-serve" or not _entry_matches(row.get("entry"), site, fw):
            continue
        # a call made only for other vLLM releases, or in a module the package imports only for them
        # (verl's rollout package picks vllm_rollout_spmd.py by the installed vLLM: tools/framework_engine_kwargs.py)
        if row.get("gate") and not gate_holds(row["gate"], vllm):
            continue
        serve = row["call"] == "vllm serve"
        for name, info in (row.get("kwargs") or {}).items():
            if info.get("guarded") or name in seen or not _holds(info.get("condition"), site, facts):
                continue
            # the package's own test of the vLLM version decides whether it passes the argument at all
            if info.get("gate") and not gate_holds(info["gate"], vllm):
                continue
            if row["call"] == "LLM" and name in LLM_DROPS and versions.contains(LLM_DROPS[name], vllm):
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
                "error_zh": f"{error} — {pkg.split('==')[0]} {row['releases']} 会传入 {name}（{file}:{info.get('line', line)}），只有 {was} 接受它",
                "where": row["source"],
                "source": {"title": f"{pkg} {file}", "url": row.get("url") or f"https://pypi.org/project/{pkg.replace('==', '/')}/"}}))
    return out
