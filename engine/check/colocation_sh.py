"""Whether two launches of one shell script lie in different branches of one `if` or `case`: then at
most one of them runs (crazyguitar/pysheeet's run.sbatch picks `ray`, `mp` or `rpc` in a top-level
`case`, each arm starting its own detached server; read as running together they shared one GPU)."""
from __future__ import annotations

from functools import lru_cache

from vllm_kb.engine.scan.shell import ShellSyntaxError
from vllm_kb.engine.scan.shell_nodes import Case, If, Simple, walk
from vllm_kb.engine.scan.shell_tree import parse_tree


def exclusive(text: str, a: int, b: int) -> bool:
    """Lines `a` and `b` (each a command's first line) are in different arms of one `if`/`case`."""
    for arms in _arms(text):
        where = [i for i, (lo, hi) in enumerate(arms) if lo <= a <= hi], [i for i, (lo, hi) in enumerate(arms) if lo <= b <= hi]
        if where[0] and where[1] and where[0][0] != where[1][0]:
            return True
    return False


@lru_cache(maxsize=32)
def _arms(text: str) -> tuple:
    """Each `if`/`case` of the script as the line spans of its arms."""
    try:
        nodes = parse_tree(text)
    except (ShellSyntaxError, RecursionError):
        return ()
    out = []
    for n in walk(nodes):
        if isinstance(n, If):
            bodies = [b for _, b in n.branches] + ([n.otherwise] if n.otherwise else [])
        elif isinstance(n, Case):
            bodies = [body for _, body in n.items]
        else:
            continue
        spans = [s for s in (_span(body) for body in bodies) if s is not None]
        if len(spans) > 1:
            out.append(tuple(spans))
    return tuple(out)


def _span(body: list) -> tuple[int, int] | None:
    lines = [x for n in walk(body) for x in (n.line, getattr(n, "end_line", n.line) if isinstance(n, Simple) else n.line)]
    return (min(lines), max(lines)) if lines else None
