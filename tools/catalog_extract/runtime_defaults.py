"""Defaults vLLM decides at start-up by usage context and GPU (max_num_seqs and
max_num_batched_tokens when the user leaves them unset), and what each `performance_mode`
does to them. Read from EngineArgs._set_default_args_v1 (0.8.0–0.10.2), _set_default_args
(0.11.0), get_batch_defaults + _set_default_max_num_seqs_and_batched_tokens_args (0.11.1+).

Each function is walked statement by statement with the stack of `if` conditions around it.
A condition is kept only when it is about the GPU (total memory, device name, compute
capability); a branch for another platform (TPU, CPU, XPU) is dropped, since the catalog
describes CUDA GPUs. The result per argument is an ordered table, first match wins:

    [{"when": {"min_memory_gib": 70, "name_lacks": ["a100"]}, "llm": 16384, "serve": 8192},
     {"llm": 8192, "serve": 2048}]

`llm` is UsageContext.LLM_CLASS (LLM()), `serve` OPENAI_API_SERVER (vllm serve and the api
server), `any` a value for every context, and `other` (on the entry) the value for any other
context, e.g. EngineArgs() (ENGINE_CONTEXT), where the release states it."""
from __future__ import annotations

import ast
import re

from catalog_extract.interp import Interp
from catalog_extract.values import UNSET, Frame

ARGS = ("max_num_batched_tokens", "max_num_seqs")
_VARS = {"default_max_num_batched_tokens": "max_num_batched_tokens", "default_max_num_seqs": "max_num_seqs"}
_CONTEXTS = {"LLM_CLASS": "llm", "OPENAI_API_SERVER": "serve"}
_FUNCS = ("_set_default_args_v1", "_set_default_args", "get_batch_defaults",
          "_set_default_max_num_seqs_and_batched_tokens_args")
_OTHER_PLATFORM = re.compile(r"current_platform\.is_(tpu|cpu|xpu|hpu|neuron|rocm)\(\)|chip_name")
_FAILS = object()  # a condition that never holds on a CUDA GPU


class _Walker:
    def __init__(self, it: Interp, mod, aliases: dict[str, str]):
        self.it, self.mod, self.aliases = it, mod, aliases
        self.rows: dict[str, list] = {a: [] for a in ARGS}
        self.other: dict[str, object] = {}
        self.modes: dict[str, dict] = {}

    # -- conditions ----------------------------------------------------------------------

    def cond(self, test) -> dict | None | object:
        """{} for a condition the table need not record, a dict of GPU conditions, _FAILS for a
        branch that does not run on CUDA, None for a condition about something else."""
        text = ast.unparse(test)
        if _OTHER_PLATFORM.search(text):
            return _FAILS if not isinstance(test, ast.UnaryOp) else {}
        if isinstance(test, ast.BoolOp):
            parts = [self.cond(v) for v in test.values]
            if any(p is _FAILS for p in parts) and isinstance(test.op, ast.And):
                return _FAILS
            if isinstance(test.op, ast.And) and all(isinstance(p, dict) for p in parts):
                out: dict = {}
                for p in parts:
                    for k, v in p.items():
                        out[k] = out.get(k, []) + v if isinstance(v, list) else v
                return out
            if isinstance(test.op, ast.Or):
                names = [m for v in test.values for m in re.findall(r"'([a-z0-9]+)' in device_name", ast.unparse(v))]
                if names and len(names) == len(test.values):
                    return {"name_any": names}
            return None
        m = re.fullmatch(r"device_memory >= (\d+) \* GiB_bytes", text)
        if m:
            return {"min_memory_gib": int(m.group(1))}
        m = re.fullmatch(r"'([a-z0-9]+)' not in device_name", text)
        if m:
            return {"name_lacks": [m.group(1)]}
        m = re.fullmatch(r"'([a-z0-9]+)' in device_name", text)
        if m:
            return {"name_any": [m.group(1)]}
        m = re.fullmatch(r"not (\w+)", text)
        if m and m.group(1) in self.aliases:
            return {"not_capability": self.aliases[m.group(1)]}
        if re.fullmatch(r"(self|orig_)\w+ is None|orig_\w+ is None|self\.\w+ is None", text):
            return {}
        return None

    # -- statements ----------------------------------------------------------------------

    def block(self, body, conds: list):
        for st in body:
            if isinstance(st, ast.If):
                c = self.cond(st.test)
                mode = re.fullmatch(r"self\.performance_mode == '(\w+)'", ast.unparse(st.test))
                if mode:
                    self.mode_effects(mode.group(1), st.body)
                    continue
                if c is _FAILS:
                    self.block(st.orelse, conds)
                    continue
                self.block(st.body, conds + [c])
                self.block(st.orelse, conds + [{} if isinstance(c, dict) else None])
            elif isinstance(st, ast.Try):
                self.block(st.body, conds)
            elif isinstance(st, (ast.Assign, ast.AnnAssign)):
                self.assign(st, conds)

    def assign(self, st, conds):
        targets = st.targets if isinstance(st, ast.Assign) else [st.target]
        for t in targets:
            name = ast.unparse(t)
            arg = _VARS.get(name) or (name[5:] if name.startswith("self.") and name[5:] in ARGS else None)
            if arg is None or st.value is None:
                continue
            if _is_get(st.value):
                self.values(st.value, arg)  # the fallback for other contexts, whatever branch
                continue
            if any(c is None for c in conds):
                continue  # a branch on something other than the GPU: not a static default
            when: dict = {}
            for c in conds:
                for k, v in c.items():
                    when[k] = when.get(k, []) + v if isinstance(v, list) else v
            row = self.values(st.value, arg)
            if row is not None:
                self.rows[arg].append(({"when": when} if when else {}) | row)

    def values(self, node, arg):
        if isinstance(node, ast.Dict):
            row = {}
            for k, v in zip(node.keys, node.values):
                ctx = _CONTEXTS.get(ast.unparse(k).rsplit(".", 1)[-1]) if k is not None else None
                val = self.const(v)
                if ctx is None or val is None:
                    return None  # a per-world-size value (CPU) or an unknown context
                row[ctx] = val
            return row
        if _is_get(node):
            fallback = self.const(node.args[1])
            if fallback is not None:
                self.other[arg] = fallback
            return None
        val = self.const(node)
        return {"any": val} if val is not None else None

    def const(self, node):
        v = self.it.guarded(self.it.ev, node, Frame(self.mod))
        return v if isinstance(v, int) and not isinstance(v, bool) and v is not UNSET else None

    def mode_effects(self, mode: str, body):
        eff = self.modes.setdefault(mode, {})
        for st in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Mult):
                name = ast.unparse(st.target)
                factor = self.const(st.value)
                if name.startswith("self.") and factor is not None:
                    eff[name[5:]] = {"multiply": factor, "when_unset": True}


def _is_get(node) -> bool:
    return isinstance(node, ast.Call) and ast.unparse(node.func).endswith(".get") and len(node.args) == 2


def runtime_defaults(it: Interp) -> tuple[dict, dict]:
    """(context_defaults, performance_modes) of one release."""
    info = it.src.find_class(["vllm.engine.arg_utils"], "EngineArgs")
    if info is None:
        return {}, {}
    walkers = []
    for name in _FUNCS:
        owner, fn = info.method(name)
        if fn is None or (name == "_set_default_args" and "usage_context" not in ast.unparse(fn.args)):
            continue
        aliases = {}
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name):
                m = re.fullmatch(r"current_platform\.is_device_capability\(\((\d+), (\d+)\)\)", ast.unparse(sub.value))
                if m:
                    aliases[sub.targets[0].id] = f"{m.group(1)}.{m.group(2)}"
        w = _Walker(it, owner.mod, aliases)
        w.block(fn.body, [])
        walkers.append(w)
    ctx, modes = {}, {}
    for arg in ARGS:
        rows = [r for w in walkers for r in w.rows[arg]]
        other = next((w.other[arg] for w in walkers if arg in w.other), None)
        if rows:
            ctx[arg] = {"rules": _first_match(rows)}
            if other is not None:
                ctx[arg]["other"] = other
    for w in walkers:
        for mode, eff in w.modes.items():
            modes.setdefault(mode, {}).update(eff)
    return ctx, {m: {"effects": e} for m, e in modes.items()}


def _first_match(rows: list[dict]) -> list[dict]:
    """Rows in source order become a first-match table: an unconditional row written after a
    tiered if/else (0.8.0's `default_max_num_seqs = 1024`) replaces everything before it. An
    `any` value holds for every usage context (EngineArgs() included)."""
    out: list[dict] = []
    for r in rows:
        if "when" not in r and out and all("when" in o for o in out[:-1]) and "when" not in out[-1]:
            out = []  # a later unconditional assignment wins over the whole earlier chain
        out.append(r)
    return out
