"""A function of the file that runs the command it is handed: `def run_cmd(cmd): subprocess.run(cmd,
shell=True)` called as `run_cmd(f"docker run … vllm/vllm-openai:{TAG} --model {MODEL}")`, or
`def spawn(argv, log): return subprocess.Popen(argv, stdout=log)` called with a list built over a
few statements. The command exists only at the call of the helper, so that call is the site: its
argument is read in the caller's scope (python_argv, as if the spawn were written there, with the
helper's `shell=True`), and the spawn inside the helper, whose command is only a parameter, is
not a site of its own.

Only a module-level function whose body hands one of its parameters, never reassigned, as the
command of a subprocess call (subprocess.*, os.system/popen, asyncio's shell) is a helper; the
call must give that parameter by position or by name (`*args` that may hold it: not read). A
helper of another project module counts where the caller imports it by name from that module
(`from utils import run_cmd`: utils.py, or pkg/utils.py for `from pkg.utils import …`) or imports
the module and calls through it (`import pkg.utils as u` + `u.run_cmd(…)`, `from pkg import utils`
+ `utils.run_cmd(…)`). A method of a class of the file is one too, called as `self.run_cmd(cmd)`
(`cls.` for a classmethod, the class's name for a static one): its `self` is no command parameter.
A method of a project class counts in a module whose class subclasses it (`from pkg.base import
Base` + `class Job(Base)`: `self.run_cmd(…)`), and through an instance a name or an attribute holds
(`self.runner = Runner()` + `self.runner.run_cmd(…)`); relative imports are read from the importing
module's folder. The helper may split what it is handed (`subprocess.run(shlex.split(cmd))`,
`cmd.split()`): the call's command is split the same way. The helpers are keyed by the callee as
written (`run_cmd`, `self.run_cmd`, `utils.run_cmd`, `self.runner.run_cmd`)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import lru_cache

from vllm_kb.engine.scan import python_text
from vllm_kb.engine.scan.python_scope import dotted, walk

_COMMAND_FIRST = {("os", "system"), ("os", "popen"), ("asyncio", "create_subprocess_shell")}


@dataclass(frozen=True)
class Helper:
    index: int  # the command parameter's position
    name: str  # and its name
    spawn: ast.Call  # the spawn inside the helper
    kind: tuple = field(default=(), compare=False)  # (module, function) of that spawn, for a helper of another module
    # `shell=shell`, a parameter of the helper: (its position, its name, its default), what each call gives
    shell_at: tuple | None = field(default=None, compare=False)


def _param(arg) -> str | None:
    """The parameter a spawn's command is: `cmd`, or `cmd` split into an argv as the helper hands
    it on (`shlex.split(cmd)`, `cmd.split()`: python_argv reads the split at the call)."""
    if isinstance(arg, ast.Name):
        return arg.id
    f = arg.func if isinstance(arg, ast.Call) else None
    if isinstance(f, ast.Attribute) and f.attr == "split" and not arg.keywords:
        inner = arg.args[0] if isinstance(f.value, ast.Name) and f.value.id == "shlex" and len(arg.args) == 1 \
            else f.value if not arg.args else None
        return inner.id if isinstance(inner, ast.Name) else None
    return None


def find(tree: ast.Module, spawners, methods: bool = True) -> dict[str, Helper]:
    """{callee: Helper} of the file's module-level functions (and, with `methods`, its classes'
    methods) that run a parameter."""
    out: dict[str, Helper] = {}
    per_class: dict[str, dict[str, Helper]] = {}
    for fn in tree.body:
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if (h := _runs_parameter(fn, spawners, 0)) is not None:
                out[fn.name] = h
        elif methods and isinstance(fn, ast.ClassDef):
            for m in fn.body:
                if not isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                deco = {d.id for d in m.decorator_list if isinstance(d, ast.Name)}
                # self / cls is not given at the call
                skip, owners = (0, ("self", fn.name)) if "staticmethod" in deco else \
                    (1, ("cls", fn.name)) if "classmethod" in deco else (1, ("self",))
                if (h := _runs_parameter(m, spawners, skip)) is not None:
                    for owner in owners:
                        out.setdefault(f"{owner}.{m.name}", h)
                    per_class.setdefault(fn.name, {})[m.name] = h
    # an instance held by a name or an attribute: `self.runner = Runner()` + `self.runner.run_cmd(…)`
    for target, owner in instances(tree, set(per_class)).items():
        for name, h in per_class[owner].items():
            out.setdefault(f"{target}.{name}", h)
    return out


def instances(tree: ast.Module, classes: set[str]) -> dict[str, str]:
    """{name or attribute as written: class} for each `x = Cls(…)` / `self.x = Cls(…)` of one of
    `classes` in the file (a name bound to two classes is left out)."""
    out: dict[str, str] = {}
    if not classes:
        return out
    for node in walk(tree):  # the module's node list (python_scope.walk), shared with its other readers
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id in classes:
            for t in node.targets:
                if (d := dotted(t)) and out.setdefault(d, node.value.func.id) != node.value.func.id:
                    out[d] = ""
    return {k: v for k, v in out.items() if v}


def _runs_parameter(fn, spawners, skip: int) -> Helper | None:
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args][skip:]
    if not params:
        return None
    # the names the function rebinds, listed only once a spawn of a parameter is seen: most
    # functions of a large tree hold none, and walking each for them was most of this reading
    assigned = None
    for node in walk(fn):  # ast.walk's order (the first spawn of a parameter is the helper's)
        if not isinstance(node, ast.Call) or not node.args or (name := _param(node.args[0])) is None:
            continue
        kind = spawners.kind(node)
        if kind is None or name not in params:
            continue
        if assigned is None:
            assigned = {n.id for n in walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        if name in assigned or not spawners.spawns(node):
            continue
        if kind[0] == "subprocess" or kind in _COMMAND_FIRST:
            return Helper(params.index(name), name, node, kind, _shell_param(fn, node, params))
    return None


def _shell_param(fn, spawn: ast.Call, params: list[str]) -> tuple | None:
    """`def run(cmd, shell=False): subprocess.check_call(cmd, shell=shell)`: where the call gives `shell`."""
    given = next((k.value for k in spawn.keywords if k.arg == "shell"), None)
    if not isinstance(given, ast.Name) or given.id not in params:
        return None
    every = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    at = every.index(given.id) - len(every) + len(fn.args.defaults)
    default = fn.args.defaults[at] if at >= 0 else None
    return params.index(given.id), given.id, default.value if isinstance(default, ast.Constant) else None


def callee(func) -> str:
    """The callee as written: `run_cmd`, `self.run_cmd`, `pkg.utils.run_cmd` ("" for anything else)."""
    return dotted(func)


def called(tree: ast.Module, helpers: dict[str, Helper]) -> set[str]:
    """The helpers the file calls by name."""
    return {c for n in walk(tree) if isinstance(n, ast.Call) and (c := callee(n.func)) in helpers}


def call_for(call: ast.Call, helper: Helper) -> ast.Call | None:
    """The helper's spawn as if written at `call`: its command the argument the call gives, with
    the helper's `shell=` (its other keywords name the helper's own variables)."""
    given = None
    if not any(isinstance(a, ast.Starred) for a in call.args[:helper.index + 1]) and len(call.args) > helper.index:
        given = call.args[helper.index]
    else:
        given = next((k.value for k in call.keywords if k.arg == helper.name), None)
    if given is None:
        return None
    arg = helper.spawn.args[0]
    if isinstance(arg, ast.Call):  # `shlex.split(cmd)` / `cmd.split()`: the same split of what the call gives
        split = ast.Call(func=arg.func if arg.args else ast.Attribute(value=given, attr="split", ctx=ast.Load()),
                         args=[given] if arg.args else [], keywords=[])
        given = ast.copy_location(split, call)
    shell = [k for k in helper.spawn.keywords if k.arg == "shell"]
    if helper.shell_at is not None:  # the helper's `shell=` is its parameter: the call's value, else its default
        at, name, value = helper.shell_at
        node = call.args[at] if len(call.args) > at else next((k.value for k in call.keywords if k.arg == name), None)
        value = node.value if isinstance(node, ast.Constant) else value if node is None else None
        shell = [ast.keyword(arg="shell", value=ast.Constant(value))]
    out = ast.Call(func=helper.spawn.func, args=[given], keywords=shell)
    return ast.copy_location(out, call) if hasattr(call, "lineno") else out


def _may_bare(text: str) -> bool:
    """The literals every `_BARE` match spells, found by `str.find`: `_BARE` opens with an alternation, which
    the regex engine tries at each `s` and `o` of the text (vLLM's tree: ~2 % of its audit, every Python file)."""
    return "subprocess." in text or "os.system(" in text or "os.popen(" in text


# a spawn whose command is a bare name (a parameter, maybe): the cheap test before a module is parsed
_BARE = re.compile(r"(?:subprocess\.(?:run|Popen|call|check_call|check_output)|os\.(?:system|popen))\(\s*"
                   r"(?:shlex\.split\(\s*)?(\w+)(?:\.split\(\s*\))?\s*\)?\s*[,)]")


def project_index(ctx) -> dict[str, list[tuple[str, Helper]]]:
    """{function name: [(module file, Helper)]} of the project's modules, read once per scan; a
    class's method is keyed `Class.method` (what a subclass in another module calls as `self.method`)."""
    got = ctx.__dict__.get("_spawn_helpers")
    if got is not None:
        return got
    from vllm_kb.engine.scan.context import parse_python
    from vllm_kb.engine.scan.python_argv import spawners

    got = {}
    for rel in ctx.files:
        if not rel.endswith(".py"):
            continue
        text = ctx.read(rel)
        if not text or not _may_bare(text) or not (names := set(_BARE.findall(text))) \
                or not any(re.search(rf"def \w+\([^)]*\b{n}\b", text) for n in names):
            continue
        try:
            tree = parse_python(text, rel)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        sp = spawners([n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))])
        for name, h in find(tree, sp, methods=False).items():
            got.setdefault(name, []).append((rel, h))
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            for key, h in find(ast.Module(body=[cls], type_ignores=[]), sp).items():
                if key.startswith("self."):
                    got.setdefault(f"{cls.name}.{key[5:]}", []).append((rel, h))
    ctx.__dict__["_spawn_helpers"] = got
    return got


def _absolute(node: ast.ImportFrom, rel: str) -> str | None:
    """The module an ImportFrom names, dotted from the project root for a relative one (`from . import
    utils`, `from .utils import run_cmd` in pkg/a.py: pkg, pkg.utils); None where it cannot be told."""
    if not node.level:
        return node.module
    parts = rel.split("/")[:-1]
    if not rel or node.level - 1 > len(parts):
        return None
    parts = parts[:len(parts) - (node.level - 1)] + (node.module.split(".") if node.module else [])
    return ".".join(parts)


def imported(ctx, tree: ast.Module, text: str, rel: str = "") -> dict[str, Helper]:
    """The project helpers this module (`rel`, for its relative imports) imports by name from the
    module that defines them, or calls through the module it imports (keyed `alias.run_cmd`)."""
    index = project_index(ctx)
    if not index or not any(name.rsplit(".", 1)[-1] in text for name in index):
        return {}
    out: dict[str, Helper] = {}
    classes: dict[str, tuple[str, str]] = {}  # a class imported by name: local name → (module, its name)
    functions = [name for name in index if "." not in name]  # called through their module

    def one(name: str, module: str) -> Helper | None:
        tail = module.replace(".", "/") + ".py"
        where = [h for rel, h in index.get(name, ()) if rel == tail or rel.endswith("/" + tail)]
        return where[0] if len(where) == 1 else None

    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (module := _absolute(node, rel)) is not None:
            for a in node.names:
                if module and (h := one(a.name, module)) is not None:
                    out[a.asname or a.name] = h
                if module:
                    classes[a.asname or a.name] = (module, a.name)
                for name in functions:  # `from pkg import utils`: utils.run_cmd(…)
                    if (h := one(name, f"{module}.{a.name}" if module else a.name)) is not None:
                        out[f"{a.asname or a.name}.{name}"] = h
        elif isinstance(node, ast.Import):
            for a in node.names:  # `import pkg.utils [as u]`: pkg.utils.run_cmd(…) / u.run_cmd(…)
                for name in functions:
                    if (h := one(name, a.name)) is not None:
                        out[f"{a.asname or a.name}.{name}"] = h
    # a class of this module on a project class that runs what its method is handed: `self.run_cmd(…)`;
    # an instance of one: `self.runner = Runner()` + `self.runner.run_cmd(…)`
    owners = [("self", b.id) for cls in tree.body if isinstance(cls, ast.ClassDef)
              for b in cls.bases if isinstance(b, ast.Name) and b.id in classes]
    # (walked only where an imported class owns a helper method: every name it binds is needed for its
    # conflicts, but without such a class no owner it finds has a key below)
    owning = {k.split(".", 1)[0] for k in index if "." in k}
    if any(name in owning for _, name in classes.values()):
        owners += [(t, c) for t, c in instances(tree, set(classes)).items()]
    for owner, local in owners:
        module, name = classes[local]
        for key in (k for k in index if k.startswith(name + ".")):
            if (h := one(key, module)) is not None:
                out.setdefault(f"{owner}.{key[len(name) + 1:]}", h)
    return out


def may_call(ctx, text: str, rel: str | None = None) -> bool:
    """For a module the prefilter drops: whether it may call a project helper it imports, or one
    of its own (python_calls._own_helpers). `imported` binds a helper only through an import that
    spells the name of the helper's file (`from pkg.utils import run`, `import pkg.utils`, `from pkg
    import utils`: each module or name it compares with the file's path ends with that name) or a
    relative one that names no module (`from . import run`: the package's own path): a helper named
    like a common call (vLLM's tree has a `run`) sent 335 files of vLLM's tree, 8.8 MB, to the parser
    for nothing. A file that spells none of these keeps the old test only where it may define a
    helper of its own (the words _own_helpers looks for first: `subprocess`, or `system`/`popen` with
    `os` imported). Text outside ASCII is read NFKC-normalised, as Python reads names.
    `imported` binds a method helper (`Class.run`) only through an import of `Class`, and a relative
    import that names no module only to a helper whose file is one of `rel`'s packages (`from . import
    run` in a/b/c.py: a/b.py): vLLM's tree, 17 files (0.4 MB) no longer parsed for nothing."""
    if "import" not in text:
        return False
    index = project_index(ctx)
    called = [name for name in index if (n := name.rsplit(".", 1)[-1]) in text and _called_or_renamed(text, n)]
    if not called:
        return False
    if not text.isascii():  # names as Python reads them (`ｕtils` is `utils`)
        import unicodedata

        text = unicodedata.normalize("NFKC", text)
    if "subprocess" in text:
        return True
    where = [h for name in called if "." not in name or name.partition(".")[0] in text for h, _ in index[name]]
    if any(h[:-3].rpartition("/")[2] in text for h in where) or _PACKAGE_IMPORT.search(text) and _own_package(rel, where):
        return True
    # os.system / os.popen, the other spawns _runs_parameter reads, need `os` imported (python_argv.spawners)
    return ("system" in text or "popen" in text) and ((bound := python_text.imports(text)) is None
                                                     or any(module in ("os", "") for _, module in bound))


def _own_package(rel: str | None, helpers: list[str]) -> bool:
    """Whether a helper's file is a package of `rel` as `_absolute` reads `from .[.…] import x` there
    (the folders from the root down to it, dotted, then each dot a folder: `one`'s tail)."""
    if rel is None:
        return bool(helpers)
    parts = rel.split("/")[:-1]
    tails = {".".join(parts[:k]).replace(".", "/") + ".py" for k in range(1, len(parts) + 1)}
    return any(h in tails or any(h.endswith("/" + t) for t in tails) for h in helpers)


def _called_or_renamed(text: str, name: str) -> bool:
    """`(?<!\\w)name(?:\\s*\\(|\\s+as\\s+\\w)` searched for: the pattern without its lookbehind (which
    starts with the name's literal, so the regex engine skips to each place the name is spelt), the
    lookbehind tested at each match in turn. With the lookbehind first the engine tried every position
    of the file: vLLM's tree has a helper named `run`, and this test was ~3 % of its audit."""
    rx = _name_then_call(name)
    m = rx.search(text)
    while m is not None:
        i = m.start()
        if not i or not (text[i - 1].isalnum() or text[i - 1] == "_"):  # what \w is in a str pattern
            return True
        m = rx.search(text, i + 1)
    return False


@lru_cache(maxsize=256)
def _name_then_call(name: str) -> re.Pattern:
    return re.compile(rf"{re.escape(name)}(?:\s*\(|\s+as\s+\w)")


def called_elsewhere(ctx, rel: str, helpers: dict[str, Helper]) -> set[str]:
    """The helpers of module `rel` that another project module imports by name and calls, or calls
    through the module it imports: their calls there are the sites, not the spawn inside (whose
    command is only the parameter)."""
    helpers = {n: h for n, h in helpers.items() if "." not in n}  # a method is called in its own file
    if not helpers:
        return set()
    stem = rel[:-3].replace("/", ".")
    tails = {stem.split(".", i)[-1] for i in range(stem.count(".") + 1)}  # pkg.utils, utils
    alt = "|".join(re.escape(t) for t in sorted(tails))
    pattern = re.compile(r"^\s*from\s+(" + alt + r")\s+import\s+([^\n]+)", re.M)
    whole = re.compile(r"^\s*import\s+(" + alt + r")(?:\s+as\s+(\w+))?\s*$", re.M)
    parents = {t.rsplit(".", 1)[0]: t.rsplit(".", 1)[1] for t in tails if "." in t}
    parent = re.compile(r"^\s*from\s+(" + "|".join(re.escape(p) for p in sorted(parents)) + r")\s+import\s+([^\n]+)", re.M) \
        if parents else None
    # a match of the three patterns above that counts spells the module's own name: each tail ends with
    # it (`last`), and a parent's match counts only where its import list names it (parents[…] is `last`). One
    # of _RELATIVE is a relative import. A file with neither is passed before any of them runs over its
    # text (`^\s*` under re.M is tried at every position: four passes over vLLM's 84 MB for each of 6
    # modules), and one without the name runs only _RELATIVE (the package's name, `vllm` for
    # vllm/collect_env.py, is in every file of vLLM's tree)
    out: set[str] = set()
    last = stem.rsplit(".", 1)[-1]
    leaf = rel[:-3].rpartition("/")[2]
    for other in ctx.files:
        if other == rel or not other.endswith(".py"):
            continue
        text = ctx.read(other)
        if not text or not any(n in text for n in helpers):
            continue
        spelt = last in text
        if not spelt and not _FROM_DOT.search(text):
            continue
        named = [m.group(2) for m in pattern.finditer(text)
                 if rel[:-3] == m.group(1).replace(".", "/") or rel[:-3].endswith("/" + m.group(1).replace(".", "/"))] \
            if spelt else []
        aliases = [m.group(2) or m.group(1) for m in whole.finditer(text)] if spelt else []
        for m in parent.finditer(text) if parent and spelt else ():
            if a := re.search(rf"\b{re.escape(parents[m.group(1)])}\b(?:\s+as\s+(\w+))?", m.group(2)):
                aliases.append(a.group(1) or parents[m.group(1)])
        for m in _RELATIVE.finditer(text):  # `from .utils import run_cmd`, `from . import utils`
            parts = other.split("/")[:-1]
            if len(m.group(1)) - 1 > len(parts):
                continue
            path = "/".join(parts[:len(parts) - len(m.group(1)) + 1] + (m.group(2).split(".") if m.group(2) else []))
            if path == rel[:-3]:
                named.append(m.group(3))
            elif path == rel[:-3].rpartition("/")[0] and (a := re.search(rf"\b{re.escape(leaf)}\b(?:\s+as\s+(\w+))?", m.group(3))):
                aliases.append(a.group(1) or leaf)
        for names in named:  # each helper imported by name (`as` another) and called by it
            out |= {n for n in helpers if (a := re.search(rf"\b{re.escape(n)}\b(?:\s+as\s+(\w+))?", names))
                    and re.search(rf"(?<![\w.]){re.escape(a.group(1) or n)}\s*\(", text)}
        out |= {n for n in helpers for a in aliases if re.search(rf"(?<![\w.]){re.escape(a)}\.{re.escape(n)}\s*\(", text)}
    return out


# `from . import x`, `from .. import x`: a relative import whose module is a package's path, spelt nowhere
_PACKAGE_IMPORT = re.compile(r"from\s*\.[.\s\\]*import(?!\w)")
_FROM_DOT = re.compile(r"from\s+\.")  # what every match of _RELATIVE holds (searched for its literal first)
_RELATIVE = re.compile(r"^\s*from\s+(\.+)([\w.]*)\s+import\s+\(?([^\n)]+)", re.M)
