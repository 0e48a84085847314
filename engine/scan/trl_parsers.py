"""Which parser reads a TRL-looking config file. TRL's `TrlParser.parse_args_and_config` (trl/scripts/
utils.py, 1.16.0 :303-357) sets each key of the `--config` file as the default of whichever dataclass of
the parser declares it, and refuses (0.19+) only the keys none of them takes. A project that passes its
own dataclass (`TrlParser(dataclass_types=[MyArguments])`, minwukim/VRL) reads a file of its own: a key
that dataclass declares (`vllm_max_model_len`) is the project's field, not TRL's, and a file whose keys
only such dataclasses take is no TRL config at all (the `GRPOConfig(...)` the script builds is the site).

Read from the project's scripts that build a `TrlParser` / `HfArgumentParser`; a dataclass imported from
a module the project holds (`from arguments import GRPOTrainingArguments`, yflyzhang/simpleR1) is read
there. Where one cannot be told (imported from a package the project does not hold), nothing is said
and the file is read as TRL's, as before."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from vllm_kb.engine.scan import trl_script
from vllm_kb.engine.scan.context import parse_python, texts_with

PARSERS = ("TrlParser", "HfArgumentParser")
# the packages whose dataclasses are TRL's or transformers' own (GRPOConfig, ScriptArguments, ModelConfig …)
LIBRARIES = ("trl", "transformers")
# a file the project's own dataclasses read: at most this share of its keys may be ones they lack
# (a key renamed in the script but not in an old config: VRL's scale_rewards / scale_reward)
_SLACK = 0.1


@dataclass(frozen=True)
class Parser:
    file: str
    own: frozenset[str]  # the fields the project's own dataclasses declare
    library: bool  # a TRL / transformers dataclass among them: keys none of `own` declares go there


def parsers(ctx) -> list[Parser]:
    """The project's parsers whose every dataclass can be told (read once per scan)."""
    got = ctx.__dict__.get("_trl_parsers")
    if got is None:
        got = ctx.__dict__["_trl_parsers"] = [p for rel, text in texts_with(ctx, ctx.files, ".py", "Parser(")
                                              if any(n + "(" in text for n in PARSERS) for p in _read(ctx, rel, text)]
    return got


def own_keys(ctx, keys: set[str], framework_keys: set[str], script: str | None = None,
             current: frozenset[str] = frozenset()) -> frozenset[str] | None:
    """The keys of a config file that the project's own dataclasses take, where a parser of the
    project reads it (of `script` only, where the launch names the script); None where no parser can
    be matched (the file is read as TRL's). A file fed only to the project's own dataclasses returns
    all its keys. `current`: the keys TRL's release reads (not legacy), kept as TRL's beside its dataclasses."""
    if not keys:
        return None
    fits = []
    for p in parsers(ctx):
        if script is not None and p.file != script:
            continue
        lacking = keys - p.own
        if not p.library and framework_keys <= p.own and len(lacking) <= _SLACK * len(keys):
            fits.append(frozenset(keys))  # every TRL-looking key is the project's own field
        elif p.library and framework_keys & p.own:
            # a key TRL's release still reads keeps TRL's meaning: a project that copies GRPOConfig's
            # fields into its own TrainingArguments subclass (yflyzhang/simpleR1) runs a copy of TRL's
            # trainer on them, and the launch stays a site; only the keys TRL no longer takes are its own
            fits.append(frozenset(keys & p.own - current))
    if not fits:
        return None
    # several scripts may read it: only what all of them agree is the project's
    out = fits[0]
    for f in fits[1:]:
        out &= f
    return out


@dataclass(frozen=True)
class _Module:
    ref: str
    tree: ast.Module
    classes: dict
    library: set


def _module(ref: str, text: str) -> _Module | None:
    try:
        tree = parse_python(text, ref)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return _Module(ref, tree, {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}, _library_names(tree))


def current_keys(fw, keys: set[str]) -> frozenset[str]:
    """The keys TRL reads under that name (not one it dropped: vllm_device)."""
    return frozenset(k for k in keys if (key := fw.key(k)) is not None and not key.legacy)


def _read(ctx, rel: str, text: str) -> list[Parser]:
    mod = _module(rel, text)
    if mod is None:
        return []
    out: list[Parser] = []
    for node in ast.walk(mod.tree):
        if not (isinstance(node, ast.Call) and _name(node.func) in PARSERS):
            continue
        given = next((k.value for k in node.keywords if k.arg == "dataclass_types"), node.args[0] if node.args else None)
        items = given.elts if isinstance(given, (ast.List, ast.Tuple)) else [given] if given is not None else []
        own: set[str] = set()
        lib = False
        for item in items:
            got = _fields(ctx, item, mod, set(), 0)
            if got is None:
                break  # a dataclass this module does not show: the parser cannot be told
            own |= got[0]
            lib = lib or got[1]
        else:
            if items:
                out.append(Parser(rel, frozenset(own), lib))
    return out


# how many project modules a class is followed through (`from arguments import X`, X's base from another)
_DEPTH = 4


def _fields(ctx, node, mod: _Module, seen: set[tuple[str, str]], depth: int) -> tuple[set[str], bool] | None:
    """(fields the project declares, whether a library dataclass is among the class and its bases)."""
    name = _name(node)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in LIBRARIES:
        return set(), True  # trl.GRPOConfig
    if isinstance(node, ast.Name) and node.id in mod.library:
        return set(), True
    cls = mod.classes.get(name) if isinstance(node, ast.Name) else None
    if cls is None and isinstance(node, ast.Name):
        # a dataclass the script imports from a module of the project: its fields are declared there
        other = _imported_module(ctx, mod, name) if depth < _DEPTH else None
        return None if other is None else _fields(ctx, node, other, seen, depth + 1)
    if cls is None or (mod.ref, name) in seen:
        return None
    seen.add((mod.ref, name))
    own = {s.target.id for s in cls.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
    lib = False
    for base in cls.bases:
        got = _fields(ctx, base, mod, seen, depth)
        if got is None:
            return None
        own |= got[0]
        lib = lib or got[1]
    return own, lib


def _imported_module(ctx, mod: _Module, name: str) -> _Module | None:
    """The project module `name` is imported from in `mod` (`from arguments import GRPOTrainingArguments`),
    parsed; None where it comes from elsewhere or the project does not hold it."""
    src = trl_script.imported_from(mod.tree, name)
    ref = trl_script.module_ref(ctx, mod.ref, *src) if src is not None else None
    text = ctx.read(ref) if ref is not None else None
    return _module(ref, text) if ref is not None and text is not None else None


def _library_names(tree: ast.Module) -> set[str]:
    return {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
            and n.module.split(".")[0] in LIBRARIES for a in n.names}


def _name(node) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
