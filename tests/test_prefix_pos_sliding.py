"""L66 on vLLM 0.3.x: LLM.generate(prefix_pos=...) with a model whose config.json carries a sliding
window — even one use_sliding_window turns off (Qwen1.5), which 0.3.x reads anyway — asserts at the
first request with a computed prefix (vLLM #3355); a P1, since the engine starts."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.layer_config import config_sliding

_CONFIG = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 4096, "num_hidden_layers": 32,
           "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 11008, "vocab_size": 151936,
           "max_position_embeddings": 32768, "sliding_window": 32768, "use_sliding_window": False, "torch_dtype": "bfloat16"}
_SCRIPT = """from vllm import LLM, SamplingParams
llm = LLM(model="./models/qwen1.5-7b-chat", max_model_len=4096)
params = SamplingParams(temperature=0.8)
outputs = llm.generate(["a", "b"], params, prefix_pos={pos})
"""


def test_an_unused_window_is_kept_apart():
    out: dict = {}
    config_sliding(_CONFIG, out)
    assert out == {"sliding_window_unused": 32768}
    out = {}
    config_sliding({**_CONFIG, "use_sliding_window": True}, out)
    assert out.get("sliding_window_size") == 32768 and "sliding_window_unused" not in out


def _l66(tmp_path: Path, vllm: str, pos: str):
    (tmp_path / "models" / "qwen1.5-7b-chat").mkdir(parents=True)
    (tmp_path / "models" / "qwen1.5-7b-chat" / "config.json").write_text(json.dumps(_CONFIG))
    (tmp_path / "requirements.txt").write_text(f"vllm=={vllm}\n")
    (tmp_path / "infer.py").write_text(_SCRIPT.format(pos=pos))
    (site,) = audit(tmp_path, gpu="A100-80GB").sites
    assert site.facts["launch"].get("generate_prefix_pos") == (4 if pos != "None" else None)
    return next(r for r in site.results if r.check.id == "L66")


@pytest.mark.parametrize("vllm,pos,hit", [("0.3.3", "[3, 3]", True), ("0.3.0", "3", True),
                                          ("0.3.3", "None", False), ("0.4.0", "[3, 3]", False)])
def test_prefix_pos_with_a_config_window(tmp_path, vllm, pos, hit):
    r = _l66(tmp_path, vllm, pos)
    assert (r.status == "recommended" and r.priority == "P1") is hit, (r.status, r.priority)
