"""EngineArgs()/AsyncEngineArgs() on vLLM 0.8.0-0.11.0's V1 engine: EngineArgs' default tables name
only LLM() and the OpenAI server, so SchedulerConfig fills max_num_batched_tokens with 2048 (chunked
prefill, which V1 forces on a generative model; 5120 for a multimodal one: 0.8.0 config.py:1657-1686,
0.10.1 config/scheduler.py:188-209). The memory estimate once charged the profile run with its 8192
stand-in there, about 0.6 GiB more on an 8B model, enough to turn L15 into a P0 on a 24 GB card."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _site(tmp_path, pin: str, call: str, gpu: str = "L4"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "run.py").write_text(f"from vllm import EngineArgs, LLMEngine, LLM\n{call}\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sr


def _p0(sr) -> set[str]:
    return {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}


def test_engine_args_take_the_scheduler_default(tmp_path):
    sr = _site(tmp_path, "0.10.1", "engine = LLMEngine.from_engine_args(EngineArgs("
               "model='meta-llama/Llama-3.1-8B-Instruct', max_model_len=32000, max_num_seqs=16))")
    assert sr.facts["engine"]["max_num_batched_tokens"] == 2048
    assert "L15" not in _p0(sr)


def test_a_multimodal_model_takes_5120(tmp_path):
    sr = _site(tmp_path, "0.9.2", "engine = LLMEngine.from_engine_args(EngineArgs(model='Qwen/Qwen2.5-VL-7B-Instruct'))",
               gpu="A100-80GB")
    assert sr.facts["engine"]["max_num_batched_tokens"] == 5120


def test_llm_keeps_its_own_context_default(tmp_path):
    sr = _site(tmp_path, "0.10.1", "llm = LLM(model='meta-llama/Llama-3.1-8B-Instruct', max_model_len=8192)")
    assert sr.facts["engine"]["max_num_batched_tokens"] == 8192


def test_a_pooling_model_is_left_to_its_pooler(tmp_path):
    sr = _site(tmp_path, "0.10.1", "engine = LLMEngine.from_engine_args(EngineArgs(model='BAAI/bge-m3', runner='pooling'))")
    assert sr.facts["site"]["pooling"] and "max_num_batched_tokens" not in sr.facts["engine"]


def test_a_value_the_project_passes_wins(tmp_path):
    sr = _site(tmp_path, "0.10.1", "engine = LLMEngine.from_engine_args(EngineArgs("
               "model='meta-llama/Llama-3.1-8B-Instruct', max_num_batched_tokens=4096))")
    assert sr.facts["engine"]["max_num_batched_tokens"] == 4096
