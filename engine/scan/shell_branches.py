"""The shell model's control flow (a mixin of shell_run.Runner): `&&`/`||` lists, `if`, `case`,
`for`/`while`/`until`, each decided where its condition is known (shell_cond) and otherwise every
branch walked from the same state, the states they end in merged; a branch skipped on an assumed
condition is still read for its launches (sites_only)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vllm_kb.engine.scan import shell_cond, shell_printf
from vllm_kb.engine.scan.shell_expand import hole, shown
from vllm_kb.engine.scan.shell_nodes import Bind
from vllm_kb.engine.scan.shell_tree import AndOr, Case, If, Loop, Simple
from vllm_kb.engine.scan.site import Setting

if TYPE_CHECKING:
    from vllm_kb.engine.scan.shell_run import State


class Branches:
    if TYPE_CHECKING:  # what shell_run.Runner, the class this is mixed into, provides
        st: State

        def run(self, nodes: list) -> None: ...
        def node(self, n) -> shell_cond.Truth: ...

    def and_or(self, n: AndOr) -> shell_cond.Truth:
        truth = self._truth(n.items[0][1], self.node(n.items[0][1]))
        for op, node in n.items[1:]:
            runs = truth.value if op == "&&" else (None if truth.value is None else not truth.value)
            if runs is True:
                truth = self._truth(node, self.node(node))
            elif runs is False:
                if truth.assumed:  # `cmd || fallback`: the fallback may still run
                    self.sites_only([node])
            else:
                self._with_paths([[node]], keep_current=True)
                truth = shell_cond.UNKNOWN
        return truth

    @staticmethod
    def _truth(node, t: shell_cond.Truth) -> shell_cond.Truth:
        """A plain command (not a test) is assumed to succeed."""
        return t if t.value is not None or _is_test_node(node) else shell_cond.Truth(True, assumed=True)

    def if_(self, n: If) -> None:
        paths: list[list] = []
        for k, (cond, body) in enumerate(n.branches):
            t = self.condition(cond)
            if (proved := shell_cond.proves(cond)) is not None:
                body = [Bind(*proved), *body]
            if t.value is False:
                if t.assumed:
                    self.sites_only(body)
                continue
            paths.append(body)
            if t.value is True:
                if t.assumed:
                    for _, later in n.branches[k + 1:]:
                        self.sites_only(later)
                    if n.otherwise:
                        self.sites_only(n.otherwise)
                return self._with_paths(paths, keep_current=False)
        if n.otherwise is not None:
            paths.append(n.otherwise)
            return self._with_paths(paths, keep_current=False)
        self._with_paths(paths, keep_current=True)

    def case(self, n: Case) -> None:
        subject = self.st.ex.expand(n.word)
        if subject.value is not None:
            for patterns, body in n.items:
                for p in patterns:
                    self.st.ex.expand(p)
                if shell_cond.case_matches(subject.value, patterns):
                    if subject.assumed:
                        for other_patterns, other in n.items:
                            if other is not body:
                                self.sites_only(_bound(n.word, other_patterns, other))
                    self.run(body)
                    return
            return
        # a `*)` arm takes whatever the others do not: then no path skips every arm
        every = any(p.raw == "*" for patterns, _ in n.items for p in patterns)
        self._with_paths([_bound(n.word, patterns, body) for patterns, body in n.items], keep_current=not every)

    def loop(self, n: Loop) -> None:
        if n.kind == "for" and n.items:
            values = [f for w in n.items for f in self.st.ex.expand_fields(w)]
            texts = sorted({f.text or "" for f in values})
            if n.var:
                self.st.ex.vars[n.var] = texts[0] if len(texts) == 1 else hole(f"${n.var}: one of " + " | ".join(shown(t) for t in texts))
            if values:
                # a launch in the body runs once per item: several instances where it is put in the background
                self.loops = getattr(self, "loops", 0) + (len(values) > 1)
                try:
                    self.run(n.body)
                finally:
                    self.loops -= len(values) > 1
                return
        elif n.kind == "for" and n.var:
            self.st.ex.vars[n.var] = hole("$" + n.var)
        self._with_paths([n.cond + n.body], keep_current=True)

    def condition(self, cond: list) -> shell_cond.Truth:
        if not cond:
            return shell_cond.UNKNOWN
        self.run(cond[:-1])
        return self.node(cond[-1])

    def sites_only(self, body: list) -> None:
        saved = self.st
        self.st = saved.copy()
        self.run(body)
        self.st = saved

    def _with_paths(self, bodies: list[list], keep_current: bool) -> None:
        """Run each body from the current state and merge the states they end in (with the
        current one when no body may also run)."""
        if len(bodies) == 1 and not keep_current:
            self.run(bodies[0])
            return
        saved = self.st
        saved.walk.branches(len(bodies) + keep_current, len(saved.ex.vars) + len(saved.ex.arrays))
        ends = []
        for body in bodies:
            self.st = saved.copy()
            self.run(body)
            ends.append(self.st)
        if keep_current:
            ends.append(saved.copy())
        self.st = saved
        shell_cond.merge(saved.ex, [s.ex for s in ends], saved.choices)
        saved.capture = shell_printf.merged([s.capture for s in ends]) if saved.capture is not None else None
        for s in ends:
            saved.funcs.update(s.funcs)
            for k, v in s.env.items():
                cur = saved.env.get(k)
                if cur is None or cur.value != v.value:
                    saved.env[k] = v if all(e.env.get(k) is not None and e.env[k].value == v.value for e in ends) else \
                        Setting(k, None, False, v.file, v.line, k, v.raw, v.syntax, "set only on some paths", pos=v.pos)


def _bound(subject, patterns: list, body: list) -> list:
    """A case arm's body, led by the value its one plain pattern proves for the subject variable."""
    proved = shell_cond.arm_proves(subject, patterns)
    return [Bind(*proved), *body] if proved is not None else body


def _is_test_node(n) -> bool:
    return isinstance(n, Simple) and bool(n.words) and n.words[0].raw in ("[", "[[", "test", "true", "false")
