"""raises15: start-up refusals of vLLM 0.19–0.34 read from a launch's flags, JSON configs, environment
and model, checked end to end on a small project (docs/startup-raises.md): L190 custom_ops with two base
modes or an op both enabled and disabled, L194 elastic EP beside external / hybrid load balancing and
its maximum DP size, L256 the torch_shm multimodal IPC, L257 the pooler_config pairs PoolerConfig
refuses, L258 VLLM_USE_V2_MODEL_RUNNER=1 beside features the V2 runner lacks (public report:
intel/intel-xpu-backend-for-triton#7158), L259 --max-num-active-seqs above --max-num-seqs, L260 a
negative --sse-keep-alive-interval, L128 --async-scheduling beside disable_padded_drafter_batch, L261
--dcp-comm-backend a2a without DCP, L262 --mamba-ssu-algorithm off the FlashInfer Mamba backend, L263 --enable-dbo
without a DeepEP / NIXL EP all2all backend. Each with a control that starts."""
from __future__ import annotations

import json

import pytest

# the small project audited end to end and its result per check, as raises13 wrote them
from test_startup_raises13 import _audit, _result


def _check(cli, write_project, vllm: str, cmd: str, check: str, gpu: str = "H100 x1") -> dict:
    site = _audit(cli, write_project, {"requirements.txt": f"vllm=={vllm}\n", "serve.sh": cmd + "\n"}, gpu)
    got = _result(site, check)
    assert got is not None, site["checks"]
    return got


def _cc(ops: list[str]) -> str:
    return "--compilation-config '" + json.dumps({"custom_ops": ops}) + "'"


@pytest.mark.parametrize(("vllm", "ops", "want", "words"), [
    ("0.20.0", ["none", "all"], "P0", "Can only specify 'none' or 'all'"),
    ("0.30.0", ["+rms_norm", "-rms_norm"], "P0", "cannot both enable and disable"),
    ("0.30.0", ["none", "+rms_norm", "-silu_and_mul"], None, None),
])
def test_custom_ops_modes(cli, write_project, vllm, ops, want, words):
    got = _check(cli, write_project, vllm, f"vllm serve Qwen/Qwen3-8B {_cc(ops)}", "L190")
    assert got.get("priority") == want, got
    if words:
        assert words in got["reason"]


@pytest.mark.parametrize(("vllm", "flags", "want"), [
    ("0.20.0", "--data-parallel-size 4 --data-parallel-external-lb --data-parallel-rank 0", "P0"),
    ("0.34.0", "--data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-hybrid-lb", "P0"),
    ("0.30.0", "--data-parallel-size 8 --elastic-ep-max-dp-size 4", "P0"),
    ("0.34.0", "--data-parallel-size 4 --data-parallel-external-lb --data-parallel-rank 0", None),  # 0.33.0+ takes it
])
def test_elastic_ep_load_balancing(cli, write_project, vllm, flags, want):
    got = _check(cli, write_project, vllm, "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 1 "
                 f"--enable-expert-parallel --enable-eplb --enable-elastic-ep {flags}", "L194", "H100 x8")
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "cmd", "want"), [
    ("0.20.0", "vllm serve Qwen/Qwen3-VL-8B-Instruct --tensor-parallel-size 2 --mm-tensor-ipc torch_shm", "P0"),
    ("0.34.0", "VLLM_WORKER_MULTIPROC_METHOD=fork vllm serve Qwen/Qwen3-VL-8B-Instruct --mm-tensor-ipc torch_shm", "P0"),
    ("0.30.0", "vllm serve Qwen/Qwen3-VL-8B-Instruct --mm-tensor-ipc torch_shm", None),  # the CLI sets spawn
    ("0.30.0", "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --mm-tensor-ipc torch_shm", None),  # text-only
])
def test_torch_shm_ipc(cli, write_project, vllm, cmd, want):
    got = _check(cli, write_project, vllm, cmd, "L256", "H100 x2")
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "cfg", "want"), [
    ("0.30.0", {"logit_sigma": 0}, "P0"),
    ("0.21.0", {"logit_scale": 2.0, "logit_sigma": 0.5}, "P0"),
    ("0.30.0", {"pooling_type": "MEAN", "logit_sigma": 2.0}, None),
])
def test_pooler_config_values(cli, write_project, vllm, cfg, want):
    got = _check(cli, write_project, vllm, f"vllm serve BAAI/bge-m3 --pooler-config '{json.dumps(cfg)}'", "L257")
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "env", "model", "flags", "want", "words"), [
    ("0.20.0", "1", "Qwen/Qwen3-Next-80B-A3B-Instruct", "", "P0", "VLLM_USE_V2_MODEL_RUNNER does not yet support: hybrid/mamba"),
    ("0.25.0", "1", "Qwen/Qwen3-Next-80B-A3B-Instruct", "", None, None),  # the V2 runner runs hybrid models from 0.23.0
    ("0.27.0", "1", "Qwen/Qwen3-8B", "--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 4, "
                                     "\"prompt_lookup_max\": 4}'", "P0", "does not yet support"),
    ("0.25.0", "1", "Qwen/Qwen3-8B", "--enable-prompt-embeds", "P0", "prompt embeds"),
])
def test_v2_model_runner(cli, write_project, vllm, env, model, flags, want, words):
    got = _check(cli, write_project, vllm, f"VLLM_USE_V2_MODEL_RUNNER={env} vllm serve {model} {flags}", "L258", "H200 x1")
    assert got.get("priority") == want, got
    if words:
        assert words in got["reason"]


@pytest.mark.parametrize(("vllm", "flags", "check", "want"), [
    ("0.34.0", "--max-num-seqs 128 --max-num-active-seqs 256", "L259", "P0"),
    ("0.30.0", "--sse-keep-alive-interval -1", "L260", "P0"),
    ("0.30.0", "--sse-keep-alive-interval 15", "L260", None),
])
def test_scheduler_and_server_values(cli, write_project, vllm, flags, check, want):
    got = _check(cli, write_project, vllm, f"vllm serve Qwen/Qwen3-8B {flags}", check)
    assert got.get("priority") == want, got


@pytest.mark.parametrize(("vllm", "cmd", "check", "want"), [
    ("0.20.0", "vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling --speculative-config "
               "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3, "
               "\"disable_padded_drafter_batch\": true}'", "L128", "P0"),
    ("0.20.0", "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
               "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3, "
               "\"disable_padded_drafter_batch\": true}'", "L128", None),  # left unset, vLLM turns it off
    ("0.20.0", "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --dcp-comm-backend a2a", "L261", "P0"),
    ("0.30.0", "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 --mamba-ssu-algorithm horizontal", "L262", "P0"),
    ("0.30.0", "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 --mamba-ssu-algorithm horizontal "
               "--mamba-backend flashinfer", "L262", None),
    ("0.30.0", "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-expert-parallel --enable-dbo", "L263", "P0"),
    ("0.30.0", "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --enable-expert-parallel --enable-dbo "
               "--all2all-backend deepep_low_latency", "L263", None),
    ("0.30.0", "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --data-parallel-size 2 --data-parallel-rank 0 "
               "--enable-fault-tolerance --api-server-count 4", "L248", "P0"),
])
def test_spec_dcp_mamba_flags(cli, write_project, vllm, cmd, check, want):
    got = _check(cli, write_project, vllm, cmd, check, "H100 x8")
    assert got.get("priority") == want, got
