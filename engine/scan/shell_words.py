"""What the shell tokenizer (engine/scan/shell.py) hands on: a word and its pieces (literal text,
a parameter expansion, a command substitution), a simple command, a here-document's body, the
positional parameters, and the syntax error it raises."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Seg:
    kind: str  # lit | var | cmd
    text: str = ""
    name: str = ""
    op: str = ""  # '', ':-', '-', ':=', '=', ':+', '+', '#', '%', ...
    arg: str = ""
    quoted: bool = False
    index: str = ""  # ${NAME[index]}: '@', '*' or an expression


class Args(list):
    """Positional parameters ($1 … $#) where the word at `upto` is an unquoted expansion of unknown
    value: it splits into any number of words, so `$#` and the positions after it are unknown."""
    upto: int = 0

    def copy(self):
        out = Args(self)
        out.upto = self.upto
        return out


@dataclass
class Word:
    raw: str
    line: int
    segs: list[Seg] = field(default_factory=list)
    start: int = 0  # character offsets of the word in the script
    end: int = 0
    value: str | None = None  # after expansion; None when unresolved
    assumed: str | None = None  # e.g. "default of ${TP:-2}"
    unresolved: str | None = None  # the expansion that could not be resolved
    array: "list[Word] | None" = None  # NAME=(a b c): the elements, when this word assigns an array
    text: str | None = None  # after expansion, with unknown parts kept as holes (shell_expand)
    # an unquoted expansion written right after this word that gave no field at all ($TP with TP
    # empty or unset where the script runs): the argument it stood for is gone from argv
    emptied: str | None = None

    @property
    def literal(self) -> str:
        """Text with quotes removed and expansions kept as written (for display)."""
        out = []
        for s in self.segs:
            out.append(s.text if s.kind == "lit" else s.arg if s.kind == "cmd" else show_var(s))
        return "".join(out)

    @property
    def shape(self) -> str:
        """The word as far as its form goes — its value, else its text with the unknown parts as
        holes: `--nodelist=$NODE` is still one option word, `$HOST` a positional."""
        return self.value if self.value is not None else (self.text or self.literal)

    @property
    def bare_var(self) -> bool:
        """An unquoted `$NAME`/`${NAME}` alone: its fields are whatever the variable splits into."""
        return bool(self.segs) and all(s.kind == "var" and not s.quoted and not s.op for s in self.segs)

    @property
    def is_all_args(self) -> bool:
        return any(s.kind == "var" and s.name in ("@", "*") for s in self.segs)


def show_var(s: Seg) -> str:
    sub = f"[{s.index}]" if s.index else ""
    if s.op == "#len":
        return "${#" + s.name + sub + "}"
    if s.op:
        return "${" + s.name + sub + s.op + s.arg + "}"
    if sub:
        return "${" + s.name + sub + "}"
    return "$" + s.name if len(s.name) == 1 or not s.quoted else "${" + s.name + "}"


@dataclass
class Heredoc:
    """A here-document's body as the lexer passed over it: offsets into the text it lexed (the
    delimiter line excluded), the body's first line, and whether the delimiter was quoted (no
    expansion: the body reaches its reader as written)."""
    start: int
    end: int
    line: int
    text: str
    quoted: bool


@dataclass
class Command:
    words: list[Word]
    line: int
    end_line: int
    assignments: list[tuple[str, Word]] = field(default_factory=list)


class ShellSyntaxError(ValueError):
    def __init__(self, message: str, line: int):
        self.line = line
        super().__init__(message)

