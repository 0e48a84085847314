"""Framework keys judged as the framework hands them to vLLM (helper fwkeys, a pass over verl, TRL and
OpenRLHF read from their wheels):

- a value the audit cannot read (a shell variable, an argparse attribute, a Hydra `${oc.env:…}`) is
  unknown, never the framework's default: a 72B model whose tensor-parallel size is `$TP` is no
  "weights do not fit at TP 1" P0, while the same launch with TP 1 written stays a P0;
- OpenRLHF hands --vllm_enable_sleep to vLLM only with --colocate_all_models (train_ppo_ray.py sets it
  back to False otherwise: 0.5.9 :418, 0.11.2 :707), so a split launch's flag is no enable_sleep_mode;
- verl 0.3.0.post1 … 0.6.x's sync rollout refuses max_num_batched_tokens below the engine length while
  chunked prefill is on (vllm_rollout_spmd.py, "Enable chunked prefill, max_num_batched_tokens is
  smaller than max_model_len"), which vLLM itself accepts: verl's own P0, modelled on verl's DAPO
  recipe (https://github.com/volcengine/verl/blob/v0.4.1/recipe/dapo/test_dapo_7b.sh), which sets
  max_num_batched_tokens=$((max_prompt_length + max_response_length)) for that reason."""
from __future__ import annotations

import textwrap

import pytest

from vllm_kb.engine.audit import audit


def _audit(tmp_path, files: dict[str, str], gpu: str):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sr


def _p0(sr) -> set[str]:
    return {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"} | {f.id for f in sr.remarks if f.priority == "P0"}


VERL = """\
    TP={tp}
    python3 -m verl.trainer.main_ppo \\
        actor_rollout_ref.model.path=Qwen/Qwen2.5-72B-Instruct \\
        actor_rollout_ref.rollout.name=vllm \\
        actor_rollout_ref.rollout.tensor_model_parallel_size={tp_ref} \\
        trainer.n_gpus_per_node=8
    """
# modelled on minwukim/VRL trl_new_demo.py (https://github.com/minwukim/VRL/blob/main/trl_new_demo.py):
# a colocated GRPOConfig, its tensor-parallel size taken from the command line here
TRL = """\
    import argparse
    from trl import GRPOConfig, GRPOTrainer
    p = argparse.ArgumentParser()
    p.add_argument("--tp", type=int)
    args = p.parse_args()
    cfg = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="colocate", vllm_gpu_memory_utilization=0.3,
                     vllm_tensor_parallel_size={tp_ref})
    trainer = GRPOTrainer(model="Qwen/Qwen2.5-72B-Instruct", args=cfg, reward_funcs=[], train_dataset=None)
    trainer.train()
    """
OPENRLHF = """\
    python3 -m openrlhf.cli.train_ppo_ray \\
       --actor_num_nodes 1 --actor_num_gpus_per_node 8 \\
       --vllm_num_engines 1 --vllm_tensor_parallel_size {tp_ref} \\
       --vllm_gpu_memory_utilization 0.6 \\
       --pretrain Qwen/Qwen2.5-72B-Instruct
    """
# a Hydra config of the project's own: the rollout's size from the environment (default 1 if unset)
VERL_HYDRA = """\
    hydra:
      searchpath:
        - pkg://verl.trainer.config
    defaults:
      - ppo_trainer
      - _self_
    actor_rollout_ref:
      model:
        path: Qwen/Qwen2.5-72B-Instruct
      rollout:
        name: vllm
        tensor_model_parallel_size: {tp_ref}
    trainer:
      n_gpus_per_node: 8
    """

CASES = {
    "verl": ({"requirements.txt": "verl==0.6.1\nvllm==0.10.2\n"}, "run.sh", VERL, "$TP"),
    "trl": ({"requirements.txt": "trl==0.19.1\nvllm==0.9.2\n"}, "train.py", TRL, "args.tp"),
    "openrlhf": ({"requirements.txt": "openrlhf==0.9.7\nvllm==0.10.1\n"}, "train.sh", OPENRLHF, "${VLLM_TP}"),
    "verl-hydra": ({"requirements.txt": "verl==0.6.1\nvllm==0.10.2\n",
                    "run.sh": "python3 -m verl.trainer.main_ppo --config-path=config --config-name=my_ppo\n"},
                   "config/my_ppo.yaml", VERL_HYDRA, "${oc.env:ROLLOUT_TP,1}"),
}


@pytest.mark.parametrize("fw", list(CASES))
def test_an_unread_tensor_parallel_size_is_unknown_not_the_default(tmp_path, fw):
    files, name, text, unread = CASES[fw]
    sr = _audit(tmp_path, {**files, name: text.format(tp="$1", tp_ref=unread)}, "A100-80GB x8")
    assert sr.site.framework == fw.split("-")[0]
    assert not _p0(sr)
    assert next(r.status for r in sr.results if r.check.id == "L16") == "unknown"


@pytest.mark.parametrize("fw", ["verl", "trl", "openrlhf"])
def test_the_same_launch_with_tp_1_written_stays_a_p0(tmp_path, fw):
    files, name, text, _ = CASES[fw]
    sr = _audit(tmp_path, {**files, name: text.format(tp="1", tp_ref="1")}, "A100-80GB x8")
    assert "L16" in _p0(sr)  # 72B's weights at TP 1 do not fit an 80 GB GPU


SPLIT = """\
    python3 -m openrlhf.cli.train_ppo_ray \\
       --actor_num_nodes 1 --actor_num_gpus_per_node 4 \\
       --vllm_num_engines 2 --vllm_tensor_parallel_size 1 \\
       --vllm_enable_sleep {colocate} \\
       --pretrain Qwen/Qwen2.5-7B-Instruct
    """


@pytest.mark.parametrize("colocate, reaches", [("", False), ("--colocate_all_models", True)])
def test_openrlhf_sleep_reaches_vllm_only_when_colocated(tmp_path, colocate, reaches):
    files = {"requirements.txt": "openrlhf==0.9.7\nvllm==0.10.1\n", "train.sh": SPLIT.format(colocate=colocate)}
    sr = _audit(tmp_path, files, "H100-80GB x8")
    assert ("enable_sleep_mode" in sr.site.settings) is reaches
    assert ("vllm.enable_sleep" in sr.site.unmapped) is not reaches
    # the finding that says so stays
    assert any(f.id == "openrlhf-sleep-ignored" for f in sr.remarks) is not reaches


def test_openrlhf_sleep_fix_is_spelled_as_the_script_spells_its_flags(json_site, write_project):
    # a colocated 0.9.7 launch without sleep: H1 proposes the flat flag of the script's generation
    # (0.10.2 renamed them --vllm.enable_sleep …), read from the flags as written
    root = write_project({"requirements.txt": "openrlhf==0.9.7\nvllm==0.10.1\n",
                          "train.sh": textwrap.dedent(SPLIT.format(colocate="--colocate_all_models")).replace("--vllm_enable_sleep ", "")})
    (h1,) = [r for r in json_site(root, "H100-80GB x8")["recommendations"] if r["check"] == "H1"]
    assert [c["after"] for c in h1["changes"]] == ["--vllm_enable_sleep"]


DAPO = """\
    max_prompt_length=$((1024 * 2))
    max_response_length=$((1024 * 20))
    python3 -m verl.trainer.main_ppo \\
        data.max_prompt_length=${{max_prompt_length}} \\
        data.max_response_length=${{max_response_length}} \\
        actor_rollout_ref.model.path=Qwen/Qwen2.5-32B \\
        actor_rollout_ref.rollout.name=vllm \\
        actor_rollout_ref.rollout.tensor_model_parallel_size=4 \\
        trainer.n_gpus_per_node=8 {extra}
    """


def _dapo(tmp_path, extra: str = "", pins: str = "verl==0.4.1\nvllm==0.8.5\n"):
    sr = _audit(tmp_path, {"requirements.txt": pins, "run.sh": DAPO.format(extra=extra)}, "H100-80GB x8")
    return [f for f in sr.remarks if f.id == "verl-chunked-batched-tokens"], sr


def test_verl_refuses_a_chunked_budget_below_the_engine_length(json_site, write_project):
    # 2048 + 20480 tokens against verl's default budget of 8192, chunked prefill on by default
    root = write_project({"requirements.txt": "verl==0.4.1\nvllm==0.8.5\n", "run.sh": textwrap.dedent(DAPO.format(extra=""))})
    (rec,) = [r for r in json_site(root, "H100-80GB x8")["recommendations"] if r["check"] == "verl-chunked-batched-tokens"]
    assert rec["priority"] == "P0" and rec["safe"]
    assert [c["after"] for c in rec["changes"]] == ["actor_rollout_ref.rollout.max_num_batched_tokens=22528"]


@pytest.mark.parametrize("extra, pins", [
    # the recipe's own line: the budget is the sum (shell arithmetic the audit reads)
    ("actor_rollout_ref.rollout.max_num_batched_tokens=$((max_prompt_length + max_response_length))", "verl==0.4.1\nvllm==0.8.5\n"),
    ("actor_rollout_ref.rollout.enable_chunked_prefill=False actor_rollout_ref.rollout.max_num_batched_tokens=32768",
     "verl==0.4.1\nvllm==0.8.5\n"),
    ("actor_rollout_ref.rollout.mode=async", "verl==0.4.1\nvllm==0.8.5\n"),  # the async rollout has no such check
    ("actor_rollout_ref.rollout.max_num_batched_tokens=$BUDGET", "verl==0.4.1\nvllm==0.8.5\n"),  # unread: not judged
    ("", "verl==0.2.0.post2\nvllm==0.6.3\n"),  # before the check
    ("", "verl==0.7.1\nvllm==0.11.0\n"),  # no sync rollout
    ("", "vllm==0.8.5\n"),  # an unpinned verl is the newest release's
])
def test_verl_chunked_budget_not_refused(tmp_path, extra, pins):
    found, _ = _dapo(tmp_path, extra, pins)
    assert found == []


@pytest.mark.parametrize("flags, p0", [
    ("--colocate_all_models --async_train --vllm_enable_sleep", True),  # the flag survives the reset: the assert fires
    ("--async_train --vllm_enable_sleep", False),  # not colocated: reset to False before the assert
    ("--colocate_all_models --vllm_enable_sleep", False),
])
def test_openrlhf_async_training_refuses_sleep(tmp_path, flags, p0):
    text = SPLIT.format(colocate="").replace("--vllm_enable_sleep ", flags + " ")
    sr = _audit(tmp_path, {"requirements.txt": "openrlhf==0.9.7\nvllm==0.10.1\n", "train.sh": text}, "H100-80GB x8")
    assert ("openrlhf-async-sleep" in _p0(sr)) is p0


@pytest.mark.parametrize("kept, p0", [(True, True), (False, False)])
def test_openrlhf_async_sleep_reads_a_fork_in_the_tree(tmp_path, kept, p0):
    # an OpenRLHF fork in the tree runs its own train_ppo_ray.py: without the assertion nothing refuses
    assertion = "    assert not args.vllm_enable_sleep, 'Async RLHF is not supported with --vllm_enable_sleep.'\n" if kept else ""
    text = SPLIT.format(colocate="").replace("--vllm_enable_sleep ", "--colocate_all_models --async_train --vllm_enable_sleep ")
    files = {"train.sh": text, "requirements.txt": "vllm==0.10.1\n", "openrlhf/__init__.py": "", "openrlhf/cli/__init__.py": "",
             "openrlhf/cli/train_ppo_ray.py": "def main(args):\n" + assertion + "    return args\n",
             "openrlhf/trainer/ray/vllm_engine.py": "import ray\n"}
    assert ("openrlhf-async-sleep" in _p0(_audit(tmp_path, files, "H100-80GB x8"))) is p0


COLOCATE = """\
    from trl import GRPOConfig, GRPOTrainer
    cfg = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="colocate", vllm_tensor_parallel_size=2)
    trainer = GRPOTrainer(model="Qwen/Qwen2.5-7B-Instruct", args=cfg, reward_funcs=[], train_dataset=None)
    trainer.train()
    """


@pytest.mark.parametrize("launch, p0", [
    ("accelerate launch --num_processes 3 train.py", True),  # 3 processes in groups of 2
    ("accelerate launch --num_processes 4 train.py", False),
    ("torchrun --nnodes=1 --nproc_per_node 3 train.py", True),
    ("torchrun --nnodes 2 --nproc_per_node 3 train.py", False),  # 6 processes over two nodes: the count is per node
    ("python train.py", False),  # no count written: not judged
])
def test_trl_colocate_tp_must_divide_the_processes(tmp_path, launch, p0):
    files = {"requirements.txt": "trl==0.19.1\nvllm==0.9.2\n", "train.py": COLOCATE, "run.sh": launch + "\n"}
    assert ("trl-colocate-tp-world" in _p0(_audit(tmp_path, files, "H100-80GB x8"))) is p0


@pytest.mark.parametrize("pins, extra, p0", [
    ("verl==0.7.1\nvllm==0.11.0\n", "actor_rollout_ref.rollout.quantization=awq", True),
    ("verl==0.7.1\nvllm==0.11.0\n", "actor_rollout_ref.rollout.quantization=fp8", False),
    ("verl==0.7.1\nvllm==0.11.0\n", "actor_rollout_ref.rollout.quantization=ascend", True),  # ascend from 0.8.0
    ("verl==0.9.1\nvllm==0.18.0\n", "actor_rollout_ref.rollout.quantization=ascend", False),
    # QAT picks the method itself (0.8.0+): the key is not read
    ("verl==0.9.1\nvllm==0.18.0\n", "actor_rollout_ref.rollout.quantization=awq actor_rollout_ref.actor.fsdp_config.qat.enable=True", False),
    ("verl==0.6.1\nvllm==0.10.2\n", "actor_rollout_ref.rollout.quantization=awq", False),  # before the key's check
    # Hydra's null is `null`: `=None` is the string "None", which verl refuses like any other name
    ("verl==0.7.1\nvllm==0.11.0\n", "actor_rollout_ref.rollout.quantization=None", True),
    ("verl==0.7.1\nvllm==0.11.0\n", "actor_rollout_ref.rollout.quantization=null", False),
    ("verl==0.7.1\nvllm==0.11.0\n", "actor_rollout_ref.rollout.quantization=NULL", False),
])
def test_verl_quantization_only_for_the_methods_it_prepares(tmp_path, pins, extra, p0):
    run = ("python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct-AWQ "
           f"actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.tensor_model_parallel_size=1 {extra}\n")
    sr = _audit(tmp_path, {"requirements.txt": pins, "run.sh": run}, "H100-80GB x8")
    assert ("verl-quantization-method" in _p0(sr)) is p0
    assert "L11" not in _p0(sr)  # "None" is no pre-quantized method whose config file is missing


@pytest.mark.parametrize("pins, passed", [
    ("verl==0.5.0\nvllm==0.9.2\n", False),  # LLM(...) without max_num_seqs before 0.6.0: vLLM's default holds
    ("verl==0.6.1\nvllm==0.10.2\n", True),
])
def test_verl_max_num_seqs_reaches_vllm_from_0_6_0(tmp_path, pins, passed):
    run = ("python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
           "actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.max_num_seqs=2048\n")
    sr = _audit(tmp_path, {"requirements.txt": pins, "run.sh": run}, "H100-80GB x8")
    assert ("max_num_seqs" in sr.site.settings) is passed
    assert ("max_num_seqs" in sr.site.framework_defaults) is False  # written, or never passed


@pytest.mark.parametrize("pins, passed", [
    ("trl==1.16.0\nvllm==0.18.0\n", True),  # colocate LLM(trust_remote_code=…) from 1.8.0
    ("trl==1.7.0\nvllm==0.18.0\n", False),  # the config has it, the LLM it builds does not get it
])
def test_trl_trust_remote_code_reaches_the_colocated_engine_from_1_8(tmp_path, pins, passed):
    train = COLOCATE.replace('vllm_tensor_parallel_size=2', 'trust_remote_code=True')
    sr = _audit(tmp_path, {"requirements.txt": pins, "train.py": train}, "H100-80GB x8")
    got = sr.site.settings.get("trust_remote_code")
    assert (got is not None and got.value is True) is passed


@pytest.mark.parametrize("pins, task, p0", [
    ("ms-swift==4.0.4\nvllm==0.13.0\n", "embedding", True),  # EngineArgs(task="embed"): 0.13 removed the field
    ("ms-swift==4.0.4\nvllm==0.12.0\n", "embedding", False),  # the release still has it
    ("ms-swift==4.4.2\nvllm==0.13.0\n", "seq_cls", False),  # runner="pooling" where EngineArgs has it
    ("ms-swift==3.8.3\nvllm==0.13.0\n", "seq_cls", False),  # before 3.9.0 only embedding is handed on
    ("ms-swift==3.10.3\nvllm==0.14.1\n", "reranker", True),
    ("ms-swift==4.0.4\nvllm==0.13.0\n", "causal_lm", False),
])
def test_swift_encode_task_reaches_vllm_as_task(tmp_path, pins, task, p0):
    run = f"swift deploy --model Qwen/Qwen3-Embedding-0.6B --task_type {task} --infer_backend vllm\n"
    sr = _audit(tmp_path, {"requirements.txt": pins, "deploy.sh": run}, "H100-80GB x1")
    assert ("ms-swift-task-removed" in _p0(sr)) is p0
