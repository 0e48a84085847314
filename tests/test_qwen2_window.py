"""L121 qwen2-sliding-window-layers: the Qwen2 window switches read from config.json
(engine/kb/model_config.py) as vLLM's qwen2.py and transformers' Qwen2Config read them."""
from vllm_kb.engine.kb.model_config import config_scalars

QWEN = {"model_type": "qwen2", "num_hidden_layers": 28, "sliding_window": 131072, "max_window_layers": 28}


def _facts(**cfg):
    facts: dict = {}
    config_scalars(facts, {**QWEN, **cfg}, None)
    return facts


def test_the_official_config_switches_the_window_off():
    f = _facts(use_sliding_window=False)
    assert f["use_sliding_window"] is False and "window_layers_mixed" not in f


def test_window_on_with_every_layer_is_not_mixed():
    # transformers makes layers from max_window_layers on sliding ones: none here
    f = _facts(use_sliding_window=True)
    assert f["max_window_layers"] == 28 and f["window_layers_mixed"] is False


def test_fewer_window_layers_mix_the_layers():
    assert _facts(use_sliding_window=True, max_window_layers=21)["window_layers_mixed"] is True


def test_explicit_layer_types_decide():
    types = ["full_attention"] * 27 + ["sliding_attention"]
    assert _facts(use_sliding_window=True, layer_types=types)["window_layers_mixed"] is True
