"""raises16: start-up refusals of vLLM 0.21–0.34 read from a launch's flags and environment, checked end to
end on a small project (docs/startup-raises.md): L264 --grpc-port without the Rust frontend or beside
options validate_grpc_port_arg refuses (0.32.0+), L265 a --reasoning-effort-map that is not an object of
strings or names unknown efforts (0.33.0+), L266 a KV connector with
PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (0.21.0+), L267 CUDA-graph capture sizes _set_cudagraph_sizes
refuses (0.11.1+), L268 suffix-decoding values out of range (0.11.1–0.33.x), L269 --kv-sharing-fast-prefill
beside an EAGLE-style drafter (0.10.2+), L270 an NCCL EPLB communicator with async EPLB (0.24.0+), L271
prefetch offloading without a group size (0.17.0+), L252's partial-prefill counts, L272 cudagraph_mode beside the
deprecated use_cudagraph / full_cuda_graph (0.10.1–0.11.0), L273 a non-MLA backend forced for an MLA model on
ROCm (0.11.0–0.14.x), L274 --enable-prompt-embeds on an encoder-decoder model (0.29.0+), L275 a compilation mode
that names no CompilationMode (0.11.1+), L276 microbatch token thresholds below the microbatch count (0.30.0+),
L277 a KDA prefill backend for the other GPU platform (0.30.0+). Each with a control that starts."""
from __future__ import annotations

import pytest

# the small project audited end to end and its result per check, as raises13 wrote them
from test_startup_raises15 import _check

_NIXL = "--kv-transfer-config '{\"kv_connector\": \"NixlConnector\", \"kv_role\": \"kv_both\"}'"


@pytest.mark.parametrize(("vllm", "cmd", "want", "words"), [
    ("0.34.0", "VLLM_USE_RUST_FRONTEND=1 vllm serve Qwen/Qwen3-8B --grpc --grpc-port 50051", "P0", "mutually exclusive"),
    ("0.32.0", "VLLM_USE_RUST_FRONTEND=0 vllm serve Qwen/Qwen3-8B --grpc-port 50051", "P0", "requires VLLM_USE_RUST_FRONTEND=1"),
    ("0.33.0", "VLLM_USE_RUST_FRONTEND=1 vllm serve Qwen/Qwen3-8B --grpc-port 50051 --headless", "P0", "remove --headless"),
    ("0.34.0", "VLLM_USE_RUST_FRONTEND=1 vllm serve Qwen/Qwen3-8B --grpc-port 8000", "P0", "must differ from --port"),
    ("0.34.0", "vllm serve Qwen/Qwen3-8B --grpc-port 50051", "P1", "requires VLLM_USE_RUST_FRONTEND=1"),  # may be set outside
    ("0.34.0", "VLLM_USE_RUST_FRONTEND=1 vllm serve Qwen/Qwen3-8B --grpc-port 50051 --port 9000", None, None),
])
def test_grpc_port(cli, write_project, vllm, cmd, want, words):
    got = _check(cli, write_project, vllm, cmd, "L264")
    assert got.get("priority") == want, got
    if words:
        assert words in got["reason"]


@pytest.mark.parametrize(("vllm", "effort_map", "want"), [
    ("0.34.0", '{"extreme": "high"}', "P0"),
    ("0.33.0", '["high"]', "P0"),
    ("0.34.0", '{"xhigh": "high", "max": "high"}', None),
])
def test_reasoning_effort_map(cli, write_project, vllm, effort_map, want):
    got = _check(cli, write_project, vllm, f"vllm serve Qwen/Qwen3-8B --reasoning-effort-map '{effort_map}'", "L265")
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "cmd", "want"), [
    ("0.25.0", f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve Qwen/Qwen3-8B {_NIXL}", "P0"),
    ("0.21.0", f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve Qwen/Qwen3-8B {_NIXL} --enable-sleep-mode", None),
    ("0.30.0", f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve Qwen/Qwen3-8B {_NIXL} --enable-cumem-allocator", None),
    ("0.20.0", f"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve Qwen/Qwen3-8B {_NIXL}", None),  # not checked yet
])
def test_kv_connector_expandable_segments(cli, write_project, vllm, cmd, want):
    got = _check(cli, write_project, vllm, cmd, "L266")
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "flags", "gpu", "want", "words"), [
    ("0.30.0", "--cudagraph-capture-sizes 1 2 4 8 --max-cudagraph-capture-size 16", "H100 x1", "P0", "(=16) should be consistent"),
    ("0.13.0", "-cc '{\"cudagraph_capture_sizes\": []}'", "H100 x1", "P0", "at least one element"),
    ("0.34.0", "--max-cudagraph-capture-size 0", "H100 x1", "P0", "greater than or equal to 1"),
    ("0.30.0", "--max-cudagraph-capture-size 0 --enforce-eager", "H100 x1", None, None),
    ("0.30.0", "--cudagraph-capture-sizes 1 2 4 8 --max-cudagraph-capture-size 8", "H100 x1", None, None),
    ("0.30.0", "--tensor-parallel-size 2 --cudagraph-capture-sizes 1 2 4 8 --max-cudagraph-capture-size 16", "H100 x2", "P1", None),
    # a size above the budget vLLM picks itself (estimated): which sizes are kept is vLLM's call
    ("0.30.0", "--cudagraph-capture-sizes 1 2 4 8 16384 --max-cudagraph-capture-size 16384", "H100 x1", "P1", None),
    ("0.30.0", "--cudagraph-capture-sizes 1 2 4 8 16384 --max-cudagraph-capture-size 16384 --max-num-batched-tokens 8192",
     "H100 x1", "P0", "(=16384) should be consistent"),
])
def test_cudagraph_capture_sizes(cli, write_project, vllm, flags, gpu, want, words):
    got = _check(cli, write_project, vllm, f"vllm serve Qwen/Qwen3-8B {flags}", "L267", gpu)
    assert got.get("priority") == want, got
    if words:
        assert words in got["reason"]


_EAGLE3 = ('--speculative-config \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", '
           '"num_speculative_tokens": 3}\'')


@pytest.mark.parametrize(("vllm", "cmd", "check", "want"), [
    ("0.20.0", "vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"suffix\", \"suffix_decoding_min_token_prob\": 5}'",
     "L268", "P0"),
    ("0.20.0", "vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"suffix\", \"suffix_decoding_max_cached_requests\": 0}'",
     "L268", None),
    ("0.34.0", "vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"suffix\", \"suffix_decoding_min_token_prob\": 5}'",
     "L268", "P0"),  # 0.34.0 checks them in SuffixSpeculatorConfig.configure (v1/worker/gpu/spec_decode/suffix/config.py)
    ("0.20.0", f"vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-sharing-fast-prefill {_EAGLE3}", "L269", "P0"),
    ("0.20.0", "vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-sharing-fast-prefill", "L269", None),
])
def test_spec_values(cli, write_project, vllm, cmd, check, want):
    got = _check(cli, write_project, vllm, cmd, check)
    assert got.get("priority") == want, got


_DSV2 = "vllm serve deepseek-ai/DeepSeek-V2-Lite --tensor-parallel-size 2 --enable-expert-parallel --enable-eplb"


@pytest.mark.parametrize(("vllm", "cmd", "check", "want"), [
    ("0.30.0", f"{_DSV2} --eplb-config '{{\"communicator\": \"torch_nccl\"}}'", "L270", "P0"),
    ("0.30.0", f"{_DSV2} --eplb-config '{{\"communicator\": \"torch_nccl\", \"use_async\": false}}'", "L270", None),
    ("0.23.0", f"{_DSV2} --eplb-config '{{\"communicator\": \"pynccl\"}}'", "L270", None),  # no such check yet
    # pydantic reads the string "false" as False: synchronous EPLB, which takes any communicator
    ("0.30.0", f"{_DSV2} --eplb-config '{{\"communicator\": \"torch_nccl\", \"use_async\": \"false\"}}'", "L270", None),
    ("0.20.0", "vllm serve Qwen/Qwen3-8B --offload-backend prefetch", "L271", "P0"),
    ("0.20.0", "vllm serve Qwen/Qwen3-8B --offload-backend prefetch --offload-group-size 8 --offload-num-in-group 2", "L271", None),
])
def test_eplb_and_offload_values(cli, write_project, vllm, cmd, check, want):
    got = _check(cli, write_project, vllm, cmd, check, "H100 x2")
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "cmd", "check", "gpu", "want"), [
    ("0.20.0", "vllm serve Qwen/Qwen3-8B --max-num-partial-prefills 2 --max-long-partial-prefills 4", "L252", "H100 x1", "P0"),
    ("0.10.1.1", "vllm serve Qwen/Qwen3-8B --max-num-partial-prefills 0", "L252", "H100 x1", "P0"),
    ("0.20.0", "vllm serve Qwen/Qwen3-8B --max-num-partial-prefills 4 --max-long-partial-prefills 2", "L252", "H100 x1", None),
    ("0.11.0", "vllm serve Qwen/Qwen3-8B -O '{\"cudagraph_mode\": \"FULL_AND_PIECEWISE\", \"full_cuda_graph\": true}'", "L272",
     "H100 x1", "P0"),
    ("0.11.0", "vllm serve Qwen/Qwen3-8B -O '{\"cudagraph_mode\": \"FULL_AND_PIECEWISE\"}'", "L272", "H100 x1", None),
    ("0.13.0", "VLLM_ATTENTION_BACKEND=TRITON_ATTN vllm serve deepseek-ai/DeepSeek-V2-Lite-Chat --trust-remote-code", "L273",
     "MI300X x1", "P0"),
    ("0.13.0", "VLLM_ATTENTION_BACKEND=TRITON_ATTN vllm serve Qwen/Qwen3-8B", "L273", "MI300X x1", None),
    # VLLM_MLA_DISABLE=1: use_mla is false, the model takes the plain-attention path where TRITON_ATTN is valid
    ("0.13.0", "VLLM_MLA_DISABLE=1 VLLM_ATTENTION_BACKEND=TRITON_ATTN vllm serve deepseek-ai/DeepSeek-V2-Lite-Chat "
     "--trust-remote-code", "L273", "MI300X x1", None),
    # -1 (auto, 0.14.0+) is the model's own length, not a length below the threshold
    ("0.30.0", "vllm serve Qwen/Qwen3-8B --max-model-len -1 --long-prefill-token-threshold 4096", "L252", "H100 x1", None),
    ("0.30.0", "vllm serve Qwen/Qwen3-8B --max-model-len 2048 --long-prefill-token-threshold 4096", "L252", "H100 x1", "P0"),
])
def test_scheduler_compilation_rocm(cli, write_project, vllm, cmd, check, gpu, want):
    got = _check(cli, write_project, vllm, cmd, check, gpu)
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "cmd", "check", "want"), [
    ("0.30.0", "vllm serve openai/whisper-large-v3 --enable-prompt-embeds", "L274", "P0"),
    ("0.30.0", "vllm serve Qwen/Qwen3-8B --enable-prompt-embeds", "L274", None),
    ("0.30.0", "vllm serve Qwen/Qwen3-8B --compilation-config '{\"mode\": \"max-autotune\"}'", "L275", "P0"),
    ("0.30.0", "vllm serve Qwen/Qwen3-8B --compilation-config '{\"mode\": \"vllm_compile\"}'", "L275", None),
])
def test_model_and_compilation_values(cli, write_project, vllm, cmd, check, want):
    got = _check(cli, write_project, vllm, cmd, check)
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "cmd", "check", "gpu", "want"), [
    ("0.30.0", "vllm serve Qwen/Qwen3-8B --ubatch-size 64", "L276", "H100 x1", "P0"),
    ("0.30.0", "vllm serve Qwen/Qwen3-8B --ubatch-size 4", "L276", "H100 x1", None),
    ("0.30.0", "vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --trust-remote-code --kda-prefill-backend fused", "L277",
     "H100 x1", "P0"),
    ("0.30.0", "vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --trust-remote-code --kda-prefill-backend flashkda", "L277",
     "H100 x1", None),
    # no GPU named and nothing showing a platform: the audit's default CUDA is a guess, and fused says ROCm
    ("0.30.0", "vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct --trust-remote-code --kda-prefill-backend fused", "L277",
     "none", "P1"),
])
def test_microbatch_and_kda_backends(cli, write_project, vllm, cmd, check, gpu, want):
    got = _check(cli, write_project, vllm, cmd, check, gpu)
    assert got.get("priority") == want, got
