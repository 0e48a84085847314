"""A verl launch whose rollout name is the project's own vLLM rollout (engine/scan/verl_rollout_names.py):
eval111 ReCall scripts/train/train.sh:80 `actor_rollout_ref.rollout.name=vllm_with_tool`, which its
src/verl/workers/fsdp_workers.py:322 builds as vLLMRolloutWithTool
(https://github.com/Agent-RL/ReCall/blob/aaf16b31c83702cdd3c7f7a0ad431efce7904b63/scripts/train/train.sh)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

_WORKER = """
class ActorRolloutRefWorker:
    def _build_rollout(self):
        if self.config.rollout.name == 'hf':
            from verl.workers.rollout import HFRollout
        elif 'vllm' in self.config.rollout.name:
            if self.config.rollout.name == 'vllm':
                from verl.workers.rollout.vllm_rollout import vLLMRollout
            elif self.config.rollout.name == 'vllm_with_tool':
                from verl.workers.rollout.vllm_rollout import vLLMRolloutWithTool
"""
_TRAIN = """ROLLOUT_NAME={name}
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \\
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \\
    actor_rollout_ref.rollout.name=${{ROLLOUT_NAME}} \\
    actor_rollout_ref.rollout.gpu_memory_utilization=0.8
"""


def _project(tmp_path, name: str, with_copy: bool = True):
    if with_copy:
        rollout = tmp_path / "src" / "verl" / "workers" / "rollout" / "vllm_rollout"
        rollout.mkdir(parents=True)
        (rollout / "__init__.py").write_text("from .vllm_rollout_spmd import vLLMRollout, vLLMRolloutWithTool\\n")
        (rollout / "vllm_rollout_spmd.py").write_text("class vLLMRollout: ...\\nclass vLLMRolloutWithTool(vLLMRollout): ...\\n")
        (tmp_path / "src" / "verl" / "workers" / "fsdp_workers.py").write_text(_WORKER)
    (tmp_path / "train.sh").write_text(_TRAIN.format(name=name))
    (tmp_path / "requirements.txt").write_text("vllm==0.8.4\\n")
    return [s for s in audit(tmp_path, gpu="H100-80GB x8").sites if s.site.file == "train.sh"]


def test_own_vllm_rollout_name_is_a_vllm_site(tmp_path):
    (sr,) = _project(tmp_path, "vllm_with_tool")
    assert sr.site.framework == "verl" and "fsdp_workers.py:9" in sr.site.mode_evidence
    assert sr.site.settings["tensor_parallel_size"].value == 2


def test_a_name_the_copy_does_not_build_with_vllm_is_no_site(tmp_path):
    assert _project(tmp_path, "hf") == []


def test_without_a_copy_the_name_is_not_guessed(tmp_path):
    assert _project(tmp_path, "vllm_with_tool", with_copy=False) == []


_MAIN_PPO = """import hydra


@hydra.main(config_path='config', config_name='ppo_trainer', version_base=None)
def main(config):
    pass
"""
_PPO_TRAINER = """actor_rollout_ref:
  model:
    path: ~/models/deepseek-llm-7b-chat
  rollout:
    name: vllm
    gpu_memory_utilization: 0.5
    tensor_model_parallel_size: 2
"""


def _trainer(tmp_path, module: str = "main_ppo"):
    trainer = tmp_path / "src" / "verl" / "trainer"
    (trainer / "config").mkdir(parents=True)
    (trainer / "__init__.py").write_text("")
    (trainer / f"{module}.py").write_text(_MAIN_PPO)
    (trainer / "config" / "ppo_trainer.yaml").write_text(_PPO_TRAINER)


def test_the_copys_trainer_config_the_launch_runs_is_no_site_of_its_own(tmp_path):
    _trainer(tmp_path)
    (sr,) = _project(tmp_path, "vllm_with_tool")
    files = {s.site.file for s in audit(tmp_path, gpu="H100-80GB x8").sites}
    assert sr.site.framework == "verl" and "src/verl/trainer/config/ppo_trainer.yaml" not in files


def test_a_copy_without_the_launched_module_keeps_its_config_and_names_no_rollout(tmp_path):
    # the launch runs verl.trainer.main_ppo, which this copy's trainer package lacks: another checkout runs
    _trainer(tmp_path, module="main_generation")
    assert _project(tmp_path, "vllm_with_tool") == []
    files = {s.site.file for s in audit(tmp_path, gpu="H100-80GB x8").sites}
    assert "src/verl/trainer/config/ppo_trainer.yaml" in files
