"""A project Hydra entry point whose main hands the work to a Ray task (`ray.get(main_task.remote(config))`,
TinyZero's and Logic-RL's examples/split_placement/main_ppo_split.py) runs verl: the script that starts
it with overrides is the launch site, not only its config."""
from vllm_kb.engine.audit import audit

MAIN = """\
import hydra
import ray


@hydra.main(config_path='config', config_name='ppo_trainer_split', version_base=None)
def main(config):
    if not ray.is_initialized():
        ray.init()
    ray.get({call}(config))


@ray.remote
def main_task(config):
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer
    RayPPOTrainer(config).fit()
"""
CONFIG = """\
actor_rollout_ref:
  model: {path: deepseek-ai/deepseek-llm-7b-chat}
  rollout: {name: vllm, tensor_model_parallel_size: 2, gpu_memory_utilization: 0.5}
trainer: {n_gpus_per_node: 8, nnodes: 1}
"""
RUN = "python3 main_ppo_split.py actor_rollout_ref.rollout.tensor_model_parallel_size=4\n"


def _sites(tmp_path, call: str):
    (tmp_path / "config").mkdir()
    (tmp_path / "config/ppo_trainer_split.yaml").write_text(CONFIG)
    (tmp_path / "main_ppo_split.py").write_text(MAIN.format(call=call))
    (tmp_path / "run_deepseek7b_llm.sh").write_text(RUN)
    return audit(tmp_path, gpu="A100-80GB x8").sites


def test_a_hydra_main_that_runs_a_ray_task_is_a_launch_with_its_overrides(tmp_path):
    (sr,) = _sites(tmp_path, "main_task.remote")
    assert sr.site.file == "run_deepseek7b_llm.sh" and sr.site.settings["tensor_parallel_size"].value == 4


def test_a_hydra_main_that_only_prints_its_config_is_no_launch(tmp_path):
    assert all(sr.site.file != "run_deepseek7b_llm.sh" for sr in _sites(tmp_path, "print"))
