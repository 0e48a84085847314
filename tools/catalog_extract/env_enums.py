"""Env vars (vllm/envs.py and reads scattered elsewhere) and the enums whose values the checks
name: quantization methods, attention backends, KV-cache dtypes, speculative methods, KV connectors."""
from __future__ import annotations

import ast

from catalog_extract.flags import to_json
from catalog_extract.interp import Interp
from catalog_extract.sources import (
    Source,
    hints,
    literal_choices,
)
from catalog_extract.values import (
    UNSET,
    Frame,
    FuncRef,
    arg_type,
    is_concrete,
)


def env_vars(it: Interp) -> dict:
    mod = it.src.module("vllm.envs")
    if mod is None:
        return _env_vars_scattered(it)
    table = mod.defs.get("environment_variables")
    if not isinstance(table, ast.Dict):
        return {}
    declared = {}
    for st in mod.tree.body:
        if isinstance(st, ast.If) and "TYPE_CHECKING" in ast.unparse(st.test):
            for d in st.body:
                if isinstance(d, ast.AnnAssign) and isinstance(d.target, ast.Name):
                    declared[d.target.id] = ast.unparse(d.annotation)
    out = {}
    for k, v in zip(table.keys, table.values):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            continue
        getter = it.guarded(it.ev, v, Frame(mod, env=True))
        val = it.guarded(it.call, getter, [], {}, Frame(mod, env=True)) if isinstance(getter, FuncRef) else UNSET
        default = to_json(val)
        it.env_defaults[k.value] = val
        ann = declared.get(k.value) or _converter(v) or {dict: "dict", list: "list"}.get(type(default))
        out[k.value] = {"type": arg_type(ann, default), "default": default}
    return out


def _converter(node) -> str | None:
    """The outermost int()/float()/bool() a getter applies, for variables with no declared type."""
    body = node.body if isinstance(node, ast.Lambda) else node
    if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id in ("int", "float", "bool"):
        return body.func.id
    return None


def _env_read(node) -> tuple[str, object] | None:
    """(name, default) of an `os.getenv("VLLM_X", d)` / `os.environ.get` / `os.environ["VLLM_X"]`."""
    if isinstance(node, ast.Call) and ast.unparse(node.func) in ("os.getenv", "os.environ.get") and node.args:
        key, default = node.args[0], node.args[1] if len(node.args) > 1 else None
    elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
        key, default = node.slice, None
    else:
        return None
    if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.startswith("VLLM_"):
        return key.value, default.value if isinstance(default, ast.Constant) else None
    return None


def _env_vars_scattered(it: Interp) -> dict:
    """Releases before vllm/envs.py (0.4.0, 0.4.1) read VLLM_* variables where they use them: the
    statement around each read is evaluated with the variable unset, as envs.py getters are."""
    out = {}
    root = it.src.root
    for path in sorted((root / "vllm").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        mod = it.src.module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        if mod is None:
            continue
        for node in ast.walk(mod.tree):
            if isinstance(node, (ast.If, ast.While)):
                expr = node.test
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.Return, ast.Expr)):
                expr = node.value
            else:
                continue
            reads = [r for r in map(_env_read, ast.walk(expr)) if r] if expr is not None else []
            for name, raw in reads:
                if name in out:
                    continue
                v = it.guarded(it.ev, expr, Frame(mod, env=True)) if len({n for n, _ in reads}) == 1 else UNSET
                default = to_json(v) if v is not UNSET and is_concrete(v) else raw
                out[name] = {"type": arg_type(None, default), "default": default}
    return out


# ---------------------------------------------------------------- enums

def _literal_alias(it: Interp, modnames, name: str) -> list | None:
    """The flattened values of a module-level Literal alias (nested aliases included)."""
    for m in modnames:
        mod = it.src.module(m)
        if mod is not None and name in mod.defs and not isinstance(mod.defs[name], ast.ClassDef):
            vals = literal_choices(hints(it.src, ast.Name(id=name), mod))
            if vals:
                return vals
    return None


def enums(it: Interp, choices_by_flag: dict) -> dict:
    """Value sets that flags and configs accept, wherever each release keeps them."""
    src, out = it.src, {}
    qmod = "vllm.model_executor.layers.quantization"
    q = _literal_alias(it, [qmod], "QuantizationMethods")
    # 0.2.0–0.2.1 kept the registry in vllm/model_executor/quantization_utils/
    for mod in (src.module(qmod), src.module("vllm.model_executor.quantization_utils")):
        for name in ("QUANTIZATION_METHODS", "_QUANTIZATION_CONFIG_REGISTRY", "_QUANTIZATION_REGISTRY"):
            if q is None and mod is not None and isinstance(mod.defs.get(name), (ast.Dict, ast.List)):
                node = mod.defs[name]
                elts = node.keys if isinstance(node, ast.Dict) else node.elts
                q = [e.value for e in elts if isinstance(e, ast.Constant)]
    if q:
        out["quantization_methods"] = q
    for modname, cname in (("vllm.v1.attention.backends.registry", "AttentionBackendEnum"),
                           ("vllm.attention.backends.registry", "AttentionBackendEnum"),
                           ("vllm.attention.backends.registry", "_Backend"),
                           ("vllm.platforms.interface", "_Backend"),
                           ("vllm.attention.selector", "_Backend")):
        info = src.find_class([modname], cname)
        if info is not None:
            out["attention_backends"] = [n for n, _ in info.members()]
            break
    cfg = ["vllm.config.cache", "vllm.config"]
    kv = _literal_alias(it, cfg, "CacheDType") or choices_by_flag.get("--kv-cache-dtype")
    if kv:
        out["kv_cache_dtypes"] = kv
    spec = _literal_alias(it, ["vllm.config.speculative", "vllm.config"], "SpeculativeMethod")
    if spec:
        out["speculative_methods"] = spec
    conns = _kv_connectors(src)
    if conns:
        out["kv_connectors"] = conns
    return {k: {"values": v} for k, v in out.items()}


def _kv_connectors(src: Source) -> list:
    mod = src.module("vllm.distributed.kv_transfer.kv_connector.factory")
    if mod is None:
        return []
    names = []
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "register_connector" and node.args and isinstance(node.args[0], ast.Constant):
            names.append(node.args[0].value)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "supported_kv_connector"
                                                   for t in node.targets) and isinstance(node.value, ast.List):
            names += [e.value for e in node.value.elts if isinstance(e, ast.Constant)]  # 0.6.5–0.6.6
    return list(dict.fromkeys(names))
