"""Forms of a subprocess argv that engine/scan/python_argv.py reads like their plain spelling: the
command given by keyword, and an interpreter the code computes in the program slot."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_flow import Scalar
from vllm_kb.engine.scan.shell import Seg, Word


def positional(call: ast.Call) -> ast.Call:
    """`subprocess.run(args=command)` (yuliu625/Yu-AI-Inference-Stack, eval83), `create_subprocess_shell(cmd=…)`:
    the command given by keyword, read as the first positional argument it stands for."""
    kw = next((k for k in call.keywords if k.arg in ("args", "cmd", "command")), None) if not call.args else None
    if kw is None:
        return call
    return ast.copy_location(ast.Call(func=call.func, args=[kw.value], keywords=[k for k in call.keywords if k is not kw]), call)


def interpreter_first(items: list, words: list[Word]) -> list[Word]:
    """`[vllm_python(), "-m", "vllm.entrypoints.openai.api_server", …]` (ToPo-ToPo-ToPo/local-llm-server,
    eval83): a call the reader cannot resolve in the program slot, followed by `-m vllm…`, is a Python
    interpreter (only an interpreter takes `-m MODULE`), so the argv is read as `python -m vllm…`."""
    if len(words) < 3 or words[0].value is not None or not isinstance(items[0].node, ast.Call):
        return words
    if words[1].value != "-m" or (words[2].value or "").split(".")[0] != "vllm":
        return words
    w = words[0]
    w.value = w.text = "python"
    w.segs = [Seg("lit", "python", quoted=True)]
    w.unresolved = None
    return words


def called(node: ast.expr, r) -> ast.expr:
    """`cmd = build_command(cfg)` then `subprocess.Popen(cmd)`: the helper call a name holds, read as
    `subprocess.Popen(build_command(cfg))` (engine/scan/python_returns.py); else the node itself."""
    got = r.flow.get(node.id) if isinstance(node, ast.Name) and getattr(r, "flow", None) is not None else None
    if isinstance(got, Scalar) and not got.item.uncertain and isinstance(got.item.node, ast.Call):
        return got.item.node
    return node


def literal_positions(items: list, r, text: str) -> dict | None:
    """Where each argv item is written as a string element of a list literal in this file
    (`["--disable-log-requests", …]`): its character offsets, for --fix to remove it
    (engine/fix/python_edits.py); None for any other item (a name, an f-string, an `.append`
    argument), which a fix never edits."""
    tree = getattr(r, "tree", None)
    if tree is None or not any(isinstance(it.node, ast.Constant) and hasattr(it.node, "lineno") for it in items):
        return None
    in_list = {id(e) for n in ast.walk(tree) if isinstance(n, ast.List) for e in n.elts}
    pos: list = []
    for it in items:
        node = it.node
        at = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) in in_list and not it.uncertain:
            a, b = r.lines.span(node)
            try:
                same = 0 <= a < b <= len(text) and ast.literal_eval(text[a:b]) == node.value
            except (ValueError, SyntaxError):
                same = False
            at = (a, b) if same else None
        pos.append(at)
    return {"argv_pos": pos} if any(p is not None for p in pos) else None
