"""Engine and feature facts the checks state per release: which engines a release has and
which it runs by default, which settings send the V1 engine back to V0 (0.8–0.10), which
speculative methods the V1 engine can run, and whether the `vllm` CLI / the api_server module
start workers with spawn. Each fact is {"value": …, "where": "<file> <what>"}."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from catalog_extract.sources import Source

_SPAWN_SET = re.compile(r"os\.environ\[['\"]VLLM_WORKER_MULTIPROC_METHOD['\"]\]\s*=\s*['\"]spawn['\"]")


def _parse(path: Path):
    try:
        return ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, FileNotFoundError):
        return None


def engines(root: Path, env: dict) -> dict:
    """V0 is there while its GPU worker is (vllm/worker/worker.py, gone in 0.11.0); V1 from
    vllm/v1/engine/core.py; the default follows VLLM_USE_V1's default where both exist."""
    v0 = (root / "vllm/worker/worker.py").is_file()
    v1 = (root / "vllm/v1/engine/core.py").is_file()
    out = {"engine.v0": {"value": v0, "where": "vllm/worker/worker.py"},
           "engine.v1": {"value": v1, "where": "vllm/v1/engine/core.py"}}
    use_v1 = (env.get("VLLM_USE_V1") or {}).get("default")
    if v0 and v1:
        default, where = ("v1" if use_v1 is True else "v0"), "vllm/envs.py VLLM_USE_V1"
    else:
        default, where = ("v1" if v1 else "v0"), "the only engine"
    out["engine.default"] = {"value": default, "where": where}
    return out


def _self_fields(node) -> list[str]:
    """Engine arguments a test reads: `self.X`, and `model_config.X` (the ModelConfig built from them)."""
    return sorted({n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                   and isinstance(n.value, ast.Name) and n.value.id in ("self", "model_config")})


def _label(node, assigns: dict) -> str:
    """The feature name vLLM prints: a string, an f-string as its template, a local variable's
    string value where it is assigned one."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}" for v in node.values)
    if isinstance(node, ast.Name) and node.id in assigns:
        return _label(assigns[node.id], {})
    return ast.unparse(node) if node is not None else "?"


def v1_fallbacks(src: Source, engine_args: dict, has_v0: bool = True) -> dict:
    """EngineArgs._is_v1_supported_oracle (0.8–0.11.0): each `if` that calls _raise_or_fallback,
    as the feature vLLM names and the engine arguments its test reads; with V0 there, these send
    V1 back to V0 (engine.v1_fallbacks), without it (0.11.0) they fail. _check_feature_supported
    (0.11.1+) raises for its features outright. engine.v1_unsupported: what the V1 engine
    refuses with no V0 to fall back to."""
    info = src.find_class(["vllm.engine.arg_utils"], "EngineArgs")
    out = {}
    oracle = _raising_rows(info, "_is_v1_supported_oracle", engine_args)
    if oracle is not None:
        out["engine.v1_fallbacks"] = {"value": oracle, "where": "vllm/engine/arg_utils.py EngineArgs._is_v1_supported_oracle"}
    check = _raising_rows(info, "_check_feature_supported", engine_args)
    refused = (check or []) + ([] if has_v0 else (oracle or []))
    if check is not None or (oracle is not None and not has_v0):
        out["engine.v1_unsupported"] = {"value": sorted({(r["feature"], tuple(r["args"])): r for r in refused}.values(),
                                                        key=lambda r: r["feature"]),
                                        "where": "vllm/engine/arg_utils.py " + ("EngineArgs._check_feature_supported" if check is not None
                                                                                 else "EngineArgs._is_v1_supported_oracle (no V0)")}
    return out


def _raising_rows(info, method: str, engine_args: dict) -> list | None:
    fn = info.method(method)[1] if info else None
    if fn is None:
        return None
    rows = []
    assigns = {t.id: st.value for st in ast.walk(fn) if isinstance(st, ast.Assign) for t in st.targets
               if isinstance(t, ast.Name) and isinstance(st.value, (ast.Constant, ast.JoinedStr))}

    def visit(body, tests):
        for st in body:
            if isinstance(st, ast.If):
                visit(st.body, tests + [st.test])
                visit(st.orelse, tests + [st.test])
            elif isinstance(st, (ast.Expr, ast.Return)) and isinstance(st.value, ast.Call) and \
                    ast.unparse(st.value.func).endswith(("_raise_or_fallback", "_raise_unsupported_error")):
                kw = {k.arg: k.value for k in st.value.keywords}
                name = kw.get("feature_name") or (st.value.args[0] if st.value.args else None)
                label = _label(name, assigns)
                args = [a for t in tests for a in _self_fields(t) if a in engine_args]
                rows.append({"feature": label, "args": sorted(set(args))})

    visit(fn.body, [])
    uniq = {(r["feature"], tuple(r["args"])): r for r in rows}
    return sorted(uniq.values(), key=lambda r: r["feature"])


def _use_eagle_methods(src: Source) -> list[str]:
    info = src.find_class(["vllm.config.speculative", "vllm.config"], "SpeculativeConfig")
    fn = info.method("use_eagle")[1] if info else None
    if fn is None:
        return []
    return [c.value for c in ast.walk(fn) if isinstance(c, ast.Constant) and isinstance(c.value, str)]


def v1_spec_methods(root: Path, src: Source, methods: list[str]) -> dict:
    """The speculative methods the V1 GPU runner builds a drafter for: the method literals of
    its drafter if-chain (use_eagle() and uses_draft_model() expanded), or, where the runner
    looks speculators up in a table (0.3x), that table's keys. `*_mtp` methods run as `mtp`."""
    table = root / "vllm/v1/worker/gpu/spec_decode/speculator_config.py"
    found: list[str] = []
    where = ""
    tree = _parse(table) if table.is_file() else None
    if tree is not None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) for k in node.keys) \
                    and any("_builtin" in ast.unparse(v) for v in node.values):
                found = [k.value for k in node.keys]
                where = "vllm/v1/worker/gpu/spec_decode/speculator_config.py"
                break
    if not found:
        for path in sorted((root / "vllm/v1/worker").rglob("*.py")) if (root / "vllm/v1/worker").is_dir() else []:
            text = path.read_text(encoding="utf-8", errors="replace")
            if "Unknown speculative decoding method" not in text:
                continue
            tree = _parse(path)
            for node in ast.walk(tree) if tree else []:
                if isinstance(node, ast.If) and "Unknown speculative decoding method" in ast.unparse(node):
                    chain = node
                    while isinstance(chain, ast.If):
                        t = ast.unparse(chain.test)
                        found += re.findall(r"method == ['\"](\w+)['\"]", t)
                        if "use_eagle()" in t:
                            found += _use_eagle_methods(src)
                        if "uses_draft_model()" in t:
                            found.append("draft_model")
                        chain = chain.orelse[0] if len(chain.orelse) == 1 and isinstance(chain.orelse[0], ast.If) else None
                    if found:
                        break
            if found:
                where = str(path.relative_to(root)) + " drafter chain"
                break
    if not found:
        return {}
    if "mtp" in found:
        found += [m for m in methods if m.endswith("_mtp")]
    return {"spec_decode.v1_methods": {"value": sorted(set(found)), "where": where}}


def spawn(root: Path) -> dict:
    """Whether `vllm serve` (the CLI) and `python -m vllm.entrypoints.openai.api_server` set
    VLLM_WORKER_MULTIPROC_METHOD=spawn when it is unset: the function that does it, and
    whether each entry point calls it."""
    setters = {}
    for path in sorted((root / "vllm").rglob("*.py")):
        rel = str(path.relative_to(root))
        if not (rel.startswith("vllm/entrypoints/") or rel == "vllm/scripts.py"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if not _SPAWN_SET.search(text):
            continue
        tree = _parse(path)
        for fn in ast.walk(tree) if tree else []:
            if isinstance(fn, ast.FunctionDef) and _SPAWN_SET.search(ast.unparse(fn).replace('"', "'")):
                setters[fn.name] = rel
    cli = [root / "vllm/scripts.py", root / "vllm/entrypoints/cli/main.py"]
    api = [root / "vllm/entrypoints/openai/api_server.py", root / "vllm/entrypoints/launchers/api_server/__main__.py",
           root / "vllm/entrypoints/launchers/api_server/entry.py"]

    def calls(paths) -> str | None:
        for p in paths:
            if p.is_file():
                text = p.read_text(encoding="utf-8", errors="replace")
                for name, where in setters.items():
                    if re.search(rf"\b{name}\(\)", text) or (str(p.relative_to(root)) == where and name == "main"):
                        return f"{p.relative_to(root)} calls {name}() ({where})"
        return None

    c, a = calls(cli), calls(api)
    return {"multiproc.cli_spawn": {"value": c is not None, "where": c or "no spawn default in the CLI"},
            "multiproc.api_server_spawn": {"value": a is not None, "where": a or "no spawn default in the api_server module"}}
