"""raises13: eight start-up refusals vLLM raises from a launch's own flags, environment and platform
while it builds the engine configuration (docs/startup-raises.md). No public report of these was
found (the issues corpus, 2025–2026), so each is checked here end to end on a small project:
L238 DCP that does not divide TP, L239 the DualChunkFlashAttention backend without eager mode or
off CUDA, L240 an object-storage model with a load format the Run:ai streamer does not cover,
L241 --enable-eplb on a platform without EPLB; L242–L244 the V0/V1 refusals of 0.8–0.10 (long LoRA on V1,
LoRA with CPU offloading on V0, the sha256 prefix hash on V0); L245 a block size above 32 on CUDA (0.6.6)."""
from __future__ import annotations

import json

import pytest


def _audit(cli, write_project, files: dict[str, str], gpu: str = "H100 x8"):
    root = write_project(files)
    code, out, err = cli("audit", str(root), "--gpu", gpu, "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return site


def _result(site: dict, check: str) -> dict | None:
    if check in site["not_applicable"]:
        return {"status": "not_applicable"}
    got = [r for r in site["checks"] if r["id"] == check]
    return got[0] if got else None


def _change(site: dict, target: str) -> dict | None:
    return next((c for c in site["changes"] if c["target"] == target), None)


@pytest.mark.parametrize(("vllm", "tp", "dcp", "want", "fit"), [
    ("0.11.0", 8, 3, "recommended", 2),  # the assert of create_engine_config
    ("0.20.0", 4, 8, "recommended", 4),  # ParallelConfig's ValueError
    ("0.34.0", 6, 4, "recommended", 3),
    ("0.20.0", 8, 4, "not_applicable", None),
])
def test_dcp_must_divide_tp(cli, write_project, vllm, tp, dcp, want, fit):
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh":
                  f"vllm serve deepseek-ai/DeepSeek-V2-Lite-Chat --tensor-parallel-size {tp} --decode-context-parallel-size {dcp}\n"})
    got = _result(site, "L238")
    assert got is not None and got["status"] == want, got
    if want == "recommended":
        assert got["priority"] == "P0" and "must be divisible by" in got["reason"]
        change = _change(site, "decode_context_parallel_size")
        assert change is not None and change["value"] == fit, site["changes"]


_DCA = "VLLM_ATTENTION_BACKEND=DUAL_CHUNK_FLASH_ATTN VLLM_USE_V1=0 vllm serve Qwen/Qwen2.5-7B-Instruct-1M --max-model-len 65536"


@pytest.mark.parametrize(("check", "vllm", "line", "want", "change"), [
    ("L239", "0.10.1.1", _DCA, "recommended", ("set", "enforce_eager", True)),
    ("L239", "0.10.1.1", _DCA + " --enforce-eager", "enabled", None),  # the model card's command
    ("L239", "0.11.0", _DCA, "not_applicable", None),
    ("L240", "0.20.0", "vllm serve s3://models/Qwen3-8B --load-format safetensors", "recommended", ("unset", "load_format", None)),
    ("L240", "0.11.0", "vllm serve gs://models/Qwen3-8B --load-format runai_streamer_sharded", "recommended",
     ("unset", "load_format", None)),
    ("L240", "0.20.0", "vllm serve s3://models/Qwen3-8B", "enabled", None),  # auto becomes runai_streamer
    ("L240", "0.20.0", "vllm serve Qwen/Qwen3-8B --load-format safetensors", "not_applicable", None),
])
def test_backend_and_load_format(cli, write_project, check, vllm, line, want, change):
    """L239: the DualChunkFlashAttention asserts; L240: an object-storage model's load format."""
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh": line + "\n"})
    got = _result(site, check)
    assert got is not None and got["status"] == want, got
    if change:
        assert got["priority"] == "P0", got
        op, target, value = change
        made = _change(site, target)
        assert made is not None and made["op"] == op and made.get("value") == value, site["changes"]


@pytest.mark.parametrize(("vllm", "env", "want", "priority"), [
    # XPU runs EPLB from 0.31.0; a platform read from the environment alone keeps P1 (evaluate.py)
    ("0.20.0", "ZE_AFFINITY_MASK=0,1 ", "recommended", "P1"),
    ("0.31.0", "ZE_AFFINITY_MASK=0,1 ", "enabled", None),
    ("0.11.0+cpu", "", "recommended", "P0"),  # the CPU build the pin proves
    ("0.11.0", "HIP_VISIBLE_DEVICES=0,1 ", "recommended", "P1"),  # ROCm from 0.11.1; AMD's builds may differ
    ("0.11.1", "HIP_VISIBLE_DEVICES=0,1 ", "enabled", None),
    ("0.20.0", "", "enabled", None),
])
def test_eplb_platform(cli, write_project, vllm, env, want, priority):
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh":
                  f"{env}vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 2 --enable-expert-parallel --enable-eplb\n"},
                  gpu="none")
    got = _result(site, "L241")
    assert got is not None and got["status"] == want, got
    if want == "recommended":
        assert got["priority"] == priority and "Expert parallelism load balancing is only supported" in got["reason"]


@pytest.mark.parametrize(("check", "vllm", "line", "want", "words"), [
    ("L242", "0.8.5", "vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --long-lora-scaling-factors 4.0",
     "recommended", "V1 LoRA does not support long LoRA"),
    ("L242", "0.8.5", "VLLM_USE_V1=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --long-lora-scaling-factors 4.0",
     "enabled", None),
    ("L243", "0.10.0", "VLLM_USE_V1=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --cpu-offload-gb 8",
     "recommended", "V0 LoRA does not support CPU offload"),
    ("L243", "0.10.0", "vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --cpu-offload-gb 8", "enabled", None),
    ("L244", "0.9.2", "VLLM_USE_V1=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-prefix-caching --prefix-caching-hash-algo sha256",
     "recommended", "sha256 is not supported for prefix caching in V0 engine"),
    ("L244", "0.9.2", "vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-prefix-caching --prefix-caching-hash-algo sha256",
     "enabled", None),
    ("L245", "0.6.6", "vllm serve meta-llama/Llama-3.1-8B-Instruct --block-size 128", "recommended",
     "CUDA Paged Attention kernel only supports block sizes up to 32"),
    ("L245", "0.6.6", "vllm serve meta-llama/Llama-3.1-8B-Instruct --block-size 32", "not_applicable", None),
    ("L245", "0.7.0", "vllm serve meta-llama/Llama-3.1-8B-Instruct --block-size 128", "not_applicable", None),
])
def test_engine_version_and_block_refusals(cli, write_project, check, vllm, line, want, words):
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh": line + "\n"}, gpu="H100")
    got = _result(site, check)
    assert got is not None and got["status"] == want, got
    if want == "recommended":
        assert got["priority"] == "P0" and words in got["reason"], got
