"""A POSIX-shell tokenizer, enough to find and read vLLM launch commands in scripts: quotes,
backslash-newline continuations, comments, operators, heredocs, redirections and parameter
expansion against the script's own literal assignments (the lexer: engine/scan/shell_lexer.py; its words:
engine/scan/shell_words.py). Nothing is ever executed."""
from __future__ import annotations

from vllm_kb.engine.scan.shell_lexer import OPERATORS, Lexer
from vllm_kb.engine.scan.shell_words import Args, Command, Heredoc, Seg, ShellSyntaxError, Word

# the tokenizer's words and commands are imported from here by the scanners
__all__ = ["OPERATORS", "SHELLS", "Args", "Command", "Heredoc", "Seg", "ShellSyntaxError", "Word", "c_script_at", "parse"]

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})  # programs whose `-c` string is a script of its own


def parse(text: str) -> list[Command]:
    """Split a script into simple commands, expanding parameters from earlier literal
    assignments (`MODEL=x`, `export TP=2`, `: ${TP:=2}`) in file order."""
    lex = Lexer(text)
    commands: list[Command] = []
    current: list[Word] = []

    def end_command():
        if current:
            commands.append(Command(words=list(current), line=current[0].line, end_line=current[-1].line))
            current.clear()

    target_of = None
    for tok in lex.tokens():
        if tok[0] == "redir":
            target_of = tok[1]
            continue
        if tok[0] == "word":
            w = tok[1]
            if target_of is not None:
                if target_of in ("<<", "<<-"):
                    delim = "".join(s.text for s in w.segs if s.kind == "lit")
                    lex.pending_heredocs.append((delim, target_of == "<<-", None, False))
                target_of = None
                continue
            current.append(w)
        else:
            target_of = None
            end_command()
    end_command()
    return commands


def c_script_at(values: list[str], i: int) -> int | None:
    """`bash -c "…"` / `sh -lc '…'` / `bash -lc -- "…"` with the shell at `values[i]`: the index of
    the script string; None without a `-c` option or a string after it."""
    k, has_c = i + 1, False
    while k < len(values) and values[k].startswith("-"):
        v = values[k]
        k += 1
        if v == "--":
            break
        if not v.startswith("--") and "c" in v[1:]:
            has_c = True
    return k if has_c and k < len(values) else None
