"""The shell lexer's tokens as the tree parser (engine/scan/shell_tree.py) reads them: a stream with
lookahead that takes a redirection's target with it (and registers a here-document's body before
the lexer reaches the end of its line), and the tests on one token."""
from __future__ import annotations

from dataclasses import dataclass, field

from vllm_kb.engine.scan.shell import Word
from vllm_kb.engine.scan.shell_lexer import Lexer


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


def tline(tok) -> int:
    if tok is None:
        return 0
    return tok[1].line if tok[0] == "word" else tok[2]


def is_word(tok, *values) -> bool:
    return tok is not None and tok[0] == "word" and (not values or bare(tok[1]) in values)


def bare(w: Word) -> str | None:
    """The word's text when it is a plain unquoted literal (how reserved words are recognised)."""
    if len(w.segs) == 1 and w.segs[0].kind == "lit" and not w.segs[0].quoted:
        return w.segs[0].text
    return None


def is_op(tok, *ops) -> bool:
    return tok is not None and tok[0] == "op" and (not ops or tok[1] in ops)
