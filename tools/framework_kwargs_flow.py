"""The data flow tools/framework_engine_kwargs.py follows inside a framework's package, read with
`ast`: which keys reach a mapping before the engine call that spreads it (`**engine_args`,
`**self.model_args`), the `if` tests each key sits under, and the keywords the callers of a
forwarding function or class pass on (OpenRLHF's LLMRayActor)."""
from __future__ import annotations

import ast


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}


def _enclosing(node, parents, kinds):
    while node in parents:
        node = parents[node]
        if isinstance(node, kinds):
            return node
    return None


def _conditions(node, stop, parents, shared=frozenset()) -> list[str]:
    """The `if` tests between node and stop (exclusive), innermost first, less those in `shared`
    (the ones the engine call itself sits under: they decide the call, not the argument)."""
    out = []
    while node in parents and node is not stop:
        p = parents[node]
        if p in shared:
            pass
        elif isinstance(p, ast.If) and node in p.body:
            out.append(ast.unparse(p.test))
        elif isinstance(p, ast.If) and node in p.orelse:
            out.append("not (" + ast.unparse(p.test) + ")")
        node = p
    return out



def _self_kwargs(fn, parents, attr: str):
    """`**self.kwargs` in a method: the method of the same class that stored its own `**kwargs`
    there (`self.kwargs = kwargs`), and that parameter's name."""
    cls = _enclosing(fn, parents, (ast.ClassDef,))
    # the class and the bases defined beside it (OpenRLHF 0.8: LLMRayActor(BaseLLMRayActor) whose
    # base stores the keywords)
    tree = fn
    while tree in parents:
        tree = parents[tree]
    classes = {c.name: c for c in ast.walk(tree) if isinstance(c, ast.ClassDef)}
    bodies = []
    while cls is not None and cls not in bodies:
        bodies.append(cls)
        cls = next((classes[_name(b)] for b in cls.bases if _name(b) in classes), None)
    for m in [m for c in bodies for m in c.body]:
        if not isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) or m.args.kwarg is None:
            continue
        for n in ast.walk(m):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == m.args.kwarg.arg and any(
                    isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) and t.value.id == "self" for t in n.targets):
                return m, m.args.kwarg.arg
    return None, None


def _is(node: ast.AST, var: str) -> bool:
    """`node` is the mapping `var`: a local name, or `self.attr` written as "self.attr"."""
    if isinstance(node, ast.Name):
        return node.id == var
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and f"{node.value.id}.{node.attr}" == var


def _dict_keys(fn, var: str, before_line: int, call, parents) -> dict[str, dict]:
    """Keys the function puts into mapping `var` before the call (`call` None: anywhere in it,
    under every `if` of its own)."""
    out: dict[str, dict] = {}
    shared = set()
    up = call
    while call is not None and up in parents:
        up = parents[up]
        if isinstance(up, ast.If):
            shared.add(up)

    def add(key, node):
        if isinstance(key, str) and key.isidentifier():
            out.setdefault(key, {"line": node.lineno, "tests": _conditions(node, fn, parents, frozenset(shared))})

    for n in ast.walk(fn):
        if getattr(n, "lineno", 10**9) > before_line:
            continue
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if _is(t, var):
                    if isinstance(n.value, ast.Dict):
                        for k in n.value.keys:
                            if isinstance(k, ast.Constant):
                                add(k.value, n)
                    elif isinstance(n.value, ast.Call) and _name(n.value.func) == "dict":
                        for kw in n.value.keywords:
                            add(kw.arg, n)
                elif isinstance(t, ast.Subscript) and _is(t.value, var):
                    if isinstance(t.slice, ast.Constant):
                        add(t.slice.value, n)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _is(n.func.value, var):
            if n.func.attr == "update":
                for kw in n.keywords:
                    add(kw.arg, n)
                if n.args and isinstance(n.args[0], ast.Dict):
                    for k in n.args[0].keys:
                        if isinstance(k, ast.Constant):
                            add(k.value, n)
            elif n.func.attr == "setdefault" and n.args and isinstance(n.args[0], ast.Constant):
                add(n.args[0].value, n)
    return out


def _popped(fn, var: str) -> set[str]:
    return {n.args[0].value for n in ast.walk(fn)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "pop"
            and isinstance(n.func.value, ast.Name) and n.func.value.id == var and n.args and isinstance(n.args[0], ast.Constant)}


def _callers(trees: dict[str, ast.AST], target: str) -> list[tuple[str, ast.Call]]:
    out = []
    for path, tree in trees.items():
        for n in ast.walk(tree):
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            if isinstance(f, ast.Attribute) and f.attr == "remote":
                f = f.value
                if isinstance(f, ast.Call) and isinstance(f.func, ast.Attribute) and f.func.attr == "options":
                    f = f.func.value
            if _name(f) == target and not (isinstance(n.func, ast.Attribute) and n.func.attr not in ("remote",) and _name(n.func) != target):
                out.append((path, n))
    return out


def _forwarded(trees, all_parents, fn, var: str, parents, got: dict) -> None:
    """Keywords the callers of a forwarding function (or class) pass on to vLLM: written out, or
    spread from a mapping they build (`.remote(**actor_kwargs)`)."""
    named = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
    popped = _popped(fn, var)
    targets = {fn.name}
    if fn.name == "__init__":
        cls = _enclosing(fn, parents, (ast.ClassDef,))
        targets = {cls.name} if cls else targets
        # its subclasses, and parameters that default to one of them (`llm_actor_cls=LLMRayActor`)
        for tree in trees.values():
            for n in ast.walk(tree):
                if isinstance(n, ast.ClassDef) and any(_name(b) in targets for b in n.bases):
                    targets.add(n.name)
        for tree in trees.values():
            for n in ast.walk(tree):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    args = n.args.args + n.args.kwonlyargs
                    defaults = [None] * (len(n.args.args) - len(n.args.defaults)) + list(n.args.defaults) + list(n.args.kw_defaults)
                    targets |= {a.arg for a, d in zip(args, defaults) if d is not None and _name(d) in targets}
    for cpath, call in [c for t in sorted(targets) for c in _callers(trees, t)]:
        cfn = _enclosing(call, all_parents[cpath], (ast.FunctionDef, ast.AsyncFunctionDef))
        passed = {ckw.arg: {"line": ckw.value.lineno} for ckw in call.keywords if ckw.arg}
        for ckw in call.keywords:
            if ckw.arg is None and isinstance(ckw.value, ast.Name) and cfn is not None:
                passed.update(_dict_keys(cfn, ckw.value.id, call.lineno, call, all_parents[cpath]))
        for k, v in passed.items():
            if k not in named and k not in popped:
                got.setdefault(k, v)


def instance_keys(fn, parents, attr: str) -> dict[str, dict]:
    """`**self.attr` where the class builds that mapping on the instance (lighteval and lm-eval:
    `self.model_args = {…}`, then `self.model_args["worker_use_ray"] = True` under
    `if data_parallel_size > 1`): the keys any method of the class (or a base beside it) puts
    there, each under the `if` tests of its own method — a key set on another path than the
    call's still reaches vLLM where that path runs."""
    cls = _enclosing(fn, parents, (ast.ClassDef,))
    out: dict[str, dict] = {}
    for m in (cls.body if cls is not None else []):
        if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for k, v in _dict_keys(m, f"self.{attr}", 10**9, None, parents).items():
                out.setdefault(k, v)
    return out


def returned_keys(fn, parents, attr: str) -> dict[str, dict]:
    """`**self.attr` where a method of the class returns the mapping (_returned_keys), less the keys
    the calling method pops from it first (Xinference 1.10: reasoning_content, enable_thinking). Not
    under the call's own tests: every engine path of the method spreads the same mapping."""
    cls = _enclosing(fn, parents, (ast.ClassDef,))
    out = _returned_keys(cls, parents, attr) if cls is not None else {}
    popped = {n.args[0].value for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr == "pop" and _is(n.func.value, f"self.{attr}") and n.args and isinstance(n.args[0], ast.Constant)}
    return {k: v for k, v in out.items() if k not in popped}


def _method_keys(m, parents) -> dict[str, dict]:
    """Keys a method puts into the mapping it returns (`return model_config`)."""
    out: dict[str, dict] = {}
    for r in ast.walk(m):
        if isinstance(r, ast.Return) and isinstance(r.value, ast.Name):
            for k, v in _dict_keys(m, r.value.id, 10**9, None, parents).items():
                out.setdefault(k, v)
    return out


def _returned_keys(cls, parents, attr: str) -> dict[str, dict]:
    """`self.attr = self.method(self.attr)` (Xinference's VLLMModel: `self._model_config =
    self._sanitize_model_config(self._model_config)`, then `AsyncEngineArgs(**self._model_config)`):
    the keys that method puts into what it returns; a subclass beside it that overrides the method
    adds its own keys for its instances only (test `isinstance(self, Sub)`: VLLMVisionModel's
    limit_mm_per_prompt)."""
    names = {n.value.func.attr for n in ast.walk(cls) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
             and isinstance(n.value.func, ast.Attribute) and _is(n.value.func.value, "self")
             and any(_is(t, f"self.{attr}") for t in n.targets)}
    tree = cls
    while tree in parents:
        tree = parents[tree]
    subs, grew = {cls.name}, True
    while grew:
        more = {c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and any(_name(b) in subs for b in c.bases)}
        grew, subs = not more <= subs, subs | more
    out: dict[str, dict] = {}
    for c in [cls] + [c for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and c.name in subs - {cls.name}]:
        for m in c.body:
            if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name in names:
                own = [] if c is cls else [f"isinstance(self, {c.name})"]
                for k, v in _method_keys(m, parents).items():
                    out.setdefault(k, {**v, "tests": own + list(v.get("tests") or [])})
    return out


def handed_in(fn, parents, var: str, call) -> dict[str, dict]:
    """`**model_args` where model_args is a parameter of a function defined inside a method that
    hands it an instance mapping (lighteval and lm-eval's data-parallel path: one Ray task per
    replica, `run_inference_one_model.remote(*(self.model_args, …))`): that mapping's keys, each
    also under the tests the call sits in up to the method."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or var not in {a.arg for a in fn.args.args}:
        return {}
    outer = _enclosing(fn, parents, (ast.FunctionDef, ast.AsyncFunctionDef))
    if outer is None:
        return {}
    attrs = sorted({n.attr for n in ast.walk(outer) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
                    and not (n in parents and isinstance(parents[n], ast.Attribute))})
    own = _conditions(call, outer, parents)
    out: dict[str, dict] = {}
    for attr in attrs:
        for k, v in instance_keys(outer, parents, attr).items():
            out.setdefault(k, {**v, "tests": own + list(v.get("tests") or [])})
    return out
