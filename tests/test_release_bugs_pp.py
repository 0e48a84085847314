"""Model classes that break only under pipeline parallelism (knowledge/vllm/release_bugs.yaml model_bugs with
min_pp): the MoE layer walk of DeepSeek-V2/V3 in 0.9.2 and of Llama 4 in 0.11.1-0.11.2 asserts on the other
stages' PPMissingLayer placeholders (vLLM #20647, PR #20665; PR #28577)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.startup_release_bugs import model_bug_facts
from vllm_kb.engine.kb.knowledge import load


def _table() -> dict:
    return load().doc("vllm", "release_bugs.yaml").data


@pytest.mark.parametrize("arch,engine,version,row", [
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 2}, "0.9.2", "deepseek-v2-pp-missing-layer"),
    ("DeepseekV3ForCausalLM", {"pipeline_parallel_size": 4, "tensor_parallel_size": 8}, "0.9.2", "deepseek-v3-pp-missing-layer"),
    ("DeepseekV2ForCausalLM", {}, "0.9.2", None),  # no pipeline parallelism: every layer is the class's own
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 1}, "0.9.2", None),
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": "$PP"}, "0.9.2", None),  # unread: not claimed
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 2}, "0.9.1", None),  # the walk came with 0.9.2
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 2}, "0.10.0", None),  # PR 20665 skips the placeholders
    ("DeepseekV2ForCausalLM", {"pipeline_parallel_size": 2, "model_impl": "transformers"}, "0.9.2", None),
    ("Llama4ForConditionalGeneration", {"pipeline_parallel_size": 4}, "0.11.1", "llama4-mm-pp-missing-layer"),
    ("Llama4ForCausalLM", {"pipeline_parallel_size": 2}, "0.11.2", "llama4-pp-missing-layer"),
    ("Llama4ForConditionalGeneration", {"pipeline_parallel_size": 4}, "0.11.0", None),
    ("Llama4ForConditionalGeneration", {"pipeline_parallel_size": 4}, "0.12.0", None),
])
def test_pp_rows(arch, engine, version, row):
    f = model_bug_facts(arch, engine, _table(), version)
    assert f.get("release_bug") == row
    if row:
        assert f["release_bug_pp"] == engine["pipeline_parallel_size"] and f["release_bug_arch"] == arch
