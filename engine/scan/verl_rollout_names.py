"""A verl rollout name the project's own verl copy builds a vLLM rollout for. A research fork that
carries verl adds its own rollout classes and dispatches on `rollout.name` (ReCall's
src/verl/workers/fsdp_workers.py: `elif self.config.rollout.name == 'vllm_with_tool': from
verl.workers.rollout.vllm_rollout import vLLMRolloutWithTool`), and its launch passes that name
(scripts/train/train.sh:80 `actor_rollout_ref.rollout.name=vllm_with_tool`). Such a launch still
builds vLLM with the rollout's TP, gpu_memory_utilization and lengths, so it is a vLLM site; the
name is taken only where the copy's worker compares rollout.name with it in a branch that imports
from a vLLM rollout module."""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.framework_source import parse_or_empty


def vllm_rollout(copies, files: list[str], read, name: str) -> str | None:
    """`file:line` of the branch of a verl copy's worker that builds a vLLM rollout for `name`, or None."""
    quoted = (f"'{name}'", f'"{name}"')
    for copy in copies:
        if copy.framework != "verl" or getattr(copy, "label", ""):
            continue
        prefix = f"{copy.root}/verl/workers/" if copy.root else "verl/workers/"
        for rel in files:
            if not (rel.startswith(prefix) and rel.endswith("_workers.py")):
                continue
            text = read(rel) or ""
            if not any(q in text for q in quoted):
                continue
            for node in ast.walk(parse_or_empty(text)):
                if isinstance(node, ast.If) and _names(node.test, name) and _imports_vllm(node.body):
                    return f"{rel}:{node.lineno}"
    return None


def _names(test: ast.expr, name: str) -> bool:
    """`x.rollout.name == 'name'` (either side), or `rollout_name == 'name'`."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    said = any(isinstance(s, ast.Constant) and s.value == name for s in sides)
    other = next((s for s in sides if not isinstance(s, ast.Constant)), None)
    return said and other is not None and "name" in ast.unparse(other)


def _imports_vllm(body: list[ast.stmt]) -> bool:
    return any(isinstance(s, ast.ImportFrom) and "vllm" in (s.module or "") for s in body)
