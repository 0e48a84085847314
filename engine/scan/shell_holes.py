"""Holes: a value the shell model cannot know statically (a command substitution, an unset
environment variable) is a marked span inside the text (U+E000 … U+E001, engine/kb/safe_text.py),
so the rest of a string stays known; a word with a hole has no value and says which expansion it
depends on (engine/scan/shell_expand.py)."""
from __future__ import annotations

import re
from typing import TypeGuard

from vllm_kb.engine.kb.safe_text import HOLE_CLOSE, HOLE_OPEN

HOLE = re.compile("\ue000([^\ue001]*)\ue001")


def hole(what: str) -> str:
    return HOLE_OPEN + what.replace(HOLE_OPEN, "").replace(HOLE_CLOSE, "") + HOLE_CLOSE


def holes(text: str) -> list[str]:
    return HOLE.findall(text)


def shown(text: str) -> str:
    """The text with each hole written as the expansion it stands for."""
    return HOLE.sub(lambda m: m.group(1), text)


def is_known(text: str | None) -> TypeGuard[str]:
    return text is not None and HOLE_OPEN not in text
