"""No two changes proposed at one site undo each other: F2 moved a stale VLLM_ATTENTION_BACKEND to
--attention-backend while L71 (on the fixed project) removed that flag again wherever the
selector refuses the backend — FlashAttention with an FP8 KV cache off Hopper. The move is
proposed only where the backend would be taken; every real case is held to the same rule in
tests/test_realcases.py (realcases_score.contradictions)."""
from __future__ import annotations

import pytest

import realcases_score as score
from vllm_kb.engine.audit import audit


def _project(tmp_path, version: str, kv: str = "fp8"):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text(
        "#!/bin/bash\nexport VLLM_ATTENTION_BACKEND=FLASH_ATTN\n"
        f"vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype {kv} --max-model-len 8192\n")
    return tmp_path


def _changes(rep, target: str) -> list[tuple[str, object, tuple]]:
    return [(c.op, c.value, tuple(c.checks)) for sr in rep.sites for c in sr.changes if c.target == target]


@pytest.mark.parametrize("gpu", ["A100-80GB", "L40S"])
def test_a_refused_backend_is_dropped_not_moved(tmp_path, gpu):
    rep = audit(_project(tmp_path, "0.30.0"), gpu=gpu)
    assert not score.contradictions(rep)
    assert _changes(rep, "attention_backend") == []
    assert [op for op, _v, _c in _changes(rep, "VLLM_ATTENTION_BACKEND")] == ["unset_env"]


def test_a_backend_the_gpu_takes_is_still_moved(tmp_path):
    """Hopper runs FlashAttention 3 with an FP8 cache: the variable still becomes the flag."""
    rep = audit(_project(tmp_path, "0.30.0"), gpu="H100-80GB")
    assert not score.contradictions(rep)
    assert ("set", "FLASH_ATTN", ("F2",)) in _changes(rep, "attention_backend")


def test_contradictions_are_found():
    class C:
        def __init__(self, op, target, value, checks):
            self.op, self.target, self.value, self.checks = op, target, value, checks

    class S:
        site = None
        changes = [C("set", "attention_backend", "FLASH_ATTN", ["F2"]), C("unset", "attention_backend", None, ["L71"]),
                   C("set", "max_num_seqs", 16, ["B7"]), C("set", "max_num_seqs", 16, ["X"])]

    class R:
        sites = [S()]

    got = score.contradictions(R())
    assert len(got) == 1 and "attention_backend" in got[0]
