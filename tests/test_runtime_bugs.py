"""L144: what a release sets up on the GPUs without catching its failure (knowledge/vllm/release_bugs.yaml
runtime_bugs) — 0.11.0's default symmetric-memory all-reduce for tensor-parallel groups on Hopper and
Blackwell (vLLM #26525; 0.11.1 catches the failed rendezvous)."""
from pathlib import Path

import pytest

from vllm_kb.engine.check.startup_release_bugs import runtime_bug_facts
from vllm_kb.engine.kb.knowledge import load

TABLE = load().doc("vllm", "release_bugs.yaml").data
H100 = {"compute_capability": 9.0}


def _facts(version, tp=2, env=None, gpu=H100):
    return runtime_bug_facts({"tensor_parallel_size": tp}, env or {}, gpu, TABLE, version)


def test_the_row_is_read_from_the_sources():
    (row,) = [r for r in TABLE["runtime_bugs"] if r["id"] == "symm-mem-allreduce-init"]
    assert row["affected"] == [["0.10.2", "0.11.0"]] and row["fixed"] == "0.11.1"
    assert row["default_on"][0][0] == "0.11.0"
    assert row["sizes"]["0.11.0"]["9.0"] == [2, 4, 6, 8]


def test_default_on_in_0110_only():
    assert _facts("0.11.0")["runtime_bug"] == "symm-mem-allreduce-init"
    assert _facts("0.11.0")["runtime_bug_default"] is True
    assert _facts("0.10.2") == {}  # off by default there
    assert _facts("0.11.1") == {}  # caught and falls back


@pytest.mark.parametrize("env,version,hit", [({"VLLM_ALLREDUCE_USE_SYMM_MEM": "0"}, "0.11.0", False),
                                             ({"VLLM_ALLREDUCE_USE_SYMM_MEM": "1"}, "0.10.2", True),
                                             ({"VLLM_ALLREDUCE_USE_SYMM_MEM": "$SYMM"}, "0.11.0", False)])
def test_the_launch_environment_decides(env, version, hit):
    assert bool(_facts(version, env=env)) is hit


@pytest.mark.parametrize("tp,gpu", [(1, H100), (3, H100), (2, {"compute_capability": 8.9}), (2, {"compute_capability": 8.0})])
def test_only_the_groups_and_gpus_the_code_sets_it_up_for(tp, gpu):
    assert _facts("0.11.0", tp=tp, gpu=gpu) == {}


def test_audit_proposes_switching_it_off(tmp_path: Path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("vllm==0.11.0\n")
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x2").sites
    r = next(r for r in sr.results if r.check.id == "L144")
    assert r.status == "recommended" and r.priority == "P1", r.reason_text("en")
    assert [(op.kind, op.target, v) for op, v in r.fix] == [("env", "VLLM_ALLREDUCE_USE_SYMM_MEM", "0")]


_VERL = {"framework": "verl", "mode": "rlhf_colocate"}


@pytest.mark.parametrize("site,env,hit,one_gpu", [
    ({**_VERL, "framework_version": "0.6.0"}, {}, True, True),  # each rank in a one-GPU Ray actor: certain (verl #4503)
    ({**_VERL, "framework_version": "0.6.1"}, {}, False, False),  # main_ppo's Ray runtime env sets it to 0
    ({**_VERL, "framework_version": "0.6.1"}, {"VLLM_ALLREDUCE_USE_SYMM_MEM": "1"}, True, True),  # the shell wins
    ({**_VERL, "framework_version": "0.7.1"}, {}, True, True),  # verl #5052 dropped the runtime env entry
    (_VERL, {}, True, False),  # unpinned verl: a release that sets it or one that does not
    ({**_VERL, "mode": "rlhf_server", "framework_version": "0.6.0"}, {}, True, False),
])
def test_a_framework_that_gives_each_rank_one_gpu(site, env, hit, one_gpu):
    f = runtime_bug_facts({"tensor_parallel_size": 2}, env, H100, TABLE, "0.11.0", site)
    assert bool(f) is hit
    assert bool(f.get("runtime_bug_one_gpu")) is one_gpu


def test_verl_060_hybrid_rollout_is_a_p0(tmp_path: Path):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text("verl==0.6.0\nvllm==0.11.0\n")
    (tmp_path / "run.sh").write_text(
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \\\n"
        "  actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.tensor_model_parallel_size=2 \\\n"
        "  trainer.n_gpus_per_node=8\n")
    rep = audit(tmp_path, gpu="H800 x8")
    got = [r for s in rep.sites for r in s.results if r.check.id == "L144"]
    assert got and got[0].status == "recommended" and got[0].priority == "P0", [(r.status, r.priority) for r in got]
    (tmp_path / "requirements.txt").write_text("verl==0.6.1\nvllm==0.11.0\n")
    rep = audit(tmp_path, gpu="H800 x8")
    assert all(r.status == "not_applicable" for s in rep.sites for r in s.results if r.check.id == "L144")
