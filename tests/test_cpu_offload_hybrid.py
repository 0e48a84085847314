"""L237: vLLM 0.10.2–0.19.x's V1 runner rebuilds its input batch for several KV cache groups only without CPU
weight offloading (gpu_model_runner.py 0.11.0:3738 `assert cpu_offload_gb == 0`), and a hybrid model (attention
beside recurrent-state layers) always has several groups; 0.20.0 dropped the assertion."""
from __future__ import annotations

import json

import pytest


def _l237(cli, write_project, vllm: str, model: str, offload: str, extra: str = ""):
    root = write_project({"requirements.txt": f"vllm=={vllm}\n",
                          "serve.sh": f"vllm serve {model} --cpu-offload-gb {offload} --max-model-len 8192{extra}\n"})
    code, out, err = cli("audit", str(root), "--gpu", "RTX-4090 x2", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    if "L237" in site["not_applicable"]:
        return {"status": "not_applicable"}, site
    got = [r for r in site["checks"] if r["id"] == "L237"]
    return got[0] if got else None, site


@pytest.mark.parametrize(("vllm", "model", "offload", "want"), [
    ("0.11.0", "Qwen/Qwen3.5-35B-A3B", "8", "recommended"),  # 10 attention + 30 gated-delta layers
    ("0.19.1", "Qwen/Qwen3.5-35B-A3B", "8", "recommended"),
    ("0.20.0", "Qwen/Qwen3.5-35B-A3B", "8", "not_applicable"),  # the assertion is gone
    ("0.11.0", "Qwen/Qwen3.5-35B-A3B", "0", "not_applicable"),
    ("0.11.0", "Qwen/Qwen3-32B", "8", "enabled"),  # one KV cache group
])
def test_cpu_offload_stops_a_hybrid_model(cli, write_project, vllm, model, offload, want):
    got, site = _l237(cli, write_project, vllm, model, offload)
    assert got is not None and got["status"] == want, got
    if want == "recommended":
        assert got["priority"] == "P0" and "Cannot re-initialize the input batch" in got["reason"]
        assert any(c["op"] == "unset" and c["target"] == "cpu_offload_gb" for c in site["changes"]), site["changes"]
