"""Subprocesses a Python file starts: `subprocess.Popen/run/call/check_call/check_output(argv)`,
`os.system(str)`, `os.exec*`, `asyncio.create_subprocess_exec(*argv)` / `_shell(str)`. The argv
is followed through the names the flow tracks (a list grown with `+=`/`.append`, a string joined
with `" ".join(cmd)` for `shell=True`); each element resolves to text or becomes a hole for the
shell model, and the command is read like a script's (engine/scan/scripts.py), so whatever it
launches — vllm serve, a framework, docker run — is a site. Elements added under an undecided
condition are left out and reported as conditional."""
from __future__ import annotations

import ast
import re
import shlex
from typing import Any
from dataclasses import dataclass, field

from vllm_kb.engine.scan import python_argv_forms, python_returns
from vllm_kb.engine.scan.deploy import common
from vllm_kb.engine.scan.python_flow import Flow, Item, TrackedDict, TrackedList, Unknown
from vllm_kb.engine.scan.python_values import Unresolved
from vllm_kb.engine.scan.shell import Seg, Word
from vllm_kb.engine.scan.shell_expand import hole, is_known
from vllm_kb.engine.scan.site import Setting, Site

_SUBPROCESS = {"Popen", "run", "call", "check_call", "check_output"}
_OS = {"system": "shell", "popen": "shell", "execvp": "exec", "execv": "exec", "execvpe": "exec", "execve": "exec",
       "spawnvp": "spawn", "spawnv": "spawn"}
_ASYNCIO = {"create_subprocess_exec": "star", "create_subprocess_shell": "shell"}
SPAWN_NAMES = frozenset(_SUBPROCESS | set(_OS) | set(_ASYNCIO))


@dataclass
class Spawners:
    modules: dict[str, str] = field(default_factory=dict)  # alias → subprocess | os | asyncio
    names: dict[str, tuple[str, str]] = field(default_factory=dict)  # local name → (module, function)

    def any(self) -> bool:
        return bool(self.modules or self.names)

    def kind(self, call: ast.Call) -> tuple[str, str] | None:
        f = call.func
        if isinstance(f, ast.Name) and f.id in self.names:
            return self.names[f.id]
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.modules:
            return self.modules[f.value.id], f.attr
        return None

    def spawns(self, call: ast.Call) -> bool:
        got = self.kind(call)
        if got is None:
            return False
        mod, fn = got
        return (mod == "subprocess" and fn in _SUBPROCESS) or (mod == "os" and fn in _OS) or (mod == "asyncio" and fn in _ASYNCIO)


def spawners(imported: list) -> Spawners:
    s = Spawners()
    for node in imported:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in ("subprocess", "os", "asyncio"):
                    s.modules[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module in ("subprocess", "os", "asyncio"):
            for a in node.names:
                s.names[a.asname or a.name] = (node.module, a.name)
    return s


def site(ctx, rel: str, text: str, call: ast.Call, r, kind: tuple = ()) -> Site | list[Site] | None:
    """`kind`: the (module, function) of a spawn the caller's imports do not name (a helper of
    another module runs it: engine/scan/python_spawn_helpers.py). A command named by a variable that
    each branch of an undecided `if` sets (engine/scan/python_branches.py) gives a site per branch,
    at the line of that branch's value."""
    got = kind or (r.spawners.kind(call) if getattr(r, "spawners", None) is not None else None)
    call = python_argv_forms.positional(call)
    if got is None or not call.args:
        return None
    mod, fn = got
    shell = (mod == "os" and _OS.get(fn) == "shell") or (mod == "asyncio" and _ASYNCIO.get(fn) == "shell") or \
        any(k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords)
    env = _env(call, rel, r)
    first = call.args[0]
    if (helper := python_returns.helper_call(python_argv_forms.called(first, r), r)) is not None:
        first, r = helper  # `subprocess.run(build_cmd(m))`: what the helper returns, read inside it
    one = _site(ctx, rel, text, call, r, mod, fn, shell, env, first, (call.lineno, call.end_lineno or call.lineno))
    fork = r.flow.get(first.id) if one is None and isinstance(first, ast.Name) and r.flow is not None else None
    if not isinstance(fork, Unknown) or not fork.choices or (mod, fn) in (("asyncio", "create_subprocess_exec"),) \
            or _OS.get(fn) in ("exec", "spawn") and mod == "os":
        return one
    return [s for v in fork.choices if (s := _site(ctx, rel, text, call, r, mod, fn, shell, env, v,
                                                    (v.lineno, v.end_lineno or v.lineno))) is not None] or None


def _site(ctx, rel, text, call, r, mod, fn, shell, env, first, lines) -> Site | None:
    notes: list[str] = []
    items: list[Item] | None
    if mod == "asyncio" and fn == "create_subprocess_exec":
        items = _star_items(call, r, notes)
    elif mod == "os" and _OS.get(fn) in ("exec", "spawn"):
        args = call.args[1:] if _OS[fn] == "exec" else call.args[2:]
        items = _items(args[0], r, notes) if args else None
    else:
        items = None if shell else _items(first, r, notes)
    syntax = "python-argv"
    split = _split_of(first) if not shell else None
    if shell or split is not None:  # a split command line is read as the shell would (its holes stay words)
        line_text = _string(split if split is not None else first, r, notes, text)
        if line_text is None:
            return None
        got = common.shell_site(ctx, rel, line_text, lines[0], syntax, env, None)
    else:
        if not items:
            return None
        words = python_argv_forms.interpreter_first(items, [_word(it, r, text) for it in items])
        got = common.launch_site(ctx, rel, words, lines[0], lines[1], syntax, "argv", env, None)
    if got is not None:
        for n in notes:
            got.opaque.append({"code": "conditional", "what": n, "where": f"{rel}:{call.lineno}"})
        got.tool = got.tool or "python subprocess"
    return got


def list_site(ctx, rel: str, text: str, node: ast.expr, r, tool: str) -> Site | None:
    """An argv a tool runs for the code (BentoML's `__command__` returns one)."""
    notes: list[str] = []
    items = _items(node, r, notes)
    if not items:
        return None
    words = [_word(it, r, text) for it in items]
    got = common.launch_site(ctx, rel, words, node.lineno, node.end_lineno or node.lineno, "python-argv", "argv", {}, None)
    if got is not None:
        for n in notes:
            got.opaque.append({"code": "conditional", "what": n, "where": f"{rel}:{node.lineno}"})
        got.tool = tool
    return got


def container_site(ctx, rel: str, text: str, call: ast.Call, r, command: ast.expr | None, args: ast.expr | None,
                   img: Any, tool: str) -> Site | None:
    """A container a cloud SDK deploys with its command and arguments as keyword lists (Vertex AI's
    `aiplatform.Model.upload(serving_container_command=[…], serving_container_args=[…])`); `img`: its
    image as the code resolves it (None where it does not)."""
    notes: list[str] = []
    items = (_items(command, r, notes) or [] if command is not None else []) + (_items(args, r, notes) or [] if args is not None else [])
    if not items:
        return None
    words = [_word(it, r, text) for it in items]
    if command is None and isinstance(img, str) and _names_vllm(img) and (words[0].value or "").startswith("-"):
        # only flags: the image's own entrypoint runs them
        words = [_word(Item(ast.copy_location(ast.Constant(t), call)), r, text) for t in common.entrypoint_for(img, ctx.untagged_image_release)] + words
    got = common.launch_site(ctx, rel, words, call.lineno, call.end_lineno or call.lineno, "python-argv", "argv", {},
                             img if isinstance(img, str) else None)
    if got is not None:
        for n in notes:
            got.opaque.append({"code": "conditional", "what": n, "where": f"{rel}:{call.lineno}"})
        got.tool = tool
        got.image = got.image or (img if isinstance(img, str) else None)
    return got


def _names_vllm(img: str) -> bool:
    """vLLM's image, or one named for it: only flags as its arguments are vLLM's (eval81 Manzela: `…/gcsfuse-vllm-gemma4`)."""
    from vllm_kb.engine.scan.image_tables import name_and_tag
    repo = name_and_tag(img)[0].rsplit("/", 1)[-1].lower()
    return common.is_vllm_like_image(img) or "vllm" in re.split(r"[-_.]", repo)


def command_line(node, r, text: str, notes: list[str]) -> str | None:
    """A command as the shell line it stands for (a Docker client's `command=`): a string — an
    f-string, one grown with `+=` — as written, with holes; an argv list's items quoted, a hole for
    each unknown one; None when neither is readable."""
    line = None if isinstance(node, (ast.List, ast.Tuple)) else _string(node, r, notes, text)
    if line is not None:
        return line
    items = _items(node, r, notes)
    if items is None:
        return None
    words = [_word(it, r, text) for it in items]
    return " ".join(shlex.quote(w.value) if w.value is not None else (w.text or "") for w in words)


def _items(node, r, notes: list[str]) -> list[Item] | None:
    flow = r.flow if r.flow is not None else Flow([], r)
    if (line := _split_of(node)) is not None:  # shlex.split(f"vllm serve {m} …"), "…".split()
        held = _string(line, r, notes, "")
        return _split_items(held) if held is not None and is_known(held) else None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        return _sliced(flow._container(node.value), node.slice, r, notes)
    got = flow._container(node)
    if isinstance(got, TrackedList):
        return _items_of(got, r, notes)
    v = r.value_or(node)
    if isinstance(v, str):
        return _split_items(v)
    if isinstance(v, list) and all(isinstance(x, (str, int, float)) for x in v):
        return [Item(ast.Constant(str(x))) for x in v]
    return None


def _items_of(got: TrackedList, r, notes: list[str]) -> list[Item]:
    out = []
    for it in got.items:
        if it.uncertain:
            notes.append(f"{_shown(it, r)} ({it.uncertain})")
            continue
        out.append(it)
    return out  # an unknown `*part` is a hole word in its place (reported as unresolved)


def _is_interpreter(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "executable" and isinstance(node.value, ast.Name) and node.value.id == "sys"


def _split_of(node) -> ast.expr | None:
    """The string a call splits into an argv: `shlex.split(s)`, `s.split()` (whitespace)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or node.keywords:
        return None
    f = node.func
    if f.attr == "split" and isinstance(f.value, ast.Name) and f.value.id == "shlex" and len(node.args) == 1:
        return node.args[0]
    if f.attr == "split" and not node.args and not (isinstance(f.value, ast.Name) and f.value.id == "shlex"):
        return f.value
    return None


def _split_items(line: str) -> list[Item] | None:
    try:
        return [Item(ast.Constant(x)) for x in shlex.split(line)]
    except ValueError:
        return None


def _sliced(got, sl: ast.Slice, r, notes: list[str]) -> list[Item] | None:
    """`argv[1:]`, `argv[:]`: the items a slice of a tracked list keeps, when the list's length is
    certain (no conditional items, no unknown `*part`); else unknown."""
    if not isinstance(got, TrackedList):
        return None
    try:
        bounds = [r.value(b) if b is not None else None for b in (sl.lower, sl.upper, sl.step)]
    except Unresolved:
        return None
    if any(b is not None and not isinstance(b, int) for b in bounds):
        return None
    if bounds != [None, None, None] and (got.unknown or any(it.uncertain or it.node is None for it in got.items)):
        return None
    return _items_of(TrackedList(got.items[slice(*bounds)], got.unknown), r, notes)


def _star_items(call: ast.Call, r, notes) -> list[Item]:
    out: list[Item] = []
    for a in call.args:
        if isinstance(a, ast.Starred):
            out += _items(a.value, r, notes) or [Item(None, (a, a))]  # unknown: a hole word `*args` in its place
        else:
            out.append(Item(a, (a, a)))
    return out


def _shown(it: Item, r) -> str:
    try:
        return str(r.value(it.node))
    except Exception:  # noqa: BLE001 — only for the note
        return ast.unparse(it.node) if it.node is not None else "?"


def _word(it: Item, r, text: str) -> Word:
    line = it.node.lineno if it.node is not None and hasattr(it.node, "lineno") else 0
    if it.node is not None and hasattr(it.node, "lineno"):
        a, b = r.lines.span(it.node)
        raw = text[a:b]
    elif it.span is not None:  # `*more`: words the reader cannot see, in their place
        raw = ast.unparse(it.span[0])
        line = it.span[0].lineno
    else:
        raw = ast.unparse(it.node) if it.node is not None else "?"
    value = None
    why = raw
    if it.node is not None:
        try:
            r.assumed = None
            v = r.value(it.node)
            if isinstance(v, (str, int, float)) and not isinstance(v, bool):
                value = str(v)
        except Unresolved as u:
            why = u.why or raw
            if _is_interpreter(it.node):
                value = "python"  # sys.executable: this interpreter, which runs `-m vllm.…` like `python`
    # an executable in an unknown folder (`os.path.join(os.path.dirname(sys.executable), "vllm")`): the
    # folder a hole, the name kept, as a script's `$VENV/bin/vllm` (launchers.known_program)
    shown_text = hole(raw) if value is not None or it.node is None or (name := _program_name(it.node, r)) is None \
        else hole(raw) + "/" + name
    # no span in the file: a fix never edits a Python list as shell text
    w = Word(raw=raw, line=line, segs=[Seg("lit", value if value is not None else shown_text, quoted=True)], start=-1, end=-1)
    w.value = value
    w.text = value if value is not None else shown_text
    if value is None:
        w.unresolved = why
    elif r.assumed or it.assumed:
        w.assumed = r.assumed or it.assumed
    return w


def _program_name(node, r) -> str | None:
    """The file name an unresolved path ends with, where the code writes it: `os.path.join(DIR, "vllm")`,
    `f"{DIR}/vllm"`, or a name (or an f-string of one name) bound to either (neuralmagic/research's
    `[f"{vllm_path}", "serve", …]`, eval73)."""
    if isinstance(node, ast.JoinedStr) and len(node.values) == 1 and isinstance(node.values[0], ast.FormattedValue):
        node = node.values[0].value
    if isinstance(node, ast.Name):
        node = r.node_of(node)
    tail = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" and node.args:
        last = node.args[-1]
        tail = last.value if isinstance(last, ast.Constant) and isinstance(last.value, str) else None
    elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[-1], ast.Constant):
        tail = str(node.values[-1].value).rsplit("/", 1)[-1] if "/" in str(node.values[-1].value) else None
    return tail if tail and "/" not in tail and is_known(tail) and tail.replace("-", "").replace("_", "").replace(".", "").isalnum() else None


def _string(node, r, notes, text: str) -> str | None:
    """The command line of a shell=True call, with holes for what is unknown."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" and len(node.args) == 1:
        try:
            sep = r.value(node.func.value)
        except Unresolved:
            return None
        items = _items(node.args[0], r, notes)
        if items is None or not isinstance(sep, str):
            return None
        parts: list[str] = []
        for it in items:
            w = _word(it, r, text)
            parts.append(w.value if w.value is not None else w.text or "")
        return sep.join(parts)
    if isinstance(node, ast.JoinedStr):
        return fstring(node, r)
    got = r.flow.vars.get(node.id) if isinstance(node, ast.Name) and r.flow is not None else None
    grown = getattr(getattr(got, "item", None), "node", None)
    if getattr(got, "left_out", ()):  # pieces added under an undecided condition: reported, not joined
        notes += [f"{piece} ({why})" for piece, why in getattr(got, "left_out", ())]
        node = grown
    try:
        v = r.value(node)
    except Unresolved:
        return _grown(grown, r)
    return v if isinstance(v, str) else None


def _grown(expr, r) -> str | None:
    """A command line grown with `+=` (python_flow joins the pieces) whose pieces are not all
    known: each piece as an f-string is read, with a hole for what the code leaves unknown."""
    if not isinstance(expr, ast.BinOp):
        return None
    pieces: list[ast.expr] = []
    while isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        pieces.insert(0, expr.right)
        expr = expr.left
    pieces.insert(0, expr)
    out = []
    for p in pieces:
        if isinstance(p, ast.JoinedStr):
            out.append(fstring(p, r))
            continue
        v = r.value_or(p)
        if not isinstance(v, str):
            return None
        out.append(v)
    return "".join(out)


def fstring(node: ast.JoinedStr, r) -> str:
    """An f-string command line with a hole for each part the code leaves unknown."""
    parts: list[str] = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(str(v.value))
            continue
        got = r.value_or(v.value) if isinstance(v, ast.FormattedValue) and v.format_spec is None else None
        known = isinstance(got, (str, int, float)) and not isinstance(got, bool)
        parts.append(str(got) if known else hole(ast.unparse(v.value) if isinstance(v, ast.FormattedValue) else "?"))
    return "".join(parts)


def _env(call: ast.Call, rel: str, r) -> dict[str, Setting]:
    """`env={**os.environ, "CUDA_VISIBLE_DEVICES": "0"}`: the variables the child gets."""
    node = next((k.value for k in call.keywords if k.arg == "env"), None)
    if node is None:
        return {}
    flow = r.flow if r.flow is not None else Flow([], r)
    got = flow._container(node)
    out: dict[str, Setting] = {}
    if isinstance(got, TrackedDict):
        for k, it in got.items.items():
            if it.uncertain or it.node is None:
                continue
            try:
                v = r.value(it.node)
                out[k] = Setting(k, str(v), True, rel, it.node.lineno, k, ast.unparse(it.node), "python-call")
            except Unresolved as u:
                out[k] = Setting(k, None, False, rel, it.node.lineno, k, ast.unparse(it.node), "python-call", u.why)
    return out
