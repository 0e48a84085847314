"""The nodes of a parsed shell script (shell_tree builds them, shell_run walks them)."""
from __future__ import annotations

from dataclasses import dataclass

from vllm_kb.engine.scan.shell import Word


@dataclass
class Simple:
    words: list[Word]
    line: int
    end_line: int
    background: bool = False
    heredocs: list | None = None  # one list per `<<` redirection, holding its shell.Heredoc once read
    writes: list[Word] | None = None  # the targets of its `>` / `>>` redirections
    herestrings: list[Word] | None = None  # the words of its `<<<` redirections


@dataclass
class AndOr:
    """`a && b || c`: (operator before it, command); the first operator is ''."""
    items: list[tuple[str, object]]
    line: int
    background: bool = False


@dataclass
class Pipeline:
    cmds: list[object]
    negated: bool
    line: int


@dataclass
class Group:
    body: list[object]
    subshell: bool
    line: int
    writes: list[Word] | None = None  # `{ …; } > FILE`: the targets of its `>` / `>>` redirections
    end_line: int = 0


@dataclass
class If:
    branches: list[tuple[list[object], list[object]]]  # (condition, body)
    otherwise: list[object] | None
    line: int


@dataclass
class Bind:
    """Not in the script: a branch's own condition (`[ "$ENGINE" = sglang ]`, `case $ENGINE in sglang)`)
    holds inside it, so the variable has that value there (shell_branches puts it first in the body)."""
    name: str
    value: str


@dataclass
class Case:
    word: Word
    items: list[tuple[list[Word], list[object]]]
    line: int


@dataclass
class Loop:
    kind: str  # for | while | until | arith
    var: str | None
    items: list[Word] | None  # for x in …: None means "$@"
    cond: list[object]
    body: list[object]
    line: int


@dataclass
class FuncDef:
    name: str
    body: object
    line: int


def children(n) -> list:
    """The nodes right inside a node: a list's and a pipeline's commands, a group's, a branch's,
    a case item's, a loop's and a function's bodies."""
    if isinstance(n, AndOr):
        return [x for _, x in n.items]
    if isinstance(n, Pipeline):
        return list(n.cmds)
    if isinstance(n, Group):
        return list(n.body)
    if isinstance(n, If):
        return [x for c, b in n.branches for x in c + b] + (n.otherwise or [])
    if isinstance(n, Case):
        return [x for _, body in n.items for x in body]
    if isinstance(n, Loop):
        return n.cond + n.body
    if isinstance(n, FuncDef):
        return [n.body]
    return []


def walk(nodes):
    """Every node of a tree."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        yield n
        stack += children(n)


def words_of(nodes):
    """Every word in a tree (commands, array elements, case subjects and patterns, loop items)."""
    for n in walk(nodes):
        if isinstance(n, Simple):
            for w in n.words:
                yield w
                if w.array:
                    yield from w.array
        elif isinstance(n, Case):
            yield n.word
            for pats, _ in n.items:
                yield from pats
        elif isinstance(n, Loop):
            yield from n.items or []


def shift_lines(nodes, delta: int) -> None:
    """Move a tree parsed from a piece of a file (a YAML block, a recipe) to the file's lines; its
    words keep no character positions (they are not offsets into the file)."""
    for n in walk(nodes):
        if hasattr(n, "line"):
            n.line += delta
        if hasattr(n, "end_line"):
            n.end_line += delta
    for w in words_of(nodes):
        w.line += delta
        w.start = w.end = -1
