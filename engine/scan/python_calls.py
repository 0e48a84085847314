"""Python files → sites: `LLM(...)`, `EngineArgs(...)`, `AsyncEngineArgs(...)` calls bound to a
vllm import, read with `ast` (never imported or run). Literal kwargs, module-level and
same-function constants, `**dict(...)`/dict literals and `**asdict(engine_args)` resolve;
anything else is kept as unresolved with its source text."""
from __future__ import annotations

import ast
import operator
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan.site import Finding, Setting, Site
from vllm_kb.engine.kb.textpos import LineIndex
from vllm_kb.engine.scan.context import ScanContext, parse_python

TARGETS = {
    "LLM": ("LLM()", "standalone_offline"),
    "EngineArgs": ("EngineArgs()", "standalone_offline"),
    "AsyncEngineArgs": ("AsyncEngineArgs()", "standalone_serve"),
}
# TRL trainer configs whose use_vllm / vllm_* keys drive a vLLM engine (trl ≥0.14 layout).
TRL_CONFIGS = {"GRPOConfig", "RLOOConfig", "OnlineDPOConfig", "GKDConfig", "XPOConfig", "NashMDConfig", "DistillationConfig"}


class Unresolved(Exception):
    def __init__(self, node: ast.AST, why: str = ""):
        self.node = node
        self.why = why


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv, ast.Div: operator.truediv}


@dataclass
class Scope:
    names: dict[str, ast.AST] = field(default_factory=dict)
    parent: "Scope | None" = None

    def lookup(self, name: str):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


def _assignments(body: list[ast.stmt]) -> dict[str, ast.AST]:
    """Names bound exactly once in a block, by a plain `x = <expr>` at its top level."""
    values: dict[str, ast.AST] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            values[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            values[stmt.target.id] = stmt.value
    counts: Counter[str] = Counter()
    for stmt in body:
        for node in _walk_no_defs(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                counts[node.id] += 1
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                counts[node.name] += 1
    return {k: v for k, v in values.items() if counts[k] == 1}


class _Resolver:
    def __init__(self, scope: Scope, calls: dict[int, ast.Call], lines: LineIndex):
        self.scope = scope
        self.calls = calls  # id(call node) of target calls, for **asdict(x)
        self.lines = lines
        self.depth = 0
        self.assumed: str | None = None  # set when a value is only a default (os.environ.get)

    def value(self, node: ast.AST) -> Any:
        self.depth += 1
        try:
            if self.depth > 50:
                raise Unresolved(node, "too deep")
            return self._value(node)
        finally:
            self.depth -= 1

    def _value(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.id]
            target = self.scope.lookup(node.id)
            if target is None:
                raise Unresolved(node, f"`{node.id}` is not a literal constant here")
            return self.value(target)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return [self.value(e) for e in node.elts]
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    sub = self.value(v)
                    if not isinstance(sub, dict):
                        raise Unresolved(v)
                    out.update(sub)
                else:
                    out[self.value(k)] = self.value(v)
            return out
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.value(node.operand)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = self.value(node.left), self.value(node.right)
            if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)) and abs(a) < 1e15 and abs(b) < 1e15:
                return _BINOPS[type(node.op)](a, b)
            if isinstance(a, str) and isinstance(b, str) and isinstance(node.op, ast.Add):
                return a + b
        env = _env_default(node)
        if env is not None:
            name, default = env
            self.assumed = f"default of os.environ.get({name!r})"
            return self.value(default)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
            out = {}
            for kw in node.keywords:
                if kw.arg is None:
                    sub = self.value(kw.value)
                    if not isinstance(sub, dict):
                        raise Unresolved(kw.value)
                    out.update(sub)
                else:
                    out[kw.arg] = self.value(kw.value)
            return out
        raise Unresolved(node)


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
        sites.append((id(call), site))
    return [s for cid, s in sites if cid not in absorbed]


def _walk_no_defs(node: ast.AST):
    """ast.walk that yields function definitions but does not descend into them."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(n))))


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


def _is_environ(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"


def _env_value(name: str, node: ast.AST, rel: str) -> Setting:
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
        entries.append(frameworks.Entry(kw.arg, _setting(resolver, kw.arg, kw.value, rel, text, kw.arg, (kw, kw))))
    site = frameworks.build_site(fw, entries, file=rel, line=call.lineno, end_line=call.end_lineno or call.lineno,
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


def _env_default(node):
    """`os.environ.get("X", d)` / `os.getenv("X", d)`: (name, default node), else None."""
    if not (isinstance(node, ast.Call) and len(node.args) == 2 and isinstance(node.args[0], ast.Constant)):
        return None
    f = node.func
    if isinstance(f, ast.Attribute) and ((f.attr == "get" and _is_environ(f.value)) or
                                         (f.attr == "getenv" and isinstance(f.value, ast.Name) and f.value.id == "os")):
        return str(node.args[0].value), node.args[1]
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
    entries = None
    if isinstance(target, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in target.keys if k is not None) and None not in target.keys:
        entries = [(k.value, v, (k, v)) for k, v in zip(target.keys, target.values)]
    elif isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "dict" and not target.args and all(kw.arg for kw in target.keywords):
        entries = [(kw.arg, kw.value, (kw, kw)) for kw in target.keywords]
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
