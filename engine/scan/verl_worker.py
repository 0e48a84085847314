"""A verl rollout worker a Python script builds itself: `ActorRolloutRefWorker(config=cfg, role="rollout")`
and `.init_model()`, with `cfg` the `actor_rollout_ref` part of verl's config written as a dict in the
script (`DictConfig({...})`, `OmegaConf.create({...})`, `dict(...)`), directly or returned by a function of
the same file (aliang8/interleaved_reasoning's simple_vllm_rollout_demo.py, eval68). No `main_ppo` runs:
init_model() starts vLLM from `rollout.*` as verl's trainer would. Read as the same keys under
`actor_rollout_ref.` on a command line; a value the script fills in at run time is unknown. The dict's
keys have no command words to edit, so the site's changes are for a person to make."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan import framework_site
from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.hydra_compose import _callee, _imports_verl, _own_calls, verl_site
from vllm_kb.engine.scan.site import Setting, Site

WORKERS = ("ActorRolloutRefWorker", "AsyncActorRolloutRefWorker")
_ROLES = ("rollout", "actor_rollout", "actor_rollout_ref")
_WRAPPERS = ("DictConfig", "OmegaConf.create", "omegaconf.OmegaConf.create", "dict")


def mentions(text: str) -> bool:
    return any(w + "(" in text for w in WORKERS) and "rollout" in text


def scan(ctx, rel: str, text: str) -> list[Site]:
    try:
        tree = parse_python(text, rel)
    except (SyntaxError, ValueError, RecursionError):
        return []
    if not _imports_verl(tree) and not any(w in text for w in ("fsdp_workers", "megatron_workers")):
        return []
    funcs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out = []
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        for call in _own_calls(scope):
            if _callee(call.func).rsplit(".", 1)[-1] not in WORKERS or _role(call) not in _ROLES:
                continue
            given = next((k.value for k in call.keywords if k.arg == "config"), call.args[0] if call.args else None)
            mapping = _mapping(given, scope, funcs)
            if mapping is None:
                continue
            entries = _entries(mapping, (), rel, text)
            if not any(e.written == "actor_rollout_ref.rollout.name" and e.setting.value == "vllm" for e in entries):
                continue
            if (site := verl_site(ctx, rel, call, entries, "verl ActorRolloutRefWorker", {"worker": True})) is not None:
                out.append(site)
    return out


def _role(call: ast.Call) -> str | None:
    role = next((k.value for k in call.keywords if k.arg == "role"), call.args[1] if len(call.args) > 1 else None)
    return role.value if isinstance(role, ast.Constant) and isinstance(role.value, str) else None


def _mapping(node, scope, funcs: dict, depth: int = 0) -> ast.Dict | ast.Call | None:
    """The dict literal (or `dict(...)` call) the config is: unwrapped from DictConfig/OmegaConf.create,
    through a name bound once in the scope, or the single `return` of a function of the file."""
    if node is None or depth > 4:
        return None
    if isinstance(node, ast.Dict):
        return node
    if isinstance(node, ast.Call):
        name = _callee(node.func)
        if name == "dict" and not node.args:
            return node
        if name in _WRAPPERS and node.args:
            return _mapping(node.args[0], scope, funcs, depth + 1)
        if name in funcs:
            rets = [r.value for r in ast.walk(funcs[name]) if isinstance(r, ast.Return) and r.value is not None]
            return _mapping(rets[0], funcs[name], funcs, depth + 1) if len(rets) == 1 else None
        return None
    if isinstance(node, ast.Name):
        bound = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == node.id]
        return _mapping(bound[0], scope, funcs, depth + 1) if len(bound) == 1 else None
    return None


def _items(mapping) -> list[tuple[str, ast.expr]]:
    if isinstance(mapping, ast.Dict):
        return [(k.value, v) for k, v in zip(mapping.keys, mapping.values)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return [(k.arg, k.value) for k in mapping.keywords if k.arg is not None]


def _entries(mapping, path: tuple, rel: str, text: str) -> list[framework_site.Entry]:
    out = []
    for key, value in _items(mapping):
        here = path + (key,)
        if isinstance(value, ast.Dict) or isinstance(value, ast.Call) and _callee(value.func) == "dict" and not value.args:
            out += _entries(value, here, rel, text)
            continue
        name = "actor_rollout_ref." + ".".join(here)
        raw = ast.get_source_segment(text, value) or ""
        try:
            literal = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            out.append(framework_site.Entry(name, Setting(name, None, False, rel, value.lineno, name, raw, "hydra-override",
                                                          note=f"{raw} is filled in at run time")))
            continue
        if isinstance(literal, (dict, list, tuple, set)):
            continue
        out.append(framework_site.Entry(name, Setting(name, literal, literal is not None, rel, value.lineno, name, raw,
                                                      "hydra-override")))
    return out
