"""Python files → sites: `LLM(...)`, `EngineArgs(...)`, `AsyncEngineArgs(...)` calls bound to a
vllm import, read with `ast` (never imported or run). Literal kwargs, module-level and
same-function constants, `**dict(...)`/dict literals and `**asdict(engine_args)` resolve;
anything else is kept as unresolved with its source text."""
from __future__ import annotations

import ast

from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.kb.textpos import LineIndex
from vllm_kb.engine.scan import framework_site
from vllm_kb.engine.scan.context import ScanContext, parse_python
from vllm_kb.engine.scan.python_process import ImportTime
from vllm_kb.engine.scan.python_values import (
    Scope,
    Unresolved,
    _assignments,
    _is_environ,
    _Resolver,
    _walk_no_defs,
)
from vllm_kb.engine.scan.site import Finding, Setting, Site

TARGETS = {
    "LLM": ("LLM()", "standalone_offline"),
    "EngineArgs": ("EngineArgs()", "standalone_offline"),
    "AsyncEngineArgs": ("AsyncEngineArgs()", "standalone_serve"),
}
# TRL trainer configs whose use_vllm / vllm_* keys drive a vLLM engine (trl ≥0.14 layout).
TRL_CONFIGS = {"GRPOConfig", "RLOOConfig", "OnlineDPOConfig", "GKDConfig", "XPOConfig", "NashMDConfig", "DistillationConfig"}


def _imports(tree: ast.Module) -> tuple[dict[str, str], set[str]]:
    """Local names bound to vLLM/TRL target classes, and local names bound to those modules."""
    classes: dict[str, str] = {}
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            for a in node.names:
                if (top == "vllm" and a.name in TARGETS) or (top == "trl" and a.name in TRL_CONFIGS):
                    classes[a.asname or a.name] = a.name
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in ("vllm", "trl"):
                    modules.add(a.asname or a.name.split(".")[0])
    return classes, modules


def _target(call: ast.Call, classes: dict[str, str], modules: set[str]) -> str | None:
    f = call.func
    if isinstance(f, ast.Name):
        return classes.get(f.id)
    if isinstance(f, ast.Attribute) and (f.attr in TARGETS or f.attr in TRL_CONFIGS):
        root = f.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in modules:
            return f.attr
    return None


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    if "vllm" not in text:  # TRL configs use vllm_* / use_vllm keys too
        return []
    try:
        tree = parse_python(text, rel)
    except SyntaxError as e:
        ctx.skip(rel, "python-syntax", e.lineno, e.msg)
        return []
    except (ValueError, RecursionError, MemoryError) as e:
        ctx.skip(rel, "parse-error", detail=type(e).__name__)
        return []
    classes, modules = _imports(tree)
    if not classes and not modules:
        return []
    version = ctx.version_for(rel)
    module_scope = Scope(_assignments(tree.body))
    env = _env_assignments(tree, rel)
    found: list[tuple[ast.Call, str, Scope]] = []

    def visit(body: list[ast.stmt], scope: Scope):
        for stmt in body:
            for node in _walk_no_defs(stmt):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    visit(node.body, Scope(_assignments(node.body), scope))
                elif isinstance(node, ast.Call):
                    t = _target(node, classes, modules)
                    if t:
                        found.append((node, t, scope))

    visit(tree.body, module_scope)
    importing = ImportTime(tree)
    by_id = {id(c): c for c, _, _ in found}
    absorbed: set[int] = set()
    sites = []
    for call, target, scope in sorted(found, key=lambda x: (x[0].lineno, x[0].col_offset)):
        if target in TRL_CONFIGS:
            site = _trl_site(ctx, rel, text, call, target, scope, by_id)
            if site is not None:
                sites.append((id(call), site))
            continue
        site = _site(ctx, rel, text, version, call, target, scope, by_id, absorbed)
        site.env = dict(env)
        site.launch.update(_process_facts(importing, tree, call, target))
        sites.append((id(call), site))
    return [s for cid, s in sites if cid not in absorbed]


def _process_facts(importing: ImportTime, tree: ast.Module, call: ast.Call, target: str) -> dict:
    """Whether the engine is built when the module is imported (LLM() itself; for engine
    arguments, the `from_engine_args` that builds it), and whether CUDA was touched before."""
    if target == "LLM":
        builds = [call]
    else:
        builds = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr in ("from_engine_args", "from_vllm_config")]
    at_import = [n for n in builds if importing.runs(n)]
    out: dict = {"module_level": bool(at_import)}
    level = _sleep_level(tree)
    if level is not None:
        out["sleep_level"] = level
    if at_import:
        out["cuda_before"] = importing.cuda_before(min(n.lineno for n in at_import))
    return out


def _sleep_level(tree: ast.Module) -> int | None:
    """The level the script puts the engine to sleep at: `llm.sleep(level=2)`, `llm.sleep(1)`,
    `llm.sleep()` (vLLM's default, 1); the deepest one when there are several."""
    levels = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "sleep"):
            continue
        if isinstance(n.func.value, ast.Name) and n.func.value.id in ("time", "asyncio", "gevent", "trio", "anyio"):
            continue
        kw = next((k.value for k in n.keywords if k.arg == "level"), None)
        arg = kw if kw is not None else (n.args[0] if n.args else None)
        if arg is None and not n.keywords:
            levels.append(1)
        elif isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float)) and not isinstance(arg.value, bool) \
                and arg.value in (1, 2):
            levels.append(int(arg.value))
    return min(levels) if levels else None


def _env_assignments(tree: ast.Module, rel: str) -> dict[str, Setting]:
    env: dict[str, Setting] = {}
    for node in ast.walk(tree):
        # os.environ["X"] = "1"
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            t = node.targets[0]
            if isinstance(t, ast.Subscript) and _is_environ(t.value) and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                env[t.slice.value] = _env_value(t.slice.value, node.value, rel)
        # os.environ.setdefault("X", "1") / os.environ.update({...})
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_environ(node.func.value):
            if node.func.attr == "setdefault" and len(node.args) == 2 and isinstance(node.args[0], ast.Constant):
                env[str(node.args[0].value)] = _env_value(str(node.args[0].value), node.args[1], rel)
            elif node.func.attr == "update" and node.args and isinstance(node.args[0], ast.Dict):
                for k, v in zip(node.args[0].keys, node.args[0].values):
                    if isinstance(k, ast.Constant):
                        env[str(k.value)] = _env_value(str(k.value), v, rel)
    return env


def _env_value(name: str, node: ast.expr, rel: str) -> Setting:
    if isinstance(node, ast.Constant):
        return Setting(name, str(node.value), True, rel, node.lineno, name, ast.unparse(node), "python-call")
    return Setting(name, None, False, rel, node.lineno, name, ast.unparse(node), "python-call", "not a literal")


def _site(ctx, rel, text, version, call, target, scope, by_id, absorbed) -> Site:
    kind, mode = TARGETS[target]
    site = Site(file=rel, line=call.lineno, syntax="python-call", kind=kind, mode=mode,
                mode_evidence=f"{rel}:{call.lineno}", end_line=call.end_lineno or call.lineno)
    resolver = _Resolver(scope, by_id, LineIndex(text))
    if call.args:
        first = call.args[0]
        if isinstance(first, ast.Starred):
            site.opaque.append({"code": "spread", "what": "*" + ast.unparse(first.value), "where": f"{rel}:{first.lineno}"})
        else:
            site.model = _setting(resolver, "model", first, rel, text, "")
        for extra in call.args[1:]:
            site.remarks.append(Finding("positional-arg", msg("finding.positional_arg", arg=ast.unparse(extra)), rel, extra.lineno, None))
    for kw in call.keywords:
        if kw.arg is None:
            _spread(ctx, site, resolver, kw.value, rel, text, version, by_id, absorbed)
            continue
        s = _setting(resolver, kw.arg, kw.value, rel, text, kw.arg, (kw, kw))
        _place(ctx, site, s, version)
    site.source = {"call": call, "text": text, "target": target, "func": ast.get_source_segment(text, call.func) or target}
    return site


def _trl_site(ctx, rel, text, call, target, scope, by_id) -> Site | None:
    """GRPOConfig(use_vllm=True, vllm_mode=…, vllm_gpu_memory_utilization=…): TRL's keys, mapped
    to engine arguments by knowledge/frameworks/trl.yaml."""
    from vllm_kb.engine.kb import frameworks

    fw = frameworks.get("trl")
    resolver = _Resolver(scope, by_id, LineIndex(text))
    entries = []
    for kw in call.keywords:
        if kw.arg is None:
            continue
        entries.append(framework_site.Entry(kw.arg, _setting(resolver, kw.arg, kw.value, rel, text, kw.arg, (kw, kw))))
    site = framework_site.build_site(fw, entries, file=rel, line=call.lineno, end_line=call.end_lineno or call.lineno,
                                 syntax="python-call", kind=f"{target}()", version=ctx.framework_version(rel, fw.package),
                                 source={"call": call, "text": text, "target": target,
                                         "func": ast.get_source_segment(text, call.func) or target})
    if site is not None and any(kw.arg is None for kw in call.keywords):
        for kw in call.keywords:
            if kw.arg is None:
                site.opaque.append({"code": "spread", "what": "**" + ast.unparse(kw.value), "where": f"{rel}:{kw.value.lineno}"})
    if site is not None and site.model is None:
        node = _trainer_model(text)
        if node is not None:
            site.model = _setting(resolver, "model", node, rel, text, "model")
    return site


def _trainer_model(text: str):
    """What vLLM loads in TRL is the policy: `GRPOTrainer(model=…)` (or its first argument) in the
    same file as the config."""
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node.func).endswith("Trainer"):
            for kw in node.keywords:
                if kw.arg == "model":
                    return kw.value
            if node.args:
                return node.args[0]
    return None


def _call_name(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _place(ctx, site: Site, s: Setting, version: str) -> None:
    if s.name == "model":
        site.model = s
        return
    entry = ctx.catalog.arg(s.name)
    if entry is None or not ctx.catalog.is_engine_arg(s.name):
        s.known = False
        site.unknown[s.name] = s
        return
    s.known = entry.exists(version)
    if s.resolved and entry.field("type", version) == "float" and isinstance(s.value, int) and not isinstance(s.value, bool):
        s.value = float(s.value)
    site.set(s)


def _setting(resolver, name, node, rel, text, key, item=None) -> Setting:
    """`item` spans the whole `key=value` / `"key": value` entry (start node, end node)."""
    raw = ast.get_source_segment(text, node) or ast.unparse(node)
    pos = {"value": resolver.lines.span(node)}
    if item is not None:
        first, last = item
        pos["item"] = (resolver.lines.offset(first.lineno, first.col_offset), resolver.lines.offset(last.end_lineno, last.end_col_offset))
    try:
        resolver.assumed = None
        value = resolver.value(node)
        return Setting(name, value, value is not None, rel, node.lineno, key, raw, "python-call", resolver.assumed, pos=pos)
    except Unresolved as u:
        return Setting(name, None, False, rel, node.lineno, key, raw, "python-call", u.why or f"`{raw}` is not a literal", pos=pos)


def _spread(ctx, site, resolver, node, rel, text, version, by_id, absorbed) -> None:
    # **asdict(engine_args) / **vars(engine_args) where engine_args = EngineArgs(...)
    if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and len(node.args) == 1:
        fname = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        arg = node.args[0]
        if fname in ("asdict", "vars") and isinstance(arg, ast.Name):
            bound = resolver.scope.lookup(arg.id)
            if isinstance(bound, ast.Call) and id(bound) in by_id:
                absorbed.add(id(bound))
                for kw in bound.keywords:
                    if kw.arg is None:
                        _spread(ctx, site, resolver, kw.value, rel, text, version, by_id, absorbed)
                    else:
                        _place(ctx, site, _setting(resolver, kw.arg, kw.value, rel, text, kw.arg, (kw, kw)), version)
                if bound.args and site.model is None:
                    site.model = _setting(resolver, "model", bound.args[0], rel, text, "")
                return
    # A literal mapping (directly, or through one name bound to it): one setting per entry,
    # each with its own position so a fix edits the entry where it is written.
    target = resolver.scope.lookup(node.id) if isinstance(node, ast.Name) else node
    entries: list[tuple[str, ast.expr, tuple[ast.AST, ast.AST]]] | None = None
    if isinstance(target, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in target.keys):
        entries = [(str(k.value), v, (k, v)) for k, v in zip(target.keys, target.values) if isinstance(k, ast.Constant)]
    elif isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "dict" and not target.args and all(kw.arg for kw in target.keywords):
        entries = [(kw.arg, kw.value, (kw, kw)) for kw in target.keywords if kw.arg]
    if entries is not None:
        for key, value_node, item in entries:
            _place(ctx, site, _setting(resolver, key, value_node, rel, text, key, item), version)
        return
    try:
        value = resolver.value(node)
    except Unresolved:
        site.opaque.append({"code": "spread", "what": "**" + (ast.get_source_segment(text, node) or ast.unparse(node)), "where": f"{rel}:{node.lineno}"})
        return
    if not isinstance(value, dict):
        site.opaque.append({"code": "not-mapping", "what": "**" + ast.unparse(node), "where": f"{rel}:{node.lineno}"})
        return
    for k, v in value.items():
        _place(ctx, site, Setting(str(k), v, v is not None, rel, node.lineno, str(k), repr(v), "python-call"), version)
