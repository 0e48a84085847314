"""A project Hydra entry point that drives verl's SFT trainer (verl.trainer.sft_trainer, its
sft_trainer_engine config) builds no rollout: no vLLM site (linmumu009/qwen3.6-27b-GRPO-veRL, eval64:
eight teacher-forced SFT runs were read as colocated rollouts)."""
from __future__ import annotations

import pytest

from test_framework_releases import sites

ENTRY = """\
import hydra
from verl.trainer.{trainer} import {cls}


@hydra.main(config_path="pkg://verl.trainer.config", config_name="{config}", version_base=None)
def main(config):
    {cls}(config).fit()
"""


@pytest.mark.parametrize("trainer, cls, config, want", [
    ("sft_trainer", "SFTTrainer", "sft_trainer_engine", 0),
    ("fsdp_sft_trainer", "FSDPSFTTrainer", "sft_trainer", 0),
    ("ppo.ray_trainer", "RayPPOTrainer", "ppo_trainer", 1),  # verl's PPO config: the rollout is vLLM by default
])
def test_a_project_entry_of_verls_sft_trainer_is_no_vllm_site(tmp_path, trainer, cls, config, want):
    got = sites(tmp_path, {
        "scripts/__init__.py": "",
        "scripts/train_pairs.py": ENTRY.format(trainer=trainer, cls=cls, config=config),
        "run.sh": "torchrun --nproc_per_node=8 -m scripts.train_pairs data.train_files=d.parquet "
                  "actor_rollout_ref.model.path=org/m\n",
    })
    assert len(got) == want
