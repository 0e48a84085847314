"""The section of its config file a TRL script hands to the trainer config: `GRPOConfig(**cfg["grpo"])`
where `cfg` is the YAML or JSON file the script loads (`yaml.safe_load(open(args.config))`), run by a
shell line `accelerate launch src/trainers/grpo.py --config configs/grpo_a.yaml`. TRL sees only the keys
under `grpo:`; the file's other keys (`model:`, `data:`) are the script's own. Read only where the script
spreads one such subscript into a TRL config class and the file holds a mapping there; anything else
keeps the file read as a whole, as before. Shape from nhockid235/xling-grpo-sub3b
(https://github.com/nhockid235/xling-grpo-sub3b, src/trainers/grpo.py and configs/grpo_*.yaml, eval86)."""
from __future__ import annotations

import ast
import fnmatch
import json
import posixpath
import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import config_extends, python_datafiles, trl_script
from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.framework_site import Entry, mapping_entries
from vllm_kb.engine.scan.site import Setting


def section(ctx, rel: str, script: str, config: str) -> tuple[str, ...] | None:
    """The key path under which `config` (or a parent the project's loader merges into it) holds what
    the script gives its TRL config class."""
    got = _spread(ctx, rel, script)
    if got is None:
        return None
    path, _ = got
    for _ in range(config_extends.DEPTH):
        data = config_extends.data_of(ctx, config)
        for k in path:
            data = data.get(k) if isinstance(data, dict) else None
        if isinstance(data, dict):
            return path
        up = config_extends.parent(ctx, config)
        if up is None or up[1] is None or not _follows(ctx, rel, script, up[0]):
            return None
        config = up[1]
    return None


def section_entries(ctx, rel: str, script: str, config: str, part: tuple[str, ...], read, depth: int = 0) -> list[Entry]:
    """The section's entries of `config` (`read(config, part)`) over those of the parent it names
    (engine/scan/config_extends.py): merged where the script's loader visibly does, else unknown."""
    own = read(config, part)
    key, parent = config_extends.parent(ctx, config) or ("", None) if depth < config_extends.DEPTH else ("", None)
    if parent is None:
        return own
    followed = _follows(ctx, rel, script, key)
    inherited = section_entries(ctx, rel, script, parent, part, read, depth + 1) if followed else read(parent, part)
    return config_extends.merge(own, inherited, followed, parent, key)


def _follows(ctx, rel: str, script: str, key: str) -> bool:
    loader = (_spread(ctx, rel, script) or (None, None))[1]
    return loader is not None and config_extends.follows(ctx, loader[0], loader[1], loader[2], key)


def _spread(ctx, rel: str, script: str):
    """(the key path, (script, tree, the loader call or None)) of the one config section the script spreads
    into its TRL config class, or None."""
    ref = trl_script.script_ref(ctx, rel, script)
    text = ctx.read(ref) if ref is not None else None
    if text is None or "**" not in text:
        return None
    try:
        tree = parse_python(text, str(ref))
    except (SyntaxError, ValueError, RecursionError):
        return None
    spread = [_bound(tree, kw.value) for node in ast.walk(tree) if isinstance(node, ast.Call) and _trl_config(node.func)
              for kw in node.keywords if kw.arg is None]
    paths = {p for e in spread if (p := _subscripts(e)) is not None}
    if len(paths) != 1 or any(_names_its_file(tree, e) for e in spread):
        return None  # a file the code names itself is read at the GRPOConfig call (python_entries), whatever --config says
    expr = spread[0]
    while isinstance(expr, ast.Subscript):
        expr = expr.value
    call = _bound(tree, expr) if isinstance(expr, ast.Name) else expr
    return next(iter(paths)), ((ref, tree, call) if isinstance(call, ast.Call) else None)


def _trl_config(func) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name.endswith("Config") and trl_script._TRL_NAME.fullmatch(name) is not None


def _bound(tree: ast.Module, node):
    """`**grpo_kwargs` bound once to `dict(cfg["grpo"])`, `cfg["grpo"].copy()` or `cfg["grpo"]`: that
    expression (keys the script pops from it are TRL's no more, but they are no engine arguments either)."""
    if not isinstance(node, ast.Name):
        return node
    found = [st.value for st in ast.walk(tree) if isinstance(st, ast.Assign) and len(st.targets) == 1
             and isinstance(st.targets[0], ast.Name) and st.targets[0].id == node.id]
    if len(found) != 1:
        return node
    value = found[0]
    if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords and (
            (isinstance(value.func, ast.Name) and value.func.id in ("dict", "deepcopy"))
            or (isinstance(value.func, ast.Attribute) and value.func.attr == "deepcopy")):
        return value.args[0]
    if isinstance(value, ast.Call) and not value.args and isinstance(value.func, ast.Attribute) and value.func.attr == "copy":
        return value.func.value
    return value


def _names_its_file(tree: ast.Module, expr) -> bool:
    """The spread mapping comes from a loader whose file the code writes as a literal."""
    while isinstance(expr, ast.Subscript):
        expr = expr.value
    call = _bound(tree, expr) if isinstance(expr, ast.Name) else expr
    arg = call.args[0] if isinstance(call, ast.Call) and call.args else None
    if isinstance(arg, ast.Name):  # `with open("c.yaml") as f: cfg = yaml.safe_load(f)`
        arg = next((i.context_expr for st in ast.walk(tree) if isinstance(st, (ast.With, ast.AsyncWith)) for i in st.items
                    if isinstance(i.optional_vars, ast.Name) and i.optional_vars.id == arg.id), arg)
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "open" and arg.args:
        arg = arg.args[0]
    return isinstance(arg, ast.Constant) and isinstance(arg.value, str)


def _subscripts(node) -> tuple[str, ...] | None:
    """`cfg["grpo"]`, `cfg["train"]["grpo"]`, `yaml.safe_load(f)["grpo"]`: the string keys, outermost first."""
    keys: list[str] = []
    while isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        keys.insert(0, node.slice.value)
        node = node.value
    return tuple(keys) if keys and isinstance(node, (ast.Name, ast.Call, ast.Attribute)) else None


_HOLE = re.compile("\ue000.*?\ue001", re.S)


_ONE_OF = re.compile("\ue000(?:\\$\\w+: )?one of (.*)\ue001", re.S)


def candidates(ctx, rel: str, text: str | None) -> list[str]:
    """The project's config files a `--config` word may name when part of it is unknown: each value a
    `case` gives the variable (`$CONFIG: one of a.yaml | b.yaml`), the word's holes as `*`
    (`configs/grpo_${CONDITION}.yaml`), from the project root, else beside the script."""
    if not text or "\ue000" not in text:
        return []
    if m := _ONE_OF.fullmatch(text.strip("'\"")):
        alts = [a.strip() for a in m.group(1).split(" | ") if a.strip() not in ("(unset)", "(nothing)", "")]
        found: list[str] = []
        for a in alts:
            got = candidates(ctx, rel, a) if "\ue000" in a else [ref] if (ref := ctx.resolve_ref(rel, a)) else []
            if not got:
                return []  # one value names no file of the project: what it reads is not known
            found += [g for g in got if g not in found]
        return found
    pattern = _HOLE.sub("*", text).strip("'\"")
    if not pattern.endswith((".yaml", ".yml", ".json")) or not pattern.replace("*", "").strip("/."):
        return []
    files = sorted(ctx.files)
    for base in (pattern, posixpath.normpath(posixpath.join(posixpath.dirname(rel), pattern))):
        hits = [f for f in files if fnmatch.fnmatchcase(f, base)]
        if hits:
            return hits
    return []


def merged_entries(ctx, configs: list[str], part: tuple[str, ...], entries_of) -> list[Entry]:
    """The section's keys over every config the launch may read: a key each sets to the same value is
    known (its place not edited: the others hold it too); one they differ on, or only some set, is
    unknown, never one file's value or TRL's default."""
    per = [{e.written: e for e in entries_of(c, part)} for c in configs]
    out = []
    for key in dict.fromkeys(k for got in per for k in got):
        here = [got.get(key) for got in per]
        first = next(e for e in here if e is not None)
        s = first.setting
        values = [e.setting.value if e is not None else None for e in here]
        same = all(e is not None for e in here) and all(v == values[0] for v in values)
        shown = " | ".join(dict.fromkeys("(unset)" if e is None else e.setting.raw for e in here))
        out.append(Entry(key, Setting(s.name, s.value if same else None, same, s.file, s.line, s.key,
                                      s.raw if same else shown, s.syntax,
                                      None if same else f"one of: {shown} ({len(configs)} configs)"), first.lines))
    return out


def python_entries(ctx, resolver, tree: ast.Module, node) -> tuple[list[Entry], str, tuple[str, ...]] | None:
    """`GRPOConfig(**cfg["grpo"])` where the script itself loads `cfg` from a file its code names
    (`yaml.safe_load(open("configs/grpo.yaml"))`): that section's keys, each at its place in the file."""
    path = _subscripts(expr := _bound(tree, node))
    if path is None:
        return None
    while isinstance(expr, ast.Subscript):
        expr = expr.value
    call = _bound(tree, expr) if isinstance(expr, ast.Name) else expr
    ref = python_datafiles.file_of(resolver, call)
    own = _section_of(ctx, ref, path) if ref is not None else None
    if ref is None or own is None:
        return None
    ctx.referenced.add(ref)
    if (up := config_extends.parent(ctx, ref)) is not None and up[1] is not None:
        # a library loader (yaml.safe_load, json.load) merges no parent: a key only the parent sets is unknown
        own = config_extends.merge(own, _section_of(ctx, up[1], path) or [], False, up[1], up[0])
    return own, ref, path


def _section_of(ctx, ref: str, path: tuple[str, ...]) -> list[Entry] | None:
    text = ctx.read(ref)
    if text is None:
        return None
    try:
        doc = yamlio.Document(data=json.loads(text)) if ref.endswith(".json") else yamlio.load(text)
    except (ValueError, yamlio.YamlError):
        return None
    data = doc.data
    for k in path:
        data = data.get(k) if isinstance(data, dict) else None
    return mapping_entries(data, doc, ref, False, path, len(path)) if isinstance(data, dict) else None
