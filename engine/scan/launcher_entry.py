"""Project scripts that start vLLM's server in a subprocess and hand it the options they do not
parse themselves: `opts, rest = parser.parse_known_args()`, then an argv such as
`["vllm", "serve", opts.model, *rest]` (or `… + rest`, a list grown with `rest`, `-m
vllm.entrypoints.openai.api_server`) run with subprocess / os.exec*. The shell line that runs the
script (`srun ./start.py singularity img.sif --model M --max-model-len 200000`) is then a launch
of vLLM: the words the script's own parser does not declare reach `vllm serve` as written, so
vLLM's parser judges them (a misspelt option stops the server); the script's own options are its
business, except those it hands on (`"--port", str(opts.vllm_port)`, `"serve", opts.model`),
which are read as the vLLM option they become. What the script adds itself is read where it is a
constant on a path that always runs, and as unknown where it is computed or added under a
condition. The script is read once per scan (argv_entry.inspect) and never imported or run."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from vllm_kb.engine.scan.context import parse_python
from vllm_kb.engine.scan.python_scope import is_main_guard

# subprocess.*, os.exec*/spawn* and asyncio's functions that run an argv (python_argv reads them as sites)
_SPAWNS = frozenset({"Popen", "run", "call", "check_call", "check_output", "execvp", "execv", "execvpe", "execve",
                     "spawnvp", "spawnv", "create_subprocess_exec", "system", "popen", "create_subprocess_shell"})
_ARGV = "sys.argv[1:]"  # the process's own arguments, as a name the carriers follow
SERVER_MODULES = ("vllm.entrypoints.openai.api_server", "vllm.entrypoints.api_server")
# statements whose body may not run, or may run more than once (a `try` body and a `with` body run)
_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.Match, ast.IfExp)


@dataclass
class Launcher:
    """What argv_entry.EntryPoint holds of a launcher (engine "server", its options matched as
    argparse writes them, the rest passed on)."""
    file: str
    parse_line: int
    own_flags: dict[str, str] = field(default_factory=dict)  # option string → the vLLM option it is handed on as, "" for its own
    positionals: int = 0
    defaults: dict = field(default_factory=dict)  # vLLM option → the default of the own option handed on as it
    model_default: tuple[str, int] | None = None
    adds: dict = field(default_factory=dict)  # vLLM option → (value or None, line) the script adds itself
    model_positional: bool = False  # the passed-on words follow `serve`: the first plain one is the model


def read(text: str, file: str) -> Launcher | None:
    """The launcher a file is, or None when it is not one."""
    if "vllm" not in text or "parse_known_args" not in text and "argv[1:]" not in text:
        return None
    try:
        tree = parse_python(text, file)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    spaces, rests, line = _known_args(tree)
    if not rests and not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "parse_args" for n in ast.walk(tree)):
        rests = {_ARGV}  # `["vllm", "serve"] + sys.argv[1:]`: every word of its command line passed on
    if not rests:
        return None
    carried = _carriers(tree, rests)
    argvs = [a for c in ast.walk(tree) if isinstance(c, ast.Call) and (a := _spawn_argv(c)) is not None and _names(a) & carried]
    if not argvs:
        return None
    parts = _parts(tree, argvs, spaces)
    if not any(_serves(n) for n in parts):
        return None
    out = Launcher(file, line)
    words = _option_lists(tree, parts, carried)
    handed = _handed(words, spaces)
    defaults = _option_defaults(tree)
    for flags, dest, positional, _node in _options(tree):
        if positional:
            out.positionals += 1
            continue
        for f in flags:
            out.own_flags[f] = handed.get(dest, "")
        if dest in handed and dest in defaults:
            value, at = defaults[dest]
            if handed[dest] != "model":
                out.defaults.setdefault(handed[dest], value)
            elif isinstance(value, str):
                out.model_default = (value, at)
    out.adds = _added(tree, words, set(handed.values()))
    out.model_positional = out.positionals == 0 and _right_after_serve(parts, carried)
    model, at = out.adds.pop("model", (None, 0))
    for elts in words:  # `["vllm", "serve", "org/model"]`: the model the script names itself
        if _texts(elts[:1]) == ["serve"] and len(elts) > 1 and isinstance(elts[1], ast.Constant) and isinstance(elts[1].value, str):
            model, at = elts[1].value, elts[1].lineno
    if isinstance(model, str) and out.model_default is None and not model.startswith("-"):
        out.model_default = (model, at)
    return out


def _right_after_serve(parts, carried: set[str]) -> bool:
    """The passed-on words come right after `vllm serve` (`["vllm", "serve", *rest]`, `["vllm", "serve"] + rest`):
    the first of them that is no option is the model."""
    def carrier(e) -> bool:
        return isinstance(e, ast.Name) and e.id in carried or _ARGV in _names(e) and not isinstance(e, (ast.List, ast.Tuple))

    for p in parts:
        for n in ast.walk(p):
            if isinstance(n, (ast.List, ast.Tuple)):
                texts = _texts(n.elts)
                at = _serve_at(texts)
                star = n.elts[at + 1] if at is not None and texts[at] == "serve" and at + 1 < len(n.elts) else None
                if isinstance(star, ast.Starred) and carrier(star.value):
                    return True
            if isinstance(n, ast.BinOp):
                ops = _operands(n)
                for a, b in zip(ops, ops[1:]):
                    if isinstance(a, (ast.List, ast.Tuple)) and _texts(a.elts)[-1:] == ["serve"] and _serve_at(_texts(a.elts)) is not None \
                            and carrier(b):
                        return True
    return False


def _known_args(tree) -> tuple[set[str], set[str], int]:
    """The names bound to the namespace and to the left-over words of `a, b = p.parse_known_args()`
    (the process's own command line: no list passed), and its line."""
    spaces, rests, line = set(), set(), 0
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple)):
            continue
        call, target = node.value, node.targets[0]
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "parse_known_args" \
                and not call.args and not any(k.arg == "args" for k in call.keywords) and len(target.elts) == 2 \
                and all(isinstance(e, ast.Name) for e in target.elts) and _whole_parser(tree, call.func.value):
            spaces.add(target.elts[0].id)  # type: ignore[attr-defined]
            rests.add(target.elts[1].id)  # type: ignore[attr-defined]
            line = line or node.lineno
    return spaces, rests, line


def _whole_parser(tree, parser) -> bool:
    """Whether the file declares every option of the parser: an `ArgumentParser(...)` it builds itself,
    with no `parents=`, no sub-commands, every option named as written, never handed to a function
    (that may add options the audit does not read: a word taken for vLLM's would then be the
    script's own)."""
    if not isinstance(parser, ast.Name):
        return False
    made = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == parser.id for t in n.targets)]
    if len(made) != 1 or not (isinstance(made[0], ast.Call) and ast.unparse(made[0].func).rsplit(".", 1)[-1] == "ArgumentParser") \
            or any(k.arg == "parents" for k in made[0].keywords):
        return False
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        if isinstance(n.func, ast.Attribute) and n.func.attr == "add_subparsers" and _names(n.func.value) == {parser.id}:
            return False
        if isinstance(n.func, ast.Attribute) and n.func.attr == "add_argument" \
                and not (n.args and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in n.args)):
            return False  # `add_argument(*FLAGS)`, `add_argument(f"--{name}")`: an option the audit cannot name
        if any(isinstance(a, ast.Name) and a.id == parser.id for a in [*n.args, *(k.value for k in n.keywords)]):
            return False
    return True


def _names(node) -> set[str]:
    """The names an expression reads; `sys.argv[1:]` (or `argv[1:]`) as the name _ARGV."""
    if node is None:
        return set()
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice) and isinstance(n.slice.lower, ast.Constant) \
                and n.slice.lower.value == 1 and n.slice.upper is None and ast.unparse(n.value) in ("sys.argv", "argv"):
            out.add(_ARGV)
    return out


def _carriers(tree, rests: set[str]) -> set[str]:
    """The names that come to hold the left-over words: the list itself and every name assigned,
    grown or extended from one that does (to a fixed point)."""
    out = set(rests)
    while True:
        more = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None and _names(node.value) & out:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                more |= {t.id for t in targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("extend", "append", "insert") \
                    and isinstance(node.func.value, ast.Name) and any(_names(a) & out for a in node.args):
                more.add(node.func.value.id)
        if more <= out:
            return out
        out |= more


def _spawn_argv(call: ast.Call):
    """The argv expression of a subprocess / os.exec* / os.spawn* call, by its function's name (the
    command line of os.system / os.popen / a shell subprocess)."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if name not in _SPAWNS:
        return None
    if name.startswith("exec") or name.startswith("spawn"):
        k = 1 if name.startswith("exec") else 2
        return call.args[k] if len(call.args) > k else None
    if name == "create_subprocess_exec":
        return ast.List(elts=list(call.args), ctx=ast.Load()) if call.args else None
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "args"), None)


def _parts(tree, argvs: list, skip: set[str]) -> list:
    """The expressions an argv is made of: the spawn's argument, and what is assigned to, added to
    or extended onto every name it is built from (back to a fixed point; the namespace and the
    left-over words themselves are not followed)."""
    out, seen = list(argvs), set(skip)
    todo = set().union(*(_names(a) for a in argvs)) - seen
    while todo:
        seen |= todo
        found = []
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id in todo for t in targets):
                    found.append(node.value)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("extend", "append", "insert") \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in todo:
                found += node.args
        out += found
        todo = set().union(set(), *(_names(f) for f in found)) - seen
    return out


def _serves(node) -> bool:
    """`"vllm", "serve"` side by side in a list, or the OpenAI server's module, among the words."""
    for n in ast.walk(node):
        if isinstance(n, (ast.List, ast.Tuple)):
            texts = [e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None for e in n.elts]
            if any(a and a.rsplit("/", 1)[-1] == "vllm" and b == "serve" for a, b in zip(texts, texts[1:])):
                return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and (n.value in SERVER_MODULES or n.value.startswith("vllm serve")):
            return True
    return False


def _space_attr(node, spaces: set[str]) -> str | None:
    """The option an expression takes from the namespace: `ns.x`, `str(ns.x)`, `f"{ns.x}"`, or the
    one `ns.x` inside a small expression (`ns.x or 8000`)."""
    attrs = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in spaces}
    return next(iter(attrs)) if len(attrs) == 1 else None


def _serve_at(texts: list) -> int | None:
    """Where `serve` (after `vllm`) or the server module stands among a list's words."""
    return next((k for k, t in enumerate(texts) if t == "serve" and k and (texts[k - 1] or "").rsplit("/", 1)[-1] == "vllm"
                 or t in SERVER_MODULES), None)


def _texts(elts) -> list:
    return [e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None for e in elts]


def _operands(node) -> list:
    """The operands of an `a + b + c` chain, in order."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _operands(node.left) + _operands(node.right)
    return [node]


def _option_lists(tree, parts, carried: set[str]) -> list[list[ast.expr]]:
    """The words that reach vLLM's parser, list by list: the words of the list that starts the
    server from `serve` (or the module) on; what comes after that list or after the passed-on
    words in a `+` chain; what is added (`+=`, `.extend`, `.append`) to a name holding the passed-on
    words or the whole command, and what is assigned to a name that comes after. What comes before
    (the container runner's `["singularity", "exec", "--nv"]`, docker's options) is not vLLM's."""
    out: list[list[ast.expr]] = []
    after: set[str] = set()
    for p in parts:
        for n in ast.walk(p):
            if isinstance(n, (ast.List, ast.Tuple)) and (at := _serve_at(_texts(n.elts))) is not None:
                out.append(n.elts[at:])
            ops = _operands(n) if isinstance(n, ast.BinOp) else []
            begun = False
            for o in ops:
                if begun:
                    out += [x.elts for x in ast.walk(o) if isinstance(x, (ast.List, ast.Tuple))]
                    after |= _names(o) - carried
                begun = begun or (isinstance(o, (ast.List, ast.Tuple)) and _serve_at(_texts(o.elts)) is not None) \
                    or (isinstance(o, ast.Name) and o.id in carried)
    for node in ast.walk(tree):
        grown = None
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id in carried | after:
            grown = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("extend", "append") \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in carried | after and node.args:
            grown = ast.List(elts=[node.args[0]], ctx=ast.Load()) if node.func.attr == "append" else node.args[0]
            ast.copy_location(grown, node.args[0])
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and any(
                isinstance(t, ast.Name) and t.id in after for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            grown = node.value
        if grown is not None:
            out += [x.elts for x in ast.walk(grown) if isinstance(x, (ast.List, ast.Tuple)) and _serve_at(_texts(x.elts)) is None]
    return out


def _handed(words, spaces: set[str]) -> dict[str, str]:
    """Own option dest → the vLLM option it is handed on as (`"--port", str(ns.vllm_port)`;
    `"serve", ns.model` and `"--model", ns.model`: model)."""
    out: dict[str, str] = {}
    for elts in words:
        for a, b in zip(elts, elts[1:]):
            if not (isinstance(a, ast.Constant) and isinstance(a.value, str)) or (dest := _space_attr(b, spaces)) is None:
                continue
            if a.value in ("serve", "--model"):
                out[dest] = "model"
            elif a.value.startswith("--") and "=" not in a.value:
                out[dest] = a.value[2:].replace("-", "_")
    return out


def _options(tree):
    """(option strings, dest, positional, the call) of each `add_argument` call."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if not flags:
            continue
        dest = next((k.value.value for k in node.keywords if k.arg == "dest" and isinstance(k.value, ast.Constant)), None)
        longs = [f for f in flags if f.startswith("--")]
        positional = not flags[0].startswith("-")
        yield flags, str(dest or (longs[0] if longs else flags[0]).lstrip("-").replace("-", "_")), positional, node


def _option_defaults(tree) -> dict[str, tuple[object, int]]:
    """dest → (a constant default of its option, converted by its `type=int/float`, line)."""
    out: dict[str, tuple[object, int]] = {}
    for _flags, dest, _positional, node in _options(tree):
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        got, kind = kw.get("default"), kw.get("type")
        if not isinstance(got, ast.Constant) or got.value is None:
            continue
        value = got.value
        try:
            if isinstance(kind, ast.Name) and kind.id in ("int", "float") and isinstance(value, str):
                value = int(value) if kind.id == "int" else float(value)
        except ValueError:
            continue
        out[dest] = (value, got.lineno)
    return out


def _added(tree, words, handed: set[str]) -> dict[str, tuple[object, int]]:
    """vLLM option → (what the script adds itself, line): the constant written after it (True for a
    switch) where the words are added on a path that always runs, else None (unknown)."""
    parents = {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    out: dict[str, tuple[object, int]] = {}
    for elts in words:
        branch = bool(elts) and _under_branch(elts[0], parents)
        for k, a in enumerate(elts):
            if not (isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--")):
                continue
            flag, eq, inline = a.value[2:].partition("=")
            name = flag.replace("-", "_")
            if not name or name in handed:
                continue
            nxt = elts[k + 1] if k + 1 < len(elts) else None
            value: object
            if eq:
                value = inline
            elif nxt is None or isinstance(nxt, ast.Constant) and isinstance(nxt.value, str) and nxt.value.startswith("-"):
                value = True
            else:
                value = _constant(nxt)
            if branch or name in out and out[name][0] != value:
                value = None
            out[name] = (value, a.lineno)
    return out


def _under_branch(node, parents) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, _BRANCHES) and not (isinstance(node, ast.If) and is_main_guard(node)):
            return True
    return False


def _constant(node):
    """A constant, `str(constant)` or an f-string of constants; None otherwise."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and len(node.args) == 1:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
    return None
