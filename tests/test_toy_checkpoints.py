"""Test checkpoints named after the model they shrink take none of its shapes: vLLM 0.34's own
tests/models/language/generation/test_gdn_sleep_wake.py runs tiny-random/qwen3-next-moe at
gpu_memory_utilization 0.4, which was judged as the 80B Qwen3-Next (≈149 GiB of weights, a false P0)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.models import _TOY


@pytest.mark.parametrize("name, toy", [("tiny-random/qwen3-next-moe", True), ("trl-internal-testing/tiny-Qwen2ForCausalLM-2.5", True),
                                       ("hf-internal-testing/tiny-random-gpt2", True), ("deepseek-ai/deepseek-vl2-tiny", False),
                                       ("TinyLlama/TinyLlama-1.1B-Chat-v1.0", False), ("Qwen/Qwen3-Next-80B-A3B-Instruct", False)])
def test_which_names_are_test_checkpoints(name, toy):
    assert bool(_TOY.search(name)) is toy


def test_a_test_checkpoint_gets_no_memory_verdict(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.34.0\n")
    (tmp_path / "t.py").write_text('from vllm import LLM\nllm = LLM(model="tiny-random/qwen3-next-moe", '
                                   'gpu_memory_utilization=0.4, max_model_len=1024, enable_sleep_mode=True)\n')
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert not [r for r in sr.results if r.needs_change and r.priority == "P0"]
    assert sr.facts["model"].get("toy") is True
