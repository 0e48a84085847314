"""Python files → sites: `LLM(...)`, `EngineArgs(...)`, `AsyncEngineArgs(...)` calls bound to a
vllm import, read with `ast` (never imported or run). Literal kwargs, module-level and
same-function constants, `**dict(...)`/dict literals and `**asdict(engine_args)` resolve;
anything else is kept as unresolved with its source text. A call as a site: engine/scan/python_call_site.py;
what it does to its process: engine/scan/python_call_facts.py."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from vllm_kb.engine.kb.textpos import index as line_index
from vllm_kb.engine.scan import container_spec, lazy_config, framework_site, python_argv, python_opaque, python_spawn_helpers, python_subclass, python_text, python_tools
from vllm_kb.engine.scan.context import ScanContext, parse_python
from vllm_kb.engine.scan.python_call_facts import call_facts
from vllm_kb.engine.scan.python_call_site import call_name, call_site, trl_site
from vllm_kb.engine.scan.python_prefilter import CALLEES as _CALLEES, TARGETS, TRL_CONFIGS, could_hold_site, may_call_wrapper
from vllm_kb.engine.scan.python_flow import Flow
from vllm_kb.engine.scan.python_links import Links
from vllm_kb.engine.scan.python_process import ImportTime
from vllm_kb.engine.scan.python_scope import Scope, chain, children, function_scope, module_attr
from vllm_kb.engine.scan import argv_lists, envfile, python_attr_sets, python_env, python_stmt_lines, script_env, wrapper_args
from vllm_kb.engine.scan.deploy import image_entry
from vllm_kb.engine.scan.python_values import _Resolver
from vllm_kb.engine.scan.site import Site


def _imports(imported: list, module_level: frozenset = frozenset()) -> tuple[dict[str, str], set[str]]:
    """Local names bound to vLLM/TRL target classes, and local names bound to those modules (or to
    a drop-in package's module that re-exports vLLM: `from lmcache_vllm import vllm`). A later import
    at the module's top level (ids in `module_level`) that binds the same name to something else rebinds it:
    ipex-llm's audio_language.py:8-9 imports vLLM's LLM, then `IPEXLLMClass as LLM`, and calls the latter."""
    classes: dict[str, str] = {}
    modules: set[str] = set()
    again = python_subclass.reexports()
    for node in imported:
        if id(node) in module_level:
            _rebound(node, classes, again)
        if isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            for a in node.names:
                if a.name == "*" and (node.module == "vllm" or node.module in again):
                    # `from vllm import *`: vllm/__init__.py's __all__ holds LLM, EngineArgs, AsyncEngineArgs …
                    classes.update({t: t for t in TARGETS if t not in classes})
                    continue
                if (top == "vllm" or node.module in again) and a.name in TARGETS or (top == "trl" and a.name in TRL_CONFIGS):
                    classes[a.asname or a.name] = a.name
                elif f"{node.module}.{a.name}" in again:
                    modules.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in ("vllm", "trl"):
                    modules.add(a.asname or a.name.split(".")[0])
                elif a.name in again and a.asname:
                    modules.add(a.asname)
    return classes, modules


def _rebound(node: ast.Import | ast.ImportFrom, classes: dict[str, str], again) -> None:
    """Forget the names an import binds to something that is not vLLM's (or TRL's) class."""
    if isinstance(node, ast.ImportFrom):
        top = (node.module or "").split(".")[0]
        ours = node.level == 0 and (top in ("vllm", "trl") or node.module in again)
        for a in node.names:
            if a.name != "*" and not ours:
                classes.pop(a.asname or a.name, None)
    else:
        for a in node.names:
            classes.pop(a.asname or a.name.split(".")[0], None)


def optional_import(node: ast.Assign) -> ast.ImportFrom | None:
    """`LLM, _has_vllm = optional_import("vllm", "LLM")` (lmms-eval's lmms_eval/imports.py: the name when
    the package imports, a stub raising ImportError on use otherwise) read as `from vllm import LLM`: a
    helper whose name says it imports, handed vLLM's module and one of its classes as literals."""
    v, t = node.value, node.targets[0] if len(node.targets) == 1 else None
    f = v.func if isinstance(v, ast.Call) else None
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if not (isinstance(v, ast.Call) and "import" in name.lower() and len(v.args) >= 2):
        return None
    mod, cls = (a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in v.args[:2])
    target = t.elts[0] if isinstance(t, ast.Tuple) and t.elts else t
    if not (isinstance(mod, str) and mod.split(".")[0] == "vllm" and cls in TARGETS and isinstance(target, ast.Name)):
        return None
    return ast.copy_location(ast.ImportFrom(module=mod, names=[ast.alias(name=cls, asname=target.id)], level=0), node)


def _target(call: ast.Call, classes: dict[str, str], modules: set[str]) -> str | None:
    f = call.func
    if isinstance(f, ast.Name):
        return classes.get(f.id)
    if isinstance(f, ast.Attribute) and (f.attr in TARGETS or f.attr in TRL_CONFIGS):
        return module_attr(f, modules)
    return None


@dataclass
class Found:
    """A call the scanner reads, with what its values are resolved against."""
    call: ast.Call
    target: str
    scope: Scope | None
    levels: list  # (block, index) pairs from the module down to the statement that holds the call
    cls: ast.ClassDef | None = None
    fns: tuple = ()  # enclosing function definitions, outermost first (their decorators)
    resolver: _Resolver | None = None


def scan(ctx: ScanContext, rel: str, text: str, mounted: dict[str, str] | None = None) -> list[Site]:
    """The sites of a Python module; `mounted`: the environment the process that runs it is given beside
    what the project binds to the file (the containers that mount a ConfigMap holding it: yaml_python)."""
    wrapper_words = python_subclass.words_in(ctx, text)
    pickable = python_opaque.could_pick(ctx, text)
    opaque_ok = pickable > 0  # the calls `pick` reads are collected wherever the file is parsed
    if not could_hold_site(text) and pickable < 2 and not may_call_wrapper(text, wrapper_words) \
            and not python_spawn_helpers.may_call(ctx, text, rel) and not argv_lists.mentions(text):
        return []
    try:
        tree = parse_python(text, rel)
    except SyntaxError as e:
        ctx.skip(rel, "python-syntax", e.lineno, e.msg)
        return []
    except (ValueError, RecursionError, MemoryError) as e:
        ctx.skip(rel, "parse-error", detail=type(e).__name__)
        return []
    # a config's `dict(type=Wrapper, …)` is the call its runner makes later (engine/scan/lazy_config.py)
    lazy = lazy_config.rewrite(tree, wrapper_words, text)
    # one walk: the imports, and the calls whose callee's name can be a target
    imported: list = []
    candidates: list[tuple] = []
    commands: list[tuple] = []
    loose: list[tuple] = []  # calls of three or more keywords, for the opaque fallback
    launch_lists: list[tuple] = []  # argv lists written as a vLLM launch (argv_lists.py)

    # a function of the file that runs the command it is handed: its calls are the sites (python_spawn_helpers)
    own = _own_helpers(tree, text)  # found once: the file's own calls of them and other modules' both read it
    helpers = {**python_spawn_helpers.imported(ctx, tree, text, rel), **_spawn_helpers(tree, own)}
    # a class of this file that subclasses LLM, or a wrapper this project or a package defines
    callees = _CALLEES | wrapper_words | python_subclass.methods(wrapper_words) | {k.rsplit(".", 1)[-1] for k in helpers} \
        | {name for name, bases in python_text.class_heads(text) if "LLM" in bases}

    def visit(body: list[ast.stmt], block: list[ast.stmt], cls: ast.ClassDef | None, fns: tuple):
        for stmt in body:
            for node in _walk_stmt(stmt):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    imported.append(node)
                elif isinstance(node, ast.Assign) and (as_import := optional_import(node)) is not None:
                    imported.append(as_import)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if cls is not None and node.name == "__command__":  # BentoML runs the argv it returns
                        ret = next((st for st in reversed(node.body) if isinstance(st, ast.Return) and st.value is not None), None)
                        if ret is not None:
                            commands.append((ret.value, node.body, cls, fns + (node,)))
                    visit(node.body, node.body, cls, fns + (node,))
                elif isinstance(node, ast.ClassDef):
                    visit(node.body, block, node, fns)
                elif (isinstance(node, ast.Call) and call_name(node.func) in callees) or (isinstance(node, ast.Dict) and container_spec.candidate(node)):
                    candidates.append((node, block, cls, fns))
                elif opaque_ok and isinstance(node, ast.Call) and len(node.keywords) >= python_opaque.MIN_ENGINE_KEYWORDS:
                    loose.append((node, block, cls, fns))
                elif argv_lists.starts_launch(node):
                    launch_lists.append((node, block, cls, fns))

    visit(tree.body, tree.body, None, ())
    classes, modules = _imports(imported, frozenset(id(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))))
    wrappers = python_subclass.bind(imported, tree, rel, ctx, ({k for k, v in classes.items() if v == "LLM"}, modules)) \
        if len(callees) > len(_CALLEES) or wrapper_words & _CALLEES else {}  # curator's class is named LLM too
    # a wrapper that builds vLLM only when written so (curator's backend="vllm") is a target only then (called)
    classes.update({local: w.target for local, w in wrappers.items() if not w.method and not w.when and not w.prefix})
    tools = python_tools.imports(imported)
    if not classes and not modules and not wrappers and not tools.any() and "vllm" not in text.lower() and not loose:
        return []
    found: list[Found] = []
    inner = {id(h.spawn) for h in helpers.values()}  # its command is a parameter: the calls of the helper say it
    if own:  # a helper of this module that other modules import and call
        inner |= {id(own[n].spawn) for n in python_spawn_helpers.called_elsewhere(ctx, rel, own)}
    for node, block, cls, fns in candidates:
        if id(node) in inner:
            continue
        t = container_spec.TARGET if isinstance(node, ast.Dict) else _target(node, classes, modules) or getattr(python_subclass.called(node, wrappers), "target", None) or tools.target(node) \
            or ("spawn-helper" if python_spawn_helpers.callee(node.func) in helpers else None)
        if t:
            found.append(Found(node, t, None, chain(block, node), cls, fns))
    if "bentoml" in tools.modules.values():
        found += [Found(node, "bentoml-command", None, chain(block, node), cls, fns) for node, block, cls, fns in commands]
    opaque = {} if found else python_opaque.pick(ctx, tree, loose, ctx.catalog.is_engine_arg, text)
    found += [Found(node, "LLM", None, chain(block, node), cls, fns) for node, block, cls, fns in loose if id(node) in opaque]
    # a file that spawns, or hands a container or a job its command, reads its lists itself
    if launch_lists and not own and not any(f.target not in TARGETS and f.target not in TRL_CONFIGS for f in found):
        standing = argv_lists.standing(tree, launch_lists)
        found += [Found(node, "argv-list", None, chain(block, node), cls, fns) for node, block, cls, fns in launch_lists if id(node) in standing]
    if not found:
        return []
    image = image_entry.runs(ctx, rel)  # a Dockerfile's CMD runs this file: its vLLM and ENV
    release = image.release() if image else None
    version = ctx.catalog.installed_version(release) or ctx.version_for(rel)
    # os.environ is named in the text of a file that sets it (as Python reads the text)
    env = python_env.assignments(tree, rel) if "environ" in text or not text.isascii() else {}
    lines = line_index(text)
    links = Links(ctx, rel, tree, imported=imported)
    bound_env = {**(mounted or {}), **python_tools.bound_env(ctx, rel)}
    # what the shell that starts the file exported wins over a load_dotenv() (override=False)
    loaded = {**python_env.dotenv_loaded(ctx, rel, tree, text), **script_env.sourced(ctx, rel)}
    dotenv = {k: v for k, v in loaded.items() if k not in bound_env}
    bound_env = {**image_entry.known_env(image), **envfile.values(dotenv), **bound_env}
    scopes: dict[int, Scope] = {0: Scope.of(tree.body)}  # built only for the functions that hold a call
    for f in found:
        scope = scopes[0]
        for fn in f.fns:
            if id(fn) not in scopes:
                scopes[id(fn)] = function_scope(fn, scope)
            scope = scopes[id(fn)]
        f.scope = scope
        f.resolver = _Resolver(f.scope, {}, lines, links=links, cls=f.cls, env=bound_env, tree=tree)
        f.resolver.spawners = tools.subprocess
        f.resolver.env_where = {**({k: f"{v.file}:{v.line}" for k, v in image.env.items()} if image else {}),
                                **{k: v.where for k, v in dotenv.items() if v.value is not None}}
        f.resolver.env_unknown = {k: v.why or "" for k, v in dotenv.items() if v.value is None}
        try:
            f.resolver.flow = Flow(f.levels, f.resolver)
        except RecursionError:
            f.resolver.flow = None
    importing = ImportTime(tree)
    by_id = {id(f.call): f.call for f in found}
    for f in found:
        if f.resolver is not None:
            f.resolver.calls = by_id
    absorbed: set[int] = set()
    sites: list[tuple[int, Site]] = []
    per_file: dict = {"rel": rel}  # what call_facts reads of the whole file, read once for all its sites
    trl_seen: set = set()

    def read_call(f: Found) -> list[tuple[int, Site]]:
        out: list[tuple[int, Site]] = []
        call, target, wrapper = f.call, f.target, None
        many: Site | list[Site] | None = None  # a spawn of a command chosen in branches gives a site per branch
        if target in TRL_CONFIGS:
            # the same config built again in one function (a retry in `except TypeError:`) is one launch
            again = (tuple(id(fn) for fn in f.fns), ast.unparse(call))
            many = trl_site(ctx, rel, text, call, target, f.resolver, tree) if again not in trl_seen else None
            trl_seen.add(again)
        elif target in TARGETS:
            wrapper = opaque.get(id(call)) or python_subclass.called(call, wrappers)
            site = many = call_site(ctx, rel, text, version, call, target, f.resolver, by_id, absorbed, wrapper)
            if target in python_attr_sets.ENGINE_ARGS and wrapper is None:
                python_attr_sets.read(ctx, site, f.levels, call, f.resolver, rel, text, version)
            elif "asdict(" in text or "vars(" in text:
                python_attr_sets.read_spread(ctx, site, call, by_id, f.resolver, tree, rel, text, version, dict(sites), absorbed)
            if id(call) in opaque:
                python_opaque.mark(site, opaque[id(call)], rel, call.lineno)
            if id(call) in lazy:  # built by the runner's task process, never when the config is imported
                site.gpu_request = lazy[id(call)]
                site.launch["engine_in_task"] = True
            else:
                site.launch.update(call_facts(importing, tree, call, target, per_file, text,
                                                  bool(wrapper is not None and wrapper.builds)))
            wrapper_args.process_facts(wrapper, site.launch)
            if f.cls is not None and any(_target(ast.Call(func=b, args=[], keywords=[]), classes, modules) == "LLM" for b in f.cls.bases):
                # a subclass of vLLM's LLM building the engine from its own parameters: whoever imports it brings the release
                site.launch["in_llm_subclass"] = f.cls.name
        elif target == "spawn-helper":
            helper = helpers.get(python_spawn_helpers.callee(call.func))
            synth = python_spawn_helpers.call_for(call, helper) if helper is not None else None
            many = python_argv.site(ctx, rel, text, synth, f.resolver, helper.kind) if synth is not None and helper else None
        else:
            many = python_tools.site(ctx, rel, text, version, f, tree)
        for site in (many if isinstance(many, list) else [many] if many is not None else []):
            site.env = {**dict(env), **(site.env or {})}
            if wrapper is not None and wrapper.env:  # its module's own os.environ writes come last
                site.env.update(wrapper_args.wrapper_env(wrapper, rel, call.lineno))
            image_entry.adopt(ctx, site, image)
            framework_site.device_tp(site)
            python_tools.facts(ctx, rel, tree, f, site)
            out.append((id(call), site))
        return out

    for f in sorted(found, key=lambda x: (x.call.lineno, x.call.col_offset)):
        # a bug met reading one call costs that call (skipped with its line), not the file's other sites
        held = set(absorbed)
        got = ctx.one_launch(rel, f.call.lineno, read_call, f)
        if got is None:
            absorbed.intersection_update(held)  # what the failed call took from its neighbours is theirs again
        sites += got or []
    if any(s.tool == "unsloth_zoo" for _, s in sites):
        # Unsloth patches TRL's trainers to generate with the model's own engine (`self.llm =
        # model.vllm_engine`, unsloth/models/rl.py): a GRPOConfig(use_vllm=True) beside
        # FastLanguageModel.from_pretrained(fast_inference=True) starts no second vLLM
        absorbed |= {cid for cid, s in sites if s.framework == "trl" and s.kind.removesuffix("()") in TRL_CONFIGS}
    if sites:  # a site's diffs check their edits on the lines of the statement they change (engine/fix/parse_chunk.py)
        python_stmt_lines.remember(text, tree)
    return [s for cid, s in sites if cid not in absorbed]


def _own_helpers(tree: ast.Module, text: str) -> dict:
    """The file's functions that run a parameter as a command."""
    if "subprocess" not in text and "system" not in text and "popen" not in text:
        return {}
    spawners = python_argv.spawners([n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))])
    return python_spawn_helpers.find(tree, spawners) if spawners.any() else {}


def _spawn_helpers(tree: ast.Module, found: dict) -> dict:
    """The file's own helpers (`found`: _own_helpers) that the file calls."""
    return {k: v for k, v in found.items() if k in python_spawn_helpers.called(tree, found)} if found else {}


def _walk_stmt(node: ast.AST):
    """The nodes of a statement, stopping at (but yielding) nested functions and classes."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if n is not node and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if n is node and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        kids = children(n)
        kids.reverse()
        stack += kids

