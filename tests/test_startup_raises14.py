"""raises14: start-up refusals vLLM raises from a launch's own flags, model and GPU while it builds the
engine configuration (docs/startup-raises.md), checked end to end on a small project: L246 a TurboQuant
cache on a hybrid model (0.20.x; public reports: vLLM PR #38479's comments, club-3090 #13, and the realcase
turboquant-hybrid--vllm-pr38479), L247 an NVFP4 cache on an MLA model, L248 the data-parallel launch
options across nodes, L249 stochastic rounding of the Mamba cache, L250 routed experts under PP or
context parallelism, L251 the per-request metrics flags, L252 the partial-prefill limits; and the selector
no longer refuses a cache dtype its table never evaluated (a TurboQuant cache gave a false L71 P0)."""
from __future__ import annotations

import pytest

# the small project audited end to end and its result per check, as raises13 wrote them
from test_startup_raises13 import _audit, _result


def _p0s(site: dict) -> list[str]:
    return [r["id"] for r in site["checks"] if r.get("priority") == "P0"]


@pytest.mark.parametrize(("vllm", "model", "kv", "want"), [
    ("0.20.0", "Qwen/Qwen3.6-27B", "turboquant_k8v4", "recommended"),
    ("0.20.2", "Qwen/Qwen3-Next-80B-A3B-Instruct", "turboquant_4bit_nc", "recommended"),
    ("0.20.0", "Qwen/Qwen3-32B", "turboquant_k8v4", "enabled"),  # every layer attention
    ("0.21.0", "Qwen/Qwen3.6-27B", "turboquant_k8v4", "not_applicable"),  # vLLM #39931
])
def test_turboquant_hybrid(cli, write_project, vllm, model, kv, want):
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh":
                  f"vllm serve {model} --tensor-parallel-size 2 --max-model-len 32768 --kv-cache-dtype {kv}\n"}, "A100-80GB x2")
    got = _result(site, "L246")
    assert got is not None and got["status"] == want, got
    if want == "recommended":
        assert got["priority"] == "P0" and "not supported for hybrid" in got["reason"]
    else:  # the TurboQuant backend takes its own cache dtypes: no selector refusal
        assert "L71" not in _p0s(site) and "L246" not in _p0s(site), site["checks"]


@pytest.mark.parametrize(("vllm", "model", "kv", "env", "want"), [
    ("0.25.0", "deepseek-ai/DeepSeek-V3", "nvfp4", "", "recommended"),
    ("0.34.0", "deepseek-ai/DeepSeek-V3", "nvfp4", "", "recommended"),
    ("0.25.0", "deepseek-ai/DeepSeek-V3", "nvfp4", "VLLM_MLA_DISABLE=1 ", "not_applicable"),
    ("0.20.0", "deepseek-ai/DeepSeek-V3", "nvfp4", "", "not_applicable"),
])
def test_nvfp4_cache_on_mla(cli, write_project, vllm, model, kv, env, want):
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh":
                  f"{env}vllm serve {model} --tensor-parallel-size 8 --kv-cache-dtype {kv}\n"}, "B200 x8")
    got = _result(site, "L247")
    assert got is not None and got["status"] == want, got
    if want == "recommended":
        assert got["priority"] == "P0" and "not supported with MLA" in got["reason"]
        # L71 (no MLA backend takes the cache either) unsets it; L247 would write fp8: either starts
        assert any(c["target"] == "kv_cache_dtype" for c in site["changes"]), site["changes"]


_DS, _NEXT, _Q3, _VL = "deepseek-ai/DeepSeek-V3", "Qwen/Qwen3-Next-80B-A3B-Instruct", "Qwen/Qwen3-8B", "Qwen/Qwen2.5-VL-7B-Instruct"
_DP_DS = f"{_DS} --data-parallel-size"
_SR = f"{_NEXT} --enable-mamba-cache-stochastic-rounding"
_RE = f"{_DS} --enable-return-routed-experts"
_PP = f"{_Q3} --max-model-len 16384"
_RW = "--max-model-len 8192 --renderer-num-workers 4"
_NUMA = f"{_Q3} --tensor-parallel-size 2"

# (check, release, GPU, what `vllm serve` gets, status, the words of a P0's reason: "" any P0, None no P0 asked)
REFUSALS = [
    # L248 the data-parallel launch options across nodes; an external rank: its own rank and one local rank,
    # fault tolerance only with one (0.27.0+)
    ("L248", "0.20.0", "H100 x8", f"{_DP_DS} 2 --data-parallel-hybrid-lb --data-parallel-external-lb", "recommended", "cannot both be True"),
    ("L248", "0.34.0", "H100 x8", f"{_DS} --nnodes 2 --node-rank 0 --data-parallel-size 2 --data-parallel-backend ray", "recommended",
     "data-parallel-backend ray"),
    ("L248", "0.13.0", "H100 x8", f"{_DS} --nnodes 3 --node-rank 0 --tensor-parallel-size 8", "recommended", "world size 8"),
    ("L248", "0.30.0", "H100 x8", f"{_DS} --nnodes 2 --node-rank 2 --tensor-parallel-size 8 --data-parallel-size 2", "recommended", "ranks 0 to 1"),
    ("L248", "0.30.0", "H100 x8", f"{_DS} --nnodes 2 --node-rank 1 --tensor-parallel-size 8 --data-parallel-size 2", "not_applicable", None),
    ("L248", "0.30.0", "H100 x8", f"{_DS} --nnodes 2 --node-rank $NODE_RANK --tensor-parallel-size 8 --data-parallel-size 2", "not_applicable", None),
    ("L248", "0.20.0", "H100 x8", f"{_DP_DS} 4 --data-parallel-external-lb", "recommended", "must be specified"),
    ("L248", "0.34.0", "H100 x8", f"{_DP_DS} 4 --data-parallel-rank 1 --data-parallel-size-local 2", "recommended", "local size"),
    ("L248", "0.34.0", "H100 x8", f"{_DP_DS} 4 --data-parallel-rank $RANK --data-parallel-size-local 2", "not_applicable", None),
    ("L248", "0.34.0", "H100 x8", f"{_DP_DS} 4 --data-parallel-external-lb --data-parallel-rank $RANK", "not_applicable", None),
    ("L248", "0.30.0", "H100 x8", f"{_DP_DS} 4 --enable-fault-tolerance", "recommended", "Fault tolerance requires"),
    ("L248", "0.30.0", "H100 x8", f"{_DP_DS} 4 --data-parallel-rank 0 --enable-fault-tolerance", "not_applicable", None),
    # L249 stochastic rounding of the Mamba cache: the SSM cache left at auto for a model whose config hook does
    # not set it; the Triton backend's capability check reaches the flag only from 0.34.0
    ("L249", "0.25.0", "B200 x1", _SR, "recommended", ""),
    ("L249", "0.25.0", "B200 x1", f"{_SR} --mamba-ssm-cache-dtype float32", "recommended", ""),
    ("L249", "0.25.0", "B200 x1", f"{_SR} --mamba-ssm-cache-dtype float16", "enabled", None),
    ("L249", "0.34.0", "H100 x1", f"{_SR} --mamba-ssm-cache-dtype float16", "recommended", ""),
    ("L249", "0.30.0", "H100 x1", f"{_SR} --mamba-ssm-cache-dtype float16", "enabled", None),
    ("L249", "0.34.0", "H100 x1", f"{_SR} --mamba-ssm-cache-dtype float16 --mamba-backend flashinfer", "enabled", None),
    # L250 routed experts under PP or context parallelism (DCP checked from 0.28.0)
    ("L250", "0.25.0", "H100 x8", f"{_RE} --pipeline-parallel-size 2 --tensor-parallel-size 4", "recommended",
     "--enable-return-routed-experts is incompatible"),
    ("L250", "0.30.0", "H100 x8", f"{_RE} --tensor-parallel-size 8 --decode-context-parallel-size 2", "recommended",
     "--enable-return-routed-experts is incompatible"),
    ("L250", "0.25.0", "H100 x8", f"{_RE} --tensor-parallel-size 8 --decode-context-parallel-size 2", "enabled", None),
    ("L250", "0.34.0", "H100 x8", f"{_RE} --tensor-parallel-size 8", "enabled", None),
    # L251 the per-request metrics flags
    ("L251", "0.25.0", "H100 x1", f"{_Q3} --enable-per-request-metrics --disable-log-stats", "recommended", ""),
    ("L251", "0.25.0", "H100 x1", f"{_Q3} --enable-per-request-metrics", "enabled", None),
    ("L251", "0.30.0", "H100 x1", f"{_Q3} --per-request-spec-decode-metrics summary", "recommended", ""),
    ("L251", "0.30.0", "H100 x1", f"{_Q3} --per-request-spec-decode-metrics summary --speculative-config "
     "'{\"method\": \"ngram\", \"num_speculative_tokens\": 3, \"prompt_lookup_max\": 4}'", "enabled", None),
    # L252 the partial-prefill limits (no partial prefills in 0.20.0 without --max-num-partial-prefills)
    ("L252", "0.34.0", "H100 x1", f"{_PP} --long-prefill-token-threshold 32768", "recommended", "cannot be greater than the max_model_len"),
    ("L252", "0.20.0", "H100 x1", f"{_PP} --max-num-partial-prefills 2 --long-prefill-token-threshold 32768", "recommended",
     "cannot be greater than the max_model_len"),
    ("L252", "0.20.0", "H100 x1", f"{_PP} --long-prefill-token-threshold 32768", "enabled", None),
    ("L252", "0.34.0", "H100 x1", f"{_PP} --long-prefill-token-threshold 4096", "enabled", None),
    # L254 renderer workers with the multimodal processor cache (pooling runners only from 0.30.0)
    ("L254", "0.25.0", "H100 x1", f"{_VL} {_RW}", "recommended", "renderer-num-workers"),
    ("L254", "0.25.0", "H100 x1", f"{_VL} {_RW} --mm-processor-cache-gb 0", "not_applicable", None),
    ("L254", "0.25.0", "H100 x1", f"{_Q3} {_RW}", "not_applicable", None),
    ("L254", "0.30.0", "H100 x1", f"{_VL} {_RW}", "not_applicable", None),
    # L255 the NUMA binding values (--no-numa-bind with nodes refused from 0.34.0)
    ("L255", "0.20.0", "H100 x2", f"{_NUMA} --numa-bind-nodes 0 -1", "recommended", ""),
    ("L255", "0.30.0", "H100 x2", f"{_NUMA} --numa-bind-cpus 0:15 16-31", "recommended", ""),
    ("L255", "0.30.0", "H100 x2", f"{_NUMA} --numa-bind-cpus 15-0 16-31", "recommended", ""),
    ("L255", "0.34.0", "H100 x2", f"{_NUMA} --no-numa-bind --numa-bind-nodes 0 1", "recommended", ""),
    ("L255", "0.30.0", "H100 x2", f"{_NUMA} --no-numa-bind --numa-bind-nodes 0 1", "not_applicable", None),
    ("L255", "0.34.0", "H100 x2", f"{_NUMA} --numa-bind-cpus 0-15 16-31", "not_applicable", None),
]


@pytest.mark.parametrize(("check", "vllm", "gpu", "serve", "want", "words"), REFUSALS)
def test_refusal(cli, write_project, check, vllm, gpu, serve, want, words):
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh": f"vllm serve {serve}\n"}, gpu)
    got = _result(site, check)
    assert got is not None and got["status"] == want, got
    if words is not None:
        assert got["priority"] == "P0" and words in got["reason"], got


@pytest.mark.parametrize(("vllm", "tokens", "lora", "want"), [
    ("0.20.0", 8, "--enable-lora", "recommended"),  # 1024 sequences x 9 > 8192 on an H100's serve defaults
    ("0.20.0", 3, "--enable-lora", "enabled"),
    ("0.20.0", 8, "", "not_applicable"),
    ("0.11.0", 8, "--enable-lora", "not_applicable"),
])
def test_lora_spec_token_budget(cli, write_project, vllm, tokens, lora, want):
    spec = f'{{"method": "ngram", "num_speculative_tokens": {tokens}, "prompt_lookup_max": 4}}'
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh":
                  f"vllm serve Qwen/Qwen3-8B {lora} --max-model-len 8192 --speculative-config '{spec}'\n"}, "H100 x1")
    got = _result(site, "L253")
    assert got is not None and got["status"] == want, got
    if want == "recommended":
        assert got["priority"] == "P0" and "Consider increasing max_num_batched_tokens" in got["reason"]
        assert any(c["target"] == "max_num_batched_tokens" and c.get("value") == 9216 for c in site["changes"]), site["changes"]
