"""Text from a scanned project is shown, never obeyed: before any output a person reads (text,
Markdown, GitHub annotations, notes on stderr, diffs), control characters — ESC and the other
C0 codes but newline and tab, a CR that does not end a line, DEL, the C1 codes (U+0080–U+009F,
CSI among them), and the invisible format characters that reorder or hide text (bidi overrides,
zero-width marks, line and paragraph separators) — are written as visible escapes (`\\x1b`,
`\\u202e`). A scanned repository cannot rewrite the reader's terminal (`\\e]0;…\\a\\e[2J`) or hide
text from them.

JSON outputs escape C0 by construction; `json_escape` (what engine/report/json_text.py writes
every JSON output with) also escapes DEL, C1, the format characters and lone surrogates as
`\\uXXXX` (still valid, lossless JSON). File names that are not UTF-8 reach
every output as `\\xNN` (engine/kb/encoding.py `display_path`)."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import redact as _redact
from vllm_kb.engine.kb.encoding import display_path

_UNSAFE = (r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064"
           r"\u2066-\u2069\ufeff\ufff9-\ufffb")
_HUMAN = re.compile(f"[{_UNSAFE}]|\\r(?!\\n)|[\\ud800-\\udfff]")
_JSON = re.compile(f"[{_UNSAFE}\\ud800-\\udfff]")


def _visible(m: re.Match) -> str:
    c = m.group(0)
    n = ord(c)
    if 0xD800 <= n <= 0xDFFF:
        return display_path(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def escape(text: str) -> str:
    """`text` with every control or hiding character written as a visible escape."""
    if not isinstance(text, str) or not _HUMAN.search(text):
        return text
    return _HUMAN.sub(_visible, text)


def has_controls(text: str) -> bool:
    return isinstance(text, str) and bool(_HUMAN.search(text))


def human(obj: Any) -> Any:
    """A copy of a JSON-like structure (a report dict) with every string escaped."""
    if isinstance(obj, str):
        return escape(obj)
    if isinstance(obj, dict):
        return {escape(k) if isinstance(k, str) else k: human(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [human(x) for x in obj]
    if isinstance(obj, tuple):
        return tuple(human(x) for x in obj)
    return obj


# The marks around a part of a scanned text that is unknown until run time (engine/scan/
# shell_expand.py `hole`): no output shows them, only the text they enclose.
HOLE_OPEN, HOLE_CLOSE = "\ue000", "\ue001"
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_PLAIN = frozenset({int, float, bool, type(None)})


def paths(obj: Any) -> Any:
    """A copy with lone surrogates (bytes of a file name that is not UTF-8) written `\\xNN` and no
    hole marks: what every format, the baseline and MCP results carry, so that no writer can fail
    on them."""
    t = type(obj)
    if t in _PLAIN:
        return obj
    if isinstance(obj, str):  # a lone surrogate is never ASCII (isascii is a flag, not a scan)
        if obj.isascii():
            return obj
        if HOLE_OPEN in obj or HOLE_CLOSE in obj:
            obj = obj.replace(HOLE_OPEN, "").replace(HOLE_CLOSE, "")
        return display_path(obj) if _SURROGATE.search(obj) else obj
    if isinstance(obj, dict):
        return {paths(k): paths(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [paths(x) for x in obj]
    if isinstance(obj, tuple):
        return tuple(paths(x) for x in obj)
    return obj


def shown(obj: Any) -> Any:
    """What a human format renders: secrets hidden (engine/kb/redact.py), file names displayable,
    control characters escaped — whatever the renderer was handed."""
    return human(clean(obj))


def json_escape(text: str) -> str:
    """JSON text (json.dumps with ensure_ascii=False, which escapes only C0) with DEL, C1, the
    format characters and lone surrogates also written `\\uXXXX`: still valid, lossless JSON.
    Such characters can only stand inside the text's strings, so the whole text is rewritten at
    once. Every JSON output goes through engine/report/json_text.py, which calls this."""
    if not _JSON.search(text):
        return text
    return _JSON.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def clean(obj: Any) -> Any:
    """`paths(redact(obj))` (engine/kb/redact.py) in one walk instead of two: what every report
    part passes through (engine/report/model.py `clean`). Two walks over a report of hundreds of
    sites were a tenth of the audit of vLLM's tree; held to the two walks by tests/test_safe_text_clean.py."""
    t = type(obj)
    if t is str:
        s = _redact.redact_text(obj)
        return s if s.isascii() else _path_text(s)
    if t is dict:
        return _clean_dict(obj)
    if t is list:
        return [x if type(x) in _PLAIN else clean(x) for x in obj]
    if t in _PLAIN:
        return obj
    return paths(_redact.redact(obj))  # tuples, subclasses: the two walks as they are


def _path_text(s: str) -> str:
    if HOLE_OPEN in s or HOLE_CLOSE in s:
        s = s.replace(HOLE_OPEN, "").replace(HOLE_CLOSE, "")
    return display_path(s) if _SURROGATE.search(s) else s


def secret_record(obj: dict) -> bool:
    """As redact: a record whose name/target/key is a secret's hides its value (a rename's value is a name)."""
    return any(_redact.is_secret_name(obj[k]) for k in _redact._NAME_FIELDS if k in obj) and obj.get("op") != "rename"


def _clean_dict(obj: dict) -> dict:
    secret = _redact.is_secret_name
    # secret_record's test, written out: this runs for every dict of every report
    secret_record_ = any(secret(obj[k]) for k in _redact._NAME_FIELDS if k in obj) and obj.get("op") != "rename"
    out = {}
    for k, v in obj.items():
        if type(k) is not str or not k.isascii():
            k2 = paths(k)
        else:
            k2 = k
        if secret_record_ and k in _redact._VALUE_FIELDS:
            out[k2] = paths(_redact.redact_value(obj.get("name") or obj.get("target") or obj.get("key"), v))
        elif type(v) not in _redact._CONTAINERS and secret(k):
            out[k2] = paths(_redact.redact_value(k, v))
        elif type(v) in _PLAIN:
            out[k2] = v
        else:
            out[k2] = clean(v)
    return out
