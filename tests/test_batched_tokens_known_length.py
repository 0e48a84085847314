"""L17 asserts "max_num_batched_tokens is smaller than max_model_len" only with a length vLLM will
really derive: one the project sets, or the checkpoint's own config (a Hub repository the catalog
holds). A length left to vLLM and known only from the catalog's family — a local training output
named after it — is said at P1: the checkpoint may carry another context (the refusal is
SchedulerConfig's, 0.6.3 config.py; 0.34.0 config/scheduler.py:366)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _l17(tmp_path, model: str, more: str = "") -> tuple[str | None, dict]:
    (tmp_path / "requirements.txt").write_text("vllm==0.6.3\n")
    (tmp_path / "serve.sh").write_text(
        f"python -m vllm.entrypoints.openai.api_server --model {model} --max-num-batched-tokens 4096{more}\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L17")
    return (r.priority if r.needs_change else None), sr.facts["startup"]


def test_a_family_length_left_to_vllm_is_a_p1(tmp_path):
    prio, startup = _l17(tmp_path, "./output/qwen2-7b-instruct-sft")
    assert startup.get("max_len_family") and startup.get("chunked_prefill") is False
    assert prio == "P1"


def test_the_checkpoint_of_a_named_repository_is_a_p0(tmp_path):
    assert _l17(tmp_path, "Qwen/Qwen2-7B-Instruct")[0] == "P0"


def test_a_length_the_project_sets_is_a_p0(tmp_path):
    assert _l17(tmp_path, "./output/qwen2-7b-instruct-sft", " --max-model-len 8192")[0] == "P0"
