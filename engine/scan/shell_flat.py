"""A shell script read without control flow, for a file whose full walk went past its budget
(shell_budget): every command once, in file order — each branch of an `if` or `case`, each loop body
and each function's body where it is written — with the assignments met on the way. A call is not
followed and no condition is decided, so the cost is the length of the text. A value two branches
set differently is simply the last one written: the launches are still found at their own lines,
their values are those the text gives around them."""
from __future__ import annotations

from vllm_kb.engine.scan import shell_cond
from vllm_kb.engine.scan.shell import ShellSyntaxError
from vllm_kb.engine.scan.shell_budget import Walk
from vllm_kb.engine.scan.shell_expand import hole
from vllm_kb.engine.scan.shell_run import Runner, State
from vllm_kb.engine.scan.shell_tree import AndOr, Case, FuncDef, Group, If, Loop, Pipeline


class FlatRunner(Runner):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.st.walk = Walk(limit=None)  # no function is walked twice: nothing to bound
        self.st.funcs = {}  # and none is called: a call is a command like any other

    def node(self, n) -> shell_cond.Truth:
        if isinstance(n, AndOr):
            for _, item in n.items:
                self.node(item)
        elif isinstance(n, Pipeline):
            self.run(n.cmds)
        elif isinstance(n, Group):
            self.run(n.body)
        elif isinstance(n, If):
            for cond, body in n.branches:
                self.run(cond)
                self.run(body)
            self.run(n.otherwise or [])
        elif isinstance(n, Case):
            self.st.ex.expand(n.word)
            for _, body in n.items:
                self.run(body)
        elif isinstance(n, Loop):
            if n.var:
                self.st.ex.vars[n.var] = hole("$" + n.var)
            self.run(n.cond + n.body)
        elif isinstance(n, FuncDef):
            # the body where it stands, its arguments unknown; never registered, so no call runs it again
            saved = self.st.ex.positional
            self.st.ex.positional = None
            self.run([n.body])
            self.st.ex.positional = saved
        else:
            return super().node(n)
        return shell_cond.UNKNOWN


def read_flat(ctx, rel: str, text: str, emit, state: State | None = None) -> None:
    """Every command of `text` read once, in order (see the module's docstring)."""
    try:
        FlatRunner(ctx, rel, emit, state=state.copy() if state is not None else None).run_text(text)
    except (ShellSyntaxError, RecursionError):
        pass  # the full walk parsed the text: what fails here is a string inside it, whose error is recorded
