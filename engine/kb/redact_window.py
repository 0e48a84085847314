"""The masked lines of a file after a small edit, from the masked lines before it: a site's diff
(engine/fix/diff_text.py `shown_diff`) masks the whole file before and after its change, and masking
the whole text again for every site was a tenth of the audit of vLLM's own tree.

What makes it exact is what engine/kb/redact.py's region redaction rests on (held to the
whole-text redaction by tests/test_redact_regions.py): a match runs onto the next line only from
a line that "links" (holds `--` or `name`), and no lookaround reaches past a line break. So a line's
mask depends only on its block — the lines joined to it through links — and the blocks the edit
does not touch mask as they did before. The window of changed lines is widened to whole blocks on
both sides, masked on its own, and set between the old masks of the lines around it. Whatever the
argument does not cover goes the whole way (None): short texts (below the region path), `${`
(a default's value may span lines), line breaks other than `\\n`, and a mask that moved a line break."""
from __future__ import annotations

from vllm_kb.engine.kb import redact, redact_lines
from vllm_kb.engine.kb.safe_text import escape


def _plain_lines(text: str, lines: list[str]) -> bool:
    """`lines` (str.splitlines, ends kept) are the text's `\\n` lines: no other line break in it."""
    return "\r" not in text and len(lines) == text.count("\n") + (not text.endswith("\n"))


def _links(line: str) -> bool:
    return redact_lines.links(line, 0, len(line))


def masked_after_edit(old: str, new: str, a: list[str], b: list[str], masked_a: list[str]) -> list[str] | None:
    """escape(redact_text(new)) split into lines, as engine/fix/diff_text.py `_masked_lines` gives
    them, from `masked_a` (the same for `old`); None when it must be computed whole."""
    if min(len(old), len(new)) < redact._REGIONS_FROM or "${" in old or "${" in new:
        return None
    if not masked_a or len(masked_a) != len(a) or masked_a[0].startswith("\x00"):
        return None
    if not (_plain_lines(old, a) and _plain_lines(new, b)):
        return None
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and a[-1 - s] == b[-1 - s]:
        s += 1
    while p > 0 and _links(a[p - 1]):  # a block that runs from above into the change
        p -= 1
    while s > 0 and any(len(x) - s - 1 >= 0 and _links(x[len(x) - s - 1]) for x in (a, b)):
        s -= 1  # a block that runs from the change (before or after it) into the lines below
    window = "".join(b[p:len(b) - s])
    if window and redact._triggered(new):
        window = redact._redact_text(window)
    if window and redact._KNOWN is not None:
        window = redact._KNOWN.sub(redact.REDACTED, window)
    mid = escape(window).splitlines(keepends=True)
    if len(mid) != len(b) - s - p or (mid and s and not mid[-1].endswith("\n")):
        return None
    return masked_a[:p] + mid + masked_a[len(a) - s:]


# A file's masked lines before any edit, for each of its sites' diffs: vLLM's own tree has files
# with dozens of sites, and each masked the same text again. Keyed by the secrets known to the
# audit too (redact.known_secrets changes what a mask hides); the lists are never changed in place.
_MASKED: dict[tuple[str, str | None], list[str]] = {}


def masked_before(text: str, lines: list[str], mask) -> list[str]:
    """`mask(lines)` (engine/fix/diff_text.py `_masked_lines` of `text`'s lines), remembered for a few large texts."""
    if len(text) < redact._REGIONS_FROM:
        return mask(lines)
    key = (text, redact._KNOWN.pattern if redact._KNOWN is not None else None)
    hit = _MASKED.get(key)
    if hit is None:
        if len(_MASKED) >= 8:
            _MASKED.clear()
        hit = _MASKED[key] = mask(lines)
    return hit
