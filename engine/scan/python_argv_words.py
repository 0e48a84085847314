"""A subprocess argv as the shell model reads it (engine/scan/python_argv.py): the items of a list
the flow tracks (grown with `+=`/`.append`, sliced, split from a string), each as a shell word that
is its value or a hole, and a `shell=True` command line — a joined list, an f-string, a string grown
with `+=` — as text with holes. Items added under an undecided condition become notes."""
from __future__ import annotations

import ast
import shlex

from vllm_kb.engine.scan.python_flow import Flow, Item, TrackedList
from vllm_kb.engine.scan.python_values import Unresolved
from vllm_kb.engine.scan.shell import Seg, Word
from vllm_kb.engine.scan.shell_expand import hole, is_known


def command_line(node, r, text: str, notes: list[str]) -> str | None:
    """A command as the shell line it stands for (a Docker client's `command=`): a string — an
    f-string, one grown with `+=` — as written, with holes; an argv list's items quoted, a hole for
    each unknown one; None when neither is readable."""
    line = None if isinstance(node, (ast.List, ast.Tuple)) else argv_string(node, r, notes, text)
    if line is not None:
        return line
    items = argv_items(node, r, notes)
    if items is None:
        return None
    words = [argv_word(it, r, text) for it in items]
    return " ".join(shlex.quote(w.value) if w.value is not None else (w.text or "") for w in words)


def argv_items(node, r, notes: list[str]) -> list[Item] | None:
    flow = r.flow if r.flow is not None else Flow([], r)
    if (line := split_of(node)) is not None:  # shlex.split(f"vllm serve {m} …"), "…".split()
        held = argv_string(line, r, notes, "")
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


class Unseen(str):
    """A note of words the list takes that the flow does not follow (`argv += build_args()` of a helper
    whose items come from the environment): the command has arguments the audit cannot see."""


def _items_of(got: TrackedList, r, notes: list[str]) -> list[Item]:
    out = []
    for it in got.items:
        if it.uncertain:
            notes.append(f"{_shown(it, r)} ({it.uncertain})")
            continue
        out.append(it)
    notes += [Unseen(u) for u in got.unknown]
    return out  # an unknown `*part` is a hole word in its place (reported as unresolved)


def opaque(notes: list[str], where: str) -> list[dict]:
    """The site's opaque entries of the notes: an item under an undecided condition, or words not followed."""
    return [{"code": "run-time-args" if isinstance(n, Unseen) else "conditional", "what": str(n), "where": where} for n in notes]


def _is_interpreter(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "executable" and isinstance(node.value, ast.Name) and node.value.id == "sys"


def split_of(node) -> ast.expr | None:
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


def star_items(call: ast.Call, r, notes) -> list[Item]:
    out: list[Item] = []
    for a in call.args:
        if isinstance(a, ast.Starred):
            out += argv_items(a.value, r, notes) or [Item(None, (a, a))]  # unknown: a hole word `*args` in its place
        else:
            out.append(Item(a, (a, a)))
    return out


def _shown(it: Item, r) -> str:
    try:
        return str(r.value(it.node))
    except Exception:  # noqa: BLE001 — only for the note
        return ast.unparse(it.node) if it.node is not None else "?"


def argv_word(it: Item, r, text: str) -> Word:
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
    if value is None and isinstance(it.node, ast.JoinedStr) and shown_text == hole(raw):
        # f"rollout.tensor_model_parallel_size={tp}" with tp unknown: the key is written, its value a hole,
        # as the shell's `key=$TP` (a framework's default never stands in for a value the run sets)
        shown_text = fstring(it.node, r)
    # no span in the file: a fix never edits a Python list as shell text
    w = Word(raw=raw, line=line, segs=[Seg("lit", value if value is not None else shown_text, quoted=True)], start=-1, end=-1)
    w.value = value
    w.text = value if value is not None else shown_text
    if value is None:
        w.unresolved = why
    elif r.assumed or it.assumed:
        w.assumed = r.assumed or it.assumed
    return w


def _program_name(node, r, depth: int = 0) -> str | None:
    """The file name an unresolved path ends with, where the code writes it: `os.path.join(DIR, "vllm")`,
    `f"{DIR}/vllm"`, or a name (or an f-string of one name) bound to either (neuralmagic/research's
    `[f"{vllm_path}", "serve", …]`, eval73)."""
    if isinstance(node, ast.JoinedStr) and len(node.values) == 1 and isinstance(node.values[0], ast.FormattedValue):
        node = node.values[0].value
    if isinstance(node, ast.Name):
        node = r.node_of(node)
    # `BIN if os.path.exists(BIN) else shutil.which("vllm") or "vllm"`: each choice a path to the same
    # program (eval89 0xquinto/inference-engineering-portfolio, src/runners/vllm_runner.py)
    if (looked := _which(node)) is not None:
        return looked if is_known(looked) and "/" not in looked else None
    choices = [node.body, node.orelse] if isinstance(node, ast.IfExp) else \
        list(node.values) if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) else None
    if choices is not None and depth < 4:
        names = {_choice_name(c, r, depth + 1) for c in choices}
        return names.pop() if len(names) == 1 else None
    tail = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" and node.args:
        last = node.args[-1]
        tail = last.value if isinstance(last, ast.Constant) and isinstance(last.value, str) else None
    elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[-1], ast.Constant):
        tail = str(node.values[-1].value).rsplit("/", 1)[-1] if "/" in str(node.values[-1].value) else None
    return tail if tail and "/" not in tail and is_known(tail) and tail.replace("-", "").replace("_", "").replace(".", "").isalnum() else None


def _choice_name(node, r, depth: int) -> str | None:
    """The program one choice of a conditional names: a path written out, `shutil.which("vllm")`, or as
    _program_name reads it."""
    if isinstance(node, ast.Name):
        try:
            v = r.value(node)
        except Unresolved:
            v = None
        if isinstance(v, str):
            node = ast.Constant(v)
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
        return node.value.rstrip("/").rsplit("/", 1)[-1] or None
    return _program_name(node, r, depth)


def _which(node) -> str | None:
    """`shutil.which("vllm")`: the program it looks up."""
    if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "which" and node.args \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def argv_string(node, r, notes, text: str) -> str | None:
    """The command line of a shell=True call, with holes for what is unknown."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" and len(node.args) == 1:
        try:
            sep = r.value(node.func.value)
        except Unresolved:
            return None
        items = argv_items(node.args[0], r, notes)
        if items is None or not isinstance(sep, str):
            return None
        parts: list[str] = []
        for it in items:
            w = argv_word(it, r, text)
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
        built = (r.node_of(node) or node) if isinstance(node, ast.Name) else node  # `cmd = "vllm serve " + m`
        if isinstance(built, ast.JoinedStr) and built is not node:
            return fstring(built, r)  # `cmd = (f"pm2 start … " f"--port {port} ")`: an f-string bound to a name
        return _formatted(built, r, notes, text) or _grown(grown, r) or _added(built, r, notes, text)
    return v if isinstance(v, str) else None


def _added(node, r, notes, text: str) -> str | None:
    """`"vllm serve " + model + " --tensor-parallel-size " + str(tp)`: the pieces joined, a hole for each
    the code leaves unknown; only a sum that writes some text of its own."""
    pieces: list[ast.expr] = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        pieces.insert(0, node.right)
        node = node.left
    pieces.insert(0, node)
    if len(pieces) < 2 or not any(isinstance(p, (ast.Constant, ast.JoinedStr)) for p in pieces):
        return None
    out = []
    for p in pieces:
        if isinstance(p, ast.Constant):
            if not isinstance(p.value, str):
                return None
            out.append(p.value)
        else:
            out.append(fstring(p, r) if isinstance(p, ast.JoinedStr) else _part(p, r, notes, text))
    return "".join(out)


_PERCENT = __import__("re").compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([a-zA-Z%])")


def _formatted(node, r, notes, text: str) -> str | None:
    """A command line made with `%` (`"… --model='%s' %s" % (path, " ".join(args))`, LLM-Tuning-On-GCP's
    Vertex launcher) or `str.format` with positional fields, each value read or a hole for what the code
    leaves unknown, as an f-string's parts are. A mapping (`%(name)s`, `{name}`) is not read."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        fmt, args = node.left.value, node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        out, i, pos = [], 0, 0
        for m in _PERCENT.finditer(fmt):
            out.append(fmt[pos:m.start()])
            pos = m.end()
            if m.group(2) == "%":
                out.append("%")
                continue
            if m.group(1) is not None or i >= len(args):
                return None
            out.append(_part(args[i], r, notes, text))
            i += 1
        return "".join(out) + fmt[pos:] if i == len(args) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str) and not node.keywords \
            and not any(isinstance(a, ast.Starred) for a in node.args):
        fmt, fields = node.func.value.value, iter(node.args)
        try:
            pieces = list(__import__("string").Formatter().parse(fmt))
        except ValueError:
            return None
        out = []
        for lit, field, spec, conv in pieces:
            out.append(lit)
            if field is None:
                continue
            if field or spec or conv or (arg := next(fields, None)) is None:
                return None  # `{0}`, `{name}`, `{:>4}`: not read
            out.append(_part(arg, r, notes, text))
        return "".join(out) if next(fields, None) is None else None
    return None


def _part(node, r, notes, text: str) -> str:
    got = r.value_or(node)
    if isinstance(got, (str, int, float)) and not isinstance(got, bool):
        return str(got)
    joined = argv_string(node, r, notes, text) if isinstance(node, ast.Call) else None
    return joined if joined is not None else hole(ast.unparse(node))


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
