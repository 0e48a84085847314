"""L236: vLLM 0.2.0–0.2.1 refuse a sequence whose float32 attention logits (length + block_size − 1, 4 bytes a
token) exceed the GPU's opt-in shared memory per thread block (vllm/worker/worker.py 0.2.1:149/383): 16K on a
T4 (64 KiB), about 25K on Ampere consumer and Ada cards (99 KiB); the config's sliding window, where shorter,
is what is checked; 0.2.2's PagedAttention V2 has no such limit."""
from __future__ import annotations

import json

import pytest


def _l236(cli, write_project, vllm: str, gpu: str, model: str, extra: str = ""):
    root = write_project({"requirements.txt": f"vllm=={vllm}\n",
                          "run.py": f'from vllm import LLM\nllm = LLM(model="{model}", dtype="half"{extra})\n'})
    code, out, err = cli("audit", str(root), "--gpu", gpu, "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    if "L236" in site["not_applicable"]:
        return {"status": "not_applicable"}, site
    got = [r for r in site["checks"] if r["id"] == "L236"]
    return got[0] if got else None, site


@pytest.mark.parametrize(("vllm", "gpu", "model", "extra", "want"), [
    ("0.2.1", "T4", "codellama/CodeLlama-7b-hf", "", "recommended"),  # (16384 + 15) × 4 > 65536
    ("0.2.0", "T4", "codellama/CodeLlama-7b-hf", ", max_model_len=15360", "enabled"),
    ("0.2.1", "RTX-4090", "codellama/CodeLlama-7b-hf", "", "enabled"),  # 99 KiB holds 25329 tokens
    ("0.2.1", "RTX-4090", "mistralai/Mistral-7B-v0.1", "", "enabled"),  # its 4096-token window is what is checked
    ("0.2.2", "T4", "codellama/CodeLlama-7b-hf", "", "not_applicable"),  # PagedAttention V2
])
def test_the_sequence_must_fit_one_blocks_shared_memory(cli, write_project, vllm, gpu, model, extra, want):
    got, site = _l236(cli, write_project, vllm, gpu, model, extra)
    assert got is not None and got["status"] == want, got
    if want == "recommended":
        assert got["priority"] == "P0" and "65536" in got["reason"]
        assert any(c["target"] == "max_model_len" and c["value"] == 15360 for c in site["changes"]), site["changes"]


def test_a_window_of_unknown_size_is_not_judged():
    # the checked length is min(max_model_len, window): without the window's size the check cannot say
    from vllm_kb.engine.check.startup_smem import smem_facts
    t4 = {"compute_capability": 7.5}
    assert smem_facts({"sliding_window": True}, {}, t4, "0.2.1", 32768) == {}
    assert smem_facts({"sliding_window": True, "sliding_window_size": 4096}, {}, t4, "0.2.1", 32768)["smem_refused"] is False
    assert smem_facts({"sliding_window": False}, {}, t4, "0.2.1", 32768)["smem_refused"] is True
