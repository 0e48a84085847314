"""The scenario templates (knowledge/scenarios.yaml `templates`, jinja2) rendered without jinja2
when they keep to the forms the knowledge writes: text, `{{ a.b | filter }}`, `{% for x in a.b
[if x.c] %}…{% endfor %}` and `{% if a.b %}…{% endif %}`, under the options rendering.py gives
jinja2 (trim_blocks, lstrip_blocks, no trailing newline kept, StrictUndefined, no autoescape).
Importing jinja2 and compiling a template is ~35 ms of every process that renders a scenario, a
tenth of a cold 20-file audit. The output is jinja2's, byte for byte
(tests/test_template_subset.py renders every knowledge template both ways): a template with any
other form is not compiled here (None), and a value jinja2 would read as undefined (which
StrictUndefined refuses) makes the caller render that template with jinja2 itself (`Fallback`),
so its error, too, is jinja2's."""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PATH = rf"{_NAME}(?:\.{_NAME})*"
_EXPR = re.compile(rf"\s*({_PATH})((?:\s*\|\s*{_NAME})*)\s*")
_FOR = re.compile(rf"\s*for\s+({_NAME})\s+in\s+({_PATH})(?:\s+if\s+({_PATH}))?\s*")
_IF = re.compile(rf"\s*if\s+({_PATH})\s*")
_END = re.compile(r"\s*(endfor|endif)\s*")
# names jinja2 reads as something else than a variable (constants, operators, the loop object …)
_RESERVED = frozenset({"true", "false", "none", "True", "False", "None", "not", "and", "or", "in", "is", "if", "else",
                       "elif", "for", "endfor", "endif", "recursive", "loop", "self", "varargs", "kwargs", "caller",
                       "super", "with", "without", "context", "import", "as", "block", "set"})
_OPEN = re.compile(r"\{[{%#]")
_SPACE = re.compile(r"\s+")  # jinja2's lexer `whitespace_re`, for lstrip_blocks


class Fallback(Exception):
    """A value jinja2 would read as undefined: render this template with jinja2."""


def compile_template(text: str, filters: Mapping[str, Callable[[Any], Any]]) -> list | None:
    """The template as nodes for `render`, or None where it uses a form outside the subset."""
    if "\r" in text or "{#" in text:
        return None
    if text.endswith("\n"):  # keep_trailing_newline=False: the source's last newline is dropped
        text = text[:-1]
    root: list = []
    stack: list[tuple[str, list]] = [("", root)]
    pos, line_starting = 0, True
    while True:
        m = _OPEN.search(text, pos)
        if m is None:
            _data(stack[-1][1], text[pos:])
            break
        data, start = text[pos:m.start()], m.start()
        if m.group() == "{{":
            end = text.find("}}", start + 2)
            if end < 0:
                return None
            expr = _expr(text[start + 2:end], filters)
            if expr is None:
                return None
            _data(stack[-1][1], data)
            stack[-1][1].append(("out", expr))
            pos = end + 2
            line_starting = False
            continue
        end = text.find("%}", start + 2)
        if end < 0 or text[start + 2:start + 3] in ("-", "+") or text[end - 1:end] in ("-", "+"):
            return None
        # lstrip_blocks: white space alone between the line's start and the tag is dropped
        l_pos = data.rfind("\n") + 1
        if (l_pos > 0 or line_starting) and _SPACE.fullmatch(data, l_pos):
            data = data[:l_pos]
        _data(stack[-1][1], data)
        tag = text[start + 2:end]
        pos = end + 2
        if text[pos:pos + 1] == "\n":  # trim_blocks: the newline right after a block tag goes
            pos += 1
            line_starting = True
        else:
            line_starting = False
        if (f := _FOR.fullmatch(tag)) is not None:
            var, seq, cond = f.group(1), _path(f.group(2)), _path(f.group(3)) if f.group(3) else None
            if var in _RESERVED or seq is None or (f.group(3) and cond is None):
                return None
            body: list = []
            stack[-1][1].append(("for", var, seq, cond, body))
            stack.append(("endfor", body))
        elif (i := _IF.fullmatch(tag)) is not None:
            cond = _path(i.group(1))
            if cond is None:
                return None
            body = []
            stack[-1][1].append(("if", cond, body))
            stack.append(("endif", body))
        elif (e := _END.fullmatch(tag)) is not None:
            if stack[-1][0] != e.group(1):
                return None
            stack.pop()
        else:
            return None
    return root if len(stack) == 1 else None


def _data(into: list, text: str) -> None:
    if text:
        into.append(("text", text))


def _path(text: str) -> tuple[str, ...] | None:
    parts = tuple(text.split("."))
    return None if any(p in _RESERVED for p in parts) else parts


def _expr(text: str, filters: Mapping[str, Callable[[Any], Any]]) -> tuple | None:
    m = _EXPR.fullmatch(text)
    if m is None:
        return None
    path = _path(m.group(1))
    names = [f.strip() for f in m.group(2).split("|")[1:]]
    if path is None or any(n not in filters for n in names):
        return None
    return path, tuple(filters[n] for n in names)


def render(nodes: list, data: dict[str, Any]) -> str:
    out: list[str] = []
    _render(nodes, dict(data), out)
    return "".join(out)


def _render(nodes: list, scope: dict[str, Any], out: list[str]) -> None:
    for node in nodes:
        kind = node[0]
        if kind == "text":
            out.append(node[1])
        elif kind == "out":
            value = _value(node[1][0], scope)
            for f in node[1][1]:
                value = f(value)
            out.append(str(value))
        elif kind == "if":
            if _truth(_value(node[1], scope)):
                _render(node[2], scope, out)
        else:  # for
            _, var, seq, cond, body = node
            items = _value(seq, scope)
            if not _iterable(items) or iter(items) is items:  # a one-shot iterator: jinja2 must see it whole
                raise Fallback(var)
            outer = scope.get(var, _MISSING)
            for item in items:
                scope[var] = item
                if cond is None or _truth(_value(cond, scope)):
                    _render(body, scope, out)
            if outer is _MISSING:
                scope.pop(var, None)
            else:
                scope[var] = outer


_MISSING = object()


def _value(path: tuple[str, ...], scope: dict[str, Any]) -> Any:
    """jinja2's lookup: the variable, then each part as Environment.getattr reads it (the attribute
    first, then the item)."""
    v = scope.get(path[0], _MISSING)
    if v is _MISSING:
        raise Fallback(path[0])
    for part in path[1:]:
        try:
            v = getattr(v, part)
            continue
        except AttributeError:
            pass
        try:
            v = v[part]
        except (TypeError, LookupError, AttributeError):
            raise Fallback(part) from None
    return v


def _truth(value: Any) -> bool:
    return bool(value)


def _iterable(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True
