"""How the tools that read vLLM's models packages (tools/vllm_architectures.py and those built on
it) find a class by name as seen from a module: in that module or its package, else the one class
of that name anywhere. A release's index (module → class → what the tool keeps of it) is sorted
once and searched by prefix, not sorted again at each lookup."""
from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator, Mapping

# id(classes) → (classes, its module keys sorted, class name → modules that may define it): a
# release's ~1,200 modules sorted again at each of its ~8,000 lookups took half a minute (0.34.0)
_ORDERS: dict[int, tuple[Mapping, list[str], dict[str, list[str]]]] = {}


def _order(classes: Mapping) -> tuple[list[str], dict[str, list[str]]]:
    got = _ORDERS.get(id(classes))
    if got is None or got[0] is not classes or len(got[1]) != len(classes):
        names: dict[str, list[str]] = {}
        for m, c in classes.items():
            # a module read lazily (tools/vllm_runners.py) names the classes it may have
            for n in getattr(c, "candidates", c):
                names.setdefault(n, []).append(m)
        if len(_ORDERS) >= 8:
            _ORDERS.clear()
        got = _ORDERS[id(classes)] = (classes, sorted(classes), names)
    return got[1], got[2]


def _under(keys: list[str], prefix: str) -> Iterator[str]:
    """The sorted keys that start with `prefix` (one run of the sorted list)."""
    i = bisect.bisect_left(keys, prefix)
    while i < len(keys) and keys[i].startswith(prefix):
        yield keys[i]
        i += 1


def _find(classes: Mapping, module: str, cls: str) -> tuple[str, tuple[list[str], bool]] | None:
    """The class `cls` as seen from `module`: in that module or its package, else the one class of
    that name anywhere."""
    keys, names = _order(classes)
    pkg = module.rsplit(".", 1)[0]
    for m in itertools.chain((module,), _under(keys, module + "."), _under(keys, pkg + ".")):
        if cls in classes.get(m, {}):
            return m, classes[m][cls]
    owners = [m for m in names.get(cls, ()) if cls in classes[m]]
    return (owners[0], classes[owners[0]][cls]) if len(owners) == 1 else None
