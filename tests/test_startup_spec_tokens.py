"""L124: speculative decoding without num_speculative_tokens, for a draft with no n_predict to take it
from — refused in every release from 0.4.1, in words that changed (SpeculativeConfig, 0.4.1
config.py:696 … 0.34.0 config/speculative.py:1653)."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.startup_spec_tokens import WORDS, WORDS_BOTH, WORDS_COMPARE, WORDS_FLAT, WORDS_RANGE, WORDS_TREE
from vllm_kb.engine.check.startup_spec_tokens import spec_tokens_facts as _facts
from vllm_kb.engine.kb.knowledge import load


def spec_tokens_facts(engine, version):
    return _facts(engine, load().models, version)


def _l124(tmp_path, version: str, args: str):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 {args}\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    return next(r for r in sr.results if r.check.id == "L124")


@pytest.mark.parametrize("version,words", [("0.9.2", WORDS), ("0.12.0", WORDS_RANGE), ("0.19.0", WORDS_TREE), ("0.34.0", WORDS)])
def test_eagle_without_number_is_refused(tmp_path, version, words):
    r = _l124(tmp_path, version, """--speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"}'""")
    assert r.status == "recommended" and r.priority == "P0", r.reason_text("en")
    assert words in r.reason_text("en")
    assert [(op.kind, op.target, v) for op, v in r.fix] == [("set", "speculative_config", {"num_speculative_tokens": 3})]


@pytest.mark.parametrize("spec", ['{"method": "eagle3", "model": "d", "num_speculative_tokens": 3}',
                                  '{"method": "mtp", "num_speculative_tokens": 1}',
                                  '{"method": "eagle", "model": "d", "speculative_token_tree": "[(0,), (0, 0)]"}',
                                  '{"model": "ibm-ai-platform/llama3-8b-accelerator"}'])
def test_number_given_or_derived(tmp_path, spec):
    assert _l124(tmp_path, "0.20.0", f"--speculative-config '{spec}'").status == "not_applicable"


@pytest.mark.parametrize("version,method", [("0.9.0", "deepseek_mtp"), ("0.11.0", "mtp"), ("0.20.0", "qwen3_next_mtp"),
                                            ("0.34.0", "mtp")])
def test_mtp_without_number_or_draft_is_refused(tmp_path, version, method):
    # the draft is pointed at the target only when the number is given (vLLM #55323): no draft
    # config, no n_predict, and _verify_args refuses
    r = _l124(tmp_path, version, f"""--speculative-config '{{"method": "{method}"}}'""")
    assert r.status == "recommended" and r.priority == "P0", r.reason_text("en")
    assert WORDS in r.reason_text("en") and "MTP" in r.reason_text("en")
    assert [(op.kind, op.target, v) for op, v in r.fix] == [("set", "speculative_config", {"num_speculative_tokens": 1})]


@pytest.mark.parametrize("version,spec", [("0.8.1", {"method": "deepseek_mtp"}), ("0.10.1", {"method": "mtp"}),
                                          ("0.20.0", {"method": "mtp", "model": "deepseek-ai/DeepSeek-V3"})])
def test_mtp_outside_the_refusal(version, spec):
    # before the release takes the method, or with the draft named (n_predict from hf_config_override)
    assert spec_tokens_facts({"speculative_config": spec}, version) == {}


def test_ngram_config_uses_five():
    f = spec_tokens_facts({"speculative_config": {"method": "ngram", "prompt_lookup_max": 4}}, "0.12.0")
    assert f == {"spec_tokens_missing": "ngram", "spec_tokens_form": "config", "spec_tokens_words": WORDS, "spec_tokens_value": 5}


@pytest.mark.parametrize("version,words", [("0.4.2", WORDS_BOTH), ("0.6.3", WORDS_FLAT), ("0.8.2", WORDS)])
def test_flat_flags(version, words):
    f = spec_tokens_facts({"speculative_model": "[ngram]", "ngram_prompt_lookup_max": 4}, version)
    assert f["spec_tokens_form"] == "flags" and f["spec_tokens_words"] == words


def test_flat_ngram_without_lookup_max_is_another_error():
    # 0.5.1–0.8.1 raise "ngram_prompt_lookup_max=None must be > 0" first
    assert spec_tokens_facts({"speculative_model": "[ngram]"}, "0.6.3") == {}


@pytest.mark.parametrize("version,expected", [("0.9.2", "draft_model"), ("0.13.0", None), ("0.17.0", "draft_model")])
def test_plain_draft_without_method(version, expected):
    # 0.10–0.16 refuse such a draft for another reason (G3)
    f = spec_tokens_facts({"speculative_config": {"model": "Qwen/Qwen2.5-0.5B-Instruct"}}, version)
    assert f.get("spec_tokens_missing") == expected


@pytest.mark.parametrize("draft", ["deepseek-ai/DeepSeek-V3", "/models/draft"])
def test_draft_that_may_carry_n_predict(draft):
    # hf_config_override makes DeepSeek-V3 an MTP draft with n_predict; an unknown folder may be anything
    assert spec_tokens_facts({"speculative_config": {"method": "draft_model", "model": draft}}, "0.20.0") == {}


@pytest.mark.parametrize("version,hit", [("0.10.2", False), ("0.11.0", True), ("0.34.0", True)])
def test_mtp_with_the_target_as_draft_compares_the_missing_number(version, hit):
    # the method detection (0.11.0-0.33.0) and MTPSpeculatorConfig.adapt_draft_model_config (0.34.0)
    # compare num_speculative_tokens with 1 before n_predict is read (vLLM #55323)
    target = {"name": "Qwen/Qwen3-Next-80B-A3B-Instruct", "mtp": True}
    spec = {"method": "mtp", "model": "Qwen/Qwen3-Next-80B-A3B-Instruct"}
    f = _facts({"speculative_config": spec}, load().models, version, target)
    assert (f.get("spec_tokens_words") == WORDS_COMPARE and f["spec_tokens_value"] == 1) if hit else f == {}
    # another draft named: its own config may carry n_predict
    assert _facts({"speculative_config": {**spec, "model": "some/draft"}}, load().models, version, target) == {}
