"""Whether the release's LoRA logits layer takes the model's vocabulary (knowledge/vllm/
lora_vocab.yaml, tools/vllm_lora_vocab.py). With LoRA enabled, a class whose LoRA modules include
`lm_head` has its logits layer wrapped while the engine starts, and the wrapper refuses a
vocabulary above the release's bound ("When using LoRA, vocab size must be 32000 >= vocab_size
<= N"). The rows it checks are the checkpoint's vocabulary plus lora_extra_vocab_size for the
classes that add it, so only a vocabulary already above N is certain."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import Version, in_spans, parse, try_parse


# 0.17.0 dropped the chained comparison and its wording (vllm/lora/layers/logits_processor.py:91-92)
_PLAIN_BOUND = Version("0.17.0")


def _wording(v: Version, limit: int) -> str:
    """vLLM's own words for the bound in that release."""
    if v >= _PLAIN_BOUND:
        return f"When using LoRA, vocab size must be <= {limit}"
    return f"When using LoRA, vocab size must be 32000 >= vocab_size <= {limit}"


def lora_vocab_facts(model: dict, table: dict, version: str | None, extra: int = 256) -> dict[str, Any]:
    """`lora_vocab_limit` (the bound of the release) and `lora_vocab_error` (its words), `lora_lm_head` (whether the architecture's
    class wraps its LM head there), `lora_vocab_pin` (the first release whose bound holds the
    vocabulary with `extra` rows added, lora_extra_vocab_size, as LLaMA-family classes do).
    Absent where the table cannot tell."""
    v = try_parse(version) if version else None
    vocab = model.get("vocab_size")
    if v is None or not table or not isinstance(vocab, int) or isinstance(vocab, bool):
        return {}
    v = Version(v.public)  # a .postN release patches its base
    releases = [parse(r) for r in table["releases"]]
    if not releases or not releases[0] <= v <= releases[-1]:
        return {}
    limit = next((int(n) for n, e in table["limits"].items() if in_spans(v, e["in"])), None)
    if limit is None:
        return {}
    out: dict[str, Any] = {"lora_vocab_limit": limit, "lora_vocab_error": _wording(v, limit)}
    later = sorted((Version(a) for n, e in table["limits"].items() if int(n) >= vocab + extra for a, _ in e["in"]))
    later = [r for r in later if r > v]
    if later:
        out["lora_vocab_pin"] = ">=" + str(later[0])
    arch = model.get("architecture")
    head_releases = [parse(r) for r in table.get("lm_head_releases") or []]
    if isinstance(arch, str) and v in head_releases and not in_spans(v, (table.get("lm_head_unresolved") or {}).get(arch) or []):
        out["lora_lm_head"] = in_spans(v, (table.get("lm_head") or {}).get(arch) or [])
    return out
