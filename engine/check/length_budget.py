"""`launch.max_model_len_completion`: an engine's max_model_len written as a completion budget
alone (`max_model_len=args.max_completion_length`, R1-V and VLM-R1's copies of TRL 0.14's
GRPOTrainer). vLLM's max_model_len bounds prompt and completion together, so every prompt eats
into that budget and a prompt over it is skipped (V0) or refused (V1): knowledge/checks/H.yaml H9.
Read from the name as written, never from a value: the budget's number is usually a config field
the audit cannot resolve, and the mistake is in which field is passed, not in its size."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.site import Site

# a dotted name and nothing else: `max_completion_length`, `args.max_completion_length`,
# `self.args.max_new_tokens`; arithmetic (`prompt_len + completion_len`) or a call is another value
_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_COMPLETION = re.compile(r"(completion|response|generation|gen|output|new)_?(length|len|tokens)$|^max_tokens$", re.I)
_PROMPT = re.compile(r"prompt|input|context|model_len|seq|total", re.I)


def completion_only(site: Site) -> dict[str, str]:
    """{"max_model_len_completion": raw, "max_model_len_completion_at": file:line} where the
    site's Python call passes a completion budget's name as max_model_len, else {}."""
    s = site.settings.get("max_model_len")
    if s is None or s.implied or s.syntax != "python-call":
        return {}
    raw = s.raw.strip()
    if not _DOTTED.match(raw):
        return {}
    last = raw.rsplit(".", 1)[-1]
    if _PROMPT.search(last) or not _COMPLETION.search(last):
        return {}
    return {"max_model_len_completion": raw, "max_model_len_completion_at": s.where}
