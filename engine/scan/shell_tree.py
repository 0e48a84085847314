"""A shell script as a tree: simple commands joined by `&&`, `||`, `|`, `;`, `&`, with `if`, `case`,
`for`/`while`/`until`, `{ …; }`, `( … )`, `(( … ))` and function definitions, and array
assignments (`ARGS=(a b)`, `ARGS+=(c)`). Built on shell_lexer.py's lexer (its tokens: shell_stream.py; `if`, `case`, `for`:
shell_compound.py); nothing is executed."""
from __future__ import annotations

from vllm_kb.engine.scan.shell import ShellSyntaxError, Word
from vllm_kb.engine.scan.shell_compound import Compound
from vllm_kb.engine.scan.shell_lexer import Lexer
from vllm_kb.engine.scan.shell_nodes import AndOr, Case, FuncDef, Group, If, Loop, Pipeline, Simple, words_of  # noqa: F401
from vllm_kb.engine.scan.shell_stream import Stream, bare, is_op, is_word, tline

RESERVED = {"if", "then", "elif", "else", "fi", "case", "esac", "for", "while", "until", "do", "done",
            "function", "{", "}", "!", "in", "select"}


class _Parser(Compound):
    def __init__(self, text: str):
        self.ts = Stream(Lexer(text))
        self.depth = 0

    def skip_nl(self):
        while True:
            t = self.ts.peek()
            if t is not None and (t[0] == "nl" or is_op(t, ";")):
                self.ts.next()
                continue
            return

    def body(self, stop: set[str]) -> list[object]:
        """Commands until one of the `stop` reserved words (not consumed) or the end."""
        out: list[object] = []
        while True:
            self.skip_nl()
            t = self.ts.peek()
            if t is None:
                return out
            if is_word(t) and bare(t[1]) in stop:
                return out
            if is_op(t, ")", ";;"):
                return out
            node = self.and_or()
            if node is not None:
                out.append(node)

    def and_or(self):
        first = self.pipeline()
        items = [("", first)] if first is not None else []
        while True:
            t = self.ts.peek()
            if is_op(t, "&&", "||"):
                self.ts.next()
                while self.ts.peek() is not None and self.ts.peek()[0] == "nl":
                    self.ts.next()
                nxt = self.pipeline()
                if nxt is not None:
                    items.append((t[1], nxt))
                continue
            break
        background = False
        t = self.ts.peek()
        if is_op(t, "&"):
            self.ts.next()
            background = True
        elif is_op(t, ";") or (t is not None and t[0] == "nl"):
            self.ts.next()
        if not items:
            return None
        if len(items) == 1:
            node = items[0][1]
            if background and isinstance(node, Simple):
                node.background = True
                return node
            if not background:
                return node
        return AndOr(items, _line_of(items[0][1]), background)

    def pipeline(self):
        negated = False
        if is_word(self.ts.peek(), "!"):
            self.ts.next()
            negated = True
        cmds = [self.command()]
        while is_op(self.ts.peek(), "|", "|&"):
            self.ts.next()
            while self.ts.peek() is not None and self.ts.peek()[0] == "nl":
                self.ts.next()
            cmds.append(self.command())
        cmds = [c for c in cmds if c is not None]
        if not cmds:
            return None
        if len(cmds) == 1 and not negated:
            return cmds[0]
        return Pipeline(cmds, negated, _line_of(cmds[0]))

    def command(self):
        self.depth += 1
        if self.depth > 200:
            raise ShellSyntaxError("nesting too deep", 0)
        try:
            return self._command()
        finally:
            self.depth -= 1

    def _command(self):
        t = self.ts.peek()
        if t is None:
            return None
        if is_op(t, "("):
            if is_op(self.ts.peek(1), "("):  # (( arithmetic ))
                self._skip_parens()
                return None
            self.ts.next()
            body = self.body(set())
            close = self._expect_op(")", tline(t))
            return self._redirected(Group(body, True, tline(t), end_line=tline(close)))
        if t[0] != "word":
            self.ts.next()
            return None
        word = bare(t[1])
        if word == "{":
            self.ts.next()
            body = self.body({"}"})
            close = self._expect_word("}", tline(t))
            return self._redirected(Group(body, False, tline(t), end_line=tline(close)))
        if word == "if":
            return self._if()
        if word == "case":
            return self._case()
        if word in ("for", "select"):
            return self._for()
        if word in ("while", "until"):
            self.ts.next()
            cond = self.body({"do"})
            self._expect_word("do", tline(t))
            body = self.body({"done"})
            self._expect_word("done", tline(t))
            return Loop(word, None, None, cond, body, tline(t))
        if word == "function":
            self.ts.next()
            name = self.ts.next()
            if is_op(self.ts.peek(), "(") and is_op(self.ts.peek(1), ")"):
                self.ts.next()
                self.ts.next()
            self.skip_nl()
            return FuncDef(bare(name[1]) or name[1].raw if name and name[0] == "word" else "", self.command(), tline(t))
        if word and "=" not in word and is_op(self.ts.peek(1), "(") and is_op(self.ts.peek(2), ")") and word not in RESERVED:
            self.ts.next()
            self.ts.next()
            self.ts.next()
            self.skip_nl()
            return FuncDef(word, self.command(), tline(t))
        return self._simple()

    def _simple(self) -> Simple | None:
        words: list[Word] = []
        heredocs: list[list] = []
        writes: list[Word] = []
        strings: list[Word] = []
        while True:
            t = self.ts.peek()
            if t is None:
                break
            if t[0] == "redir":
                self.ts.next()
                if len(t) > 4 and t[4] is not None:
                    heredocs.append(t[4])
                elif t[1] in (">", ">>", ">|") and len(t) > 3 and t[3] is not None:
                    writes.append(t[3])
                elif t[1] == "<<<" and len(t) > 3 and t[3] is not None:
                    strings.append(t[3])
                continue
            if t[0] != "word":
                break
            w = t[1]
            self.ts.next()
            nxt = self.ts.peek()
            if is_op(nxt, "(") and w.raw.endswith("=") and nxt[3] == w.end and _assignment_name(w):
                self.ts.next()
                w.array = self._array_elements(w.line)
            words.append(w)
        if not words:
            return None
        return Simple(words, words[0].line, max(x.line for x in words), heredocs=heredocs or None, writes=writes or None,
                      herestrings=strings or None)

    def _array_elements(self, line: int) -> list[Word]:
        out: list[Word] = []
        while True:
            t = self.ts.next()
            if t is None:
                raise ShellSyntaxError("unterminated array assignment", line)
            if is_op(t, ")"):
                return out
            if t[0] == "word":
                out.append(t[1])

    def _redirected(self, g: Group) -> Group:
        """The redirections after a group's closing word: where its output goes (shell_printf.py)."""
        while (t := self.ts.peek()) is not None and t[0] == "redir":
            self.ts.next()
            if t[1] in (">", ">>", ">|") and len(t) > 3 and t[3] is not None and not (len(t) > 4 and t[4] is not None):
                g.writes = (g.writes or []) + [t[3]]
        return g

    def _expect_word(self, word: str, line: int):
        t = self.ts.next()
        if not is_word(t, word):
            raise ShellSyntaxError(f"expected '{word}'", tline(t) if t else line)
        return t

    def _expect_op(self, op: str, line: int):
        t = self.ts.next()
        if not is_op(t, op):
            raise ShellSyntaxError(f"expected '{op}'", tline(t) if t else line)
        return t


def _assignment_name(w: Word) -> bool:
    import re

    return bool(w.segs) and w.segs[0].kind == "lit" and not w.segs[0].quoted and bool(
        re.match(r"^[A-Za-z_][A-Za-z0-9_]*\+?=$", w.raw))


def _line_of(node) -> int:
    return getattr(node, "line", 0)


def parse_tree(text: str, start: int = 0, line: int = 1) -> list[object]:
    """The script's top-level commands as a tree, read from offset `start` (on line `line`) on: a
    here-document's body keeps the file's offsets. Raises ShellSyntaxError."""
    p = _Parser(text)
    p.ts.lex.i, p.ts.lex.line = start, line
    out = p.body(set())
    rest = p.ts.peek()
    while rest is not None:  # a stray `fi`, `done` or `)`: skip it and read on
        p.ts.next()
        out += p.body(set())
        rest = p.ts.peek()
    return out
