"""What the estimate says when the profile run's sampler warm-up fills the budget (the lever is
max_num_seqs), when the KV cache left is inside the estimate's own error (L16 as well as L15), and
the nearest tensor-parallel size L1 proposes."""
from __future__ import annotations

from vllm_kb.engine.check import memory
from vllm_kb.engine.check.startup_parallel import parallel_facts
from vllm_kb.engine.kb import hardware, knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data


def _gpu(spec):
    return dict(hardware.parse_spec(spec, KB.gpus).gpu)


def _model(name):
    return models.model_facts(name, KB.models, DATA["quantized_markers"], identity=DATA)


def test_sampler_warmup_filling_the_budget_offers_max_num_seqs():
    # 0.8.1 V1 serves with max_num_seqs 1024: the dummy sampler's 1024 rows x 152064 logits
    # leave about nothing for a 32B W8A16 checkpoint on two 24 GB cards
    engine = {"tensor_parallel_size": 2, "gpu_memory_utilization": 0.9, "max_model_len": 4096,
              "enforce_eager": True, "max_num_seqs": 1024, "max_num_batched_tokens": 2048, "quantization": "compressed-tensors"}
    est = memory.estimate(_model("Qwen/Qwen2.5-32B-Instruct-INT8-W8A16"), _gpu("RTX-3090"), engine, "0.8.1")
    assert est["kv_cache_gib"] < 0.5
    assert est.get("kv_cache_near_zero") is True
    fit = est["max_num_seqs_fit"]
    assert 1 <= fit < 1024 and fit & (fit - 1) == 0  # a power of two below the site's
    lower = memory.estimate(_model("Qwen/Qwen2.5-32B-Instruct-INT8-W8A16"), _gpu("RTX-3090"), dict(engine, max_num_seqs=fit), "0.8.1")
    assert lower["fits_max_model_len"] and "max_num_seqs_fit" not in lower


def test_no_lever_when_the_forward_pass_decides_the_peak():
    # weights too large for the budget: lowering max_num_seqs frees too little, no value is offered
    engine = {"gpu_memory_utilization": 0.9, "max_model_len": 8192, "max_num_seqs": 256}
    est = memory.estimate(_model("meta-llama/Llama-3.1-70B-Instruct"), _gpu("A100-80GB"), engine, "0.6.3")
    assert est["kv_cache_gib"] < 0 and "max_num_seqs_fit" not in est


def test_plenty_of_room_is_not_near_zero():
    est = memory.estimate(_model("Qwen/Qwen2.5-7B-Instruct"), _gpu("A100-80GB"), {"max_model_len": 8192}, "0.8.4")
    assert est["fits_max_model_len"] and "kv_cache_near_zero" not in est and "max_num_seqs_fit" not in est


def test_tp_fit_goes_up_when_the_gpus_allow_it():
    model = {"hidden_size": 8192, "num_attention_heads": 64, "num_key_value_heads": 8}
    assert parallel_facts(model, {"tensor_parallel_size": 3}, {"count": 4})["tp_fit"] == 4
    assert parallel_facts(model, {"tensor_parallel_size": 3}, {"count": 3})["tp_fit"] == 2
    assert parallel_facts(model, {"tensor_parallel_size": 3}, {})["tp_fit"] == 2
