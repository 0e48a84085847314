"""Add a member to a JSON object or an item to a JSON array inside a file's text, leaving every
other byte as it was: settings files are edited by people and by other tools, so a reformatted
file would be a diff nobody asked for. The text must be valid JSON (json.loads first); spans
come from a small parser that records where each value starts and ends."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Union

Path_ = tuple[Union[str, int], ...]


@dataclass
class Span:
    start: int  # the first character of the value
    end: int  # one past its last character
    kind: str  # object | array | scalar
    members: list[tuple[str, "Span", int]] = field(default_factory=list)  # object: (key, value, key start)
    items: list["Span"] = field(default_factory=list)  # array


def parse(text: str) -> Span:
    json.loads(text)  # raises ValueError on anything that is not JSON
    span, _ = _value(text, _ws(text, 0))
    return span


def _ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _string_end(text: str, i: int) -> int:
    i += 1
    while text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _value(text: str, i: int) -> tuple[Span, int]:
    c = text[i]
    if c in "{[":
        span = Span(i, i, "object" if c == "{" else "array")
        j = _ws(text, i + 1)
        while text[j] not in "}]":
            if c == "{":
                k_end = _string_end(text, j)
                v, after = _value(text, _ws(text, _ws(text, k_end) + 1))
                span.members.append((json.loads(text[j:k_end]), v, j))
            else:
                v, after = _value(text, j)
                span.items.append(v)
            j = _ws(text, after)
            if text[j] == ",":
                j = _ws(text, j + 1)
        span.end = j + 1
        return span, span.end
    if c == '"':
        end = _string_end(text, i)
        return Span(i, end, "scalar"), end
    j = i
    while j < len(text) and text[j] not in ",]} \t\r\n":
        j += 1
    return Span(i, j, "scalar"), j


def find(root: Span, path: Path_) -> Span | None:
    node: Span | None = root
    for p in path:
        if node is None:
            return None
        if isinstance(p, str):
            if node.kind != "object":
                return None
            node = next((v for k, v, _ in node.members if k == p), None)
        else:
            if node.kind != "array" or not -len(node.items) <= p < len(node.items):
                return None
            node = node.items[p]
        if node is None:
            return None
    return node


def _line_indent(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos) + 1
    j = line_start
    while j < len(text) and text[j] in " \t":
        j += 1
    return text[line_start:j]


def _render(value: Any, indent: str, step: str, multiline: bool) -> str:
    if not multiline:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, indent=step, ensure_ascii=False).replace("\n", "\n" + indent)


def _container_indents(text: str, span: Span, first_child_pos: int | None) -> tuple[str, str, bool]:
    """(indent of the container's own line, indent of its children, whether it is laid out on
    several lines)."""
    own = _line_indent(text, span.start)
    if first_child_pos is None:
        return own, own + "  ", True
    multiline = "\n" in text[span.start:first_child_pos]
    child = _line_indent(text, first_child_pos) if multiline else own + "  "
    return own, child, multiline


def add_member(text: str, obj: Span, key: str, value: Any) -> str:
    """`text` with `"key": value` added as the last member of the object `obj`."""
    first = obj.members[0][2] if obj.members else None
    own, child, multiline = _container_indents(text, obj, first)
    step = child[len(own):] or "  "
    item = json.dumps(key, ensure_ascii=False) + ": " + _render(value, child, step, multiline)
    if not obj.members:
        return text[:obj.start + 1] + "\n" + child + item + "\n" + own + text[obj.end - 1:]
    last = obj.members[-1][1]
    sep = ",\n" + child if multiline else ", "
    return text[:last.end] + sep + item + text[last.end:]


def add_item(text: str, arr: Span, value: Any) -> str:
    """`text` with `value` appended to the array `arr`."""
    first = arr.items[0].start if arr.items else None
    own, child, multiline = _container_indents(text, arr, first)
    step = child[len(own):] or "  "
    item = _render(value, child, step, multiline)
    if not arr.items:
        return text[:arr.start + 1] + "\n" + child + item + "\n" + own + text[arr.end - 1:]
    last = arr.items[-1]
    sep = ",\n" + child if multiline else ", "
    return text[:last.end] + sep + item + text[last.end:]
