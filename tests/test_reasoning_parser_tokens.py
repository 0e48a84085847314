"""L136 reasoning-parser-tokens: a reasoning parser of another family looks its own marker tokens up
in the served model's vocabulary and raises; from 0.9.0 the V1 engine builds it while starting."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import parsers


def test_missing_tokens_follow_the_release_and_the_checkpoint():
    assert parsers.missing_tokens("deepseek_r1", "0.9.1", "moonshotai/Kimi-Dev-72B") == ["<think>", "</think>"]
    assert parsers.missing_tokens("gemma4", "0.22.1", "google/gemma-3-12b-it") == ["<|channel>", "<channel|>"]
    # the parser-engine adapters of 0.24+ look the tokens up without raising
    assert parsers.missing_tokens("gemma4", "0.24.0", "google/gemma-3-12b-it") is None
    # Gemma 4 has its channel tokens; a model not listed is not judged
    assert parsers.missing_tokens("gemma4", "0.22.1", "google/gemma-4-31b-it") is None
    assert parsers.missing_tokens("deepseek_r1", "0.22.1", "Qwen/Qwen3-8B") is None
    # DeepSeek-V3 lacks only the closing token; R1 and V3.1 have both
    assert parsers.missing_tokens("deepseek_r1", "0.20.0", "deepseek-ai/DeepSeek-V3-0324") == ["</think>"]
    assert parsers.missing_tokens("deepseek_r1", "0.20.0", "deepseek-ai/DeepSeek-V3.1") is None


def _l136(tmp_path, release: str, line: str):
    (tmp_path / "requirements.txt").write_text(f"vllm=={release}\n")
    (tmp_path / "serve.sh").write_text(line + "\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x2").sites
    return next(r for r in sr.results if r.check.id == "L136")


def test_gemma4_parser_on_gemma3_stops_the_start(tmp_path):
    r = _l136(tmp_path, "0.22.1", "vllm serve google/gemma-3-12b-it --tensor-parallel-size 2 --reasoning-parser gemma4")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert "<|channel>, <channel|>" in repr(r)  # the tokens the report names


def test_r1_parser_before_v1_builds_it_fails_at_the_first_request(tmp_path):
    r = _l136(tmp_path, "0.8.5", "vllm serve moonshotai/Kimi-Dev-72B --tensor-parallel-size 2 --enable-reasoning "
                                 "--reasoning-parser deepseek_r1")
    assert (r.status, r.priority) == ("recommended", "P1")


def test_the_family_parser_is_fine(tmp_path):
    r = _l136(tmp_path, "0.22.1", "vllm serve Qwen/Qwen3-8B --reasoning-parser qwen3")
    assert r.status == "enabled"
