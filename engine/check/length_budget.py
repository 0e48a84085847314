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
    out = {"max_model_len_completion": raw, "max_model_len_completion_at": s.where}
    if (at := prompts_filtered(site, raw)) is not None:
        out["max_model_len_prompts_filtered_at"] = at
    return out


def prompts_filtered(site: Site, raw: str) -> str | None:
    """file:line of a length guard after the engine is built that compares a prompt's length with the
    engine's max_model_len (`len(item) < llm.llm_engine.scheduler_config.max_model_len`, or the budget
    passed as it): the code drops the prompts vLLM would refuse before generate() (open-instruct
    rejection_sampling/generation.py:169), so none raises; completions still stop at the shared limit."""
    src = site.source if isinstance(site.source, dict) else {}
    text = src.get("text")
    if not isinstance(text, str):
        return None
    # a name the engine's limit is read into first (`limit = llm.llm_engine.model_config.max_model_len`)
    names = set(re.findall(r"^[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*[\w.]*\.max_model_len[ \t]*$", text, re.M))
    limit = rf"(?:[\w.]*max_model_len|{'|'.join(map(re.escape, sorted(names | {raw})))})\b"
    guard = re.compile(rf"\blen\([^()\n]*\)\s*[<>]=?\s*{limit}|{limit}\s*[<>]=?\s*len\(")
    lines = text.splitlines()
    for n in range(max(site.line, 1), len(lines) + 1):
        if n != site.line and guard.search(lines[n - 1]):
            return f"{site.file}:{n}"
    return None
