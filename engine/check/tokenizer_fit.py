"""A checkpoint saved by transformers 5 names a tokenizer class that transformers 4 does not have.

transformers 5.0 writes `"tokenizer_class": "TokenizersBackend"` into tokenizer_config.json (the
base class of every fast tokenizer there); transformers 4.x's AutoTokenizer finds no such class
and raises "Tokenizer class TokenizersBackend does not exist or is not currently imported." —
vLLM loads the tokenizer while it starts (vllm/tokenizers/hf.py, transformers_utils/tokenizer.py
before 0.13), and without trust_remote_code rewords it as "Failed to load the tokenizer …
consider setting `trust_remote_code=True`", which does not help. The site runs a transformers
below 5 when the project's pin allows no 5.x, or, unpinned, when vLLM's own requirement of the
release does not (`<5`: 0.11.1–0.19.0; knowledge/vllm/model_types.yaml `vllm_requires`).
The change: the transformers 4 class in tokenizer_config.json (the same tokenizer.json loads), or
a vLLM release that allows transformers 5 (0.19.1+ take 5.5.1 and later)."""
from __future__ import annotations

from typing import Any

V5_ONLY = frozenset({"TokenizersBackend"})
_QWEN = ("qwen2", "qwen3")  # model_type prefixes whose fast tokenizer class is Qwen2TokenizerFast


def tokenizer_fit(facts: dict, pin: Any, requires: str | None, allows_v5) -> dict[str, Any]:
    """launch.tf_tokenizer_class / tf_tokenizer_by / tf_tokenizer_v4, where the checkpoint names a
    class of transformers 5 and the site's transformers is below 5. `requires` is vLLM's own
    transformers requirement of the release; `allows_v5(spec)` whether a requirement allows 5.x."""
    model = facts.get("model") or {}
    cls = model.get("tokenizer_class")
    if cls not in V5_ONLY:
        return {}
    # both bind the one install: the project's pin, and vLLM's own requirement of the release
    if pin is not None and getattr(pin, "spec", None) and not allows_v5(pin.spec):
        by = f"{pin.text} ({pin.file}:{pin.line})"
    elif requires and not allows_v5(requires):
        by = f"vLLM {(facts.get('vllm') or {}).get('version')} requires transformers{requires}"
    else:
        return {}
    mt = str(model.get("model_type") or "")
    v4 = "Qwen2TokenizerFast" if mt.startswith(_QWEN) else "PreTrainedTokenizerFast"
    return {"tf_tokenizer_class": cls, "tf_tokenizer_by": by, "tf_tokenizer_v4": v4}
