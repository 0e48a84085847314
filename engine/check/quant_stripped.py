"""A launch script that says the checkpoint's quantization_config is taken out before vLLM reads it.

verl's DeepSeek-V3/R1 Megatron recipes (and the projects that copy them) train in bf16 and sync
bf16 weights into the rollout engine; their header makes it a prerequisite to "remove the
`quantization_config` in the `config.json`" of the downloaded checkpoint, so vLLM builds plain
bf16 layers. The config the auditor reads (the Hub's, a catalog row, the folder the script
downloads) still has it, and every verdict drawn from it (block-FP8 shards at TP 32, L75) would be
about a checkpoint vLLM never sees (eval89 bdsaglam/docvqa-verl,
https://github.com/bdsaglam/docvqa-verl examples/grpo_trainer/run_deepseek_v3_671b_megatron.sh).
Only the script's own words count: a comment that asks for the removal, or a command in it that
does it (`jq 'del(.quantization_config)'`, `cfg.pop("quantization_config")`)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# a comment line that names quantization_config and its removal ("remove the `quantization_config` in the
# `config.json`", "take quantization_config out of config.json", "删除 config.json 中的 quantization_config"),
# or a command that removes it
_COMMENT = re.compile(r"^[ \t]*(?:#|//)(.*\bquantization_config\b.*)$", re.M)
_REMOVAL = re.compile(r"\b(?:remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|strip(?:s|ped|ping)?|drop(?:s|ped|ping)?"
                      r"|eras(?:e|es|ed|ing))\b|\btak(?:e|es|en|ing)\b[^\n]{0,60}\bout\b|\brid of\b|删除|去掉|移除|删掉", re.I)
_NEGATED = re.compile(r"\b(?:not|never|don't|keep)\b", re.I)
_COMMAND = re.compile(r"del\s*\(\s*\.quantization_config\s*\)|\.pop\(\s*['\"]quantization_config['\"]"
                      r"|\bdel\s+\w+\[\s*['\"]quantization_config['\"]\s*\]")


def _line(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    hits = [m.start() for m in _COMMENT.finditer(text) if _REMOVAL.search(m.group(1)) and not _NEGATED.search(m.group(1))]
    if (m := _COMMAND.search(text)) is not None:
        hits.append(m.start())
    return text.count("\n", 0, min(hits)) + 1 if hits else None


def stripped_at(root: Path | None, rel: str) -> str | None:
    """`file:line` where the site's own file says the quantization_config is removed, or None."""
    if root is None:
        return None
    line = _line(root / rel)
    return f"{rel}:{line}" if line else None


def strip(model: dict[str, Any], where: str) -> dict[str, Any]:
    """The model's facts as vLLM reads the edited config.json: no quantization."""
    if not model.get("quantized") and not model.get("quant_method"):
        return model
    kept = {k: v for k, v in model.items() if not k.startswith("quant")}
    return {**kept, "quantized": False, "quant_stripped": where}
