"""A shell script as a tree: simple commands joined by `&&`, `||`, `|`, `;`, `&`, with `if`, `case`,
`for`/`while`/`until`, `{ …; }`, `( … )`, `(( … ))` and function definitions, and array
assignments (`ARGS=(a b)`, `ARGS+=(c)`). Built on shell_lexer.py's lexer; nothing is executed."""
from __future__ import annotations

from dataclasses import dataclass, field

from vllm_kb.engine.scan.shell import ShellSyntaxError, Word
from vllm_kb.engine.scan.shell_lexer import Lexer
from vllm_kb.engine.scan.shell_nodes import AndOr, Case, FuncDef, Group, If, Loop, Pipeline, Simple, words_of  # noqa: F401

RESERVED = {"if", "then", "elif", "else", "fi", "case", "esac", "for", "while", "until", "do", "done",
            "function", "{", "}", "!", "in", "select"}


@dataclass
class Stream:
    """The lexer's tokens with a lookahead; a redirection's target is read with it (heredocs are
    registered before the lexer reaches the end of their line)."""
    lex: Lexer
    buf: list = field(default_factory=list)

    def _pull(self):
        for tok in self._gen:
            if tok[0] == "redir":
                target = next(self._gen, None)
                if target is not None and target[0] == "word":
                    sink: list | None = None
                    if tok[1] in ("<<", "<<-"):
                        delim = "".join(s.text for s in target[1].segs if s.kind == "lit")
                        sink = []  # the body, once the lexer has passed over it (shell_heredoc.py reads it)
                        self.lex.pending_heredocs.append((delim, tok[1] == "<<-", sink, any(c in target[1].raw for c in "'\"\\")))
                    return ("redir", tok[1], tok[2], target[1], sink)
                if target is not None:
                    self.buf.append(target)
                return ("redir", tok[1], tok[2], None)
            return tok
        return None

    def __post_init__(self):
        self._gen = self.lex.tokens()

    def peek(self, k: int = 0):
        while len(self.buf) <= k:
            tok = self._pull()
            if tok is None:
                return None
            self.buf.append(tok)
        return self.buf[k]

    def next(self):
        tok = self.peek()
        if tok is not None:
            self.buf.pop(0)
        return tok


def _tline(tok) -> int:
    if tok is None:
        return 0
    return tok[1].line if tok[0] == "word" else tok[2]


def _is_word(tok, *values) -> bool:
    return tok is not None and tok[0] == "word" and (not values or _bare(tok[1]) in values)


def _bare(w: Word) -> str | None:
    """The word's text when it is a plain unquoted literal (how reserved words are recognised)."""
    if len(w.segs) == 1 and w.segs[0].kind == "lit" and not w.segs[0].quoted:
        return w.segs[0].text
    return None


def _is_op(tok, *ops) -> bool:
    return tok is not None and tok[0] == "op" and (not ops or tok[1] in ops)


class _Parser:
    def __init__(self, text: str):
        self.ts = Stream(Lexer(text))
        self.depth = 0

    def skip_nl(self):
        while True:
            t = self.ts.peek()
            if t is not None and (t[0] == "nl" or _is_op(t, ";")):
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
            if _is_word(t) and _bare(t[1]) in stop:
                return out
            if _is_op(t, ")", ";;"):
                return out
            node = self.and_or()
            if node is not None:
                out.append(node)

    def and_or(self):
        first = self.pipeline()
        items = [("", first)] if first is not None else []
        while True:
            t = self.ts.peek()
            if _is_op(t, "&&", "||"):
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
        if _is_op(t, "&"):
            self.ts.next()
            background = True
        elif _is_op(t, ";") or (t is not None and t[0] == "nl"):
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
        if _is_word(self.ts.peek(), "!"):
            self.ts.next()
            negated = True
        cmds = [self.command()]
        while _is_op(self.ts.peek(), "|", "|&"):
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
        if _is_op(t, "("):
            if _is_op(self.ts.peek(1), "("):  # (( arithmetic ))
                self._skip_parens()
                return None
            self.ts.next()
            body = self.body(set())
            close = self._expect_op(")", _tline(t))
            return self._redirected(Group(body, True, _tline(t), end_line=_tline(close)))
        if t[0] != "word":
            self.ts.next()
            return None
        word = _bare(t[1])
        if word == "{":
            self.ts.next()
            body = self.body({"}"})
            close = self._expect_word("}", _tline(t))
            return self._redirected(Group(body, False, _tline(t), end_line=_tline(close)))
        if word == "if":
            return self._if()
        if word == "case":
            return self._case()
        if word in ("for", "select"):
            return self._for()
        if word in ("while", "until"):
            self.ts.next()
            cond = self.body({"do"})
            self._expect_word("do", _tline(t))
            body = self.body({"done"})
            self._expect_word("done", _tline(t))
            return Loop(word, None, None, cond, body, _tline(t))
        if word == "function":
            self.ts.next()
            name = self.ts.next()
            if _is_op(self.ts.peek(), "(") and _is_op(self.ts.peek(1), ")"):
                self.ts.next()
                self.ts.next()
            self.skip_nl()
            return FuncDef(_bare(name[1]) or name[1].raw if name and name[0] == "word" else "", self.command(), _tline(t))
        if word and "=" not in word and _is_op(self.ts.peek(1), "(") and _is_op(self.ts.peek(2), ")") and word not in RESERVED:
            self.ts.next()
            self.ts.next()
            self.ts.next()
            self.skip_nl()
            return FuncDef(word, self.command(), _tline(t))
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
            if _is_op(nxt, "(") and w.raw.endswith("=") and nxt[3] == w.end and _assignment_name(w):
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
            if _is_op(t, ")"):
                return out
            if t[0] == "word":
                out.append(t[1])

    def _if(self):
        start = self.ts.next()
        branches = []
        otherwise = None
        while True:
            cond = self.body({"then"})
            self._expect_word("then", _tline(start))
            body = self.body({"elif", "else", "fi"})
            branches.append((cond, body))
            t = self.ts.next()
            if t is None:
                raise ShellSyntaxError("unterminated if", _tline(start))
            kw = _bare(t[1]) if t[0] == "word" else None
            if kw == "elif":
                continue
            if kw == "else":
                otherwise = self.body({"fi"})
                self._expect_word("fi", _tline(start))
            break
        return If(branches, otherwise, _tline(start))

    def _case(self):
        start = self.ts.next()
        subject = self.ts.next()
        if subject is None or subject[0] != "word":
            raise ShellSyntaxError("case without a word", _tline(start))
        self.skip_nl()
        self._expect_word("in", _tline(start))
        items = []
        while True:
            self.skip_nl()
            t = self.ts.peek()
            if t is None:
                raise ShellSyntaxError("unterminated case", _tline(start))
            if _is_word(t, "esac"):
                self.ts.next()
                break
            if _is_op(t, "("):
                self.ts.next()
            patterns = []
            while True:
                p = self.ts.next()
                if p is None:
                    raise ShellSyntaxError("unterminated case", _tline(start))
                if p[0] == "word":
                    patterns.append(p[1])
                elif _is_op(p, ")"):
                    break
            body = self.body({"esac"})
            if _is_op(self.ts.peek(), ";;"):
                self.ts.next()
            items.append((patterns, body))
        return Case(subject[1], items, _tline(start))

    def _for(self):
        start = self.ts.next()
        if _is_op(self.ts.peek(), "(") and _is_op(self.ts.peek(1), "("):
            self._skip_parens()
            self.skip_nl()
            self._expect_word("do", _tline(start))
            body = self.body({"done"})
            self._expect_word("done", _tline(start))
            return Loop("arith", None, None, [], body, _tline(start))
        name = self.ts.next()
        var = _bare(name[1]) if name and name[0] == "word" else None
        items = None
        while self.ts.peek() is not None and self.ts.peek()[0] == "nl":
            self.ts.next()
        if _is_word(self.ts.peek(), "in"):
            self.ts.next()
            items = []
            while True:
                t = self.ts.peek()
                if t is None or t[0] != "word":
                    break
                self.ts.next()
                items.append(t[1])
        self.skip_nl()
        self._expect_word("do", _tline(start))
        body = self.body({"done"})
        self._expect_word("done", _tline(start))
        return Loop("for", var, items, [], body, _tline(start))

    def _skip_parens(self):
        depth = 0
        while True:
            t = self.ts.next()
            if t is None:
                return
            if _is_op(t, "("):
                depth += 1
            elif _is_op(t, ")"):
                depth -= 1
                if depth <= 0 and not _is_op(self.ts.peek(), ")"):
                    return

    def _redirected(self, g: Group) -> Group:
        """The redirections after a group's closing word: where its output goes (shell_printf.py)."""
        while (t := self.ts.peek()) is not None and t[0] == "redir":
            self.ts.next()
            if t[1] in (">", ">>", ">|") and len(t) > 3 and t[3] is not None and not (len(t) > 4 and t[4] is not None):
                g.writes = (g.writes or []) + [t[3]]
        return g

    def _expect_word(self, word: str, line: int):
        t = self.ts.next()
        if not _is_word(t, word):
            raise ShellSyntaxError(f"expected '{word}'", _tline(t) if t else line)
        return t

    def _expect_op(self, op: str, line: int):
        t = self.ts.next()
        if not _is_op(t, op):
            raise ShellSyntaxError(f"expected '{op}'", _tline(t) if t else line)
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
