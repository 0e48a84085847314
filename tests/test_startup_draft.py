"""engine/check/startup_draft.py: which launches load a separate draft model, and its vocabulary."""
from vllm_kb.engine.check.startup_draft import draft_facts, draft_name
from vllm_kb.engine.kb.knowledge import load

KB = load()


def test_the_draft_model_each_release_loads():
    flat = {"speculative_model": "Qwen/Qwen2-1.5B-Instruct"}
    assert draft_name(flat, "0.5.4") == "Qwen/Qwen2-1.5B-Instruct"
    assert draft_name({"speculative_model": "[ngram]"}, "0.6.3") is None
    assert draft_name({"speculative_model": "yuhuili/EAGLE-LLaMA3-Instruct-8B"}, "0.6.3") is None
    no_method = {"speculative_config": {"model": "Qwen/Qwen3-0.6B"}}
    assert draft_name(no_method, "0.9.2") == "Qwen/Qwen3-0.6B"
    assert draft_name(no_method, "0.20.0") is None  # 0.15+: only an explicit draft_model is checked
    explicit = {"speculative_config": {"method": "draft_model", "model": "Qwen/Qwen3-0.6B"}}
    assert draft_name(explicit, "0.12.0") is None  # 0.10-0.14 refuse draft models (G3)
    assert draft_name(explicit, "0.20.0") == "Qwen/Qwen3-0.6B"
    assert draft_name({"speculative_config": {"method": "eagle3", "model": "d"}}, "0.20.0") is None


def test_vocabularies_only_for_sizes_the_catalog_knows():
    engine = {"speculative_config": {"method": "draft_model", "model": "Qwen/Qwen2.5-0.5B-Instruct"}}
    target = {"name": "Qwen/Qwen2.5-72B-Instruct", "vocab_size": 152064}
    assert draft_facts(engine, target, KB.models, "0.20.0") == {
        "spec_draft_model": "Qwen/Qwen2.5-0.5B-Instruct", "spec_draft_vocab": 151936, "spec_target_vocab": 152064}
    # a target known only by its family gives no vocabulary to compare
    assert "spec_draft_vocab" not in draft_facts(engine, {**target, "dims_family": True}, KB.models, "0.20.0")
