"""A config file that names a parent (`extends: base.yaml`, `base:`, `defaults:`), for the section a TRL
script hands to its config class (engine/scan/trl_section.py). YAML itself merges nothing: the parent's
keys count only where the project's own loader visibly merges them, that is, the function the script
loads its config with names the key and reads a second file (calls itself, or loads twice). There the
parent's section keys are read under the child's (a nested mapping both set merged, as such loaders
deep-merge). Elsewhere a key only the parent sets is unknown, neither the parent's value nor TRL's
default: the loader may or may not bring it in. Shape from nhockid235/xling-grpo-sub3b
(https://github.com/nhockid235/xling-grpo-sub3b, src/utils/io.py load_config: `extends:`, the child's keys
over the parent's, nested dicts merged; eval86)."""
from __future__ import annotations

import ast
import json
import posixpath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import trl_script
from vllm_kb.engine.scan.framework_site import Entry
from vllm_kb.engine.scan.site import Setting

PARENT_KEYS = ("extends", "base", "defaults")
_LOADS = {"open", "safe_load", "load", "full_load", "unsafe_load"}
DEPTH = 4


def data_of(ctx, config: str):
    text = ctx.read(config)
    if text is None:
        return None
    try:
        return json.loads(text) if config.endswith(".json") else yamlio.load(text).data
    except (ValueError, yamlio.YamlError):
        return None


def parent(ctx, config: str) -> tuple[str, str | None] | None:
    """(the key, the project file it names or None) of the file's parent directive: a file name, as the
    loader joins it to the child's folder."""
    data = data_of(ctx, config)
    for key in PARENT_KEYS:
        v = data.get(key) if isinstance(data, dict) else None
        if isinstance(v, str) and v.endswith((".yaml", ".yml", ".json")):
            ref = posixpath.normpath(posixpath.join(posixpath.dirname(config), v))
            return key, ref if ctx.read(ref) is not None else None
    return None


def follows(ctx, ref: str, tree: ast.Module, call, key: str) -> bool:
    """The loader `call` (the script's `load_config(args.config)`) visibly merges the parent `key` names:
    its function, in the script or a project module it imports from, holds the key as a string and reads
    a second file. yaml.safe_load itself never does."""
    name = call.func.id if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else None
    if name is None:
        return False
    fn = _function(tree, name)
    if fn is None and (imp := trl_script.imported_from(tree, name)) is not None:
        mod = trl_script.module_ref(ctx, ref, *imp)
        text = ctx.read(mod) if mod is not None else None
        sub = trl_script._parse(text) if text is not None else None
        fn = _function(sub, name) if sub is not None else None
    if fn is None or not any(isinstance(n, ast.Constant) and n.value == key for n in ast.walk(fn)):
        return False
    calls = [n.func.id if isinstance(n.func, ast.Name) else n.func.attr if isinstance(n.func, ast.Attribute) else ""
             for n in ast.walk(fn) if isinstance(n, ast.Call)]
    return name in calls or sum(c in _LOADS for c in calls) >= 2


def _function(tree: ast.Module, name: str):
    return next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name), None)


def merge(own: list[Entry], inherited: list[Entry], followed: bool, where: str, key: str) -> list[Entry]:
    """The child's entries over the parent's: followed, a parent's key the child lacks is read as the
    parent sets it and a mapping both set is merged; else that key is unknown."""
    mine = {e.written: e for e in own}
    out = []
    for e in inherited:
        m = mine.get(e.written)
        if m is not None:
            if followed and isinstance(e.setting.value, dict) and isinstance(m.setting.value, dict):
                s = m.setting
                value = _deep(e.setting.value, s.value)
                mine[e.written] = Entry(m.written, Setting(s.name, value, s.resolved, s.file, s.line, s.key, json.dumps(value),
                                                           s.syntax, s.note, pos=s.pos), {**e.lines, **m.lines})
            continue
        if not followed:  # shown where the parent sets it, never edited there (no pos): TRL may not read that place
            s = e.setting
            e = Entry(e.written, Setting(s.name, None, False, s.file, s.line, s.key, f"{s.raw}, set only in the `{key}:` parent",
                                         s.syntax, f"{s.raw} in {where} (`{key}:`), which the project's loader is not seen to merge"), e.lines)
        out.append(e)
    return out + list(mine.values())


def _deep(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _deep(out[k], v) if isinstance(out.get(k), dict) and isinstance(v, dict) else v
    return out
