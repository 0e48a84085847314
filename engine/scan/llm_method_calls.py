"""The methods a project calls on its own `LLM(...)` object: `self.llm = LLM(model=name, …)` then
`self.llm.set_tokenizer(tokenizer=self.tokenizer)` (bigcodebench/provider/vllm.py:44-45,
https://github.com/bigcode-project/bigcodebench 47eff25a). Read statically from the site's own file: the
name or attribute the LLM call is assigned to, as written (`self.llm`, `llm`), and every call of a
method on that same spelling in the file. Another object of that spelling in another function of the
file is read as the same one, which errs toward the call (a P1 only, engine/check/llm_methods.py).

Also the legacy `prompt_token_ids=` of `LLM.generate`/`LLM.encode` on that object (check L288):
deprecated from 0.4.3 (deprecate_kwargs, vllm/entrypoints/llm.py 0.4.3:159-172) and gone from 0.10.2,
whose generate(prompts, sampling_params, *, use_tqdm, lora_request, priority) takes no such keyword
(0.10.2 vllm/entrypoints/llm.py:330-338; 0.10.1.1:407-420 still has it). Another object's
`generate(prompt_token_ids=…)` (an AsyncLLMEngine of 0.4, a Hugging Face model, a project's own
wrapper) is no LLM method."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from vllm_kb.engine.scan.python_scope import walk

_TOKEN_IDS_METHODS = frozenset({"generate", "encode"})


@dataclass(frozen=True)
class MethodCall:
    method: str
    receiver: str  # as written: `self.llm`
    line: int


def _is_llm(call: ast.AST | None) -> bool:
    if not isinstance(call, ast.Call):
        return False
    f = call.func
    return (isinstance(f, ast.Name) and f.id == "LLM") or (isinstance(f, ast.Attribute) and f.attr == "LLM")


def _on(tree: ast.AST, receivers: set[str], methods: frozenset[str]) -> list[tuple[str, ast.Call]]:
    """(method, call) for the calls of `methods` on any of `receivers` (as written) in the file."""
    return [(node.func.attr, node) for node in walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr in methods
            and ast.unparse(node.func.value) in receivers]


def calls(tree: ast.AST, site_line: int, methods: frozenset[str]) -> list[MethodCall]:
    """The calls of `methods` on what the LLM(...) call at `site_line` is assigned to."""
    receiver = None
    for node in walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and _is_llm(node.value) \
                and node.value is not None and node.value.lineno <= site_line <= (node.value.end_lineno or node.value.lineno):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], (ast.Name, ast.Attribute)):
                receiver = ast.unparse(targets[0])
            break
    if receiver is None:
        return []
    return sorted((MethodCall(m, receiver, n.lineno) for m, n in _on(tree, {receiver}, methods)), key=lambda c: c.line)


def token_ids_call(tree: ast.Module, text: str, call: ast.Call, rel: str) -> str | None:
    """`x.generate(prompt_token_ids=…)` (file:line) on a name `call` is assigned to, or None."""
    if text.isascii() and "prompt_token_ids" not in text:
        return None
    names = set()
    for n in walk(tree):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is call:
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                if isinstance(t, (ast.Name, ast.Attribute)):
                    names.add(ast.unparse(t))
    found = [(n.lineno, f"`{ast.unparse(n.func)}(prompt_token_ids=…)` ({rel}:{n.lineno})")
             for _, n in _on(tree, names, _TOKEN_IDS_METHODS) if any(k.arg == "prompt_token_ids" for k in n.keywords)]
    return min(found)[1] if found else None
