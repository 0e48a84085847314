"""An argv list written as a vLLM launch wherever it stands: `["vllm", "serve", model, …]` or
`[sys.executable, "-m", "vllm.entrypoints.openai.api_server", …]` returned by a function, assigned at
module level, handed to a helper of another package that starts it. The spawn that runs it may be out
of sight (tomasruizt/lewidi2025's vllm_command() returns the list and llmlib's VLLMServer runs it), but
the words are the launch: read as the argv they are (python_argv.list_site). In a file that spawns
a command itself (or defines a helper that does), the spawn's own reading of its argv stands
(engine/scan/python_argv.py, launcher_entry): its lists are not read again."""
from __future__ import annotations

import ast
import re

from vllm_kb.engine.scan.launcher_entry import SERVER_MODULES

_PYTHONS = ("python", "python3")
# the words as the file writes them, for the prefilter (a file with neither is not parsed for this)
_WRITTEN = re.compile(r"""["'](?:[^"'\s]*/)?vllm["']\s*,\s*["']serve["']|["']-m["']\s*,\s*["']vllm\.entrypoints\.""")


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _python(node: ast.expr) -> bool:
    """`python`, `python3.11`, `/usr/bin/python3`, or `sys.executable`."""
    if isinstance(node, ast.Attribute) and node.attr == "executable" and isinstance(node.value, ast.Name) and node.value.id == "sys":
        return True
    word = _text(node)
    return word is not None and word.rsplit("/", 1)[-1].startswith(_PYTHONS)


def standing(tree: ast.AST, lists: list) -> set[int]:
    """The ids of the lists that stand as a command: assigned, returned, passed to a call, joined with
    `+` — not an item of a table of cases (a test's parametrize rows) nor a dict's value (a container
    spec, which engine/scan/container_spec.py reads with its image)."""
    want = {id(n) for n, *_ in lists}
    out: set[int] = set()
    for parent in ast.walk(tree):
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.Return, ast.Call, ast.BinOp, ast.keyword, ast.Expr)):
            kids = ([parent.value] if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.Return, ast.keyword, ast.Expr)) else
                    [*parent.args, *(k.value for k in parent.keywords)] if isinstance(parent, ast.Call) else [parent.left, parent.right])
            out |= {id(k) for k in kids if id(k) in want}
    return out


def mentions(text: str) -> bool:
    """Whether `_WRITTEN` finds its words. Its first branch ends with `serve` and a quote, its second
    holds `vllm.entrypoints.`: a file with neither is passed before the pattern, which starts with a
    quote and is tried at each of them (vLLM's tree: 0.6 s, a sixtieth of its audit)."""
    return "vllm" in text and ("serve'" in text or 'serve"' in text or "vllm.entrypoints." in text) \
        and _WRITTEN.search(text) is not None


def starts_launch(node: ast.AST) -> bool:
    """A list literal whose first words start vLLM's server."""
    if not isinstance(node, ast.List) or len(node.elts) < 2:
        return False
    first = [_text(e) for e in node.elts[:3]]
    if first[0] is not None and first[0].rsplit("/", 1)[-1] == "vllm" and first[1] == "serve":
        return True
    return len(node.elts) >= 3 and _python(node.elts[0]) and first[1] == "-m" and first[2] in SERVER_MODULES

