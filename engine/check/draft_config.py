"""The speculative draft's own config.json, read the way the target's is (engine/kb/checkpoint.py):
a draft given as a folder of the project (`--speculative-model ./drafts/Qwen2.5-0.5B-custom`,
speculative_config {"model": "./eagle-llama3-8b"}) or a Hub id the local cache holds is known by
what its config says, not by the catalog model its name resembles — vLLM builds the draft's
ModelConfig from that file (its class, vocab_size, n_predict). A draft with no such file keeps the
name-only look-up (models.model_facts without a config)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from vllm_kb.engine.kb.checkpoint import read_checkpoint
from vllm_kb.engine.kb.knowledge import Knowledge
from vllm_kb.engine.kb.models import model_facts


def draft_names(engine: dict) -> list[str]:
    """The draft models a launch names: --speculative-model and speculative_config's model."""
    spec = engine.get("speculative_config")
    names = [engine.get("speculative_model"), spec.get("model") if isinstance(spec, dict) else None]
    return [n for n in dict.fromkeys(names) if isinstance(n, str) and n and n not in ("ngram", "[ngram]")]


def read_drafts(engine: dict, root: Path | None, base: Path | None, kb: Knowledge, version: str | None) -> dict[str, dict]:
    """{draft name: its facts from its own config.json} for each draft whose checkpoint is here."""
    out: dict[str, dict] = {}
    data = kb.doc("models.yaml").data
    for name in draft_names(engine):
        ck = read_checkpoint(root, name, base=base)
        if ck is None:
            continue
        facts = model_facts(name, kb.models, data.get("quantized_markers", []), config=ck.config, tokenizer=ck.tokenizer,
                            version=version, publishers=data.get("publishers"), identity=data)
        if facts:
            # the config's n_predict gives num_speculative_tokens (MLP speculators, MTP rewrites)
            out[name] = {**facts, "draft_config": True, "n_predict": ck.config.get("n_predict")}
    return out


def draft_lookup(facts: dict, kb: Knowledge) -> Callable[[object], dict[str, Any]]:
    """A draft's facts by its name: from its config.json where the audit read one, else the catalog's."""
    read = facts.get("drafts") or {}

    def lookup(name: object) -> dict[str, Any]:
        if not isinstance(name, str):
            return {}
        return read.get(name) or model_facts(name, kb.models, [])
    return lookup
