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
