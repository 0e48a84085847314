"""Where each key and value of a YAML file is written: character offsets from the parser's own
marks, so that a fix edits exactly the bytes of the value it targets (engine/fix/yaml_edits.py)
and never rewrites a block.

Paths are the ones the scanners use (`yamlio.Document.lines`): string keys and list indices
from the document's root. A value reached through an alias (`b: *x`) is located at the alias
token, and a value that carries an anchor (`a: &x 1`) is marked `anchored` — changing it would
change every alias too, so the fixer leaves it for a person. Keys a mapping inherits through a
merge key (`<<: *base`) have no position in that mapping: a fix sets them by writing an
override there."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_PROPS = re.compile(r"(?:[&!][^\s,\[\]{}]*[ \t]+)*")  # `&anchor` and `!tag` before a node's text


@dataclass
class Node:
    kind: str  # map | seq | scalar
    start: int  # the node's own text (after any anchor or tag)
    end: int  # end of its content: block collections end at their last value, block scalars at their last line
    flow: bool = False  # a collection written as {…} / […]
    style: str = ""  # scalar: "" plain, '"', "'", "|", ">"
    col: int = 0  # column of the first key or `-` (collections), of the text (scalars)
    key: tuple[int, int] | None = None  # a mapping entry: the key's offsets
    dash: int | None = None  # a block-sequence item: offset of its `-`
    alias: bool = False  # written as `*name`: start/end are the alias token's
    anchored: bool = False  # carries `&name`
    children: list = field(default_factory=list)  # keys or indices, in order
    value: object = None  # a scalar's text as parsed

    @property
    def null(self) -> bool:
        return self.kind == "scalar" and self.start == self.end


@dataclass
class DocPositions:
    nodes: dict[tuple, Node]
    start: int
    end: int
    json: bool = False  # a JSON file: new values are written as JSON

    def get(self, path) -> Node | None:
        return self.nodes.get(tuple(path))


def _loader_class():
    import yaml

    class PosLoader(yaml.SafeLoader):
        """SafeLoader that remembers where aliases are written and which nodes carry anchors
        (the C loader composes in C and keeps neither)."""

        def __init__(self, stream):
            super().__init__(stream)
            self.alias_at: dict[tuple[int, object], tuple[int, int]] = {}
            self.anchored: set[int] = set()

        def compose_node(self, parent, index):
            if self.check_event(yaml.AliasEvent):
                ev = self.peek_event()
                node = super().compose_node(parent, index)
                self.alias_at[(id(parent), id(index) if isinstance(index, yaml.Node) else index)] = (
                    ev.start_mark.index, ev.end_mark.index)
                return node
            ev = self.peek_event()
            node = super().compose_node(parent, index)
            if getattr(ev, "anchor", None):
                self.anchored.add(id(node))
            return node

    return PosLoader


def positions(text: str) -> list[DocPositions]:
    """The positions of every node of every document (PyYAML's errors pass through:
    yamlio.positions turns them into YamlError)."""
    loader = _loader_class()(text)
    out: list[DocPositions] = []
    try:
        while loader.check_node():
            root = loader.get_node()
            nodes: dict[tuple, Node] = {}
            _walk(text, root, loader, nodes)
            out.append(DocPositions(nodes, root.start_mark.index, root.end_mark.index))
    finally:
        loader.dispose()
    return out


def _own_start(text: str, start: int) -> int:
    m = _PROPS.match(text, start)
    return m.end() if m else start


def _walk(text: str, root, loader, nodes: dict) -> None:
    import yaml

    budget = 200_000
    seen: set[int] = set()
    # (node, path, alias span or None, key span, depth)
    stack = [(root, (), None, None)]
    order: list[tuple] = []
    while stack:
        node, path, alias, key = stack.pop()
        budget -= 1
        if budget < 0 or len(path) > 200:
            break
        start = _own_start(text, node.start_mark.index)
        n = Node("scalar", start, node.end_mark.index, col=node.start_mark.column, key=key,
                 anchored=id(node) in loader.anchored and alias is None)
        if alias is not None:
            n.start, n.end, n.alias = alias[0], alias[1], True
        nodes[path] = n
        order.append(path)
        if alias is not None or id(node) in seen:
            continue  # an alias: its content belongs to the anchor's place
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            n.style = node.style or ""
            n.value = node.value
            if n.style in ("|", ">"):
                n.end = _trim_end(text, n.start, n.end)
            continue
        n.flow = bool(node.flow_style)
        if isinstance(node, yaml.MappingNode):
            n.kind = "map"
            for k, v in node.value:
                if not isinstance(k, yaml.ScalarNode) or k.tag == "tag:yaml.org,2002:merge":
                    continue
                name = k.value
                n.children.append(name)
                stack.append((v, path + (name,), loader.alias_at.get((id(node), id(k))),  # type: ignore[arg-type]
                              (k.start_mark.index, k.end_mark.index)))
            if node.value and not n.flow:
                n.col = node.value[0][0].start_mark.column
        elif isinstance(node, yaml.SequenceNode):
            n.kind = "seq"
            for i, item in enumerate(node.value):
                n.children.append(i)
                stack.append((item, path + (i,), loader.alias_at.get((id(node), i)), None))  # type: ignore[arg-type]
    # block collections end where their last value ends (their marks run on to the next token)
    for path in reversed(order):
        n = nodes[path]
        if n.kind != "scalar" and not n.flow and not n.alias:
            last = nodes.get(path + (n.children[-1],)) if n.children else None
            if last is not None:
                n.end = last.end
        if n.kind == "seq" and not n.flow and not n.alias:
            for i in n.children:
                item = nodes.get(path + (i,))
                if item is not None:
                    item.dash = _dash_before(text, item.start)


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def _dash_before(text: str, start: int) -> int | None:
    """The `-` that opens a block-sequence item (the item's own text may follow on its line)."""
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i >= 0 and text[i] == "-":
        return i
    # an item whose value starts on the next line (`-⏎  key: v`) or carries properties
    j = text.rfind("-", 0, start)
    return j if j >= 0 and not text[j + 1:start].strip(" \t\r\n&!") else None


# --- JSON ---------------------------------------------------------------------------------------

_WS = re.compile(r"[ \t\r\n]*")
_ATOM = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")


def json_positions(text: str) -> DocPositions | None:
    """The same positions for a JSON file (JSON with tabs is not YAML to PyYAML); None when the
    text is not one JSON value."""
    from json.decoder import scanstring  # type: ignore[attr-defined]

    nodes: dict[tuple, Node] = {}

    def line_col(i: int) -> int:
        return i - (text.rfind("\n", 0, i) + 1)

    def value(i: int, path: tuple, key: tuple[int, int] | None) -> int:
        i = _WS.match(text, i).end()  # type: ignore[union-attr]
        c = text[i:i + 1]
        if c == "{" or c == "[":
            n = Node("map" if c == "{" else "seq", i, i, flow=True, col=line_col(i), key=key)
            nodes[path] = n
            j = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
            close = "}" if c == "{" else "]"
            k = 0
            while text[j:j + 1] != close:
                if c == "{":
                    if text[j:j + 1] != '"':
                        raise ValueError(j)
                    kstart = j
                    name, kend = scanstring(text, j + 1)
                    j = _WS.match(text, kend).end()  # type: ignore[union-attr]
                    if text[j:j + 1] != ":":
                        raise ValueError(j)
                    n.children.append(name)
                    j = value(j + 1, path + (name,), (kstart, kend))
                else:
                    n.children.append(k)
                    j = value(j, path + (k,), None)
                    k += 1
                j = _WS.match(text, j).end()  # type: ignore[union-attr]
                if text[j:j + 1] == ",":
                    j = _WS.match(text, j + 1).end()  # type: ignore[union-attr]
                elif text[j:j + 1] != close:
                    raise ValueError(j)
            n.end = j + 1
            return j + 1
        if c == '"':
            v, end = scanstring(text, i + 1)
            nodes[path] = Node("scalar", i, end, style='"', col=line_col(i), key=key, value=v)
            return end
        m = _ATOM.match(text, i)
        if not m:
            raise ValueError(i)
        nodes[path] = Node("scalar", i, m.end(), col=line_col(i), key=key, value=m.group(0))
        return m.end()

    try:
        end = value(0, (), None)
    except (ValueError, IndexError, RecursionError):
        return None
    if text[_WS.match(text, end).end():].strip():  # type: ignore[union-attr]
        return None
    return DocPositions(nodes, 0, end, json=True)

