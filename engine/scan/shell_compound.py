"""The compound commands of the shell tree parser (a mixin of shell_tree's parser): `if`/`elif`/`else`,
`case … esac`, `for`/`select` (and the arithmetic `for ((…))`), and `(( … ))` skipped whole."""
from __future__ import annotations

from typing import TYPE_CHECKING

from vllm_kb.engine.scan.shell import ShellSyntaxError
from vllm_kb.engine.scan.shell_nodes import Case, If, Loop
from vllm_kb.engine.scan.shell_stream import Stream, bare, is_op, is_word, tline


class Compound:
    if TYPE_CHECKING:  # what shell_tree's parser, the class this is mixed into, provides
        ts: Stream

        def body(self, stop: set[str]) -> list[object]: ...
        def _expect_word(self, word: str, line: int): ...

    def _if(self):
        start = self.ts.next()
        branches = []
        otherwise = None
        while True:
            cond = self.body({"then"})
            self._expect_word("then", tline(start))
            body = self.body({"elif", "else", "fi"})
            branches.append((cond, body))
            t = self.ts.next()
            if t is None:
                raise ShellSyntaxError("unterminated if", tline(start))
            kw = bare(t[1]) if t[0] == "word" else None
            if kw == "elif":
                continue
            if kw == "else":
                otherwise = self.body({"fi"})
                self._expect_word("fi", tline(start))
            break
        return If(branches, otherwise, tline(start))

    def _case(self):
        start = self.ts.next()
        subject = self.ts.next()
        if subject is None or subject[0] != "word":
            raise ShellSyntaxError("case without a word", tline(start))
        self.skip_nl()
        self._expect_word("in", tline(start))
        items = []
        while True:
            self.skip_nl()
            t = self.ts.peek()
            if t is None:
                raise ShellSyntaxError("unterminated case", tline(start))
            if is_word(t, "esac"):
                self.ts.next()
                break
            if is_op(t, "("):
                self.ts.next()
            patterns = []
            while True:
                p = self.ts.next()
                if p is None:
                    raise ShellSyntaxError("unterminated case", tline(start))
                if p[0] == "word":
                    patterns.append(p[1])
                elif is_op(p, ")"):
                    break
            body = self.body({"esac"})
            if is_op(self.ts.peek(), ";;"):
                self.ts.next()
            items.append((patterns, body))
        return Case(subject[1], items, tline(start))

    def _for(self):
        start = self.ts.next()
        if is_op(self.ts.peek(), "(") and is_op(self.ts.peek(1), "("):
            self._skip_parens()
            self.skip_nl()
            self._expect_word("do", tline(start))
            body = self.body({"done"})
            self._expect_word("done", tline(start))
            return Loop("arith", None, None, [], body, tline(start))
        name = self.ts.next()
        var = bare(name[1]) if name and name[0] == "word" else None
        items = None
        while self.ts.peek() is not None and self.ts.peek()[0] == "nl":
            self.ts.next()
        if is_word(self.ts.peek(), "in"):
            self.ts.next()
            items = []
            while True:
                t = self.ts.peek()
                if t is None or t[0] != "word":
                    break
                self.ts.next()
                items.append(t[1])
        self.skip_nl()
        self._expect_word("do", tline(start))
        body = self.body({"done"})
        self._expect_word("done", tline(start))
        return Loop("for", var, items, [], body, tline(start))

    def _skip_parens(self):
        depth = 0
        while True:
            t = self.ts.next()
            if t is None:
                return
            if is_op(t, "("):
                depth += 1
            elif is_op(t, ")"):
                depth -= 1
                if depth <= 0 and not is_op(self.ts.peek(), ")"):
                    return
