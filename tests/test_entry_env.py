"""The GPUs a shell script starts a project Python file on (engine/scan/entry_env.py), and a TRL
rollout server and its trainer, each started by its own script, on the same GPU (H8): TRL #3158,
`CUDA_VISIBLE_DEVICES=0 trl vllm-serve` and `CUDA_VISIBLE_DEVICES=0 accelerate launch train.py`."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.entry_env import _entry
from vllm_kb.engine.scan.project import scan_project

TRAIN = ('from trl import GRPOConfig, GRPOTrainer\n'
         'args = GRPOConfig(output_dir="o", use_vllm=True)\n'
         'GRPOTrainer(model="Qwen/Qwen2.5-0.5B-Instruct", reward_funcs=[], args=args).train()\n')
OFFLINE = 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct")\n'


def _write(tmp_path, files: dict) -> None:
    (tmp_path / "requirements.txt").write_text("vllm==0.8.1\ntrl==0.16.0\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)


def _site(tmp_path, file):
    return next(s for s in scan_project(tmp_path).sites if s.file == file)


def test_the_launch_line_names_the_file_and_its_processes():
    assert _entry(["accelerate", "launch", "--num_processes", "3", "train.py", "--lr", "1"]) == ("train.py", 3)
    assert _entry(["torchrun", "--nproc_per_node=2", "src/train.py"]) == ("src/train.py", 2)
    assert _entry(["python", "-u", "infer.py"]) == ("infer.py", None)
    assert _entry(["python", "-m", "pkg.train"]) is None
    assert _entry(["accelerate", "launch", "--num_processes", None, "train.py"]) is None


def test_a_prefix_assignment_reaches_the_python_file(tmp_path):
    _write(tmp_path, {"run.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=2,3 accelerate launch --num_processes 2 train.py\n",
                      "train.py": TRAIN})
    site = _site(tmp_path, "train.py")
    assert site.env["CUDA_VISIBLE_DEVICES"].value == "2,3" and site.env["CUDA_VISIBLE_DEVICES"].file == "run.sh"
    assert site.launch["launcher"] == "run.sh:2" and site.launch["launcher_processes"] == 2


def test_an_export_earlier_in_the_script_reaches_it(tmp_path):
    _write(tmp_path, {"run.sh": "#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=1\npython infer.py\n", "infer.py": OFFLINE})
    assert _site(tmp_path, "infer.py").env["CUDA_VISIBLE_DEVICES"].value == "1"


def test_launchers_that_disagree_or_the_files_own_value_win(tmp_path):
    _write(tmp_path, {"a.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 python infer.py\n",
                      "b.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=1 python infer.py\n", "infer.py": OFFLINE})
    assert "CUDA_VISIBLE_DEVICES" not in _site(tmp_path, "infer.py").env
    own = 'import os\nos.environ["CUDA_VISIBLE_DEVICES"] = "3"\n' + OFFLINE
    _write(tmp_path, {"b.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 python infer.py\n", "infer.py": own})
    assert _site(tmp_path, "infer.py").env["CUDA_VISIBLE_DEVICES"].value == "3"


def _h8(tmp_path, serve_gpus: str, train_gpus: str):
    _write(tmp_path, {"serve.sh": f"#!/bin/bash\nCUDA_VISIBLE_DEVICES={serve_gpus} trl vllm-serve --model Qwen/Qwen2.5-0.5B-Instruct\n",
                      "run_train.sh": f"#!/bin/bash\nCUDA_VISIBLE_DEVICES={train_gpus} accelerate launch train.py\n",
                      "train.py": TRAIN})
    rep = audit(tmp_path, gpu="A100-80GB x2")
    server = next(s for s in rep.sites if s.site.file == "serve.sh")
    return next(r for r in server.results if r.check.id == "H8")


def test_a_rollout_server_and_its_trainer_from_two_scripts_on_one_gpu(tmp_path):
    r = _h8(tmp_path, "0", "0")
    assert r.status == "recommended" and r.priority == "P1"


def test_on_separate_gpus_they_do_not(tmp_path):
    assert _h8(tmp_path, "0", "1").status == "not_applicable"


def test_without_the_trainers_devices_two_files_are_not_compared(tmp_path):
    _write(tmp_path, {"serve.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen2.5-0.5B-Instruct\n",
                      "train.py": TRAIN})
    rep = audit(tmp_path, gpu="A100-80GB x2")
    server = next(s for s in rep.sites if s.site.file == "serve.sh")
    assert next(r for r in server.results if r.check.id == "H8").status == "not_applicable"


def test_trl_puts_its_engine_after_the_launchers_processes(tmp_path):
    # TRL 0.14: vllm_device "auto" is cuda:{num_processes}; two processes on two visible GPUs leave none
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\ntrl==0.14.0\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\nCUDA_VISIBLE_DEVICES=0,1 accelerate launch --num_processes 2 train.py\n")
    (tmp_path / "train.py").write_text(TRAIN)
    site = _site(tmp_path, "train.py")
    assert site.launch["launcher_processes"] == 2 and site.launch["engine_device"] == 2


def test_on_a_one_gpu_machine_an_unnamed_trainer_shares_the_servers_gpu(tmp_path):
    # TRL #3487: `CUDA_VISIBLE_DEVICES=0 trl vllm-serve` and `python train.py` on a machine with one GPU
    _write(tmp_path, {"serve.sh": "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen2.5-0.5B-Instruct\n",
                      "train.py": TRAIN})
    for gpu, status in (("A100-80GB x1", "recommended"), ("A100-80GB x2", "not_applicable")):
        rep = audit(tmp_path, gpu=gpu)
        server = next(s for s in rep.sites if s.site.file == "serve.sh")
        assert next(r for r in server.results if r.check.id == "H8").status == status, gpu


def test_the_engine_choice_of_the_launcher_reaches_the_file_and_trls_fixed_batch_budget_then_stops_colocate(tmp_path):
    """`VLLM_USE_V1=0 accelerate launch train.py` (TRL's colocate recipes ran so): the V0 engine leaves
    chunked prefill off, and TRL 0.19 colocate passes max_num_batched_tokens=4096 itself
    (trl/trainer/grpo_trainer.py:669) with max_model_len = max_prompt_length + max_completion_length."""
    train = ('from trl import GRPOConfig, GRPOTrainer\n'
             'args = GRPOConfig(output_dir="o", use_vllm=True, vllm_mode="colocate",\n'
             '                  max_prompt_length=6144, max_completion_length=2048)\n'
             'GRPOTrainer(model="meta-llama/Llama-3.1-8B-Instruct", reward_funcs=[], args=args).train()\n')
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5.post1\ntrl==0.19.1\n")
    (tmp_path / "train.py").write_text(train)
    (tmp_path / "run.sh").write_text("#!/bin/sh\nVLLM_USE_V1=0 accelerate launch --num_processes 8 train.py\n")
    assert _site(tmp_path, "train.py").env["VLLM_USE_V1"].value == "0"
    (site,) = audit(tmp_path, gpu="A100-80GB x8").sites
    (l17,) = [r for r in site.results if r.check.id == "L17"]
    assert l17.priority == "P0" and "trl passes max_num_batched_tokens=4096 itself" in l17.reason_text("en")
    # the V1 engine (VLLM_USE_V1 left to vLLM) keeps chunked prefill on: it starts
    (tmp_path / "run.sh").write_text("#!/bin/sh\naccelerate launch --num_processes 8 train.py\n")
    (site,) = audit(tmp_path, gpu="A100-80GB x8").sites
    assert [r.priority for r in site.results if r.check.id == "L17"] != ["P0"]


def test_a_launchers_variable_is_shown_removed_in_the_launchers_own_syntax(tmp_path):
    # the change A4 lists for `VLLM_USE_V1=0 accelerate launch train.py` is the shell assignment in
    # run.sh, not a Python os.environ line the file does not hold
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "train.py").write_text('from vllm import LLM\nLLM(model="Qwen/Qwen2.5-0.5B-Instruct")\n')
    (tmp_path / "run.sh").write_text("#!/bin/sh\nVLLM_USE_V1=0 accelerate launch train.py\n")
    (site,) = audit(tmp_path, gpu="A100-80GB").sites
    (change,) = [c for c in site.changes if c.target == "VLLM_USE_V1"]
    assert change.file == "run.sh" and change.before == "VLLM_USE_V1=0"


_SWIFT_TRAIN = ("NNODES=2 NODE_RANK=0 CUDA_VISIBLE_DEVICES=0,1,2,3 NPROC_PER_NODE=4 \\\nswift rlhf --rlhf_type grpo \\\n"
                "    --model Qwen/Qwen2.5-7B-Instruct --use_vllm true --vllm_mode server {host}\\\n"
                "    --dataset AI-MO/NuminaMath-TIR#1000 --num_generations 4\n")


@pytest.mark.parametrize("host, status", [("--vllm_server_host 10.0.0.1 10.0.0.2 --vllm_server_port 8000 8000 ", "not_applicable"),
                                          ("", "recommended")])
def test_one_script_listing_each_nodes_command_shares_gpus_only_on_one_machine(tmp_path, host, status):
    # ms-swift examples/train/grpo/multi_node/server_multi_node.sh: rollout servers on node1/node2 and the
    # trainer on node3/node4, all on their GPUs 0-3; the trainer talks to the other nodes' servers
    serve = "CUDA_VISIBLE_DEVICES=0,1,2,3 \\\nswift rollout --model Qwen/Qwen2.5-7B-Instruct --vllm_data_parallel_size 4\n\n"
    (tmp_path / "requirements.txt").write_text("ms-swift==3.8.0\nvllm==0.10.1.1\n")
    (tmp_path / "server_multi_node.sh").write_text(serve + _SWIFT_TRAIN.format(host=host))
    rep = audit(tmp_path, gpu="A100-80GB x4")
    server = next(s for s in rep.sites if s.site.kind == "swift rollout")
    assert next(r for r in server.results if r.check.id == "H8").status == status
