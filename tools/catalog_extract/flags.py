"""Engine arguments (EngineArgs and its config dataclasses) and `vllm serve` flags (the parser
vLLM builds at run time), from the interpreter."""
from __future__ import annotations

import ast
import math

from catalog_extract.interp import Interp
from catalog_extract.sources import (
    Source,
    hints,
    literal_choices,
    render,
)
from catalog_extract.values import (
    UNSET,
    Bound,
    Builtin,
    ClassRef,
    EnumMember,
    Frame,
    FuncRef,
    Instance,
    ModRef,
    Parser,
    Subparsers,
    Sym,
    arg_type,
    is_concrete,
)


def to_json(v):
    if v is UNSET or isinstance(v, (Sym, FuncRef, ModRef, Parser, Bound, Builtin)):
        return None
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, EnumMember):
        if isinstance(v.value, int) and not isinstance(v.value, bool) and v.info.is_int_enum:
            return v.value
        if isinstance(v.value, str) and v.value and all(c.isalnum() or c in "_-" for c in v.value):
            return v.value
        return v.name.lower()
    if isinstance(v, (list, tuple, set, frozenset)):
        return [to_json(x) for x in v]
    if isinstance(v, dict):
        return {str(k): to_json(x) for k, x in v.items() if isinstance(k, (str, int, float, bool))}
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return None


def engine_args(it: Interp) -> dict:
    """AsyncEngineArgs' dataclass fields (EngineArgs' plus the async server's own)."""
    src = it.src
    mods = ["vllm.engine.arg_utils"]
    info = src.find_class(mods, "AsyncEngineArgs") or src.find_class(mods, "EngineArgs")
    if info is None:
        return {}
    out = {}
    for name, ann, expr, owner in info.fields():
        hs = hints(src, ann, owner.mod)
        choices = literal_choices(hs)
        default = to_json(it.guarded(it.field_default, owner, name, expr))
        rec = {"type": arg_type(render(hs), default, choices), "default": default}
        if choices:
            rec["choices"] = choices
        out[name] = rec
    return out


def _action_kind(action) -> str | None:
    if isinstance(action, str):
        name, bases = action, set()
    elif isinstance(action, Sym):
        name, bases = action.last, set()
    elif isinstance(action, ClassRef):
        name, bases = action.info.name, action.info.base_names()
    else:
        return None
    if name in ("store_true", "store_false", "store_const", "count") or "_StoreTrueAction" in bases:
        return "switch"
    if name == "BooleanOptionalAction" or "BooleanOptionalAction" in bases:
        return "negatable"
    return None


def _flag_type(kw: dict, kind: str, default) -> str:
    if kind in ("switch", "negatable"):
        return "bool"
    if "__hints__" in kw:
        return arg_type(render(kw["__hints__"]), default, kw.get("choices"))
    if kind == "values":
        return "list"
    t = kw.get("type")
    name = t.last if isinstance(t, Sym) else t.fn.__name__ if isinstance(t, Builtin) else None
    if name in ("int", "float", "str", "bool"):
        return name
    if name == "loads" or isinstance(t, FuncRef):
        return arg_type(None, default) if not isinstance(default, (list, dict)) else \
            ("list" if isinstance(default, list) else "dict")
    return arg_type(None, default)


def _register(calls, engine: dict, flags: dict, frontend: dict, choices_by_flag: dict):
    """Recorded add_argument calls -> flags; dests that are no EngineArgs field -> frontend args."""
    for args, kw in calls:
        names = [a for a in args if isinstance(a, str) and a.startswith("-")]
        if not names:
            continue  # positional (model_tag)
        dest = kw.get("dest")
        if not isinstance(dest, str):
            long = next((n for n in names if n.startswith("--")), names[0])
            dest = long.lstrip("-").replace("-", "_")
        kind = _action_kind(kw.get("action"))
        if kind is None:
            nargs = kw.get("nargs")
            kind = "values" if nargs in ("+", "*") or (isinstance(nargs, int) and nargs > 1) else "value"
        for n in names:
            flags[n] = {"dest": dest, "kind": kind}
            if isinstance(kw.get("choices"), (list, tuple)):
                choices_by_flag[n] = [c for c in kw["choices"] if is_concrete(c)]
        if dest not in engine and dest not in frontend:
            d = kw.get("default", UNSET)
            if d is UNSET and "default" not in kw:
                d = {"store_true": False, "store_false": True}.get(kw.get("action"), None)
            d = None if isinstance(d, Sym) else to_json(d)  # argparse.SUPPRESS and friends
            frontend[dest] = {"type": _flag_type(kw, kind, d), "default": d}


def _serve_roots(it: Interp) -> list[tuple[FuncRef, str]]:
    """The functions that build `vllm serve`'s parser in this release, and how to call them."""
    src, roots = it.src, []
    # 0.7.3+: the `vllm serve` subcommand class, wherever make_arg_parser lives in that release.
    serve = src.find_class(["vllm.entrypoints.cli.serve"], "ServeSubcommand")
    if serve is not None:
        owner, fn = serve.method("subparser_init")
        if fn is not None:
            roots.append((it._method_ref(owner, fn, serve, Instance(serve)), "subparsers"))
    # 0.6.0–0.7.2: `vllm serve` is a subparser built in vllm/scripts.py main().
    scripts = src.module("vllm.scripts")
    if not roots and scripts is not None and isinstance(scripts.defs.get("main"), ast.FunctionDef):
        roots.append((FuncRef(scripts, scripts.defs["main"]), "main"))
    # Before that only `python -m vllm.entrypoints.openai.api_server` existed.
    mod = src.module("vllm.entrypoints.openai.cli_args")
    if not roots and mod is not None and isinstance(mod.defs.get("make_arg_parser"), ast.FunctionDef):
        roots.append((FuncRef(mod, mod.defs["make_arg_parser"]), "parser"))
    # Before 0.4.0 the OpenAI server built its parser in openai/api_server.py: parse_args()
    # (0.3.x) or the `if __name__ == "__main__":` block (0.1.x–0.2.x).
    mod = src.module("vllm.entrypoints.openai.api_server")
    if not roots and mod is not None:
        fn = mod.defs.get("parse_args")
        fn = fn if isinstance(fn, ast.FunctionDef) else _main_block(mod.tree)
        if fn is not None:
            roots.append((FuncRef(mod, fn), "parser"))
    # The engine's own flags, whatever the frontend wiring (normally reached through the above too).
    info = src.find_class(["vllm.engine.arg_utils"], "AsyncEngineArgs") or \
        src.find_class(["vllm.engine.arg_utils"], "EngineArgs")
    if info is not None:
        owner, fn = info.method("add_cli_args")
        if fn is not None:
            roots.append((it._method_ref(owner, fn, info, Instance(info)), "parser"))
    return roots


def _main_block(tree: ast.Module) -> ast.FunctionDef | None:
    """The statements of a module's `if __name__ == "__main__":` block up to `parser.parse_args()`,
    as a function without arguments the interpreter can run (it builds its own parser)."""
    for node in tree.body:
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"):
            body = []
            for st in node.body:
                if "parse_args" in ast.unparse(st):
                    break
                body.append(st)
            fn = ast.FunctionDef(name="__main__", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                 defaults=[]), body=body or [ast.Pass()], decorator_list=[], returns=None, type_params=[])
            return ast.fix_missing_locations(ast.copy_location(fn, node))
    return None


def _parser_rewrites(src: Source) -> dict[str, str]:
    """Options FlexibleArgumentParser rewrites before argparse sees them, flag -> dest: `--config
    file.yaml` (0.6.0+; the serve parser registers it as well) and `-O3` / `-O 3`, which became
    `--optimization-level` when -O stopped being an alias of --compilation-config (0.12.0)."""
    info = src.find_class(["vllm.utils.argparse_utils", "vllm.utils"], "FlexibleArgumentParser")
    if info is None:
        return {}
    text = ast.unparse(info.node)
    out = {}
    if "'--config'" in text:
        out["--config"] = "config"
    if "'-O'" in text and "'--optimization-level'" in text:
        out["-O"] = "optimization_level"
    return out


def cli_flags(it: Interp, engine: dict) -> tuple[dict, dict, dict]:
    flags, frontend, choices = {}, {}, {}
    for fn, how in _serve_roots(it):
        calls: list = []
        args = {"subparsers": [Subparsers()], "parser": [Parser(calls)], "main": []}[how]
        own_parser = how == "parser" and len(fn.node.args.args) == int(fn.bound is not None)
        if own_parser:
            args = []  # 0.4.x: make_arg_parser() builds its own ArgumentParser
        f = Frame(fn.mod, {"__serve_sink__": calls, "__new_parsers__": calls if own_parser else None})
        it.guarded(it.invoke, fn, args, {}, f)
        _register(calls, engine, flags, frontend, choices)
    for flag, dest in _parser_rewrites(it.src).items():
        if flag not in flags:
            flags[flag] = {"dest": dest, "kind": "value"}
            if dest not in engine:
                frontend.setdefault(dest, {"type": "str", "default": None})
    return flags, frontend, choices
