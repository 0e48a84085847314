"""A Marlin kernel's own name given for its checkpoint's method (`--quantization gptq_marlin` on a GPTQ
checkpoint) is claimed by the checkpoint in vLLM 0.4.2 (ModelConfig turns a Marlin-compatible GPTQ checkpoint
into gptq_marlin itself) and from 0.5.4; in 0.4.3-0.5.3 ModelConfig._verify_quantization compares the two names
and raises (vLLM #5677 on 0.5.0.post1; knowledge/vllm/startup.yaml accepted_in)."""
from __future__ import annotations

import json

import pytest
from vllm_kb.engine.audit import audit

GPTQ = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
        "num_key_value_heads": 4, "num_hidden_layers": 28, "vocab_size": 152064, "max_position_embeddings": 32768,
        "torch_dtype": "float16",
        "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True}}


@pytest.mark.parametrize(("release", "method", "refused"), [("0.4.2", "gptq_marlin", False), ("0.4.3", "gptq_marlin", True),
                                                            ("0.5.3", "gptq_marlin", True), ("0.5.4", "gptq_marlin", False),
                                                            ("0.5.3", "marlin", False), ("0.6.3", "gptq_marlin", False)])
def test_a_kernel_name_for_its_checkpoint_by_release(tmp_path, release, method, refused):
    (tmp_path / "ckpt").mkdir()
    (tmp_path / "ckpt" / "config.json").write_text(json.dumps(GPTQ))
    (tmp_path / "requirements.txt").write_text(f"vllm=={release}\n")
    (tmp_path / "serve.sh").write_text(f"python -m vllm.entrypoints.openai.api_server --model ./ckpt --quantization {method}\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    l9 = [r for r in sr.results if r.check.id == "L9" and r.status == "recommended" and r.priority == "P0"]
    assert bool(l9) == refused
