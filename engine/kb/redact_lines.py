"""Where a long text's secrets may stand, line by line (engine/kb/redact.py redacts only those lines'
regions). Pure string work, no redaction patterns: the words every pattern needs, and the rule for
which lines a match may run onto."""
from __future__ import annotations

import re

# Words one of which every redaction pattern needs: a cheap test before the regexes (most strings hold none).
TRIGGERS = ("key", "token", "secret", "pass", "credential", "auth", "bearer", "://", "hf_", "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat", "glpat", "xox",
             "akia", "aiza", "eyj", "mysql", "mariadb", "sshpass", "login")


# A long text (a whole file, for a diff) is redacted line region by line region: only the lines
# that hold a trigger, each with the lines a match can run onto. The result is the same as
# _redact_text over the whole text: every pattern above needs one of these words (case-folded as the
# patterns fold them; _URL_QUERY's "sig" and _BEARER's "Basic" are not in _TRIGGERS), a match runs
# onto the next line only from a line that holds "--" (_FLAG's value after a backslash or on a YAML
# list's next line) or "name" (_K8S_ENV), and no lookaround reaches past a line break. "${"
# (_DEFAULT's value may span lines) sends the text down the whole-text path. A region starts after
# a line break, so the lookbehinds and \b see what they see in the whole text; replacements only put
# *** between kept characters, so they never make a line link to the next one. Held to
# _redact_text by tests/test_redact_regions.py.
_LINE_WORDS = TRIGGERS + ("sig", "basic")
_LINE_TRIGGER = re.compile("|".join(map(re.escape, _LINE_WORDS)), re.I)


def links(text: str, start: int, end: int) -> bool:
    """Whether the line text[start:end] may start a match that ends on the next line."""
    return text.find("--", start, end) >= 0 or text.find("name", start, end) >= 0


def line_end(text: str, i: int) -> int:
    j = text.find("\n", i)
    return len(text) if j < 0 else j + 1


def hits(text: str) -> list[int]:
    """Where trigger words stand, at least one per line that holds any (found with str.find on
    the lowered text, which is as long as the text when it is ASCII)."""
    if text.isascii():
        return _ascii_hits(text.lower())
    low = text.lower()
    if len(low) != len(text):  # a character that lowers to two: positions would shift
        return [m.start() for m in _LINE_TRIGGER.finditer(text)]
    # the lines as below, and a line with a character outside ASCII (ſ and K fold onto s and k)
    # through the case-blind pattern as well: one regex pass over every non-ASCII file was 9 % of
    # the audit of vLLM's tree
    out = _ascii_hits(low)
    m = _NON_ASCII.search(text)
    while m is not None:
        end = line_end(text, m.start())
        out += [h.start() for h in _LINE_TRIGGER.finditer(text, text.rfind("\n", 0, m.start()) + 1, end)]
        m = _NON_ASCII.search(text, end)
    out.sort()
    return out


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _ascii_hits(low: str) -> list[int]:
    out: list[int] = []
    for w in _LINE_WORDS:
        i = low.find(w)
        while i >= 0:
            out.append(i)
            eol = low.find("\n", i)
            i = low.find(w, eol) if eol >= 0 else -1
    out.sort()
    return out
