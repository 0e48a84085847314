"""`startup.mistral_tokenizer_absent`: `--tokenizer-mode mistral` on a checkpoint that ships no
Mistral tokenizer file. vLLM 0.6.1–0.11.x load that mode with mistral_common from the one file
matching `^tokenizer\\.model\\.v.*$|^tekken\\.json$|^tokenizer\\.mm\\.model\\.v.*$` among the
repository's files (vllm/transformers_utils/tokenizers/mistral.py find_tokenizer_file) and raise
OSError("Found 0 files matching the pattern …") when there is none. Only Mistral AI's uploads (and
copies of them) carry such a file: a checkpoint the catalog places in another family (Qwen, Llama,
DeepSeek, Gemma …) and whose name says nothing of Mistral has none, and neither has a GGUF conversion
(a `.gguf` file, a `-GGUF` repository, a folder named for a llama.cpp type such as `-Q6_K`) by anyone but
Mistral AI: llama.cpp converters upload the .gguf files alone (vLLM #17210: a Mistral-Small-3.1 Q6_K
folder served with the model card's Mistral flags). The opposite side, an upload with only Mistral's
files started without the mode, is L166's.

`startup.mistral_params_unlikely`: `--config-format mistral` on a quantized re-upload by another publisher than
Mistral AI, which knowledge/hub_uploads.yaml has no row for (a row's `params_json: false` is L165's P0)."""
from __future__ import annotations

import re
from typing import Any

_MISTRAL_FAMILIES = frozenset({"mistral", "mixtral", "pixtral"})
_MISTRAL_WORDS = re.compile(r"(?i)mistral|mixtral|pixtral|stral|tekken")


def tokenizer_file_facts(model: dict, engine: dict) -> dict[str, Any]:
    if str(engine.get("tokenizer_mode") or "").strip().lower() != "mistral" or engine.get("skip_tokenizer_init") is True:
        return {}
    name = str(model.get("name") or "")
    tokenizer = engine.get("tokenizer")
    if isinstance(tokenizer, str) and tokenizer.strip() and tokenizer.strip() != name:
        return {}  # another repository's tokenizer: its files are not known here
    if model.get("quant_method") == "gguf" and not model.get("tokenizer_format") and _publisher(name) != "mistralai":
        return {"mistral_tokenizer_absent": True, "mistral_tokenizer_gguf": True}
    family = model.get("family")
    if not isinstance(family, str) or family in _MISTRAL_FAMILIES or model.get("tokenizer_format") \
            or _MISTRAL_WORDS.search(name) or _MISTRAL_WORDS.search(str(model.get("backbone") or "")):
        return {}
    return {"mistral_tokenizer_absent": True}


def _publisher(name: str) -> str:
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    return parts[-2].lower() if len(parts) > 1 else ""


# a quantizer's mark in the repository's name (AutoRound, AutoAWQ, GPTQ, llm-compressor, bitsandbytes, ExLlama)
_QUANT_WORDS = re.compile(r"(?i)(?:^|[-_.])(?:awq|gptq|autoround|int[48]|w4a16|w8a8|fp8|bnb|[48]bit|nf4|exl2|quantized)(?=$|[-_.])")


def params_file_facts(model: dict, engine: dict) -> dict[str, Any]:
    """Quantizers write the Hugging Face format out (config.json and safetensors shards, no params.json: vLLM #15300,
    OPEA's AutoRound AWQ upload; #17132, RedHatAI's FP8-dynamic one), so --config-format mistral, which reads
    params.json, likely finds none; a copy may keep Mistral's files, so this is a likelihood (L165 at P1)."""
    if str(engine.get("config_format") or "").strip().lower() != "mistral" or "params_json" in model:
        return {}
    name = str(model.get("name") or "")
    if name.count("/") != 1 or name.startswith((".", "/", "~")) or _publisher(name) == "mistralai" \
            or model.get("quant_method") == "gguf":
        return {}
    return {"mistral_params_unlikely": True} if _QUANT_WORDS.search(name.split("/")[1]) else {}
