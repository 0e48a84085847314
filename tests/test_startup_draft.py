"""engine/check/startup_draft.py: which launches load a separate draft model, and its vocabulary."""
from vllm_kb.engine.check.startup_draft import draft_facts, draft_name, mm_refused_draft, refused_draft
from vllm_kb.engine.kb.knowledge import load

KB = load()


def test_the_draft_model_each_release_loads():
    flat = {"speculative_model": "Qwen/Qwen2-1.5B-Instruct"}
    assert draft_name(flat, "0.5.4") == "Qwen/Qwen2-1.5B-Instruct"
    assert draft_name({"speculative_model": "[ngram]"}, "0.6.3") is None
    assert draft_name({"speculative_model": "yuhuili/EAGLE-LLaMA3-Instruct-8B"}, "0.6.3") is None
    no_method = {"speculative_config": {"model": "Qwen/Qwen3-0.6B"}}
    assert draft_name(no_method, "0.9.2") == "Qwen/Qwen3-0.6B"
    assert draft_name(no_method, "0.16.0") is None  # 0.15-0.16 refuse it for want of a method (G3)
    assert draft_name(no_method, "0.20.0") == "Qwen/Qwen3-0.6B"  # 0.17+ take it as draft_model
    assert draft_name({"speculative_config": {"model": "ibm-ai-platform/llama3-8b-accelerator"}}, "0.20.0") is None
    explicit = {"speculative_config": {"method": "draft_model", "model": "Qwen/Qwen3-0.6B"}}
    assert draft_name(explicit, "0.12.0") is None  # 0.10-0.14 refuse draft models (G3)
    assert draft_name(explicit, "0.20.0") == "Qwen/Qwen3-0.6B"
    assert draft_name({"speculative_config": {"method": "eagle3", "model": "d"}}, "0.20.0") is None


def test_vocabularies_only_for_sizes_the_catalog_knows():
    engine = {"speculative_config": {"method": "draft_model", "model": "Qwen/Qwen2.5-0.5B-Instruct"}}
    target = {"name": "Qwen/Qwen2.5-72B-Instruct", "vocab_size": 152064}
    assert draft_facts(engine, target, KB.models, "0.20.0") == {
        "spec_draft_model": "Qwen/Qwen2.5-0.5B-Instruct", "spec_draft_vocab": 151936, "spec_target_vocab": 152064,
        "spec_vocab_draft": "Qwen/Qwen2.5-7B-Instruct",
        "spec_vocab_config": {"method": "draft_model", "model": "Qwen/Qwen2.5-7B-Instruct"}}
    # a target known only by its family gives no vocabulary to compare
    assert "spec_draft_vocab" not in draft_facts(engine, {**target, "dims_family": True}, KB.models, "0.20.0")


def test_a_draft_without_a_method_is_refused_where_the_release_wants_one():
    no_method = {"speculative_config": {"model": "Qwen/Qwen3-0.6B", "num_speculative_tokens": 4}}
    assert refused_draft(no_method, "0.12.0") == "Qwen/Qwen3-0.6B"  # no draft models at all
    assert refused_draft(no_method, "0.16.0") == "Qwen/Qwen3-0.6B"  # "Unsupported speculative method: 'None'"
    assert refused_draft(no_method, "0.17.0") is None
    assert refused_draft({"speculative_config": {"method": "draft_model", "model": "Qwen/Qwen3-0.6B"}}, "0.16.0") is None
    assert refused_draft({"speculative_config": {"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"}}, "0.16.0") is None


# https://github.com/vllm-project/vllm/issues/41743 — parallel drafting for a multimodal Gemma 4 (0.20)
def test_draft_models_and_parallel_drafting_beside_a_multimodal_target():
    mm, text = {"multimodal": True}, {"multimodal": False}
    draft = {"speculative_config": {"model": "google/gemma-4-E2B-it-assistant", "num_speculative_tokens": 4}}
    assert mm_refused_draft(draft, mm, "0.20.1") == "google/gemma-4-E2B-it-assistant"
    assert mm_refused_draft(draft, text, "0.20.1") is None
    assert mm_refused_draft(draft, mm, "0.21.0") is None  # a warning from 0.21.0
    assert mm_refused_draft({**draft, "language_model_only": True}, mm, "0.20.1") is None
    assert mm_refused_draft({**draft, "limit_mm_per_prompt": {"image": 0, "audio": {"count": 0}}}, mm, "0.20.1") is None
    assert mm_refused_draft({**draft, "limit_mm_per_prompt": {"image": 0, "audio": 1}}, mm, "0.20.1") is not None
    peagle = {"speculative_config": {"method": "eagle3", "model": "/d", "parallel_drafting": True}}
    assert mm_refused_draft(peagle, mm, "0.20.1") == "parallel drafting"
    assert mm_refused_draft({"speculative_config": {"method": "eagle3", "model": "/d"}}, mm, "0.20.1") is None


def test_speculator_heads_are_never_draft_models_in_any_release():
    """IBM's MLP speculators ("…-accelerator") and suffix decoding are not separate draft models of
    the target's family: no vocabulary check (L90) and no draft-model refusal (G3) for them, in the
    V0 `speculative_model` path as in the `speculative_config` one."""
    head = "ibm-fms/llama3-8b-accelerator"
    assert draft_name({"speculative_model": head}, "0.5.5") is None
    assert draft_name({"speculative_config": {"model": head}}, "0.9.0") is None
    assert refused_draft({"speculative_config": {"model": head}}, "0.12.0") is None
    assert draft_name({"speculative_model": "JackFram/llama-68m"}, "0.5.5") == "JackFram/llama-68m"


def test_a_draft_whose_config_names_mtp_is_not_refused():
    # SpeculativeConfig detects MTP/Medusa/MLP-speculator drafts from their config before it falls back
    # to draft_model (0.10.0 config.py:2829-2846, hf_config_override :2705-2733): a DeepSeek-V3 drafting
    # for itself with no method is MTP there, not a refused draft model
    engine = {"speculative_config": {"model": "deepseek-ai/DeepSeek-V3", "num_speculative_tokens": 1}}
    target = {"name": "deepseek-ai/DeepSeek-V3", "family": "deepseek-v3", "model_type": "deepseek_v3", "mtp": True}
    draft = {"family": "deepseek-v3", "model_type": "deepseek_v3", "mtp": True}
    for v in ("0.10.0", "0.12.0", "0.16.0"):
        assert refused_draft(engine, v, draft, target) is None
    # a local folder drafting for a target of its own unknown type may be either: no refusal claimed
    local = {"speculative_config": {"model": "/models/ckpt"}}
    assert refused_draft(local, "0.12.0", {}, {"name": "/models/ckpt"}) is None
    # a plain small draft of a dense family stays refused
    small = {"speculative_config": {"model": "Qwen/Qwen2.5-0.5B-Instruct"}}
    dense = {"family": "qwen2.5", "model_type": "qwen2", "mtp": False}
    assert refused_draft(small, "0.12.0", dense, {"name": "Qwen/Qwen2.5-72B-Instruct", **dense}) == "Qwen/Qwen2.5-0.5B-Instruct"
    assert refused_draft(small, "0.16.0", dense, {"name": "Qwen/Qwen2.5-72B-Instruct", **dense}) == "Qwen/Qwen2.5-0.5B-Instruct"


def test_the_same_family_draft_with_the_targets_vocabulary():
    # vllm#10913: Qwen2.5-Coder-32B with the 0.5B draft (151936) -> the 7B (152064), its path kept
    target = {"name": "/app/models/Qwen2.5-Coder-32B-Instruct-AWQ", "vocab_size": 152064, "params_b": 32.76}
    got = draft_facts({"speculative_model": "/app/models/Qwen2.5-Coder-0.5B-Instruct-AWQ"}, target, KB.models, "0.6.4.post1")
    assert got["spec_vocab_draft"] == "/app/models/Qwen2.5-Coder-7B-Instruct-AWQ" and "spec_vocab_config" not in got
    # a 7B target: no smaller Qwen2.5 size has 152064, so nothing is proposed
    seven = {"name": "Qwen/Qwen2.5-7B-Instruct", "vocab_size": 152064, "params_b": 7.62}
    assert "spec_vocab_draft" not in draft_facts({"speculative_model": "Qwen/Qwen2.5-0.5B-Instruct"}, seven, KB.models, "0.6.4")
    # a name without one size in it
    assert "spec_vocab_draft" not in draft_facts({"speculative_model": "/models/draft"}, target, KB.models, "0.6.4",
                                                 lambda n: {"vocab_size": 151936, "family": "qwen2.5"})
