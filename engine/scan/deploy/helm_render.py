"""Go-template actions of a Helm chart's templates, rendered with the chart's own values.yaml.

What `helm template` would print with the chart's defaults, as far as the template says it
plainly: `{{ .Values.a.b }}` (and `required`, `default`, `quote`, `not`/`and`/`or`/`eq`/`ne`,
`toYaml | nindent`), `if`/`else`/`with`/`range` over values the chart sets. Anything else
(`include`, `tpl`, `.Release`, variables, a condition on an unknown) is a hole (shell_expand):
its text is not known until the chart is installed with the user's own values, and a branch that
hangs on it is left out rather than guessed. The output keeps the template's line numbers (an
action's newlines stay; only a non-empty `range` or a multi-key `toYaml` adds lines)."""
from __future__ import annotations

import json
import re
from typing import Any

from vllm_kb.engine.scan.deploy import helm_funcs
from vllm_kb.engine.scan.deploy.helm_text import Yaml, continued
from vllm_kb.engine.scan.shell_expand import hole

# an action ends at the first `}}` outside its strings: `{{ "}}" }}` prints `}}` (a chart escaping KServe's own `{{.Name}}`)
_ACTION = re.compile(r'\{\{(-?)(\s*/\*.*?\*/\s*|(?:"(?:[^"\\]|\\.)*"|`[^`]*`|[^"`}]|\}(?!\}))*?)(-?)\}\}', re.S)
_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*"|`[^`]*`)|(\()|(\))|(\|)|(:?=)|([$.][\w.$]*|[\w-]+(?:\.[\w]+)*))', re.S)


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()
# where the chart adds YAML this renderer cannot know (an unknown action alone on its line, a block on
# an unknown condition): marked while rendering, then taken out and reported as lines (render_gaps)
GAP = "\ue003"
_NONE: Any = object()  # no value piped in (None is a value: a key the chart leaves empty)
_KINDS = ("str", "(", ")", "|", "=", "word")
_BLOCKS = ("if", "with", "range", "define", "block")


def _truthy(v) -> bool:
    return bool(v) if not isinstance(v, (int, float)) or isinstance(v, bool) else v != 0


def render(text: str, root: dict) -> str:  # `root`: {"Values": …, "Chart": …}; unknown output is a hole
    return render_gaps(text, root)[0]


def render_gaps(text: str, root: dict) -> tuple[str, frozenset[int]]:
    """The rendered text, and the lines where the chart adds YAML left out here (an `include` of a
    container's env, an `if` on `.Release`): what lies there is not known until the chart is installed."""
    out = _render(text, root)
    if GAP not in out:
        return continued(out, text), frozenset()
    gaps = frozenset(i for i, line in enumerate(out.split("\n"), 1) if GAP in line)
    return continued(out.replace(GAP, ""), text), gaps


def _render(text: str, root: dict) -> str:
    return emit(tree(text), root, scoped(root))


# root key: the template's variables (`$tag := default .Chart.AppVersion .Values.image.tag`), set in
# straight-line order; one assigned in a block left out on an unknown condition becomes unknown
VARS = "\ue005vars"


def scoped(root):
    """`root` with a fresh scope of variables: each template and each `include` body has its own."""
    return {**root, VARS: {}} if isinstance(root, dict) else root


def tree(text: str) -> list:
    """The template parsed: text, actions and blocks (`define` bodies among them)."""
    pieces: list[tuple] = []  # ("text", s) | ("act", body, raw, alone on its line)
    at = 0
    for m in _ACTION.finditer(text):
        before = text[at:m.start()]
        if m.group(1):
            before = before.rstrip(" \t")  # `{{-`: the spaces before it go (the newline stays: lines are kept)
        pieces.append(("text", before))
        line_start, line_end = text.rfind("\n", 0, m.start()) + 1, text.find("\n", m.end())
        alone = not text[line_start:m.start()].strip() and not text[m.end():None if line_end < 0 else line_end].strip()
        pieces.append(("act", m.group(2).strip(), m.group(0), alone))
        at = m.end()
        if m.group(3):
            rest = text[at:]
            at += len(rest) - len(rest.lstrip(" \t"))
    pieces.append(("text", text[at:]))
    tree: list = []
    i = 0
    while True:
        part, i = _parse(pieces, i)
        tree += part
        if i >= len(pieces):
            return tree
        tree.append(("text", "\n" * pieces[i][2].count("\n")))  # an `end`/`else` no block opened
        i += 1


def _parse(pieces: list, i: int) -> tuple[list, int]:
    """Nested nodes up to the `end`/`else` that closes this level: ("text", s), ("expr", body, raw),
    ("block", word, [(condition, body)…], raw-newlines)."""
    out: list = []
    while i < len(pieces):
        p = pieces[i]
        if p[0] == "text":
            out.append(p)
            i += 1
            continue
        body = p[1]
        word = body.split(None, 1)[0] if body else ""
        if word in ("end", "else"):
            return out, i
        if word in _BLOCKS:
            branches = []
            cond = body[len(word):].strip()
            nl = p[2].count("\n")  # newlines inside the block's own actions
            i += 1
            while True:
                inner, i = _parse(pieces, i)
                branches.append((cond, inner))
                if i >= len(pieces):
                    break
                closer = pieces[i][1]
                nl += pieces[i][2].count("\n")
                i += 1
                if closer.split(None, 1)[0] == "end":
                    break
                cond = closer[4:].strip()  # `else` / `else if X`
                cond = cond[2:].strip() if cond.startswith("if ") or cond == "if" else (cond or "true")
            out.append(("block", word, branches, nl))
            continue
        out.append(("expr", body, p[2], p[3]))
        i += 1
    return out, i


def emit(nodes: list, dot, root) -> str:
    out = []
    for n in nodes:
        if n[0] == "text":
            out.append(n[1])
        elif n[0] == "expr":
            out.append(_expr_text(n[1], dot, root, n[3]) + "\n" * n[2].count("\n"))
        else:
            out.append(_block(n[1], n[2], dot, root) + "\n" * n[3])
    return "".join(out)


def _placeholder(v) -> bool:
    """A value values.yaml leaves for the install to give (`hfToken: ""`, `extraEnv: []`, a key it lacks);
    `false` and `0` are choices."""
    return v is None or (isinstance(v, (str, list, dict)) and not v)


def _block(word: str, branches: list, dot, root) -> str:
    """A construct's output, with the lines of the branches not taken kept as empty ones (the
    output's line numbers stay the template's)."""
    if word in ("define", "block"):
        return _blank(branches)
    if word == "if":
        gap = ""
        for k, (cond, body) in enumerate(branches):
            v = True if cond == "true" else _eval(cond, dot, root)
            if v is UNKNOWN:
                _forget(branches, root)
                return GAP + _blank(branches)  # a branch on an unknown: none is taken as the site's own
            if _placeholder(v):
                gap = GAP  # on a value values.yaml leaves empty (`hfToken: ""`): the install decides the branch
            if _truthy(v):
                return gap + _blank(branches[:k]) + _fit(emit(body, dot, root), body) + _blank(branches[k + 1:])
        return gap + _blank(branches)
    cond, body = branches[0]
    v = UNKNOWN if ":=" in cond else _eval(cond, dot, root)
    if v is UNKNOWN:
        _forget(branches, root)
        return GAP + _blank(branches)
    gap = GAP if _placeholder(v) else ""  # over a value values.yaml leaves empty: the install gives it
    if word == "with":
        if _truthy(v):
            return _fit(emit(body, v, root), body) + _blank(branches[1:])
        if len(branches) > 1:
            return gap + _blank(branches[:1]) + _fit(emit(branches[1][1], dot, root), branches[1][1])
        return gap + _blank(branches)
    items = list(v.values()) if isinstance(v, dict) else v if isinstance(v, list) else []
    return gap + _fit("".join(emit(body, item, root) for item in items), body) + _blank(branches[1:])


def _forget(branches: list, root) -> None:
    """The variables a block left out assigns are unknown after it (it may or may not have run)."""
    scope: dict = root[VARS] if isinstance(root, dict) and isinstance(root.get(VARS), dict) else {}
    for n in (n for _, body in branches for n in body):
        if n[0] == "expr" and (m := _ASSIGN.fullmatch(n[1])):
            scope[m.group(1)] = UNKNOWN
        elif n[0] == "block":
            _forget(n[2], root)


_ASSIGN = re.compile(r"\$(\w+)\s*:?=\s*(.+)", re.S)


def _lines(nodes) -> int:
    return sum(n[1].count("\n") if n[0] == "text" else n[2].count("\n") if n[0] == "expr"
               else n[3] + sum(_lines(b) for _, b in n[2]) for n in nodes)


def _blank(branches: list) -> str:
    """A left-out construct keeps its lines (as empty ones)."""
    return "\n" * sum(_lines(b) for _, b in branches)


def _fit(text: str, body: list) -> str:
    """`text` padded to the lines `body` takes in the template (a `toYaml` or `range` may take more)."""
    return text + "\n" * max(0, _lines(body) - text.count("\n"))


def _expr_text(body: str, dot, root, alone: bool) -> str:
    """The action's output; an unknown one alone on its line (`include "labels" . | nindent 4`,
    `toYaml .Values.x`) is YAML structure the chart adds, left out rather than made a hole (a GAP)."""
    if body.startswith("/*") or body.startswith("-/*"):
        return ""  # a comment
    if (m := _ASSIGN.fullmatch(body)) and isinstance(root, dict) and isinstance(root.get(VARS), dict):
        root[VARS][m.group(1)] = _eval(m.group(2), dot, root)
        return ""  # a variable assignment prints nothing
    if ":=" in body or re.match(r"\$\w+\s*=", body):
        return ""
    v = _eval(body, dot, root)
    if isinstance(v, Yaml):
        # `key: {{ toYaml X | nindent 8 }}` puts the block under the key on lines of its own; the
        # same value as one flow mapping on the key's line is the YAML it renders, lines kept
        return v.text if alone else v.flow
    if v is UNKNOWN and (alone or re.search(r"\|\s*n?indent\b", body)):
        return GAP
    if v is UNKNOWN or isinstance(v, (dict, list)):
        return hole("{{" + re.sub(r"\s+", " ", body).replace('"', "'") + "}}")
    if v is None:  # left empty in values.yaml: the user's install gives it
        return hole("{{" + re.sub(r"\s+", " ", body).replace('"', "'") + "}}")
    return "true" if v is True else "false" if v is False else str(v)


def _eval(body: str, dot, root):
    try:
        toks = _tokens(body)
        v, k = _pipeline(toks, 0, dot, root)
        return v if k == len(toks) else UNKNOWN
    except (ValueError, IndexError, TypeError):
        return UNKNOWN


def _tokens(body: str) -> list[tuple[str, str]]:
    out, at = [], 0
    body = body.strip()
    while at < len(body):
        m = _TOKEN.match(body, at)
        if m is None or m.end() == at:
            raise ValueError(body)
        k = next(i for i in range(6) if m.group(i + 1) is not None)
        out.append((_KINDS[k], m.group(k + 1)))
        at = m.end()
        while at < len(body) and body[at].isspace():
            at += 1
    return out


def _pipeline(toks, i, dot, root):
    v, i = _command(toks, i, dot, root, _NONE)
    while i < len(toks) and toks[i][0] == "|":
        v, i = _command(toks, i + 1, dot, root, v)
    return v, i


def _command(toks, i, dot, root, piped):
    args = []
    while i < len(toks) and toks[i][0] not in ("|", ")"):
        kind, text = toks[i]
        if kind == "(":
            v, i = _pipeline(toks, i + 1, dot, root)
            if i >= len(toks) or toks[i][0] != ")":
                raise ValueError("(")
            args.append(("v", v))
        elif kind == "str":
            args.append(("v", json.loads(text) if text.startswith('"') else text[1:-1]))
        elif kind == "word":
            args.append(("w", text))
        else:
            raise ValueError(text)
        i += 1
    if not args:
        raise ValueError("empty")
    head_kind, head = args[0]
    rest = [_arg(a, dot, root) for a in args[1:]] + ([] if piped is _NONE else [piped])
    if head_kind == "w" and head in ("include", "template"):  # `{{ template "x" . }}` prints what include returns
        fn = root.get(INCLUDE) if isinstance(root, dict) and len(rest) == 2 else None
        return (fn(*rest) if fn is not None else UNKNOWN), i
    if head_kind == "w" and _is_func(head):
        return _call(head, rest), i
    if len(args) > 1 or piped is not _NONE:
        raise ValueError("not a function")
    return _arg(args[0], dot, root), i


# root key: what `include "name" dot` renders (helm_chart.py gives the chart's named templates), else unknown
INCLUDE = "\ue004include"


def _is_func(word: str) -> bool:
    return word[0] not in ".$" and not re.fullmatch(r"-?\d+(\.\d+)?|true|false|nil", word)


def _arg(a, dot, root):
    kind, text = a
    if kind == "v":
        return text
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    if text in ("true", "false", "nil"):
        return {"true": True, "false": False, "nil": None}[text]
    if text == ".":
        return dot
    if text.startswith("$."):
        return _field(root, text[2:])
    if text == "$":
        return root
    if text.startswith("$") and isinstance(root, dict) and isinstance(root.get(VARS), dict):
        name, _, chain = text[1:].partition(".")  # `$tag`, `$cfg.model`
        v = root[VARS].get(name, UNKNOWN)
        return _field(v, chain) if chain else v
    if text.startswith("."):
        return _field(dot, text[1:])
    return UNKNOWN  # a variable, a function's value used as an argument


def _field(node, chain: str):
    for part in chain.split("."):
        if node is UNKNOWN:
            return UNKNOWN
        if not isinstance(node, dict):
            return None if node is None else UNKNOWN
        node = node.get(part)
    return node


def _call(name: str, a: list):
    if name in ("and", "or"):
        for x in a:
            if x is UNKNOWN:
                return UNKNOWN
            if _truthy(x) == (name == "or"):
                return x
        return a[-1] if a else UNKNOWN
    if name == "default" and len(a) == 2:
        if a[1] is UNKNOWN:
            return UNKNOWN
        return a[1] if _truthy(a[1]) else a[0]
    if any(x is UNKNOWN for x in a):
        return UNKNOWN
    if name == "not" and len(a) == 1:
        return not _truthy(a[0])
    if name in ("eq", "ne") and len(a) >= 2:
        same = any(a[0] == b for b in a[1:])
        return same if name == "eq" else not same
    if name == "required" and len(a) == 2:
        return a[1]
    if name in ("quote", "squote") and len(a) == 1:
        q = '"' if name == "quote" else "'"
        return q + ("" if a[0] is None else _plain(a[0])) + q
    if name in ("lower", "upper", "trim") and len(a) == 1 and isinstance(a[0], str):
        return a[0].lower() if name == "lower" else a[0].upper() if name == "upper" else a[0].strip()
    if name == "empty" and len(a) == 1:
        return not _truthy(a[0])
    if name in ("hasPrefix", "hasSuffix") and len(a) == 2 and all(isinstance(x, str) for x in a):
        return a[1].startswith(a[0]) if name == "hasPrefix" else a[1].endswith(a[0])
    if name == "printf" and a and isinstance(a[0], str) and re.fullmatch(r"(?:[^%]|%[sdv])*", a[0]) \
            and a[0].count("%") == len(a) - 1 and all(isinstance(x, (str, int, float)) for x in a[1:]):
        return a[0].replace("%d", "%s").replace("%v", "%s") % tuple(_plain(x) for x in a[1:])
    if name == "toString" and len(a) == 1:
        return _plain(a[0])
    if name == "index" and len(a) >= 2:  # `index .Values.resources.limits "nvidia.com/gpu"`
        node = a[0]
        for key in a[1:]:
            if isinstance(node, dict):
                node = node.get(key)
            elif isinstance(node, list) and isinstance(key, int) and -len(node) <= key < len(node):
                node = node[key]
            else:
                return None if node is None else UNKNOWN
        return node
    if name == "toYaml" and len(a) == 1:
        return Yaml(a[0])
    if name in ("nindent", "indent") and len(a) == 2 and isinstance(a[0], int):
        v = a[1]
        if isinstance(v, Yaml):
            return Yaml(v.value, a[0])
        return " " * a[0] + _plain(v) if isinstance(v, (str, int, float)) else UNKNOWN
    return helm_funcs.call(name, a, UNKNOWN)  # include, tpl, lookup…: unknown (what they render is not read here)


def _plain(v) -> str:
    return "true" if v is True else "false" if v is False else "" if v is None else str(v)
