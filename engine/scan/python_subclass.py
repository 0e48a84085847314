"""Classes that are `vllm.LLM` under another name: a project class that subclasses it (`class
MyLLM(LLM)`, in the same file or imported from another project module) and public wrappers that
do (knowledge/deploy/llm_wrappers.yaml: `bonito.Bonito`). Their calls are LLM() sites. A subclass
with an `__init__` of its own is followed only when it hands `**kwargs` on to vLLM: its own
parameters are not engine arguments; one that takes a fixed set of its own is not read."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath

from vllm_kb.engine.scan import python_text, wrapper_names
from vllm_kb.engine.scan.subclass_init import handed_on
from vllm_kb.engine.scan.context import parse_python, texts_with


@dataclass(frozen=True)
class Wrapper:
    name: str  # the class as the project or the package names it
    origin: str  # the project file that defines it, or the package
    own: frozenset = field(default_factory=frozenset)  # its __init__'s own parameters
    positional: tuple = ()  # its __init__'s positional parameters, in order (empty: LLM's own)
    has_init: bool = False
    target: str = "LLM"  # the vLLM class it is or builds
    rename: tuple = ()  # (its parameter, the engine argument it becomes) for a forwarder
    defaults: tuple = ()  # (engine argument, value) it passes when the call does not
    dicts: frozenset = field(default_factory=frozenset)  # its parameters whose mapping is spread into the engine's
    rest: bool = True  # its **kwargs reach the engine
    forwarder: bool = False  # not a subclass: a class that builds the engine from its own arguments
    cuda_first: bool = False  # it initialises CUDA in the calling process before it builds the engine
    method: str = ""  # the engine is built by `Class.method(…)`, not by `Class(…)`
    when: tuple = ()  # (its keyword, value): the call builds the engine only when it is written so
    implies: tuple = ()  # (its keyword, default, value, ((engine argument, value), …)): derived settings
    decides: tuple = ()  # (engine argument, how): chosen by the wrapper at run time
    mode: str = ""  # the usage mode, when not the target's own
    gpu_dtype: tuple = ()  # (compute capability, dtype at or above it, dtype below): the dtype it picks by GPU
    prefix: str = ""  # a module function: it builds the engine only for a model written with this prefix, stripped
    keyed: tuple = ()  # (its parameter, ((key, engine argument), …)): a mapping whose listed keys reach the engine renamed
    defaults_with: str = ""  # its defaults hold only for calls that write this parameter (the releases that have them)
    path: str = ""  # a module function reached by its dotted path (`outlines.models.vllm`), however it is imported
    imports: tuple = ()  # the modules it is imported from, when the package's other releases had a class so named that does not
    builds: bool = False  # the call builds the engine itself (for an engine-arguments target: no from_engine_args in the file)
    env: tuple = ()  # (variable, value) it sets in os.environ when its module is imported, before the engine
    v1_from: str = ""  # the first release whose engine it builds runs on V1 (an engine-core process): a setting of its own keeps older ones on V0
    host: str = ""  # the package whose own code builds the engine (its pinned release is judged by L43: unsloth_zoo)
    per_call: bool = False  # it builds the engine when called and frees it before returning (curator's offline processor)
    probed: frozenset = field(default_factory=frozenset)  # engine arguments it passes only where the release's EngineArgs has them


@lru_cache(maxsize=None)
def registry() -> dict[tuple[str, str], Wrapper]:
    """(top-level module, class) → wrapper, from the knowledge."""
    from vllm_kb.engine.kb import deploy_tools

    out = {}
    data = deploy_tools.load("llm_wrappers")
    for w in data["wrappers"]:
        out[(w["module"], w["class"])] = Wrapper(w["class"], w["module"])
    for w in data.get("forwarders", []):
        args = w.get("args", {})
        out[(w["module"], w["class"])] = Wrapper(
            w["class"], w["module"], frozenset(args) | frozenset(w.get("dicts", [])) | frozenset(w.get("positional", []))
            | frozenset(w.get("own", [])), tuple(w.get("positional", [])), True,
            w["target"], tuple(args.items()), tuple((w.get("defaults") or {}).items()), frozenset(w.get("dicts", [])),
            bool(w.get("rest")), True, bool(w.get("cuda_first")), w.get("method", ""), tuple((w.get("when") or {}).items()),
            tuple((i["key"], i.get("default"), i["value"], tuple(i["set"].items())) for i in w.get("implies", ())),
            tuple((w.get("decides") or {}).items()), w.get("mode", ""),
            tuple((w["gpu_dtype"][k] for k in ("min_cc", "at_least", "below"))) if w.get("gpu_dtype") else (),
            keyed=tuple((k, tuple(m.items())) for k, m in (w.get("keyed") or {}).items()), defaults_with=w.get("defaults_with", ""),
            imports=tuple(w.get("imports", ())), v1_from=str(w.get("v1_from", "")),
            env=tuple((w.get("env") or {}).items()), builds=bool(w.get("builds")), host=w.get("host", ""),
            per_call=bool(w.get("per_call")), probed=frozenset(w.get("probed", ())))
    for w in data.get("functions", []):
        if w.get("path"):  # a module function that hands its arguments on (outlines' `models.vllm(model_name, **kw)`)
            args = w.get("args", {})
            out[(w["module"], w["function"])] = Wrapper(
                w["function"], w["module"], frozenset(args) | frozenset(w.get("positional", [])) | frozenset(w.get("dicts", []))
                | frozenset(w.get("own", [])), tuple(w.get("positional", [])), True, w["target"], tuple(args.items()),
                tuple((w.get("defaults") or {}).items()), frozenset(w.get("dicts", [])), rest=bool(w.get("rest")), forwarder=True,
                decides=tuple((w.get("decides") or {}).items()), path=f'{w["module"]}.{w["path"]}')
            continue
        # a module function (`litellm.completion(model="vllm/<id>")`): only the model reaches the engine
        out[(w["module"], w["function"])] = Wrapper(w["function"], w["module"], frozenset({"model"}), ("model",), True,
                                                    w["target"], (("model", "model"),), rest=False, forwarder=True,
                                                    prefix=w["prefix"])
    return out


def methods(words: set[str]) -> set[str]:
    """The methods that build the engine for the wrapper classes named in a file (their calls are
    read as candidates; `from_pretrained` alone is not a reason to parse a file)."""
    return {w.method for (_, c), w in registry().items() if w.method and c in words}


def called(call: ast.Call, wrappers: dict[str, Wrapper]) -> Wrapper | None:
    """The wrapper a call is a site of: `Wrapper(…)` or `module.Wrapper(…)`, or `Wrapper.method(…)`
    for one built by a method, when the call is written the way that builds the engine (unsloth's
    `fast_inference=True`, curator's `backend="vllm"`: a value the scan cannot read is not taken for it)."""
    f = call.func
    w = None
    if isinstance(f, ast.Name):
        w = wrappers.get(f.id)
        w = None if w is not None and w.method else w
    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        w = wrappers.get(f"{f.value.id}.{f.attr}")  # `import litellm` … `litellm.completion(…)`, `curator.LLM(…)`
        if w is None or w.method:
            w = wrappers.get(f.value.id)
            w = w if w is not None and w.method == f.attr else None
    elif isinstance(f, ast.Attribute):  # `outlines.models.vllm(…)`
        w = wrappers.get(wrapper_names.dotted(f) or "")
        w = w if w is not None and w.path else None
    if w is None or not _prefixed(call, w):
        return None
    for key, want in w.when:
        kw = next((k for k in call.keywords if k.arg == key), None)
        if not (kw is not None and isinstance(kw.value, ast.Constant) and kw.value.value == want):
            return None
    return w


def _prefixed(call: ast.Call, w: Wrapper) -> bool:
    """A module function builds the engine only for a model it reads with its prefix (LiteLLM's
    `vllm/`; `hosted_vllm/` and every other provider call a server): a model the scan cannot read
    is no site."""
    if not w.prefix:
        return True
    m = argument(call, w, "model")
    return isinstance(m, ast.Constant) and isinstance(m.value, str) and m.value.startswith(w.prefix) and len(m.value) > len(w.prefix)


def reexports() -> frozenset[str]:
    """Dotted modules that stand for `vllm` (a drop-in package that re-exports it)."""
    from vllm_kb.engine.kb import deploy_tools

    return frozenset(deploy_tools.load("llm_wrappers").get("reexports", []))


def argument(call: ast.Call | None, wrapper: Wrapper, key: str) -> ast.expr | None:
    """The value a call gives one of the wrapper's parameters, by keyword or by position."""
    if call is None:
        return None
    kw = next((k.value for k in call.keywords if k.arg == key), None)
    if kw is None and key in wrapper.positional and wrapper.positional.index(key) < len(call.args):
        kw = call.args[wrapper.positional.index(key)]
    return kw


def words(ctx) -> frozenset[str]:
    """Names whose call may be an LLM() site in this project: the public wrappers and the
    project's own subclasses."""
    own = getattr(ctx, "llm_subclasses", None)
    return _public_words() | frozenset(own) if own else _public_words()


@lru_cache(maxsize=None)
def _public_words() -> frozenset[str]:
    return frozenset(c for (_, c), w in registry().items() if not w.path)


def words_in(ctx, text: str) -> set[str]:
    """The words above that the text spells, and the module functions known by a dotted path whose
    package it names (outlines' `vllm`: the word alone is in every file that names vLLM)."""
    found: set[str] = set()
    for w, inside in _search_order(words(ctx)):
        # a word holding another (VLLM holds LLM) is looked for only where that one was found:
        # asked of every Python file, each search is a pass over its text
        if (inside is None or inside in found) and w in text:
            found.add(w)
    return found | {name for name, origin in _by_path() if origin in text}


@lru_cache(maxsize=None)
def _by_path() -> tuple[tuple[str, str], ...]:
    """(name, package) of the module functions known by a dotted path: the registry is walked once,
    not for each Python file."""
    return tuple((w.name, w.origin) for w in registry().values() if w.path)


@lru_cache(maxsize=8)
def _search_order(ws: frozenset[str]) -> tuple[tuple[str, str | None], ...]:
    """Each word, shortest first, with the longest other word it holds (None: none)."""
    order = sorted(ws, key=lambda w: (len(w), w))
    return tuple((w, max((v for v in order[:i] if v in w and v != w), key=len, default=None)) for i, w in enumerate(order))


def index(ctx, files: list[str]) -> dict[str, list[Wrapper]]:
    """The project's subclasses of vllm.LLM, by class name (read once before the scan)."""
    out: dict[str, list[Wrapper]] = {}
    for rel, text in texts_with(ctx, files, ".py", "LLM", "vllm"):
        if not any(re.search(r"\bLLM\b", bases) for _, bases in python_text.class_heads(text)):
            continue
        try:
            tree = parse_python(text, rel)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for w in in_module(tree, rel, _llm_names(tree)):
            out.setdefault(w.name, []).append(w)
    return out


def _llm_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    names, modules = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "vllm":
            names |= {a.asname or a.name for a in node.names if a.name == "LLM"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] == "vllm"}
    return names, modules


def in_module(tree: ast.Module, rel: str, bound: tuple[set[str], set[str]]) -> list[Wrapper]:
    """The classes of a module whose bases name vllm.LLM (`LLM` imported from vllm, `vllm.LLM`)."""
    names, modules = bound
    out = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        if not any(isinstance(b, ast.Name) and b.id in names or isinstance(b, ast.Attribute) and b.attr == "LLM"
                   and isinstance(b.value, ast.Name) and b.value.id in modules for b in node.bases):
            continue
        w = _wrapper(node, rel)
        if w is not None:
            out.append(w)
    return out


def _wrapper(cls: ast.ClassDef, rel: str) -> Wrapper | None:
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return Wrapper(cls.name, rel)
    a = init.args
    params = [p.arg for p in a.posonlyargs + a.args][1:]
    own = frozenset(params + [p.arg for p in a.kwonlyargs])
    rename, defaults = handed_on(init, own)
    if a.kwarg is None and not rename:
        return None  # its own fixed parameters, none handed to LLM as it is: what reaches vLLM is its business
    return Wrapper(cls.name, rel, own, tuple(params), True, rename=rename, defaults=defaults, rest=a.kwarg is not None)


def bind(imported: list, tree: ast.Module, rel: str, ctx, llm_bound: tuple[set[str], set[str]]) -> dict[str, Wrapper]:
    """Local name → wrapper for the wrappers this module can call: defined here, imported from a
    public wrapper package, or imported from the project module that defines the subclass."""
    out = {w.name: w for w in in_module(tree, rel, llm_bound)}
    known = registry()
    project = getattr(ctx, "llm_subclasses", None) or {}
    for node in imported:
        if isinstance(node, ast.Import):
            for a in node.names:  # `import litellm`: its functions that build the engine, as `litellm.f`
                local = a.asname or a.name
                out.update({f"{local}.{fn}": w for (mod, fn), w in known.items() if w.prefix and mod == a.name})
                if a.asname:  # `import bespokelabs.curator as curator`: its classes as `curator.LLM`
                    out.update(wrapper_names.through(a.name, a.asname, known))
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        top = (node.module or "").split(".")[0]
        for a in node.names:
            local = a.asname or a.name
            if node.level == 0 and (top, a.name) in known and wrapper_names.imported(known[(top, a.name)], node.module or ""):
                out[local] = known[(top, a.name)]
            elif node.level == 0 and a.name.islower():  # `from bespokelabs import curator` … `curator.LLM(…)`
                out.update(wrapper_names.through(f"{node.module}.{a.name}", local, known))
            elif a.name in project:
                hit = [w for w in project[a.name] if _module_matches(w.origin, node.module or "", rel, node.level)]
                if len(hit) == 1:
                    out[local] = hit[0]
    for node in imported:
        wrapper_names.paths(node, known, out)
    wrapper_names.subclasses(tree, out)
    return out


def _module_matches(file: str, module: str, rel: str, level: int) -> bool:
    """Whether `from module import X` (relative at `level`) in `rel` names the project file."""
    stem = file[:-3].removesuffix("/__init__")
    if level:
        base = PurePosixPath(rel).parent
        for _ in range(level - 1):
            base = base.parent
        want = (base / module.replace(".", "/")).as_posix() if module else base.as_posix()
        return stem == want.removeprefix("./")
    tail = module.replace(".", "/")
    return stem == tail or stem.endswith("/" + tail)
