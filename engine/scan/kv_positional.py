"""`vllm serve MODEL trust_remote_code=True`: an engine argument written as a Python keyword, a word
with no leading dashes. argparse takes it for one more positional and stops ("unrecognized
arguments: trust_remote_code=True"; MoonshotAI/Moonlight #26). The finding names the flag it was meant
as, and its fix rewrites that one word into it: the switch alone for a true value (a switch takes no
value: store_true, or BooleanOptionalAction from 0.8.5), its `--no-` form for a false one where the
release has it, `--flag=value` for an option that takes a value. A false value of a plain store_true
switch is the default: the word is named, nothing is written for it."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan.site import Setting

NOTE = "kv-positional"  # Setting.note of the word: engine/fix/changes.py rewrites it whole
_KV = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)=(.*)", re.S)
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


def _meant(cat, version: str, name: str, value: str) -> tuple[str, str | None] | None:
    """(the flag, the word to write in its place or None where none is needed) for `name=value`."""
    flag = cat.long_flag(name, version)
    e = cat.flag(flag) if flag else None
    if flag is None or e is None:
        return None
    kind = e.field("kind", version)
    low = value.strip().strip("'\"").lower()
    if kind in ("switch", "negatable"):
        if low in _TRUE:
            return flag, flag
        if low in _FALSE:
            return flag, "--no-" + flag[2:] if kind == "negatable" else None
        return None
    return (flag, f"{flag}={value}") if value and not any(c.isspace() for c in value) else None


def finding(cat, version: str | None, word, rel: str, syntax: str) -> tuple[dict[str, str], Setting, str | None] | None:
    """The words of the finding for a stray `name=value` positional whose name is an engine or server
    argument, the word as a Setting the fix rewrites, and what it is rewritten to (None: nothing)."""
    text = word.text or ""
    m = _KV.fullmatch(text)
    if m is None or word.unresolved:
        return None
    ver = version or str(cat.newest)
    name = m.group(1).replace("-", "_")
    got = _meant(cat, ver, name, m.group(2))
    if got is None:
        return None
    flag, new = got
    words = msg("finding.kv_positional" if new else "finding.kv_positional_default", word=word.raw, flag=flag, new=new or "")
    setting = Setting(name, m.group(2), True, rel, word.line, key=word.raw, raw=m.group(2), syntax=syntax, note=NOTE,
                      span=(word.index, word.index))
    return words, setting, new
