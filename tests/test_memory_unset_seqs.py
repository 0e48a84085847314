"""An unset max_num_seqs the site's usage context does not fill (a framework's own engine) is
sized at the least vLLM may give it — 128 from 0.9.2 on V1 (SchedulerConfig), 256 before and on
V0 — so no start-up verdict rests on more profiled sequences than the launch may run."""
from __future__ import annotations

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.memory.runtime import profile_seqs
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data


def _estimate(engine, version):
    model = models.model_facts("Qwen/Qwen2.5-7B-Instruct", KB.models, DATA["quantized_markers"], identity=DATA)
    gpu = dict(hardware.parse_spec("L4", KB.gpus).gpu)
    return memory.estimate(model, gpu, dict(engine), version)


def test_the_least_unset_value_by_release_and_engine():
    assert profile_seqs({}, memory.runtime("0.12.0", {}, 8.9)) == 128
    assert profile_seqs({}, memory.runtime("0.9.1", {}, 8.9)) == 256
    assert profile_seqs({}, memory.runtime("0.6.3", {}, 8.9)) == 256
    assert profile_seqs({"max_num_seqs": "512"}, memory.runtime("0.12.0", {}, 8.9)) == 512


def test_a_shortfall_only_a_guessed_256_makes_is_not_beyond_the_error():
    # Qwen2.5-7B at 32768 tokens on an L4 at 0.775 with 0.12.0: 256 sequences (serve's value) leave the
    # pool short beyond the estimate's error; an engine whose context is unknown may run 128
    base = {"max_model_len": 32768, "gpu_memory_utilization": 0.775}
    at_256 = _estimate({**base, "max_num_seqs": 256}, "0.12.0")
    unset = _estimate(base, "0.12.0")
    assert at_256.get("kv_shortfall_beyond_error") is True
    assert unset.get("kv_shortfall_beyond_error") is None
    assert unset["kv_cache_gib"] == _estimate({**base, "max_num_seqs": 128}, "0.12.0")["kv_cache_gib"] > at_256["kv_cache_gib"]
