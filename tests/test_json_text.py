"""engine/report/json_text.py writes exactly what json.dumps(…, ensure_ascii=False, indent=2) writes,
with the characters a terminal obeys or that hide text escaped (engine/kb/safe_text.py json_escape)
— the one function every JSON output, whole or streamed, is written with."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
import math
import re

from vllm_kb.engine.kb.safe_text import json_escape
from vllm_kb.engine.report.json_text import dumps, dumps_at, line

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(scalars, lambda inner: st.lists(inner) | st.tuples(inner, inner) | st.dictionaries(keys, inner), max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(values)
def test_same_text_as_json_dumps(value):
    assert dumps(value) == json_escape(json.dumps(value, ensure_ascii=False, indent=2))


# DEL, C1 (CSI among them), bidi overrides and isolates, zero-width and line-separator marks, BOM,
# lone surrogates (what a file name that is not UTF-8 decodes to: U+DC80-U+DCFF; a high one before
# it would read back as one character, as in any JSON): none may reach a JSON output raw
RAW = re.compile("[\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\ud800-\udfff]")
hostile = st.text(alphabet=st.sampled_from(["a", " ", "\x1b", "\x7f", "\x85", "\x9b", "\u202e", "\u2066", "\u200b",
                                            "\u2028", "\ufeff", "\udc80", "\udcff", "é", "中"]))


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


@settings(max_examples=300, deadline=None)
@given(st.recursive(hostile, lambda inner: st.lists(inner) | st.dictionaries(hostile, inner), max_leaves=20))
def test_escapes_what_a_terminal_would_obey_and_loses_nothing(value):
    for text in (dumps(value), dumps_at(value, 3), line(value)):
        assert not RAW.search(text), ascii(text)
        assert _same(json.loads(text), value)
    assert "\n" not in line(value)


def test_subclasses_and_deep_nesting_fall_back():
    class S(str):
        pass

    deep: list = []
    for _ in range(3000):
        deep = [deep]
    for value in ({"a": S("x")}, {"k": 1}):
        assert dumps(value) == json.dumps(value, ensure_ascii=False, indent=2)
    try:
        expected = json.dumps(deep, ensure_ascii=False, indent=2)
    except RecursionError:
        expected = None
    if expected is not None:
        assert dumps(deep) == expected
