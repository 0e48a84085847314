"""YAML loading for knowledge and for audited files: safe loader only, a line for every value,
and a bound on alias expansion so a "billion laughs" file cannot stall an audit."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_EXPANDED_NODES = 200_000
MAX_DEPTH = 200

Path = tuple


class YamlError(ValueError):
    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(message)


@dataclass
class Document:
    data: Any
    lines: dict[Path, int] = field(default_factory=dict)
    start_line: int = 1

    def line_of(self, path: Path) -> int:
        """Line of `path`, or of its nearest ancestor that has one."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.start_line


def load_all(text: str) -> list[Document]:
    loader = _Loader(text)
    docs: list[Document] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            data = loader.construct_document(node)
            doc = Document(data=data, start_line=node.start_mark.line + 1)
            _record_lines(node, (), doc.lines)
            docs.append(doc)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else None
        raise YamlError(f"{e.problem or e.context or 'invalid YAML'}", line) from None
    except yaml.YAMLError as e:
        raise YamlError(str(e)) from None
    except RecursionError:
        raise YamlError("nesting too deep") from None
    finally:
        loader.dispose()
    return docs


def load(text: str) -> Document:
    docs = load_all(text)
    if not docs:
        return Document(data=None)
    if len(docs) > 1:
        raise YamlError("expected one YAML document, found several", docs[1].start_line)
    return docs[0]


def _record_lines(root: yaml.Node, base: Path, lines: dict[Path, int]) -> None:
    budget = [MAX_EXPANDED_NODES]
    stack: list[tuple[yaml.Node, Path, int]] = [(root, base, 0)]
    while stack:
        node, path, depth = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise YamlError("too many nodes after alias expansion (possible alias bomb)")
        if depth > MAX_DEPTH:
            raise YamlError("nesting too deep", node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for knode, vnode in node.value:
                key = knode.value if isinstance(knode, yaml.ScalarNode) else str(knode.start_mark.line)
                p = path + (key,)
                lines.setdefault(p, knode.start_mark.line + 1)
                stack.append((vnode, p, depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                p = path + (i,)
                lines.setdefault(p, item.start_mark.line + 1)
                stack.append((item, p, depth + 1))
