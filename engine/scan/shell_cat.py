"""Here-documents read as one string: the body `read -r -d '' CMD <<EOF` puts in CMD (shell_heredoc.read_whole)
and the output of `$(cat <<EOF … EOF)`, as the shell expands them. Apart from shell_heredoc so that the
expander (shell_expand) can read a command substitution's output without importing what imports it."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.shell import Heredoc, ShellSyntaxError


def whole(h: Heredoc, ex) -> str | None:
    """A here-document's body as one string, as its reader gets it (shell_heredoc.read_whole); None where a
    quote, backslash or command substitution is left in it."""
    text = h.text if h.quoted else h.text.replace("\\\n", "")
    if any(c in text for c in "\"'`\\") or "$(" in text:
        return None
    if h.quoted:
        return text.strip(" \t\n")
    from vllm_kb.engine.scan.shell_tree import Simple, parse_tree

    try:
        nodes = parse_tree('"' + text + '"')
    except (ShellSyntaxError, RecursionError, ValueError):
        return None
    if len(nodes) != 1 or not isinstance(nodes[0], Simple) or len(nodes[0].words) != 1:
        return None
    got, _note = ex.value_text(nodes[0].words[0])
    return got.strip(" \t\n")


_CAT = re.compile(r"^\$\(\s*cat\s*<<")


def cat_output(arg: str, ex) -> str | None:
    """`CMD=$(cat <<EOF … EOF)`: the command substitution's output is the here-document's body as the
    shell expands it, which `$CMD` or `eval "$CMD"` then runs (eval79 zlH518/PipeRLHF builds its
    generation commands this way); None for any other substitution, or a body `whole` leaves unknown."""
    if not _CAT.match(arg) or not arg.endswith(")"):
        return None
    from vllm_kb.engine.scan.shell_tree import Simple, parse_tree

    try:
        nodes = parse_tree(arg[2:-1])
    except (ShellSyntaxError, RecursionError, ValueError):
        return None
    n = nodes[0] if len(nodes) == 1 else None
    if not isinstance(n, Simple) or [w.raw for w in n.words] != ["cat"] or n.writes or len(n.heredocs or []) != 1:
        return None
    bodies = [h for sink in n.heredocs for h in sink]  # type: ignore[union-attr]
    return whole(bodies[0], ex) if len(bodies) == 1 else None
