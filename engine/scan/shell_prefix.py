"""The part of a shell script that runs before its first syntax error. bash and sh read a script one
command at a time and run each before reading the next, so a stray quote on line 46 stops the script
there, after the commands above it have run (a `docker run` on line 21 included)."""
from __future__ import annotations

from vllm_kb.engine.scan.shell import ShellSyntaxError
from vllm_kb.engine.scan.shell_tree import parse_tree

# a line that ends like this goes on into the next one: the command it belongs to is the broken one
_GOES_ON = ("\\", "|", "&&", "||")
_TRIES = 20  # each try moves the cut up at least one line; a bound keeps a pathological file cheap


def before_error(text: str, line: int) -> tuple[str, int] | None:
    """The script's whole commands that end before the command holding the syntax error found on
    `line`, as text that parses, and the first line left unread; None when there is none. A command whose lines run into the bad one
    (a `\\` continuation, an `if` or function still open) is left out with it: bash parses a compound
    command whole before running any of it."""
    lines = text.split("\n")
    for _ in range(_TRIES):
        cut = min(line, len(lines) + 1) - 1  # lines kept: those above the error
        while cut > 0 and lines[cut - 1].rstrip().endswith(_GOES_ON) and not lines[cut - 1].lstrip().startswith("#"):
            cut -= 1  # the broken command started on this line or above
        if cut <= 0:
            return None
        prefix = "\n".join(lines[:cut]) + "\n"
        try:
            if not parse_tree(prefix):
                return None
        except ShellSyntaxError as e:
            if not 0 < e.line <= cut:
                return None
            line = e.line  # an `if`, loop or function opened above and closed only past the error
            continue
        except RecursionError:
            return None
        return prefix, cut + 1
    return None
