"""The vLLM constructors the project's launch path calls itself (`SamplingParams(…)`,
`OpenAIServingChat(…)`, `LoRARequest(…)`), with the keywords each call passes — held against the
keywords the release takes (knowledge/frameworks/vllm_classes.json) by
engine/check/project_kwargs.py. Read statically from the files engine/scan/project_imports.py
finds the launch file loading.

A keyword is one written at the call (`n=2`), or a string key of a dict literal spread into it
(`**{"use_beam_search": False}`, or `**params` where `params` is assigned one dict literal in the
same scope). When the call runs: at start when it stands at module level or in any `__init__` (a
server builds its service class as it starts: BentoML's, Ray Serve's), or in `main` or a set-up function (`setup_*`, `init_*`, `load_*`, `build_*`, `create_*`, `start*`, `lifespan`,
a `startup` hook); else when the function is called — a request handler, most often.

A call under `if args.X:` (or `if args.X is not None:`), where `--X` is an argparse option of the
same file that defaults to nothing (None, False, ""), runs only when the command line gives `--X`:
`guard` names that option, and engine/check/project_kwargs.py asks whether the project ever
passes it (MMLU-Pro's `LoRARequest(lora_path=…)` under `if args.lora_path:`)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from vllm_kb.engine.scan import python_links

CLASSES = frozenset({"SamplingParams", "OpenAIServingChat", "OpenAIServingCompletion", "OpenAIServingModels",
                     "BaseModelPath", "LoRARequest", "OpenAIServingEmbedding"})
_START = re.compile(r"^(__init__|main|lifespan|startup|on_startup|(setup|init|load|build|create|start|make)(_\w*)?)$|startup")


@dataclass(frozen=True)
class ClassCall:
    cls: str  # vLLM's class name
    keywords: tuple[str, ...]
    file: str
    line: int
    at_start: bool
    guard: str | None = None  # the option (`--lora_path`) without which the call never runs
    guard_flags: tuple[str, ...] = ()  # every spelling of that option (`--lora_path`, `-lp`)
    # keywords given an empty value as written (`logits_processors=None`, `=[]`): present to the
    # signature (L140), yet nothing a per-request check (`if params.logits_processors:`) acts on
    empty: tuple[str, ...] = ()


def _bound_classes(module: ast.Module) -> tuple[dict[str, str], set[str]]:
    """Local names bound to the classes (`from vllm… import SamplingParams as SP`), and the names
    `vllm` is imported as (for `vllm.SamplingParams(…)`)."""
    local: dict[str, str] = {}
    pkg: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "vllm":
            for a in node.names:
                if a.name in CLASSES:
                    local[a.asname or a.name] = a.name
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "vllm":
                    pkg.add(a.asname or "vllm")
    return local, pkg


def _dict_keys(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return [k.value for k in node.keys]  # type: ignore[union-attr]
    return None


def _scope_dicts(body) -> dict[str, list[str]]:
    """Names assigned exactly once in a scope's own statements, to a dict literal of string keys."""
    seen: dict[str, int] = {}
    dicts: dict[str, list[str]] = {}
    for node in body:
        for sub in ast.walk(node):
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and sub is not node:
                continue
            if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name):
                name = sub.targets[0].id
                seen[name] = seen.get(name, 0) + 1
                keys = _dict_keys(sub.value)
                if keys is not None:
                    dicts[name] = keys
    return {n: k for n, k in dicts.items() if seen.get(n) == 1}


def _keywords(call: ast.Call, dicts: dict[str, list[str]]) -> tuple[str, ...]:
    out: list[str] = []
    for kw in call.keywords:
        if kw.arg is not None:
            out.append(kw.arg)
        elif isinstance(kw.value, ast.Name) and kw.value.id in dicts:
            out += dicts[kw.value.id]
        else:
            out += _dict_keys(kw.value) or []
    return tuple(dict.fromkeys(out))


def _empty(v: ast.expr) -> bool:
    return (isinstance(v, ast.Constant) and v.value is None) or (isinstance(v, (ast.List, ast.Tuple)) and not v.elts)


def _is_start_hook(fn) -> bool:
    return _START.search(fn.name) is not None or any("startup" in ast.unparse(d) for d in fn.decorator_list)


_EMPTY = (None, False, "", 0)


def _spellings(module: ast.Module, flag: str) -> tuple[str, ...]:
    """Every option string of the `add_argument` that declares `flag`."""
    for n in ast.walk(module):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "add_argument":
            names = tuple(a.value for a in n.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
            if flag in names:
                return names
    return (flag,)


def _option(module: ast.Module, node: ast.expr) -> str | None:
    """The flag of `args.X` (any `….X`) when X is an argparse option of this module that defaults
    to nothing, so that a test of it is false unless the command line gives the option."""
    if not isinstance(node, ast.Attribute):
        return None
    got = python_links.argparse_default(module, node.attr)
    if got is None or _required(module, got[1]):
        return None
    default = got[0].value if isinstance(got[0], ast.Constant) else got[0]
    return got[1] if not isinstance(default, ast.AST) and default in _EMPTY and got[1].startswith("-") else None


def _required(module: ast.Module, flag: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "add_argument"
               and any(isinstance(a, ast.Constant) and a.value == flag for a in n.args)
               and any(k.arg == "required" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                       for k in n.keywords)
               for n in ast.walk(module))


def _given(module: ast.Module, test: ast.expr) -> str | None:
    """The option a branch's test needs given: `args.X`, `args.X is not None`, `args.X != ""`,
    or one side of an `and` of them."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return next((g for v in test.values if (g := _given(module, v))), None)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value in _EMPTY and isinstance(test.ops[0], (ast.IsNot, ast.NotEq)):
        return _option(module, test.left)
    return _option(module, test)


def _absent(module: ast.Module, test: ast.expr) -> str | None:
    """The option whose absence a test asks (`not args.X`, `args.X is None`): its `else` needs it given."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _option(module, test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value is None and isinstance(test.ops[0], ast.Is):
        return _option(module, test.left)
    return None


def calls(path: str, module: ast.Module) -> list[ClassCall]:
    local, pkg = _bound_classes(module)
    if not local and not pkg:
        return []
    out: list[ClassCall] = []
    _visit(path, module, local, pkg, out, module.body, True, None)
    return out


def _visit(path: str, module: ast.Module, local: dict, pkg: set, out: list[ClassCall], body, at_start: bool,
           guard: str | None) -> None:
    """The class calls of `body` into `out`. A function of the module, not a closure in `calls`: a
    nested function that calls itself is a reference cycle, which held each module's tree after the
    audit had done with it (the cycle collector is off in a one-shot command: cli/main.py), 27 MiB
    of the 10,000-file benchmark tree's peak."""
    dicts = _scope_dicts(body)
    for node in body:
        stack: list[tuple[ast.AST, str | None]] = [(node, guard)]
        while stack:
            n, g = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # an __init__ runs when its class is built: a server builds its service class at start
                _visit(path, module, local, pkg, out, n.body, (at_start and _is_start_hook(n)) or n.name == "__init__", g)
                continue
            if isinstance(n, ast.ClassDef):
                _visit(path, module, local, pkg, out, n.body, at_start, g)
                continue
            if isinstance(n, ast.Try) and _handles_type_error(n):
                # `try: LoRARequest(…, load_inplace=True) except TypeError: <fallback>` (eval81 CODE-GRPO's
                # vendored TRL): the project answers the refusal itself, so the tried call is no launch failure
                stack.extend((c, g) for c in reversed([*n.handlers, *n.orelse, *n.finalbody]))
                continue
            if isinstance(n, ast.If):
                inner, other = _given(module, n.test), _absent(module, n.test)
                kids = [(n.test, g)] + [(c, g or inner) for c in n.body] + [(c, g or other) for c in n.orelse]
                stack.extend(reversed(kids))
                continue
            if isinstance(n, ast.Call):
                f = n.func
                cls = local.get(f.id) if isinstance(f, ast.Name) else \
                    f.attr if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in pkg \
                    and f.attr in CLASSES else None
                if cls:
                    empty = tuple(k.arg for k in n.keywords if k.arg and _empty(k.value))
                    out.append(ClassCall(cls, _keywords(n, dicts), path, n.lineno, at_start, g,
                                         _spellings(module, g) if g else (), empty))
            stack.extend((c, g) for c in reversed(list(ast.iter_child_nodes(n))))


def _handles_type_error(node: ast.Try) -> bool:
    """A handler that catches TypeError (by name, `Exception`, or bare) and does not raise again."""
    for h in node.handlers:
        caught = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        names = {c.id if isinstance(c, ast.Name) else c.attr if isinstance(c, ast.Attribute) else None for c in caught}
        if (h.type is None or names & {"TypeError", "Exception", "BaseException"}) \
                and not any(isinstance(s, ast.Raise) for s in h.body):
            return True
    return False
