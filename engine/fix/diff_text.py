"""The diffs a report shows and `--diff` prints, safe to show and to apply (engine/fix/edits.py
makes the edits; this module only compares a file's text before and after them)."""
from __future__ import annotations

import difflib


def unified_diff(path: str, old: str, new: str, context: int = 2) -> str:
    return shown_diff(path, old, new, context)[0]


def shown_diff(path: str, old: str, new: str, context: int = 2) -> tuple[str, list[int]]:
    """A unified diff that is safe to show and to apply: a line that holds a secret (or a control
    character, engine/kb/safe_text.py) appears only as context, masked or escaped (`patch` checks
    context, it never writes it); a change on such a line is not shown at all — its hunk is
    withheld and its old line numbers returned — because a `+` line shown masked would write `***`
    over the secret, and shown whole would leak it. `--fix` writes those changes itself, keeping
    the secret's bytes (engine/fix edits touch only their target)."""
    from vllm_kb.engine.kb.redact import redact_text
    from vllm_kb.engine.kb.redact_window import masked_after_edit, masked_before
    from vllm_kb.engine.kb.safe_text import escape, paths

    def hide(text: str) -> str:  # secrets masked, control characters (ESC, a lone CR …) escaped
        return escape(redact_text(text))

    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    masked_a = masked_before(old, a, lambda lines: _masked_lines(lines, hide))
    masked_b = masked_after_edit(old, new, a, b, masked_a) or _masked_lines(b, hide)
    out: list[str] = []
    withheld: list[int] = []
    for group in difflib.SequenceMatcher(None, a, b).get_grouped_opcodes(context):
        hunk = _hunk(group, a, b, masked_a)
        touched_secret = any((tag != "equal" and (any(masked_a[i] != a[i] for i in range(i1, i2))
                                                  or any(masked_b[j] != b[j] for j in range(j1, j2))))
                             for tag, i1, i2, j1, j2 in group)
        # a second look at the hunk as shown: a secret spread over lines of its own is still caught
        # (each line ended: a last line without its newline would run into the next and read as moved)
        if not touched_secret and _changed_lines_differ(hunk, hide("".join(_ended(x) for x in hunk))):
            touched_secret = True
        if touched_secret:  # the first changed line, not the hunk's first context line
            withheld.append(next(i1 for tag, i1, _i2, _j1, _j2 in group if tag != "equal") + 1)
            continue
        out += hunk
    if not out:
        return "", withheld
    shown = escape(paths(path))  # a file name with an escape sequence (or bytes that are not UTF-8) is shown, not obeyed
    head = [f"--- a/{shown}\n", f"+++ b/{shown}\n"]
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in head + out)
    return text, withheld


def _masked_lines(lines: list[str], redact) -> list[str]:
    """Each line with the secrets the whole text shows hidden (a flag's value on the next line too)."""
    masked = redact("".join(lines)).splitlines(keepends=True)
    if len(masked) != len(lines):  # a redaction that moved line breaks: treat every line as secret
        return ["\x00" + x for x in lines]
    return masked


def _hunk(group, a: list[str], b: list[str], masked_a: list[str]) -> list[str]:
    first, last = group[0], group[-1]
    i1, i2, j1, j2 = first[1], last[2], first[3], last[4]
    out = [f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n"]
    for tag, x1, x2, y1, y2 in group:
        if tag == "equal":
            out += [" " + (masked_a[i] if not masked_a[i].startswith("\x00") else "***\n") for i in range(x1, x2)]
            continue
        out += ["-" + a[i] for i in range(x1, x2)]
        out += ["+" + b[j] for j in range(y1, y2)]
    return out


def _range(start: int, stop: int) -> str:
    """difflib's `start,length` (1-based; an empty range names the line before it)."""
    begin, length = start + 1, stop - start
    if length == 1:
        return str(begin)
    if not length:
        begin -= 1
    return f"{begin},{length}"


def _ended(line: str) -> str:
    return line if line.endswith(("\n", "\r")) else line + "\n"


def _changed_lines_differ(hunk: list[str], masked: str) -> bool:
    shown = masked.splitlines(keepends=True)
    if len(shown) != len(hunk):
        return True
    return any(_ended(h) != m for h, m in zip(hunk, shown) if h[:1] in "+-")
