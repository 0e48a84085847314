"""Which of verl's vLLM rollouts a copy of verl in the tree builds, and whether that one asserts
CUDA graphs off while free_cache_engine frees the KV cache ("disable CUDA graph (enforce_eager =
False) if free cache engine").

The version file does not say it: a checkout of verl's main between 0.4.1 and 0.5.0 still reads
"0.4.1.dev", but its `vllm_rollout/__init__.py` imports only `vllm_rollout_spmd` (as 0.5.0 does),
whose rollout has no such assertion; the assertion is left in `vllm_rollout.py`, which nothing
imports (Wyyyb/CriticCoT sweswe-main). Released 0.3.0.post1 … 0.4.1 import both modules and pick
by the installed vLLM (`<= 0.6.3`: vllm_rollout, the "customized" one; later: vllm_rollout_spmd),
and both assert; 0.1/0.2 import vllm_rollout only."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_scope import imports_submodule

PKG = "verl/workers/rollout/vllm_rollout"
MODULES = {"vllm_rollout": "customized", "vllm_rollout_spmd": "spmd"}


def eager_assert(trees) -> dict[str, str]:
    """{"customized": "yes"|"no", "spmd": "yes"|"no"}: whether the rollout the copy builds for
    vLLM <= 0.6.3 (customized) and for later vLLM (spmd) asserts enforce_eager with
    free_cache_engine; {} where the copy has no such package (EasyR1's layout). With them
    "customized_chunked" / "spmd_chunked": whether that rollout refuses a max_num_batched_tokens
    below max_model_len while chunked prefill is on (released 0.3.0.post1 … 0.6.1)."""
    init = f"{PKG}/__init__.py"
    if init not in trees:
        return {}
    imported = [m for m in MODULES if imports_submodule(trees[init], m, PKG.replace("/", "."))]
    if not imported:
        return {}
    out: dict[str, str] = {}
    for suffix, test in (("", _asserts), ("_chunked", _refuses_chunked_budget)):
        said = {m: "yes" if f"{PKG}/{m}.py" in trees and test(trees[f"{PKG}/{m}.py"]) else "no" for m in imported}
        # one rollout imported: it runs whatever vLLM is installed
        out.update({kind + suffix: said[imported[0]] if len(imported) == 1 else said[m] for m, kind in MODULES.items()})
    return out


def _asserts(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            test = ast.unparse(node.test)
            if "enforce_eager" in test and "free_cache_engine" in test:
                return True
    return False


def _refuses_chunked_budget(tree: ast.Module) -> bool:
    """`if max_num_batched_tokens < max_model_len and self.config.enable_chunked_prefill: raise …`"""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and any(isinstance(n, ast.Raise) for n in node.body):
            test = ast.unparse(node.test)
            if "max_num_batched_tokens" in test and "max_model_len" in test and "enable_chunked_prefill" in test \
                    and "not " not in test:
                return True
    return False
