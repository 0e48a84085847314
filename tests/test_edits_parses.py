"""engine/fix/edits.py `_parses`: the cheap test that an edited Python file still parses (symtable,
no tree of Python objects) says True only for a text ast.parse accepts; ast.parse decides the rest."""
from __future__ import annotations

import ast

import pytest

from vllm_kb.engine.fix import edits


@pytest.mark.parametrize("text", [
    "x = 1\n", "def f(a, a):\n    pass\n", "nonlocal x\n", "x = (\n", "a\x00b\n", "from __future__ import braces\n",
    "return 1\n", "async def f():\n    await x\n", "def f():\n    yield\n",
])
def test_parses_never_accepts_what_ast_rejects(text):
    try:
        ast.parse(text)
        accepted = True
    except (SyntaxError, ValueError):
        accepted = False
    assert not edits._parses(text) or accepted
