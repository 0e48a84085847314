"""What a Python value may point to beyond its own scope: a constant of another module of the
project (`import config` → `config.MODEL_PATH`, `from .settings import TP`), a function's
parameter default, a class attribute read as `self.X`, and a field of a simple config class
(dataclass, pydantic model, attrs, plain class) instance — read statically, never imported."""
from __future__ import annotations

import ast
from pathlib import PurePosixPath

from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.python_scope import ParamDefault, Scope, assignments, params, walk  # noqa: F401 — re-exported
from vllm_kb.engine.kb.tomlread import toml



def class_attributes(cls: ast.ClassDef) -> dict[str, ast.AST]:
    """`self.X` names of a class: its own assignments (fields with their defaults), and what
    `__init__` assigns to `self.X` exactly once at its top level."""
    out: dict[str, ast.AST] = {}
    for st in cls.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            out["self." + st.targets[0].id] = st.value
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            out["self." + st.target.id] = st.value
    init = next((st for st in cls.body if isinstance(st, ast.FunctionDef) and st.name == "__init__"), None)
    if init is not None:
        seen: dict[str, int] = {}
        for node in ast.walk(init):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) \
                    and node.value.id == "self":
                seen[node.attr] = seen.get(node.attr, 0) + 1
        for st in init.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Attribute) \
                    and isinstance(st.targets[0].value, ast.Name) and st.targets[0].value.id == "self" \
                    and seen.get(st.targets[0].attr) == 1 and "self." + st.targets[0].attr not in out:
                value = st.value
                if not any(isinstance(n, ast.Name) and n.id in params(init) for n in ast.walk(value)):
                    out["self." + st.targets[0].attr] = value
    return out


_ARGPARSE_TYPES = {"int": int, "float": float, "str": str}


def argparse_default(tree: ast.Module, dest: str):
    """(default node or value, flag, type) of the `add_argument` whose destination is `dest`, or
    None. argparse applies `type` to a string default; a store_true flag defaults to False."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        name = None
        if "dest" in kw and isinstance(kw["dest"], ast.Constant):
            name = kw["dest"].value
        else:
            long = [f for f in flags if f.startswith("--")]
            first = long[0] if long else (flags[0] if flags else "")
            name = first.lstrip("-").replace("-", "_")
        if name != dest:
            continue
        flag = next((f for f in flags if f.startswith("--")), flags[0] if flags else dest)
        action = kw.get("action")
        act = action.value if isinstance(action, ast.Constant) else None
        if "default" in kw:
            t = kw.get("type")
            kind = _ARGPARSE_TYPES.get(t.id) if isinstance(t, ast.Name) else None
            return kw["default"], flag, kind
        if act == "store_true":
            return False, flag, None
        if act == "store_false":
            return True, flag, None
        return None if flags and not flags[0].startswith("-") else (ast.Constant(None), flag, None)
    return None



def parses_args(tree: ast.Module | None, node) -> bool:
    """Whether `node` is `parser.parse_args()`, or a call of a top-level function of this file
    whose one `return` hands back such a call (directly or through a name bound to it once):
    `args = get_args()` reads the options' defaults as `args = parser.parse_args()` does."""
    if _is_parse_args(node):
        return True
    if tree is None or not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return False
    fn = next((s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == node.func.id), None)
    if fn is None:
        return False
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
    if len(returns) != 1 or returns[0].value is None:
        return False
    value: ast.expr | None = returns[0].value
    if isinstance(value, ast.Name):
        name = value.id
        bound = [s.value for s in ast.walk(fn) if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)]
        value = bound[0] if len(bound) == 1 else None
    return _is_parse_args(value)


def _is_parse_args(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "parse_args"


# packages that are never a project module
_EXTERNAL = frozenset({"vllm", "os", "sys", "typing", "dataclasses", "json", "re", "subprocess", "asyncio", "torch",
                       "transformers", "ray", "pathlib", "logging", "argparse", "collections", "functools", "itertools"})


class Links:
    """The imports and classes of one module, and the modules of the project it names."""

    def __init__(self, ctx, rel: str, tree: ast.Module, depth: int = 0, imported: list | None = None):
        self.ctx, self.rel, self.depth = ctx, rel, depth
        self.classes: dict[str, ast.ClassDef] = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        self._imported = imported if imported is not None else [n for n in walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
        self._modules: dict[str, str] | None = None
        self._names: dict[str, tuple[str, str]] | None = None

    @property
    def modules(self) -> dict[str, str]:
        """Local name → project file of a module (resolved on first use)."""
        if self._modules is None:
            self._resolve()
        assert self._modules is not None
        return self._modules

    @property
    def names(self) -> dict[str, tuple[str, str]]:
        """Local name → (file, name in that module)."""
        if self._names is None:
            self._resolve()
        assert self._names is not None
        return self._names

    def _resolve(self) -> None:
        self._modules, self._names = {}, {}
        if self.ctx is None:
            return
        for node in self._imported:
            if isinstance(node, ast.Import):
                for a in node.names:
                    f = self._module_file(a.name, 0)
                    if f:
                        self._modules[a.asname or a.name.split(".")[0]] = f
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if base.split(".")[0] in _EXTERNAL and not node.level:
                    continue
                for a in node.names:
                    f = self._module_file(f"{base}.{a.name}" if base else a.name, node.level)
                    if f:
                        self._modules[a.asname or a.name] = f
                        continue
                    f = self._module_file(base, node.level) if base or node.level else None
                    if f:
                        self._names[a.asname or a.name] = (f, a.name)

    def _module_file(self, dotted: str, level: int) -> str | None:
        if not dotted and not level:
            return None
        here = PurePosixPath(self.rel).parent
        if level:
            for _ in range(level - 1):
                here = here.parent
            bases = [here]
        else:
            bases = [here, PurePosixPath("."), *here.parents]
        path = dotted.replace(".", "/")
        for b in bases:
            for cand in (f"{path}.py", f"{path}/__init__.py"):
                full = (b / cand).as_posix() if b.as_posix() != "." else cand
                if not path and cand.startswith("/"):
                    continue
                if self.ctx.resolve_ref(self.rel, full.removeprefix("./")) == full.removeprefix("./"):
                    return full.removeprefix("./")
        return None

    def module(self, file: str):
        """(tree, Links, Scope) of another module of the project, or None."""
        cache = self.ctx.__dict__.setdefault("_py_modules", {})
        if file not in cache:
            text = self.ctx.read(file)
            try:
                tree = parse_python(text, file) if text is not None and self.depth < 4 else None
            except (SyntaxError, ValueError, RecursionError):
                tree = None
            cache[file] = None if tree is None else (tree, Links(self.ctx, file, tree, self.depth + 1),
                                                     Scope(assignments(tree.body)))
        return cache[file]

    def constant(self, name: str, attr: str | None = None):
        """(node, Links, Scope) where an imported name (or `module.attr`) is assigned."""
        if attr is not None and name in self.modules:
            got = self.module(self.modules[name])
            if got and attr in got[2].names:
                return got[2].names[attr], got[1], got[2]
            return None
        if name in self.names:
            file, inner = self.names[name]
            got = self.module(file)
            if got and inner in got[2].names:
                return got[2].names[inner], got[1], got[2]
        return None

    def config_class(self, name: str) -> ast.ClassDef | None:
        if name in self.classes:
            return self.classes[name]
        if name in self.names:
            file, inner = self.names[name]
            got = self.module(file)
            if got:
                return got[1].classes.get(inner)
        return None


def field_of(cls: ast.ClassDef, call: ast.Call, field: str) -> ast.AST | None:
    """The value a config class instance has for a field: the constructor's keyword or positional
    argument (fields in class order), else the class's own default."""
    for kw in call.keywords:
        if kw.arg == field:
            return kw.value
    order = [t.id for st in cls.body
             if (t := st.target if isinstance(st, ast.AnnAssign) else st.targets[0] if isinstance(st, ast.Assign)
                 and len(st.targets) == 1 else None) is not None and isinstance(t, ast.Name)]
    if field in order and order.index(field) < len(call.args):
        return call.args[order.index(field)]
    return class_attributes(cls).get("self." + field)


def bentoml_build_args(ctx, rel: str) -> dict:
    """`[tool.bentoml.build.args]` of the nearest pyproject.toml at or above the file's folder: the
    arguments `bentoml.use_arguments` returns when the service is built."""
    if ctx is None:
        return {}
    cache = ctx.__dict__.setdefault("_bento_args", {})
    folder = PurePosixPath(rel).parent
    for d in (folder, *folder.parents):
        key = d.as_posix()
        if key not in cache:
            cand = "pyproject.toml" if key == "." else f"{key}/pyproject.toml"
            text = ctx.read(cand) if cand in set(ctx.files or ()) else None
            args = None
            if text and "tool.bentoml" in text:
                try:
                    data = toml().loads(text)
                except (toml().TOMLDecodeError, RecursionError):
                    data = {}
                got = ((data.get("tool") or {}).get("bentoml") or {}).get("build", {}).get("args")
                args = got if isinstance(got, dict) else None
            cache[key] = args
        if cache[key] is not None:
            return cache[key]
    return {}
