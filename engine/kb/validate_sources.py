"""What a check must cite, part of `vllm-kb kb validate`: every rule that can say P0 ("vLLM will
refuse to start", or a verified large gain at no risk) names where vLLM decides it — the line
that raises in a release's sources, or the release note of a removal — and each release it
cites lies inside the rule's own vLLM range and is one the catalog holds. A check's
`error_text` wordings carry the releases that print them; launch checks (category L) must
have at least one, since `vllm-kb diagnose --error` recognises a launch failure by them."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.versions import SpecifierSet

# Categories whose checks say whether vLLM starts at all: each needs vLLM's own error text.
LAUNCH_CATEGORIES = frozenset({"L"})
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][^{}]*\}")


def effective_priority(check, rule) -> str | None:
    if rule.status != "recommended":
        return None
    return rule.priority or check.priority


def rule_sources(v, c) -> None:
    """`v`: the kb Validator (its catalog, `add`); `c`: one check."""
    # any published release (the catalog's versions and the releases list it resolves pins with)
    releases = {str(x) for x in v.cat.versions} | set(v.cat.raw.get("releases") or ())
    for i, r in enumerate(c.rules):
        where = f"rules[{i}].source"
        if effective_priority(c, r) == "P0" and not r.source:
            v.add(c.file, c.id, where, "a P0 rule must cite where vLLM decides it (source: release, file, line — or a release note's url and title)")
        for k, src in enumerate(r.source):
            rel = src.get("release")
            if rel is None:
                continue
            if rel not in releases:
                v.add(c.file, c.id, f"{where}[{k}].release", f"{rel!r} is not a vLLM release the catalog knows ({v.cat.oldest} … {v.cat.newest})")
                continue
            for spec, what in ((c.vllm, "applies_to.vllm"), (r.vllm, f"rules[{i}].vllm")):
                if spec is not None and not spec.contains(rel):
                    v.add(c.file, c.id, f"{where}[{k}].release", f"cites vLLM {rel}, outside the rule's range ({what} {spec})")


def error_texts(v, c) -> None:
    if c.category in LAUNCH_CATEGORIES and not c.error_text:
        v.add(c.file, c.id, "error_text", "a launch check needs vLLM's verbatim error text (error_text: text, vllm)")
    seen: set[tuple[str, str]] = set()
    for k, e in enumerate(c.error_text):
        where = f"error_text[{k}]"
        text = str(e.get("text", ""))
        if (text, str(e.get("vllm"))) in seen:
            v.add(c.file, c.id, where, "the same wording twice for the same releases")
        seen.add((text, str(e.get("vllm"))))
        try:
            spec = SpecifierSet(str(e.get("vllm", "")))
        except ValueError as err:
            v.add(c.file, c.id, f"{where}.vllm", str(err))
            continue
        if not any(spec.contains(str(x)) for x in v.cat.versions):
            v.add(c.file, c.id, f"{where}.vllm", f"{spec} matches no catalog release ({v.cat.oldest} … {v.cat.newest})")
        literal = _PLACEHOLDER.sub("", text)
        if len(re.sub(r"\W", "", literal)) < 10:
            v.add(c.file, c.id, f"{where}.text", "too little literal text to recognise the message by")
