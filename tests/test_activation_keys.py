"""engine/kb/cel.py Activation.key: the canonical string of the value at a path (the checks' memo keys,
engine/check/evaluate.py), made on first read and read back from a plain dict after (perf5)."""
from __future__ import annotations

from vllm_kb.engine.kb import cel


def test_keys_are_canonical_and_remembered():
    act = cel.Activation({"site": {"mode": "serve", "none": None}, "args": {"b": 1, "a": [2]}, "mixed": {1: "x", "y": 2}})
    assert act.key(("site", "mode")) == '"serve"'
    assert act.key(("args",)) == '{"a": [2], "b": 1}'  # sorted keys: the same value, the same key
    assert act.key(("site", "none")) == act.key(("site", "absent")) == act.key(("gpu", "name")) == cel._ABSENT
    assert act.key(("site", "mode", "deeper")) == cel._ABSENT  # through a value that is not a dict
    assert act.key(("mixed",)) == repr({1: "x", "y": 2})  # keys json cannot sort
    assert list(map(act.key, [("site", "mode"), ("args",)])) == ['"serve"', '{"a": [2], "b": 1}']
    assert act._keys[("site", "mode")] == '"serve"'  # remembered: a later read never walks the facts
    act.facts["site"]["mode"] = "offline"
    assert act.key(("site", "mode")) == '"serve"'
