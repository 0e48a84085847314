"""A checkpoint folder whose tensors sit under a top-level prefix the class vLLM builds has no module for
(check L165), from knowledge/vllm/weight_prefixes.yaml (tools/vllm_weight_prefixes.py).

From 0.6.3 AutoWeightsLoader raises "There is no module or parameter named '{prefix}' in {class}" for such a
tensor while the engine loads the weights. Two layouts meet it: a multimodal checkpoint's text tower
(`language_model.model.layers.*`) under a text-only class's config.json (Gemma 3 merged by Unsloth as
Gemma3ForCausalLM, vLLM #15031), and a sequence-classification head (`score.weight`) saved under the
generative class's name (ms-swift's `--task_type seq_cls` on Qwen2-VL, ms-swift #4289). Read only from a
checkpoint folder inside the project (config.json's class and model.safetensors.index.json's names), for a
launch that builds config.json's class: a pooling runner or task (its conversion adds the score head),
hf_overrides and another model implementation are not judged."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from vllm_kb.engine.kb.checkpoint import read_checkpoint, weight_names
from vllm_kb.engine.kb.versions import in_spans, try_parse



def wrapper_task(site) -> bool:
    """A wrapper's own keyword that may pick a pooling task for the engine (ms-swift VllmEngine's task_type:
    seq_cls → classify from 3.8, whose conversion builds the score head): the class vLLM builds is not known."""
    return any(str(o.get("what", "")).startswith(("task_type=", "task=")) for o in getattr(site, "opaque", None) or []
               if o.get("code") == "wrapper-arg")


def _builds_config_class(engine: dict) -> bool:
    if engine.get("runner") not in (None, "auto", "generate") or engine.get("task") not in (None, "auto", "generate"):
        return False
    if engine.get("convert") not in (None, "auto", "none") or engine.get("hf_overrides"):
        return False
    return engine.get("model_impl") in (None, "auto", "vllm")


def unplaced_fit(facts: dict, root: str | Path | None, base: str | Path | None, table: dict | None) -> dict[str, Any]:
    """launch.weights_unplaced (the prefix), weights_unplaced_arch, weights_unplaced_example (one tensor of it)
    and weights_unplaced_count (how many of the index's tensors sit under it)."""
    model, engine = facts.get("model") or {}, facts.get("engine") or {}
    name, arch = model.get("name"), model.get("architecture")
    v = try_parse(str((facts.get("vllm") or {}).get("version") or ""))
    row = ((table or {}).get("architectures") or {}).get(arch) if isinstance(arch, str) else None
    if not row or v is None or not isinstance(name, str) or not _builds_config_class(engine):
        return {}
    ck = read_checkpoint(root, name, base, env={"VLLM_KB_HF_CACHE": "0"})
    names = weight_names(root, name, base) if ck is not None and ck.where == "folder" else None
    if not names:
        return {}
    for prefix, spans in row.items():
        under = sorted(n for n in names if n.split(".", 1)[0] == prefix)
        if under and in_spans(v, spans):
            return {"weights_unplaced": prefix, "weights_unplaced_arch": arch, "weights_unplaced_example": under[0],
                    "weights_unplaced_count": len(under)}
    return {}
