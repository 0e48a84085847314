"""How much walking one shell file may cost. The shell model (shell_run) walks a function's body at
each call and every undecided branch from its own copy of the state, so a large script whose
functions call each other from nested `case`/`if` arms costs the number of call paths, not its
length: av/harbor's harbor.sh (13,081 lines, 321 functions) ran past 360 s (eval111). The cost is
counted in steps — nodes walked, and the variables each undecided branch copies and merges — never
in seconds, so whether a file is read in full does not depend on the machine's load. Past the
budget the walk stops (TooComplex) and the file is read again without control flow (shell_flat)."""
from __future__ import annotations

# Ten times what the largest script of the eval109-113 projects takes (20,322 steps, Mooncake; the
# largest realcase, 38): harbor.sh reaches it in about 15 CPU seconds
LIMIT = 200_000
# a merge costs one step per this many variables in the state, per branch (copied, then compared)
VARS_PER_STEP = 64


class TooComplex(Exception):
    """The walk of one file went past its budget of steps."""

    def __init__(self, steps: int):
        super().__init__(f"{steps} steps")
        self.steps = steps


class Walk:
    """The steps one file's walk has taken, shared by every copy of its state (as the containers
    table is): a branch, a function call, an `eval` string and a sourced file all count."""
    __slots__ = ("steps", "limit")

    def __init__(self, limit: int | None | bool = True):
        self.steps = 0
        # True: the module's LIMIT as it is now (a test lowers it); None: no bound (the reading
        # without control flow, linear in the text)
        self.limit = LIMIT if limit is True else limit

    def step(self, n: int = 1) -> None:
        self.steps += n
        if self.limit is not None and self.steps > self.limit:
            raise TooComplex(self.steps)

    def branches(self, paths: int, state_size: int) -> None:
        """`paths` copies of a state of `state_size` variables, walked then merged."""
        self.step(paths * (1 + state_size // VARS_PER_STEP))
