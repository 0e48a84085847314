"""Checkpoints in the original LLaVA code base's format (model_type llava_llama / llava_mistral / llava_qwen) name
classes only that code registers: neither vLLM nor transformers knows them, so a launch by Hub id is refused (L21).
LLaVA-Med v1.5 is the Mistral variant (vLLM #10129: microsoft/llava-med-v1.5-mistral-7b on 0.6.3.post1); the
llava-hf conversions start."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit


@pytest.mark.parametrize("model,arch,p0", [
    ("microsoft/llava-med-v1.5-mistral-7b", "LlavaMistralForCausalLM", True),
    ("liuhaotian/llava-v1.6-mistral-7b", "LlavaMistralForCausalLM", True),
    ("liuhaotian/llava-v1.5-7b", "LlavaLlamaForCausalLM", True),
    ("llava-hf/llava-v1.6-mistral-7b-hf", "LlavaNextForConditionalGeneration", False),
    ("llava-hf/llava-1.5-7b-hf", "LlavaForConditionalGeneration", False),
])
def test_l21(tmp_path, model, arch, p0):
    (tmp_path / "requirements.txt").write_text("vllm==0.6.3.post1\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve {model} --max-model-len 4096\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert sr.facts["model"].get("architecture") == arch
    r = next(r for r in sr.results if r.check.id == "L21")
    assert (r.status == "recommended" and r.priority == "P0") is p0, r.reason_text("en")
