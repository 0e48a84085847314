"""verl's hybrid engine splits the trainer's GPUs into rollout groups of the rollout's tensor-parallel size
(2 by default): a world that does not divide is verl's own assertion before vLLM starts (L34)."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

RUN = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo \\\n"
       "    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct actor_rollout_ref.rollout.name=vllm \\\n"
       "    {more} trainer.nnodes=1\n")


def _l34(tmp_path, more, gpu="A100-80GB"):
    (tmp_path / "requirements.txt").write_text("verl==0.3.0.post1\nvllm==0.8.2\n")
    (tmp_path / "run.sh").write_text(RUN.format(more=more))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return next(r for r in sr.results if r.check.id == "L34"), sr


@pytest.mark.parametrize("more,gpu,p0", [
    ("trainer.n_gpus_per_node=1", "A100-80GB", True),  # verl-project/verl#1191: the default TP 2 on one GPU
    ("trainer.n_gpus_per_node=1 actor_rollout_ref.rollout.tensor_model_parallel_size=1", "A100-80GB", False),
    ("trainer.n_gpus_per_node=8", "A100-80GB x8", False),  # 8 GPUs in groups of 2
    ("trainer.n_gpus_per_node=6 actor_rollout_ref.rollout.tensor_model_parallel_size=4", "A100-80GB x8", True),
    ("trainer.n_gpus_per_node=$N", "A100-80GB", False),  # a count the audit cannot read
])
def test_a_rollout_tp_that_does_not_divide_the_trainer_world_is_a_p0(tmp_path, more, gpu, p0):
    r, sr = _l34(tmp_path, more, gpu)
    assert (r.priority == "P0") is p0, (r.status, r.priority)
    if p0:
        fit = sr.facts["launch"]["rollout_tp_fit"]
        assert fit == (1 if "=1 " in more + " " else 2)


PY_RUN = '''import subprocess


def train(train_args: dict):
    tp = int(train_args.get("tensor_model_parallel_size", 1))
    gpus = int(train_args.get("gpus", 1))
    cmd = ["python", "-m", "verl.trainer.main_ppo", "algorithm.adv_estimator=grpo",
           "actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct", "actor_rollout_ref.rollout.name=vllm",
           f"actor_rollout_ref.rollout.tensor_model_parallel_size={tp}", "trainer.n_gpus_per_node=1",
           f"trainer.default_local_dir=/out/{gpus}", "trainer.nnodes=1"]
    subprocess.run(cmd, check=False)
'''


def test_an_fstring_override_the_scan_cannot_read_is_set_not_verls_default(tmp_path):
    # SambhavG/tinyzero-modal (eval86): the run sets the rollout TP from a value the scan cannot read;
    # it stays unknown, and verl's default 2 does not stand in for it (a false L34 P0 on one GPU)
    (tmp_path / "requirements.txt").write_text("verl==0.3.0.post1\nvllm==0.8.2\n")
    (tmp_path / "train.py").write_text(PY_RUN)
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert next(r for r in sr.results if r.check.id == "L34").priority != "P0"
    tp = sr.site.settings["tensor_parallel_size"]
    assert not tp.resolved and tp.key == "actor_rollout_ref.rollout.tensor_model_parallel_size"
    # the same list with the override left out keeps verl's default and its P0
    (tmp_path / "train.py").write_text(PY_RUN.replace('f"actor_rollout_ref.rollout.tensor_model_parallel_size={tp}", ', ""))
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert next(r for r in sr.results if r.check.id == "L34").priority == "P0"


EP_RUN = ("python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo \\\n"
          "    actor_rollout_ref.model.path=Qwen/Qwen3-235B-A22B actor_rollout_ref.rollout.name=vllm \\\n"
          "    actor_rollout_ref.rollout.tensor_model_parallel_size=8 actor_rollout_ref.rollout.expert_parallel_size=64 \\\n"
          "    {more} trainer.n_gpus_per_node=8 trainer.nnodes=8\n")


@pytest.mark.parametrize("more,p0", [
    ("", True),  # bdsaglam/docvqa-verl run_qwen3_235b_a22b_megatron.sh (eval89): DP set only on its NPU branch
    ("actor_rollout_ref.rollout.data_parallel_size=8", False),  # 64 = 8 × 8
    ("actor_rollout_ref.rollout.data_parallel_size=$DP", False),  # a count the audit cannot read
])
def test_a_rollout_expert_parallel_size_other_than_tp_times_dp_is_verls_assertion(tmp_path, more, p0):
    # verl 0.6.0+ RolloutConfig.__post_init__: "expert_parallel_size must be equal to tensor_model_parallel_size * data_parallel_size"
    (tmp_path / "requirements.txt").write_text("verl==0.7.1\nvllm==0.11.0\n")
    (tmp_path / "run.sh").write_text(EP_RUN.format(more=more))
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert any(f.id == "verl-ep-world" and f.priority == "P0" for f in sr.remarks) is p0
    assert sr.site.settings["enable_expert_parallel"].value is True  # verl hands vLLM EP > 1 as the switch
