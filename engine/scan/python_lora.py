"""The LoRA rank a Python script trains with (peft's `LoraConfig(r=…)`, `get_peft_model(…, r=…)`,
Unsloth's `FastLanguageModel.get_peft_model(model, r=…)`), read once per file for the engine sites
of that file: a script that trains an adapter and generates with it through its own vLLM engine
(Unsloth's fast_inference: `fast_generate(…, lora_request=model.load_lora(…))`, its GRPO patch)
hands vLLM an adapter of that rank, which max_lora_rank must hold."""
from __future__ import annotations

import ast

_CALLS = frozenset({"LoraConfig", "get_peft_model"})
# the adapter reaches the engine with the script's generation: Unsloth's load_lora, a LoRARequest,
# TRL's GRPOTrainer patched by Unsloth (PatchFastRL)
_USED = ("load_lora(", "lora_request", "PatchFastRL")


def trained_rank(tree: ast.Module, text: str, rel: str) -> dict:
    """{lora_trained_rank, lora_trained_at, lora_trained_used} for the largest rank the file
    trains with, when a literal (or a module-level name bound once to one) gives it; else {}."""
    if not any(name in text for name in _CALLS):
        return {}
    consts: dict[str, int | None] = {}
    for node in tree.body:  # module-level `lora_rank = 32`; a name bound twice is not read
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            v = node.value.value if isinstance(node.value, ast.Constant) else None
            consts[name] = None if name in consts or not isinstance(v, int) or isinstance(v, bool) else v
    best: tuple[int, int] | None = None
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        fname = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if fname not in _CALLS:
            continue
        arg = next((k.value for k in call.keywords if k.arg == "r"), None)
        r = arg.value if isinstance(arg, ast.Constant) else consts.get(arg.id) if isinstance(arg, ast.Name) else None
        if isinstance(r, int) and not isinstance(r, bool) and r > 0 and (best is None or r > best[0]):
            best = (r, call.lineno)
    if best is None:
        return {}
    return {"lora_trained_rank": best[0], "lora_trained_at": f"{rel}:{best[1]}",
            "lora_trained_used": any(u in text for u in _USED)}
