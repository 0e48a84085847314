"""Launches inside cluster wrappers — `srun`, `sbatch --wrap`, `ssh`, `ray job submit --`, `bash -c`
strings — whose own options hold values the script does not know (`--nodelist=$NODE`, `srun
$SRUN_ARGS`, `ssh $HEAD "…"`): the wrapper's option keeps its place, so the launch behind it is
still read. And `--use_vllm` given to a script that is not a TRL trainer (an evaluation script
that builds its own `LLM(...)`) is no TRL rollout."""
from __future__ import annotations

from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit

_M = "Qwen/Qwen2.5-7B-Instruct"
_PINS = "vllm==0.8.5\ntrl==0.17.0\n"

WRAPPED = {
    "srun-unknown-nodelist-in-if": "MODEL=" + _M + "\nif [ \"$SLURM_PROCID\" = \"0\" ]; then\n"
    "  srun --nodes=1 --ntasks=1 --nodelist=$NODE trl vllm-serve --model $MODEL --tensor_parallel_size 3 &\nfi\n",
    "srun-options-in-variable": f"srun $SRUN_ARGS vllm serve {_M} --tensor-parallel-size 3\n",
    "srun-options-in-variable-after-options": f"srun --overlap -N1 $EXTRA python -m vllm.entrypoints.openai.api_server --model {_M} -tp 3\n",
    "srun-container-mounts-bash-c": f"srun --container-image=$IMG --container-mounts=$PWD:/w bash -c 'vllm serve {_M} --tensor-parallel-size 3'\n",
    "ssh-unknown-host": f'ssh $HEAD "cd /w && nohup vllm serve {_M} --tensor-parallel-size 3 &"\n',
    "ssh-unknown-port": f'ssh -p $PORT node1 "vllm serve {_M} --tensor-parallel-size 3"\n',
    "sbatch-unknown-partition-wrap": f'sbatch --partition=$PART --gres=gpu:8 --wrap="vllm serve {_M} --tensor-parallel-size 3"\n',
    # CODE-GRPO (eval81): the `trl` console script's module, run by the interpreter
    "trl-cli-main-module": "MODEL=" + _M + "\nCUDA_VISIBLE_DEVICES=0 python -m trl.cli.main vllm-serve --model $MODEL --tensor_parallel_size 3 &\n",
    "srun-bash-c-ray-job-submit-openrlhf": "MODEL=" + _M + '\nsrun --overlap -w "$head" bash -c "ray job submit --address=http://localhost:8265 '
    '-- python3 -m openrlhf.cli.train_ppo_ray --pretrain $MODEL --vllm.num_engines 2 --vllm.tensor_parallel_size 3"\n',
}


@pytest.mark.parametrize("name", sorted(WRAPPED))
def test_a_launch_behind_a_wrapper_with_unknown_options_is_read(tmp_path: Path, name: str) -> None:
    (tmp_path / "job.slurm").write_text("#!/bin/bash\n#SBATCH --nodes=2\n" + WRAPPED[name])
    (tmp_path / "requirements.txt").write_text(_PINS)
    rep = audit(tmp_path, gpu="H100-80GB x8")
    assert len(rep.sites) == 1, [s.site.id for s in rep.sites]
    sr = rep.sites[0]
    assert sr.facts["model"]["name"] == _M
    l1 = next(r for r in sr.results if r.check.id == "L1")
    assert l1.status == "recommended" and l1.priority == "P0"


def test_the_command_itself_unknown_gives_no_site(tmp_path: Path) -> None:
    (tmp_path / "job.sh").write_text('#!/bin/bash\nsbatch --wrap="$CMD"\nssh $HEAD $CMD\nsrun $SRUN_ARGS\n')
    (tmp_path / "requirements.txt").write_text(_PINS)
    assert audit(tmp_path, gpu="H100-80GB x8").sites == []


_EVAL = ("import argparse\nfrom vllm import LLM\n\n\ndef main():\n    p = argparse.ArgumentParser()\n"
         '    p.add_argument("--model_name_or_path", default="Qwen/Qwen2.5-Math-7B-Instruct")\n'
         '    p.add_argument("--use_vllm", action="store_true")\n    args = p.parse_args()\n'
         "    if args.use_vllm:\n        llm = LLM(model=args.model_name_or_path, tensor_parallel_size=2)\n\n\n"
         'if __name__ == "__main__":\n    main()\n')
_GRPO = ('from trl import GRPOConfig, GRPOTrainer, TrlParser\n\nparser = TrlParser((GRPOConfig,))\n'
         '(args,) = parser.parse_args_and_config()\ntrainer = GRPOTrainer(model="Qwen/Qwen2.5-Math-7B", args=args, reward_funcs=[])\n')


def _modes(rep) -> list[tuple[str, str | None, str]]:
    return sorted((s.site.file, s.site.framework, s.site.mode) for s in rep.sites)


@pytest.mark.parametrize("cmd", ["python3 -u math_eval.py --model_name_or_path $1 --use_vllm --save_outputs",
                                 "python3 math_eval.py --use-vllm",
                                 "accelerate launch --num_processes 1 math_eval.py --use_vllm"])
def test_use_vllm_of_an_evaluation_script_is_not_a_trl_rollout(tmp_path: Path, cmd: str) -> None:
    # Qwen2.5-Math's evaluation/sh/eval.sh runs evaluation/math_eval.py from evaluation/
    (tmp_path / "evaluation/sh").mkdir(parents=True)
    (tmp_path / "evaluation/sh/eval.sh").write_text("set -ex\nTOKENIZERS_PARALLELISM=false \\\n" + cmd + "\n")
    (tmp_path / "evaluation/math_eval.py").write_text(_EVAL)
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    rep = audit(tmp_path, gpu="A100-80GB x2")
    assert [(f, fw) for f, fw, _ in _modes(rep)] == [("evaluation/math_eval.py", "none")], _modes(rep)
    assert not any(r.check.id == "H1" and r.status == "recommended" for s in rep.sites for r in s.results)


def test_use_vllm_of_a_script_not_in_the_project_is_read_by_its_name(tmp_path: Path) -> None:
    (tmp_path / "eval.sh").write_text("python3 math_eval.py --model_name_or_path X --use_vllm\n"
                                      "accelerate launch examples/scripts/grpo.py --model_name_or_path Qwen/Qwen2.5-0.5B --use_vllm\n")
    (tmp_path / "requirements.txt").write_text(_PINS)
    assert [(f, fw) for f, fw, _ in _modes(audit(tmp_path, gpu="A100-80GB x2"))] == [("eval.sh", "trl")]


def test_use_vllm_of_a_trl_trainer_script_is_still_trl(tmp_path: Path) -> None:
    (tmp_path / "run.sh").write_text("accelerate launch --num_processes 1 train_grpo.py --use_vllm --model_name_or_path Qwen/Qwen2.5-Math-7B\n")
    (tmp_path / "train_grpo.py").write_text(_GRPO)
    (tmp_path / "requirements.txt").write_text(_PINS)
    assert ("run.sh", "trl") in [(f, fw) for f, fw, _ in _modes(audit(tmp_path, gpu="A100-80GB x2"))]
