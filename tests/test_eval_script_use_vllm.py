"""`python3 math_eval.py --use_vllm`: an evaluation script's own switch between vLLM and transformers
is no TRL trainer with a colocated rollout (math-evaluation-harness, Qwen2.5-Math's evaluation: H1
said the engine shares GPUs with training). A script that names TRL stays a TRL launch."""
from vllm_kb.engine.audit import audit

EVAL = """\
import argparse
from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--model_name_or_path", type=str)
parser.add_argument("--use_vllm", action="store_true")
args = parser.parse_args()
if args.use_vllm:
    llm = LLM(model=args.model_name_or_path, tensor_parallel_size=1, trust_remote_code=True)
"""
TRAIN = """\
from trl import GRPOConfig, GRPOTrainer, TrlParser

parser = TrlParser((GRPOConfig,))
(config,) = parser.parse_args_and_config()
GRPOTrainer(model="Qwen/Qwen2.5-0.5B-Instruct", args=config, reward_funcs=[]).train()
"""


def _sites(tmp_path, script: str):
    (tmp_path / "math_eval.py").write_text(script)
    (tmp_path / "run_eval.sh").write_text(
        "CUDA_VISIBLE_DEVICES=0 python3 -u math_eval.py --model_name_or_path Qwen/Qwen2.5-Math-7B --use_vllm\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\ntrl==0.17.0\n")
    return audit(tmp_path, gpu="A100-80GB x8").sites


def test_an_evaluation_scripts_use_vllm_switch_is_no_trl_rollout(tmp_path):
    sites = _sites(tmp_path, EVAL)
    assert [(s.site.file, s.site.framework) for s in sites] == [("math_eval.py", "none")]
    assert not [r for s in sites for r in s.results if r.check.id == "H1" and r.status == "recommended"]


def test_a_script_that_names_trl_is_still_a_trl_launch(tmp_path):
    assert ("run_eval.sh", "trl") in [(s.site.file, s.site.framework) for s in _sites(tmp_path, TRAIN)]


OWN_TRAINER = """\
import argparse
from training import GRPOTrainer

parser = argparse.ArgumentParser()
parser.add_argument("--use_vllm", action="store_true")
args = parser.parse_args()
GRPOTrainer(policy=None, lr=1e-4).train()
"""


def _package(tmp_path, trainer_module: str):
    (tmp_path / "training").mkdir()
    (tmp_path / "training/__init__.py").write_text("from .rl_trainer import GRPOTrainer\n")
    (tmp_path / "training/rl_trainer.py").write_text(trainer_module)


def test_a_projects_own_grpo_trainer_is_no_trl_rollout(tmp_path):
    # Dense-Communication/GRPO_latent (eval77): run_rl_train.py's GRPOTrainer is the project's own class
    # (training/rl_trainer.py, no TRL import) that trains a small policy beside a frozen vLLM LLM
    _package(tmp_path, "import torch\n\n\nclass GRPOTrainer:\n    def __init__(self, policy, lr):\n        self.policy = policy\n")
    sites = _sites(tmp_path, OWN_TRAINER)
    assert "trl" not in [s.site.framework for s in sites]
    assert not [r for s in sites for r in s.results if r.check.id == "H1" and r.status == "recommended"]


def test_a_trainer_the_projects_module_takes_from_trl_is_trls(tmp_path):
    # the same re-export, but the project's module subclasses TRL's trainer (open-r1's configs pattern)
    _package(tmp_path, "from trl import GRPOTrainer as _Base\n\n\nclass GRPOTrainer(_Base):\n    pass\n")
    assert ("run_eval.sh", "trl") in [(s.site.file, s.site.framework) for s in _sites(tmp_path, OWN_TRAINER)]
