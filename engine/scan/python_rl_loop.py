"""A hand-written RL loop around an engine the module builds itself (no framework): the module
pushes the trainer's new weights into that engine, or asks it for logprobs and runs a backward
pass. Such an engine samples rollouts whose logprobs the loss reads (simple_GRPO's
grpo_vllm_one.py: `prompt_logprobs=1` gives the PPO ratio's old policy, `load_weights` through
`llm_engine.model_executor.driver_worker.model_runner.model` syncs the policy), so it is no plain
offline batch job: an FP8 KV cache there biases what the loss reads (B3, F4).

Two signals, each cheap and read once per module:
- weights pushed into the engine: `.load_weights(…)` in a module that reaches into the engine's
  model (`llm_engine`, `model_executor`, `driver_worker`, `model_runner`), or
  `.collective_rpc("…weight…")` / `.collective_rpc(update_weights, …)`;
- logprobs asked of vLLM (`SamplingParams(logprobs=…)`/`prompt_logprobs=…` not None nor 0) in a
  module that also calls `.backward(…)`: an evaluation script reads logprobs but trains nothing;
- `LLM(…)` built inside a class that subclasses a transformers/TRL trainer (`class X(Trainer)`,
  `(GRPOTrainer)`): the TRL 0.14-era GRPOTrainer copies (R1-V, VLM-R1 vllm_grpo_trainer.py) build
  the engine in `__init__` on a spare GPU and sample every training step's completions from it.
"""
from __future__ import annotations

import ast

from vllm_kb.engine.scan.python_values import walk

_ENGINE_INNARDS = ("llm_engine", "model_executor", "driver_worker", "model_runner")
_WORDS = ("load_weights", "collective_rpc", "backward", "Trainer")


def rl_rollout(tree: ast.Module, text: str, rel: str) -> str | None:
    """Where the module shows its engine is an RL loop's rollout engine (`file:line` and what),
    or None. A module spelling none of the words is not walked."""
    if text.isascii() and not any(w in text for w in _WORDS):
        return None
    loads, innards, rpc, backward, logprobs = [], False, [], [], []
    for n in walk(tree):
        if isinstance(n, ast.Attribute) and n.attr in _ENGINE_INNARDS:
            innards = True
        if not (isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name))):
            continue
        name = n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id
        if name == "load_weights" and isinstance(n.func, ast.Attribute):
            loads.append(n.lineno)
        elif name == "collective_rpc" and isinstance(n.func, ast.Attribute) and _names_weights(n):
            rpc.append(n.lineno)
        elif name == "backward" and isinstance(n.func, ast.Attribute):
            backward.append(n.lineno)
        elif name == "SamplingParams" and any(k.arg in ("logprobs", "prompt_logprobs") and _asks(k.value) for k in n.keywords):
            logprobs.append(n.lineno)
    if loads and innards:
        return f"{rel}:{min(loads)} (load_weights into the engine's model)"
    if rpc:
        return f"{rel}:{min(rpc)} (collective_rpc pushes new weights into the engine)"
    if logprobs and backward:
        return f"{rel}:{min(logprobs)} (vLLM's logprobs, in a module that trains at line {min(backward)})"
    return _trainer_builds_llm(tree, rel)


def _trainer_builds_llm(tree: ast.Module, rel: str) -> str | None:
    """`class X(…Trainer):` whose body calls `LLM(…)`: the engine samples that trainer's rollouts."""
    for cls in walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        base = next((b for b in cls.bases if (b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute)
                                               else "").endswith("Trainer")), None)
        if base is None:
            continue
        builds = [n.lineno for n in walk(cls) if isinstance(n, ast.Call)
                  and (n.func.id if isinstance(n.func, ast.Name) else n.func.attr if isinstance(n.func, ast.Attribute) else "") == "LLM"]
        if builds:
            return f"{rel}:{min(builds)} (LLM built inside {cls.name}({ast.unparse(base)}), a trainer class)"
    return None


def _names_weights(call: ast.Call) -> bool:
    """`collective_rpc("update_weights", …)`, `collective_rpc(method="load_weights")`, or a callable
    whose name says weights."""
    first = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "method"), None)
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return "weight" in first.value.lower()
    if isinstance(first, (ast.Name, ast.Attribute)):
        return "weight" in (first.id if isinstance(first, ast.Name) else first.attr).lower()
    return False


def _asks(value: ast.expr) -> bool:
    """A logprobs request: anything but a literal None, 0 or False."""
    return not (isinstance(value, ast.Constant) and value.value in (None, 0, False))
