"""The methods a script calls on the `LLM` it builds, with keywords some releases lack: the legacy
`prompt_token_ids=` of `LLM.generate`/`LLM.encode`, deprecated from 0.4.3 (deprecate_kwargs,
vllm/entrypoints/llm.py 0.4.3:159-172) and gone from 0.10.2, whose generate(prompts,
sampling_params, *, use_tqdm, lora_request, priority) takes no such keyword (0.10.2
vllm/entrypoints/llm.py:330-338; 0.10.1.1:407-420 still has it). Check L288 reads the fact.

Only a call on a name the `LLM(…)` call itself is assigned to counts (`llm = LLM(…)`, `self.llm =
LLM(…)`): another object's `generate(prompt_token_ids=…)` (an AsyncLLMEngine of 0.4, a Hugging
Face model, a project's own wrapper) is no LLM method."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_values import walk

_METHODS = ("generate", "encode")


def token_ids_call(tree: ast.Module, text: str, call: ast.Call, rel: str) -> str | None:
    """`x.generate(prompt_token_ids=…)` (file:line) on the name `call` is assigned to, or None."""
    if text.isascii() and "prompt_token_ids" not in text:
        return None
    names = set()
    for n in walk(tree):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is call:
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                if isinstance(t, (ast.Name, ast.Attribute)):
                    names.add(ast.unparse(t))
    if not names:
        return None
    found = []
    for n in walk(tree):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _METHODS
                and ast.unparse(n.func.value) in names and any(k.arg == "prompt_token_ids" for k in n.keywords)):
            found.append((n.lineno, f"`{ast.unparse(n.func)}(prompt_token_ids=…)` ({rel}:{n.lineno})"))
    return min(found)[1] if found else None
