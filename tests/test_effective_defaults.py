"""max_num_seqs / max_num_batched_tokens as vLLM sets them at start-up (the catalog's context
defaults), per release, usage context and GPU, and what performance_mode does to them; and
nested values a release rejects reported as value findings."""
from __future__ import annotations

import pytest

from vllm_kb.engine.check.engine_defaults import context_defaults

H100 = {"name": "H100-80GB", "memory_gib": 79.6, "compute_capability": 9.0}
A100 = {"name": "A100-80GB", "memory_gib": 79.2, "compute_capability": 8.0}
L40S = {"name": "L40S", "memory_gib": 44.5, "compute_capability": 8.9}
B200 = {"name": "B200", "memory_gib": 178.0, "compute_capability": 10.0}
SERVE = {"kind": "vllm serve", "serves_http": True}
LLM = {"kind": "LLM()", "serves_http": False}
ENGINE = {"kind": "EngineArgs()", "serves_http": False}


def d(version, site, gpu, args=None):
    return context_defaults({"site": site, "gpu": gpu, "args": args or {}}, version)


@pytest.mark.parametrize("version,site,gpu,seqs,tokens", [
    # 0.8.0–0.8.3: H100/H200 by device name; max_num_seqs 1024 everywhere
    ("0.8.2", SERVE, H100, 1024, 8192),
    ("0.8.2", SERVE, L40S, 1024, 2048),
    ("0.8.2", LLM, A100, 1024, 8192),
    # 0.8.4: max_num_seqs follows the same H100/H200 test
    ("0.8.4", SERVE, L40S, 256, 2048),
    ("0.8.4", LLM, H100, 1024, 16384),
    # 0.8.5: ≥70 GiB, A100 included
    ("0.8.5", SERVE, A100, 1024, 8192),
    ("0.8.5", LLM, L40S, 256, 8192),
    # 0.9.0+: ≥70 GiB but not A100
    ("0.9.0", SERVE, A100, 256, 2048),
    ("0.20.0", LLM, H100, 1024, 16384),
    # 0.28+: ≥160 GiB gets the largest budget in every context
    ("0.28.0", SERVE, B200, 1024, 16384),
    ("0.27.0", SERVE, B200, 1024, 8192),
])
def test_by_release_context_and_gpu(version, site, gpu, seqs, tokens):
    assert d(version, site, gpu) == {"max_num_seqs": seqs, "max_num_batched_tokens": tokens}


def test_engine_args_context_and_unknown_gpu():
    assert d("0.20.0", ENGINE, None) == {"max_num_seqs": 128, "max_num_batched_tokens": 2048}
    assert d("0.8.0", ENGINE, None) == {"max_num_seqs": 1024}  # 0.8.0 sets it for every context
    assert d("0.20.0", SERVE, None) == {}  # the GPU decides; not guessed
    assert d("0.7.3", SERVE, H100) == {}  # V0: nothing decided at start-up here


def test_performance_mode_throughput_doubles_what_is_unset():
    assert d("0.20.0", SERVE, H100, {"performance_mode": "throughput"}) == {"max_num_seqs": 2048, "max_num_batched_tokens": 16384}
    got = d("0.20.0", SERVE, H100, {"performance_mode": "throughput", "max_num_seqs": 64})
    assert got["max_num_batched_tokens"] == 16384 and got["max_num_seqs"] == 1024  # the user's own value stays (args win later)
    assert d("0.16.0", SERVE, H100, {"performance_mode": "throughput"}) == {"max_num_seqs": 1024, "max_num_batched_tokens": 8192}


def test_nested_values_a_release_rejects_are_findings(tmp_path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.14.1\n")
    (tmp_path / "serve.sh").write_text("vllm serve m --attention-config '{\"flash_attn_version\": 4}'\n")
    (tmp_path / "rollout").mkdir()
    (tmp_path / "rollout" / "requirements.txt").write_text("vllm==0.16.0\n")
    (tmp_path / "rollout" / "serve.sh").write_text("vllm serve m --weight-transfer-config '{\"backend\": \"ipc\"}'\n")
    rep = audit(tmp_path, gpu="H100 x1")
    found = [(f.code, f.message["en"]) for s in rep.sites for f in s.remarks]
    assert any(c == "value-not-in-version" and "flash_attn_version" in t for c, t in found), found
    assert any(c == "value-not-in-version" and "ipc" in t for c, t in found), found
