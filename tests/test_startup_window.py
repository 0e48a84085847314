"""startup.window_rope_refused (check L146): the sliding window off while rope_scaling would stretch
the context, per release (knowledge/vllm/startup.yaml lengths.window_off_rope)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_window import window_rope_facts
from vllm_kb.engine.kb.knowledge import load


@pytest.fixture(scope="module")
def table():
    return load().doc("vllm", "startup.yaml").data


QWEN_YARN = {"model_type": "qwen2", "rope_type": "yarn", "sliding_window_size": 131072}
GEMMA2_DYNAMIC = {"model_type": "gemma2", "rope_type": "dynamic", "sliding_window_size": 4096}


@pytest.mark.parametrize("model,engine,version,expect", [
    (QWEN_YARN, {"disable_sliding_window": True}, "0.10.2", {"window_off": "flag", "window_rope_refused": True}),
    (QWEN_YARN, {"disable_sliding_window": True}, "0.11.2", {"window_off": "flag", "window_rope_refused": True}),
    (QWEN_YARN, {"disable_sliding_window": True}, "0.12.0", {}),   # the check is gone
    (QWEN_YARN, {"disable_sliding_window": True}, "0.4.2", {}),    # no flag yet
    (QWEN_YARN, {}, "0.10.2", {}),                                 # the window stays on
    (GEMMA2_DYNAMIC, {}, "0.6.4", {"window_off": "release", "window_rope_refused": True}),
    (GEMMA2_DYNAMIC, {}, "0.5.1", {"window_off": "release", "window_rope_refused": True}),
    (GEMMA2_DYNAMIC, {}, "0.6.5", {}),                             # 0.6.5 keeps Gemma 2's window on
    ({"model_type": "gemma3_text", "rope_type": "linear"}, {"disable_sliding_window": True}, "0.8.0",
     {"window_off": "flag", "window_rope_refused": False}),
    ({"model_type": "gemma3_text", "rope_type": "linear"}, {"disable_sliding_window": True}, "0.7.3",
     {"window_off": "flag", "window_rope_refused": True}),
    ({"model_type": "phi3", "rope_type": "longrope"}, {"disable_sliding_window": True}, "0.4.3",
     {"window_off": "flag", "window_rope_refused": True}),
    ({"model_type": "phi3", "rope_type": "longrope"}, {"disable_sliding_window": True}, "0.6.3",
     {"window_off": "flag", "window_rope_refused": False}),
    ({"model_type": "phi3", "rope_type": "su"}, {"disable_sliding_window": True}, "0.4.3",
     {"window_off": "flag", "window_rope_refused": False}),
    ({"model_type": "starcoder2", "sliding_window_size": 4096}, {"disable_sliding_window": True}, "0.6.4", {}),
])
def test_window_rope(table, model, engine, version, expect):
    assert window_rope_facts(model, engine, table, version) == expect
