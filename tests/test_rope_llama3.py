"""L91 rope-scaling-llama3: Llama 3.1–3.3 write rope_scaling {rope_type: llama3, …} without the
legacy `type` key. vLLM 0.2.2–0.5.3 read rope_scaling["type"] (KeyError: 'type'); transformers
before 4.43.0 refuse the dict in LlamaConfig. Newer pairs, Llama 3.0 and other model types say
nothing."""
import json
from types import SimpleNamespace

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.transformers_fit import rope_fit
from vllm_kb.engine.kb.model_config import config_scalars

_LLAMA31 = {"model": {"model_type": "llama", "rope_type": "llama3"}}


def _pin(spec: str):
    return SimpleNamespace(spec=spec, text=f"transformers{spec}", file="requirements.txt", line=2)


def test_pins_older_than_4_43_refuse_the_llama3_rope_type():
    assert rope_fit(_LLAMA31, _pin("==4.42.4")).get("tf_rope_old")
    assert rope_fit(_LLAMA31, _pin("<4.43")).get("tf_rope_old")
    for spec in (">=4.42", "==4.43.0", "==4.43.2", "", "nonsense"):
        assert not rope_fit(_LLAMA31, _pin(spec)), spec
    assert not rope_fit(_LLAMA31, None)
    assert not rope_fit({"model": {"model_type": "mllama", "rope_type": "llama3"}}, _pin("==4.42.4"))
    assert not rope_fit({"model": {"model_type": "llama", "rope_type": "linear"}}, _pin("==4.42.4"))


def test_the_checkpoint_config_gives_the_rope_type():
    facts = {"rope_type": "llama3"}  # the catalog's reading, replaced by the checkpoint's
    config_scalars(facts, {"model_type": "llama", "rope_scaling": {"factor": 8.0, "rope_type": "llama3"}}, None)
    assert facts["rope_type"] == "llama3"
    config_scalars(facts, {"model_type": "llama"}, None)
    assert "rope_type" not in facts
    config_scalars(facts, {"model_type": "llama", "rope_scaling": {"type": "linear", "factor": 2.0}}, None)
    assert facts["rope_type"] == "linear"


def _l91(tmp_path, req: str, model: str = "meta-llama/Meta-Llama-3.1-8B-Instruct"):
    (tmp_path / "requirements.txt").write_text(req)
    (tmp_path / "serve.sh").write_text(f"vllm serve {model} --max-model-len 8192\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    return next(r for r in sr.results if r.check.id == "L91")


@pytest.mark.parametrize("req, status", [
    ("vllm==0.5.3\n", "recommended"),                          # KeyError: 'type'
    ("vllm==0.5.3.post1\ntransformers==4.42.4\n", "recommended"),  # transformers' ValueError
    ("vllm==0.5.3.post1\n", "enabled"),
    ("vllm==0.6.3\ntransformers>=4.45\n", "enabled"),
])
def test_release_gates(tmp_path, req, status):
    r = _l91(tmp_path, req)
    assert r.status == status
    if status == "recommended":
        assert r.priority == "P0"


def test_llama30_and_a_local_checkpoint(tmp_path):
    assert _l91(tmp_path, "vllm==0.4.1\n", "meta-llama/Meta-Llama-3-8B-Instruct").status == "not_applicable"
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    (ckpt / "config.json").write_text(json.dumps({
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
        "num_key_value_heads": 8, "num_hidden_layers": 32, "intermediate_size": 14336, "vocab_size": 128256,
        "max_position_embeddings": 131072, "torch_dtype": "bfloat16",
        "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                         "original_max_position_embeddings": 8192, "rope_type": "llama3"}}))
    r = _l91(tmp_path, "vllm==0.4.3\n", "./ckpt")
    assert (r.status, r.priority) == ("recommended", "P0")
