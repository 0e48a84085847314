"""Whether a served checkpoint has no chat template at all (facts.launch.no_chat_template, L286).
From 0.5.5 vLLM's chat endpoint raises "As of transformers v4.44, default chat template is no longer
allowed, so you must provide a chat template if the tokenizer does not define one." for every
request when neither --chat-template nor the tokenizer gives one (entrypoints/chat_utils.py
0.5.5:273, renderers/hf.py 0.34.0:893). Only a folder inside the project is read: its
tokenizer_config.json without `chat_template`, and no chat_template.jinja or chat_template.json
(the processor's) beside it; a transformers 5 tokenizer_config.json (TokenizersBackend) never holds
the template, so a folder of it without chat_template.jinja is a partial copy and is not judged. Model types vLLM brings a fallback template for in some release
(transformers_utils/chat_templates/registry.py, the union over 0.9.0 … 0.34.0) are left alone."""
from __future__ import annotations

from vllm_kb.engine.kb.checkpoint import Checkpoint

_FALLBACK_TYPES = frozenset({
    "blip-2", "chameleon", "clip", "colpali", "deepseek_ocr", "deepseek_ocr2", "deepseek_vl_v2", "florence2", "fuyu",
    "minicpm_ocr", "minicpmv", "minicpmv4_6", "minicpmv4_7", "openvla", "paligemma", "qwen", "siglip", "siglip2",
    "unlimited-ocr", "unlimited_ocr"})


def no_chat_template(ck: Checkpoint | None, args: dict) -> bool:
    if ck is None or ck.where != "folder" or ck.tokenizer is None or args.get("tokenizer"):
        return False
    if ck.tokenizer.get("chat_template") or ck.chat_template_file or "chat_template.json" in (ck.json_files or ()):
        return False
    if ck.tokenizer.get("tokenizer_class") == "TokenizersBackend":
        return False  # transformers 5 always writes the template to chat_template.jinja: a copy without it is partial
    return str(ck.config.get("model_type") or "") not in _FALLBACK_TYPES
