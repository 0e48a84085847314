"""A verl run a script composes itself: `hydra.compose(config_name=…, overrides=[…])` over a list of
Hydra overrides written in the script (linmumu009/qwen3.6-27b-GRPO-veRL's standalone rollout, eval64)."""
from __future__ import annotations

from test_framework_releases import sites

SCRIPT = """\
import hydra
from verl.workers.rollout.llm_server import LLMServerManager


def build(args):
    overrides = [
        f"actor_rollout_ref.model.path={args.model}",
        "actor_rollout_ref.rollout.name={name}",
        "actor_rollout_ref.rollout.mode=async",
        f"actor_rollout_ref.rollout.tensor_model_parallel_size={args.tp}",
        "actor_rollout_ref.rollout.max_num_seqs=64",
    ]
    with hydra.initialize_config_dir(config_dir="/verl/config", version_base=None):
        return hydra.compose(config_name="ppo_trainer", overrides=overrides)
"""


def test_a_composed_override_list_is_a_verl_site(tmp_path):
    got = sites(tmp_path, {"rollout.py": SCRIPT.replace("{name}", "vllm")})
    (s,) = got.values()
    assert s.framework == "verl" and s.kind == "verl hydra.compose" and s.line == 14
    assert s.settings["max_num_seqs"].value == 64 and not s.settings["tensor_parallel_size"].resolved


def test_a_composed_run_of_another_rollout_is_no_vllm_site(tmp_path):
    assert not sites(tmp_path, {"rollout.py": SCRIPT.replace("{name}", "sglang")})


def test_a_script_that_only_composes_the_config_is_no_site(tmp_path):
    # no verl imported: the config is composed to be printed or checked, nothing starts
    text = SCRIPT.replace("{name}", "vllm").replace("from verl.workers.rollout.llm_server import LLMServerManager\n", "")
    assert not sites(tmp_path, {"rollout.py": text})
