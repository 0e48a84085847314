"""The shell lexer (engine/scan/shell.py parses with it; engine/scan/shell_tree.py builds its
tree from it): quotes, backslash-newline continuations, comments, operators, redirections,
here-document bodies and `$…` expansions, as tokens and words. Nothing is ever executed."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.shell_words import Heredoc, Seg, ShellSyntaxError, Word

OPERATORS = ("&&", "||", ";;", "|&", ";", "&", "|", "(", ")")
# A redirection operator with its optional fd; its target is the next word.
_REDIR_AT = re.compile(r"(\d*)(&>>|&>|>>|>\||>&|<&|<>|<<<|<<-|<<|>|<)")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Characters that end a word (blanks, redirections, the first character of every operator) and
# runs of characters that need no care inside one.
_WORD_END = frozenset(" \t\r\n<>") | {o[0] for o in OPERATORS}
_OP_START = frozenset(o[0] for o in OPERATORS)
# An unknown part the shell model marked (shell_expand `hole`, U+E000 … U+E001) is one piece of a
# word: text that reaches the tokenizer again (`eval "… $VAR …"`) keeps it whole, spaces and all.
_PLAIN_RUN = re.compile(r"[^ \t\r\n<>&|;()\\'\"$`\ue000]+")

class Lexer:
    def __init__(self, text: str):
        self.s = text
        self.i = 0
        self.line = 1
        # (delimiter, <<- strips tabs, where to put the body or None, delimiter quoted)
        self.pending_heredocs: list[tuple[str, bool, list | None, bool]] = []

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def advance(self, n: int = 1) -> str:
        chunk = self.s[self.i:self.i + n]
        self.line += chunk.count("\n")
        self.i += n
        return chunk

    def tokens(self):
        """Yields ('word', Word) | ('op', text, line) | ('nl', line)."""
        while self.i < len(self.s):
            c = self.peek()
            if c == "\\" and self.peek(1) == "\n":
                self.advance(2)
                continue
            if c == "\\" and self.i + 1 == len(self.s):  # a backslash ending the file escapes nothing: bash drops it
                self.advance()
                continue
            if c in " \t\r":
                self.advance()
                continue
            if c == "\n":
                line = self.line
                self.advance()
                yield ("nl", line)
                if self.pending_heredocs:
                    self._skip_heredocs()
                continue
            if c == "#":
                while self.i < len(self.s) and self.peek() != "\n":
                    self.advance()
                continue
            rm = _REDIR_AT.match(self.s, self.i)
            if rm:
                line = self.line
                self.advance(rm.end() - self.i)
                yield ("redir", rm.group(2), line)
                continue
            op = next((o for o in OPERATORS if self.s.startswith(o, self.i)), None) if c in _OP_START else None
            if op:
                line, at = self.line, self.i
                self.advance(len(op))
                yield ("op", op, line, at)
                continue
            yield ("word", self._word())

    def _skip_heredocs(self) -> None:
        for delim, strip_tabs, sink, quoted in self.pending_heredocs:
            start, line, stop = self.i, self.line, None
            while self.i < len(self.s):
                end = self.s.find("\n", self.i)
                end = len(self.s) if end < 0 else end
                line_text, at = self.s[self.i:end], self.i
                self.advance(end - self.i + (1 if end < len(self.s) else 0))
                if (line_text.lstrip("\t") if strip_tabs else line_text) == delim:
                    stop = at
                    break
            if sink is not None:
                stop = self.i if stop is None else stop
                sink.append(Heredoc(start, stop, line, self.s[start:stop], quoted))
        self.pending_heredocs = []

    def _word(self) -> Word:
        start, line = self.i, self.line
        m = _PLAIN_RUN.match(self.s, start)
        if m and (m.end() == len(self.s) or self.s[m.end()] in _WORD_END):  # the common case: no quotes, no $
            self.i = m.end()
            return Word(raw=m.group(), line=line, segs=[Seg("lit", m.group())], start=start, end=self.i)
        segs: list[Seg] = []
        lit: list[str] = []

        def flush(quoted=False):
            if lit:
                segs.append(Seg("lit", "".join(lit), quoted=quoted))
                lit.clear()

        while self.i < len(self.s):
            c = self.peek()
            if c in _WORD_END:
                break
            if c == "\\":
                if self.peek(1) == "\n":
                    self.advance(2)
                    continue
                self.advance()
                lit.append(self.advance() if self.i < len(self.s) else "")
            elif c == "'":
                flush()
                self.advance()
                end = self.s.find("'", self.i)
                if end < 0:
                    raise ShellSyntaxError("unterminated single quote", line)
                segs.append(Seg("lit", self.advance(end - self.i), quoted=True))
                self.advance()
            elif c == "$" and self.peek(1) == "'":
                flush()
                self.advance(2)
                buf = []
                while self.i < len(self.s) and self.peek() != "'":
                    if self.peek() == "\\":
                        self.advance()
                        e = self.advance()
                        buf.append({"n": "\n", "t": "\t", "'": "'", "\\": "\\"}.get(e, "\\" + e))
                    else:
                        buf.append(self.advance())
                if self.i >= len(self.s):
                    raise ShellSyntaxError("unterminated $'…' quote", line)
                self.advance()
                segs.append(Seg("lit", "".join(buf), quoted=True))
            elif c == '"':
                flush()
                self.advance()
                self._double_quoted(segs, line)
            elif c == "$":
                flush()
                segs.append(self._dollar(quoted=False, line=line))
            elif c == "\ue000" and (end := self.s.find("\ue001", self.i)) > 0:
                flush()
                segs.append(Seg("lit", self.advance(end + 1 - self.i), quoted=True))
            elif c == "`":
                flush()
                self.advance()
                end = self.s.find("`", self.i)
                if end < 0:
                    raise ShellSyntaxError("unterminated backquote", line)
                body = self.advance(end - self.i)
                self.advance()
                segs.append(Seg("cmd", arg="`" + body + "`"))
            else:
                m = _PLAIN_RUN.match(self.s, self.i)
                lit.append(self.advance(m.end() - self.i if m else 1))
        flush()
        return Word(raw=self.s[start:self.i], line=line, segs=segs, start=start, end=self.i)

    def _double_quoted(self, segs: list[Seg], line: int) -> None:
        buf: list[str] = []
        while True:
            if self.i >= len(self.s):
                raise ShellSyntaxError("unterminated double quote", line)
            c = self.peek()
            if c == '"':
                self.advance()
                break
            if c == "\\" and self.peek(1) in '"\\$`\n':
                self.advance()
                e = self.advance()
                if e != "\n":
                    buf.append(e)
            elif c == "$":
                if buf:
                    segs.append(Seg("lit", "".join(buf), quoted=True))
                    buf = []
                segs.append(self._dollar(quoted=True, line=line))
            elif c == "`":
                if buf:
                    segs.append(Seg("lit", "".join(buf), quoted=True))
                    buf = []
                self.advance()
                end = self.s.find("`", self.i)
                if end < 0:
                    raise ShellSyntaxError("unterminated backquote", line)
                segs.append(Seg("cmd", arg="`" + self.advance(end - self.i) + "`", quoted=True))
                self.advance()
            else:
                buf.append(self.advance())
        segs.append(Seg("lit", "".join(buf), quoted=True))

    def _closing(self, open_: str, close: str) -> int:
        """Offset just past the bracket that closes the one at self.i, or -1."""
        depth, j = 1, self.i + 1
        while j < len(self.s) and depth:
            if self.s[j] == open_:
                depth += 1
            elif self.s[j] == close:
                depth -= 1
            j += 1
        return -1 if depth else j

    def _dollar(self, quoted: bool, line: int) -> Seg:
        self.advance()  # $
        c = self.peek()
        if c == "{":
            j = self._closing("{", "}")
            if j < 0:
                raise ShellSyntaxError("unterminated ${…}", line)
            body = self.s[self.i + 1:j - 1]
            self.advance(j - self.i)
            m = _BRACED.match(body)
            if not m:
                return Seg("var", name=body, op="?bad", quoted=quoted)
            name = m.group(2)
            op = m.group(4) or ""
            index = (m.group(3) or "")[1:-1]
            if m.group(1) == "#" and not op and not m.group(5):
                op = "#len"
            elif m.group(1):
                return Seg("var", name=body, op="?bad", quoted=quoted)
            return Seg("var", name=name, op=op, arg=outer_unquoted(m.group(5)), quoted=quoted, index=index)
        if c == "(":
            j = self._closing("(", ")")
            j = len(self.s) if j < 0 else j
            body = self.s[self.i - 1:j]
            self.advance(j - self.i)
            return Seg("cmd", arg=body, quoted=quoted)
        m = _NAME.match(self.s, self.i)
        if m:
            self.advance(m.end() - self.i)
            return Seg("var", name=m.group(0), quoted=quoted)
        if c and (c.isdigit() or c in "@*#?$!-"):
            self.advance()
            return Seg("var", name=c, quoted=quoted)
        return Seg("lit", "$", quoted=quoted)


# ${NAME}, ${NAME[i]}, ${#NAME}, ${NAME:-x}, ${NAME#p}, ${NAME/a/b}, ${!NAME} …
_BRACED = re.compile(r"^([#!]?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?(:?[-=+?]|##?|%%?|//?|\^\^?|,,?|:)?(.*)$", re.S)


def outer_unquoted(text: str, padded: bool = False) -> str:
    """The text without one pair of matching outer quotes (`'{…}'` → `{…}`, `"a b"` → `a b`), else the
    text as it is: a `${X:-"a b"}` operand (this lexer, shell_params), a word as a file writes it
    (check/json_values). `padded`: white space around the quoted word is not part of it
    (`${X:- "a b" }` → `a b`), while an unquoted text keeps its own (`${X:- a }`: ` a `)."""
    t = text.strip() if padded else text
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    return text

