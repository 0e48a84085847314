"""engine/report/json_text.py writes exactly what json.dumps(…, ensure_ascii=False, indent=2) writes."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from vllm_kb.engine.report.json_text import dumps

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(scalars, lambda inner: st.lists(inner) | st.tuples(inner, inner) | st.dictionaries(keys, inner), max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(values)
def test_same_text_as_json_dumps(value):
    assert dumps(value) == json.dumps(value, ensure_ascii=False, indent=2)


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
