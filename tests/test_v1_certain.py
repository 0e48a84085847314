"""A P0 that rests on the V1 engine needs V1 certain (startup.v1_sure): 0.8.0-0.10.1 fall back to V0
below compute capability 8.0 and 0.8.0-0.10.2 for V0-only architectures (EngineArgs._is_v1_supported_oracle,
0.9.0 vllm/engine/arg_utils.py:1248-1254); from 0.11.0 vllm/engine/llm_engine.py is V1's, and
VLLM_USE_V1=1 runs V1 or raises. L35 (engine core spawned), L36 (its swap-space fix), L37 (a full or
shared GPU refused at start-up) are P1 where the GPU that decides it is not known."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.memory.runtime import v1_certain

_MODULE_LEVEL = '''import torch
from vllm import LLM

torch.cuda.set_device(0)
llm = LLM(model="Qwen/Qwen2.5-7B-Instruct")
print(llm.generate(["Hello"]))
'''


@pytest.mark.parametrize("version,env,cc,arch,sure", [
    ("0.9.0", {}, None, "Qwen2ForCausalLM", False),     # the GPU decides
    ("0.9.0", {}, 8.0, "Qwen2ForCausalLM", True),
    ("0.9.0", {}, 8.0, None, False),                    # a V0-only architecture would fall back
    ("0.9.0", {"VLLM_USE_V1": "1"}, None, None, True),  # V1 or a raise
    ("0.10.2", {}, None, "Qwen2ForCausalLM", True),     # no compute-capability fallback left
    ("0.10.2", {}, None, None, False),
    ("0.11.0", {}, None, None, True),                   # no V0 left
    ("0.7.3", {}, 8.0, "Qwen2ForCausalLM", False),
])
def test_v1_is_certain_only_where_nothing_left_decides_it(version, env, cc, arch, sure):
    assert v1_certain(version, env, cc, arch) is sure


def _l35(tmp_path, version: str, gpu: str | None):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "gen.py").write_text(_MODULE_LEVEL)
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next(r for r in sr.results if r.check.id == "L35")


def test_module_level_engine_after_cuda_is_p0_only_on_a_gpu_that_runs_v1(tmp_path):
    assert _l35(tmp_path, "0.9.0", "A100-80GB").priority == "P0"
    assert _l35(tmp_path, "0.9.0", None).priority == "P1"
    assert _l35(tmp_path, "0.9.0", "T4").priority == "P2"
    assert _l35(tmp_path, "0.11.0", None).priority == "P0"


_QWEN = "Qwen2ForCausalLM"


@pytest.mark.parametrize("version,args,env,site,sure", [
    # 0.8.0-0.9.1: float32 falls back (0.9.1 vllm/engine/arg_utils.py `V1_SUPPORTED_DTYPES`); gone in 0.9.2
    ("0.9.1", {"dtype": "float32"}, {}, {}, False),
    ("0.9.2", {"dtype": "float32"}, {}, {}, True),
    ("0.9.1", {"dtype": "bfloat16"}, {}, {}, True),
    # FP8 KV cache: 0.8.0-0.8.1 always V0, 0.8.2-0.10.2 only where the attention supports it
    ("0.8.5", {"kv_cache_dtype": "fp8"}, {}, {}, False),
    ("0.10.2", {"kv_cache_dtype": "fp8"}, {}, {}, False),
    ("0.8.5", {"kv_cache_dtype": "auto"}, {}, {}, True),
    ("0.11.0", {"kv_cache_dtype": "fp8"}, {}, {}, True),
    # speculative decoding: every method on 0.8.x, a draft model on 0.9.x, none on 0.10 (it raises there)
    ("0.8.5", {"speculative_config": {"method": "ngram"}}, {}, {}, False),
    ("0.9.2", {"speculative_config": {"method": "eagle", "model": "x"}}, {}, {}, True),
    ("0.9.2", {"speculative_config": {"model": "Qwen/Qwen2.5-0.5B-Instruct"}}, {}, {}, False),
    ("0.9.2", {"speculative_config": '{"method": "eagle"}'}, {}, {}, False),
    ("0.10.0", {"speculative_config": {"model": "Qwen/Qwen2.5-0.5B-Instruct"}}, {}, {}, True),
    ("0.8.2", {"speculative_model": "[ngram]", "num_speculative_tokens": 3}, {}, {}, False),
    ("0.9.2", {"enable_prompt_adapter": True}, {}, {}, False),
    ("0.10.0", {"enable_prompt_adapter": True}, {}, {}, True),
    ("0.8.0", {"cpu_offload_gb": 4}, {}, {}, False),
    ("0.8.3", {"cpu_offload_gb": 4}, {}, {}, True),
    ("0.8.1", {"enable_lora": True}, {}, {}, False),
    ("0.8.2", {"enable_lora": True}, {}, {}, True),
    # pipeline parallel: always V0 on 0.8.0-0.8.1, without Ray on 0.8.2-0.8.5, the unset backend on 0.9.0
    ("0.8.5", {"pipeline_parallel_size": 2}, {}, {}, False),
    ("0.8.5", {"pipeline_parallel_size": 2, "distributed_executor_backend": "ray"}, {}, {}, True),
    ("0.9.0", {"pipeline_parallel_size": 2, "distributed_executor_backend": "mp"}, {}, {}, True),
    ("0.9.0", {"pipeline_parallel_size": 2}, {}, {}, False),
    ("0.9.1", {"pipeline_parallel_size": 2}, {}, {}, True),
    ("0.8.1", {"pipeline_parallel_size": 2, "distributed_executor_backend": "ray"}, {}, {}, False),
    # structured output backends outside the release's V1 list
    ("0.9.2", {"guided_decoding_backend": "outlines"}, {}, {}, False),
    ("0.10.0", {"guided_decoding_backend": "outlines"}, {}, {}, True),
    ("0.8.1", {"guided_decoding_backend": "guidance"}, {}, {}, False),
    ("0.8.2", {"guided_decoding_backend": "guidance"}, {}, {}, True),
    ("0.8.5", {"quantization": "gguf"}, {}, {}, False),
    ("0.8.2", {"quantization": "bitsandbytes"}, {}, {}, False),
    ("0.8.3", {"quantization": "bitsandbytes"}, {}, {}, True),
    # a pooling model or task on 0.8.0-0.9.1
    ("0.9.1", {}, {}, {"pooling": True}, False),
    ("0.9.2", {}, {}, {"pooling": True}, True),
    ("0.9.0", {"task": "embed"}, {}, {}, False),
    # a flag the audit could not read: its value is unknown
    ("0.9.0", {}, {}, {"unread": ["kv_cache_dtype"]}, False),
    ("0.9.0", {}, {}, {"unread": ["max_model_len"]}, True),
    ("0.9.0", {}, {"VLLM_ATTENTION_BACKEND": "XFORMERS"}, {}, False),
    ("0.9.0", {}, {"VLLM_ATTENTION_BACKEND": "FLASH_ATTN"}, {}, True),
    # VLLM_USE_V1=1: these raise NotImplementedError (`_raise_or_fallback`) or run V1, never V0
    ("0.9.0", {"dtype": "float32"}, {"VLLM_USE_V1": "1"}, {}, True),
])
def test_flags_the_oracle_falls_back_for_leave_v1_uncertain(version, args, env, site, sure):
    assert v1_certain(version, env, 8.0, _QWEN, {"args": args, "site": site}) is sure


def test_mamba_state_falls_back_on_092_to_0101():
    # 0.9.2 vllm/engine/arg_utils.py:1404 `_warn_or_fallback(feature_name="Mamba")`; 0.10.2 drops it
    assert v1_certain("0.9.2", {}, 8.0, "BambaForCausalLM", {}) is False
    assert v1_certain("0.10.2", {}, 8.0, "BambaForCausalLM", {}) is True


def test_engine_core_p0_needs_a_v1_the_flags_keep(tmp_path):
    # L35 on an A100 with vLLM 0.9.0 is a P0 only while no flag sends the engine to V0
    (tmp_path / "requirements.txt").write_text("vllm==0.9.0\n")
    (tmp_path / "gen.py").write_text(_MODULE_LEVEL.replace('Instruct")', 'Instruct", dtype="float32")'))
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert next(r for r in sr.results if r.check.id == "L35").priority == "P1"


@pytest.mark.parametrize("version,kv,env,cc,sure", [
    # review20: the oracle's own FP8 KV test (0.8.2 vllm/engine/arg_utils.py:1561-1572, 0.9.2 :1366-1380):
    # FlashAttention 3 on compute capability 9.x takes an FP8 cache, with VLLM_ATTENTION_BACKEND unset
    ("0.8.1", "fp8", {}, 9.0, False),                                    # 0.8.0-0.8.1: any non-auto dtype
    ("0.8.2", "fp8", {}, 9.0, True),
    ("0.9.2", "fp8_e4m3", {}, 9.0, True),
    ("0.9.2", "fp8", {}, 8.0, False),                                    # FA2: no FP8
    ("0.9.2", "fp8", {"VLLM_FLASH_ATTN_VERSION": "2"}, 9.0, False),
    ("0.9.2", "fp8", {"VLLM_ATTENTION_BACKEND": "FLASH_ATTN"}, 9.0, False),  # set at all: will_use_fa is False
    ("0.9.2", "fp8", {"VLLM_ATTENTION_BACKEND": "FLASH_ATTN_VLLM_V1"}, 9.0, True),
    ("0.10.0", "fp8", {}, 10.0, False),                                  # Blackwell passes from 0.10.1 only
    ("0.10.1", "fp8", {}, 10.0, True),                                   # cuda.py:498 is_device_capability(100)
    ("0.10.1", "fp8", {}, 10.3, False),
    ("0.10.2", "fp8", {}, 9.0, True),                                    # cuda.py:522, MLA or not
    ("0.10.2", "fp8", {"VLLM_ATTENTION_BACKEND": "FLASHINFER"}, 9.0, False),  # not modelled: uncertain
])
def test_fp8_kv_cache_keeps_v1_where_the_release_oracle_does(version, kv, env, cc, sure):
    assert v1_certain(version, env, cc, _QWEN, {"args": {"kv_cache_dtype": kv}, "site": {}}) is sure


@pytest.mark.parametrize("version,backend,sure", [
    # review20: each release's V1_BACKENDS (0.8.0 arg_utils.py:1567 … 0.10.2 :1502)
    ("0.8.1", "TRITON_ATTN_VLLM_V1", False), ("0.8.2", "TRITON_ATTN_VLLM_V1", True),
    ("0.8.4", "FLASHINFER", False), ("0.8.5", "FLASHINFER", True),
    ("0.9.0", "FLEX_ATTENTION", False), ("0.9.1", "FLEX_ATTENTION", True),
    ("0.10.0", "XFORMERS_VLLM_V1", False), ("0.10.1", "XFORMERS_VLLM_V1", True),
    ("0.10.2", "XFORMERS", False), ("0.9.0", "", False),                 # set to "": envs.is_set, not a V1 name
])
def test_attention_backend_variable_against_the_release_list(version, backend, sure):
    assert v1_certain(version, {"VLLM_ATTENTION_BACKEND": backend}, 8.0, _QWEN, {"args": {}, "site": {}}) is sure
