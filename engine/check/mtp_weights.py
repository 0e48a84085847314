"""An MTP speculative config on a checkpoint that holds no MTP weights (check G2's P0 rule).

Qwen3-Next's and Qwen3.5's MTP drafters read their layer from the target checkpoint's `mtp.*` tensors
(vllm/model_executor/models/qwen3_next_mtp.py 0.10.2:278, 0.34.0:253; qwen3_5_mtp.py 0.17.0:429,
0.34.0:328) and skip every other name but the shared embeddings and head. A checkpoint written by a
full fine-tune that drops the MTP head (ms-swift, LLaMA-Factory exports) leaves the drafter's layer
unfilled, and DefaultModelLoader's strict check for unquantized models stops the engine while it loads
the draft: "Following weights were not initialized from checkpoint: {'model.fc.weight', …}"
(model_loader/default_loader.py 0.10.2:274-277, 0.34.0:608-613). Judged only where the checkpoint is a
folder in the project whose model.safetensors.index.json lists the model's own weights."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from vllm_kb.engine.kb.checkpoint import weight_names
from vllm_kb.engine.kb.versions import Version, try_parse

# model_type → (first release with its MTP drafter, the method names that select it)
DRAFTERS = {"qwen3_next": ("0.10.2", ("qwen3_next_mtp", "mtp")),
            "qwen3_5": ("0.17.0", ("qwen3_5_mtp", "qwen3_next_mtp", "mtp")),
            "qwen3_5_moe": ("0.17.0", ("qwen3_5_mtp", "qwen3_next_mtp", "mtp"))}
LAST = "0.34.0"  # the newest release read


def mtp_fit(facts: dict, root: str | Path | None, base: str | Path | None) -> dict[str, Any]:
    """launch.mtp_absent (the method asked for) and launch.mtp_from (the index that shows no mtp.* tensor)."""
    model, engine = facts.get("model") or {}, facts.get("engine") or {}
    spec = engine.get("speculative_config")
    spec = spec if isinstance(spec, dict) else {}
    method = spec.get("method")
    row = DRAFTERS.get(str(model.get("model_type")))
    v = try_parse(str((facts.get("vllm") or {}).get("version") or ""))
    name = model.get("name")
    if row is None or method not in row[1] or v is None or not isinstance(name, str):
        return {}
    if not Version(row[0]) <= Version(v.public) <= Version(LAST):
        return {}
    if model.get("quantized") is True or engine.get("quantization") or spec.get("model"):
        return {}  # the strict check is for unquantized models; a draft of its own is another checkpoint
    names = weight_names(root, name, base)
    if not names or not any("embed_tokens" in n for n in names) or any(n.startswith("mtp.") for n in names):
        return {}
    return {"mtp_absent": str(method), "mtp_from": "model.safetensors.index.json"}
