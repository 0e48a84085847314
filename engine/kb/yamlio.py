"""YAML loading for knowledge and for audited files: safe loader only, a line for every value,
and a bound on alias expansion so a "billion laughs" file cannot stall an audit."""
from __future__ import annotations

from collections import UserDict
from dataclasses import dataclass, field
from typing import Any

# PyYAML is imported on first use: a run whose knowledge comes from the cache (engine/kb/cache.py)
# and whose project has no YAML to read never needs it.

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
    index: int = 0  # which document of its file (`---` separated) this is
    # lines where the text's maker (a Helm template: helm_render.render_gaps) added YAML not known here
    gaps: frozenset[int] = frozenset()

    def pos(self, path: Path) -> dict:
        """Where a value sits, for a fix: the document and the path (engine/kb/yamlpos.py gives the
        offsets when the fix is made, from the text as it is then)."""
        return {"yaml": [self.index, list(path)]}

    def line_of(self, path: Path) -> int:
        """Line of `path`, or of its nearest ancestor that has one."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.start_line


def load_all(text: str, partial: list[Document] | None = None) -> list[Document]:
    """Every document of a YAML stream; on an error, those read before it are left in `partial`."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    docs: list[Document] = partial if partial is not None else []
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:  # check_node() said there is one
                break
            data = loader.construct_document(node)
            doc = Document(data=data, start_line=node.start_mark.line + 1, index=len(docs))
            _record_lines(node, (), doc.lines)
            docs.append(doc)
    except (yaml.YAMLError, RecursionError) as e:
        raise _error(e) from None
    finally:
        loader.dispose()
    return docs


def _error(e: Exception) -> YamlError:
    import yaml

    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        return YamlError(f"{e.problem or e.context or 'invalid YAML'}", mark.line + 1 if mark else None)
    if isinstance(e, RecursionError):
        return YamlError("nesting too deep")
    return YamlError(str(e))


def positions(text: str):
    """Offsets of every key and value of every document (engine/kb/yamlpos.py), for fixes."""
    import yaml

    from vllm_kb.engine.kb.yamlpos import positions as _positions

    try:
        return _positions(text)
    except (yaml.YAMLError, RecursionError) as e:
        raise _error(e) from None


KEEP = 256  # cached knowledge files: a few versions of the knowledge (one is about 70); older ones are pruned


def load_cached(text: str) -> Document:
    """load(text) for the shipped knowledge files, remembered on disk under the text's hash
    (engine/kb/cache.py): parsing YAML with a line for every value is ~100 ms of a cold start.
    The data is kept in marshal's format, which holds every mapping key YAML gives
    (knowledge/vllm/attn_selector.yaml keys by GPU major version, 7: 8:) and reads back in about
    half the time JSON took (the knowledge an audit reads: 2 MB). The lines sit in a JSON file of
    their own, read only when a line is asked for (an audit never does). Data marshal cannot hold
    exactly (dates) is not kept. Never used for audited files: the cache holds nothing of a
    project."""
    import hashlib

    from vllm_kb.engine.kb import cache

    folder = cache.folder("knowledge")
    path = folder / (hashlib.sha1(f"yamlio-{cache.code_tag(__file__)}-{cache.MARSHAL_TAG}\0".encode() + text.encode("utf-8")).hexdigest()
                     + ".marshal") if folder else None
    if path is not None:
        hit = cache.read_marshal(path)
        if isinstance(hit, tuple) and len(hit) == 2 and isinstance(hit[1], int):
            cache.used(path)
            lines: Any = _Lines(path.with_suffix(".lines.json"), text)  # a mapping like the dict it stands for
            return Document(data=hit[0], lines=lines, start_line=hit[1])
    doc = load(text)
    if path is not None and cache.marshal_exact(doc.data):
        cache.write_json(path.with_suffix(".lines.json"), [[list(p), n] for p, n in doc.lines.items()])
        cache.write_marshal(path, (cache.shared(doc.data), doc.start_line))
        cache.prune_at_exit(path, KEEP)
    return doc


class _Lines(UserDict):
    """A cached document's lines, read from their file on first use (parsed again from the text
    when that file is missing or damaged)."""

    def __init__(self, path, text: str) -> None:  # not UserDict.__init__: it would fill `data` now
        self._path, self._text = path, text
        self._data: dict | None = None

    @property
    def data(self) -> dict:  # type: ignore[override]
        if self._data is None:
            from vllm_kb.engine.kb import cache

            got = cache.read_json(self._path)
            try:
                self._data = {tuple(p): n for p, n in got} if isinstance(got, list) else None
            except (TypeError, ValueError):
                self._data = None
            if self._data is None:
                self._data = load(self._text).lines
        return self._data


def load(text: str) -> Document:
    docs = load_all(text)
    if not docs:
        return Document(data=None)
    if len(docs) > 1:
        raise YamlError("expected one YAML document, found several", docs[1].start_line)
    return docs[0]


def _record_lines(root, base: Path, lines: dict[Path, int]) -> None:
    import yaml

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
