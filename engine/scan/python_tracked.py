"""The values python_flow tracks for a name before the call: an item as written (with why it may be
absent or differ), a dict or argparse namespace of items, a list of items, a scalar grown with `+=`,
and what is unknown (with the choices the branches of an undecided `if` give it)."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field


@dataclass
class Item:
    node: ast.expr | None  # the value as written (None: unknown)
    span: tuple | None = None  # (first node, last node) of the whole entry, for edits
    uncertain: str | None = None  # why the item may not be there / may differ
    assumed: str | None = None  # what its being there rests on (a branch chosen by a default)


@dataclass
class TrackedDict:
    items: dict[str, Item] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)  # spreads that could not be followed
    namespace: str | None = None  # an argparse namespace: what fills the attributes not set here


@dataclass
class TrackedList:
    items: list[Item] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


@dataclass
class Scalar:
    item: Item
    left_out: tuple = ()  # pieces `+=` adds under an undecided condition: (text, why), reported, not joined


@dataclass
class Unknown:
    why: str
    # the values the branches of an undecided `if` give it, each one a command the program may run
    # (engine/scan/python_branches.py)
    choices: tuple = ()


def copy_tracked(c):
    """A tracked container's copy, so that a later change to one name leaves the other as it was."""
    if isinstance(c, TrackedDict):
        return TrackedDict(dict(c.items), list(c.unknown), c.namespace)
    if isinstance(c, TrackedList):
        return TrackedList(list(c.items), list(c.unknown))
    return c
