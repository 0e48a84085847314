"""ms-swift launches the audit missed: Megatron GRPO (`megatron rlhf --rlhf_type grpo --use_vllm true`), which
ms-swift 3.10.2 refuses at argument parsing (rlhf_type Literal['dpo', 'kto', 'rm']; 'grpo' from 3.11.0), and
the checkout's CLI file run by a launcher whose options are not all known (`torchrun --nnodes=${WORLD_SIZE}
swift/cli/rlhf.py`, `python -m torch.distributed.run swift/cli/rlhf.py`). Real cases: hzhang57/Option-R1 and
hzhang57/opt-r2 (https://github.com/hzhang57/Option-R1) examples/megatron/grpo/*.sh and
examples/train/grpo/multi_node/train_dlc.sh, with ms-swift==3.10.2 pinned."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

MEGATRON = """\
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 NPROC_PER_NODE=8 megatron rlhf \\
    --rlhf_type {algo} --model Qwen/Qwen2.5-7B-Instruct --use_vllm true --vllm_mode colocate \\
    --vllm_gpu_memory_utilization 0.5 --vllm_max_model_len 4096 --tensor_model_parallel_size 2
"""


@pytest.mark.parametrize("swift,algo,p0", [("3.10.2", "grpo", True), ("3.11.0", "grpo", False), ("3.10.2", "dpo", None)])
def test_megatron_grpo_is_a_site_and_3_10_refuses_it(tmp_path, swift, algo, p0):
    (tmp_path / "requirements.txt").write_text(f"ms-swift=={swift}\nvllm==0.11.0\n")
    text = MEGATRON.format(algo=algo)
    if algo == "dpo":  # a Megatron DPO run: no rollout engine
        text = text.replace("--use_vllm true --vllm_mode colocate ", "")
    (tmp_path / "grpo.sh").write_text(text)
    sites = audit(tmp_path, gpu="H100-80GB x8").sites
    if p0 is None:  # DPO starts no vLLM engine
        assert sites == []
        return
    (sr,) = sites
    assert sr.site.kind == "megatron rlhf" and sr.site.settings["max_model_len"].value == 4096
    found = [f for f in sr.remarks if f.code == "ms-swift-megatron-no-grpo"]
    assert [f.priority for f in found] == (["P0"] if p0 else [])


@pytest.mark.parametrize("launcher", [
    "NNODES=$WORLD_SIZE NODE_RANK=$RANK torchrun --nproc_per_node=8 --nnodes=${WORLD_SIZE} --node_rank=${RANK}",
    "python -m torch.distributed.run --nproc_per_node 8",
])
def test_the_checkout_cli_file_under_a_launcher_is_a_site(tmp_path, launcher):
    (tmp_path / "requirements.txt").write_text("ms-swift==3.10.2\nvllm==0.11.0\n")
    (tmp_path / "train_dlc.sh").write_text(
        f"{launcher} \\\n    swift/cli/rlhf.py --rlhf_type grpo --model Qwen/Qwen2.5-7B --use_vllm true \\\n"
        "    --vllm_mode colocate --vllm_max_model_len 2048 --vllm_tensor_parallel_size 4\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert sr.site.kind == "swift rlhf" and sr.site.settings["tensor_parallel_size"].value == 4


@pytest.mark.parametrize("launcher", ["torchrun --nproc_per_node 4 -m", "torchrun --module", "python -m torch.distributed.run -m"])
def test_the_cli_module_under_a_launcher_is_a_site(tmp_path, launcher):
    """torchrun's -m/--module is a switch: the script after it is a module (heldout62: PRL-addENV's
    `torchrun … -m swift.cli.rlhf`, two sites the audit did not read)."""
    (tmp_path / "requirements.txt").write_text("ms-swift==3.10.2\nvllm==0.11.0\n")
    (tmp_path / "train.sh").write_text(
        f"{launcher} swift.cli.rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B --use_vllm true --vllm_tensor_parallel_size 2\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert sr.site.kind == "swift rlhf" and sr.site.settings["tensor_parallel_size"].value == 2


@pytest.mark.parametrize("script", [
    'python $(python -c "import swift,os;print(os.path.dirname(swift.__file__))")/cli/rlhf.py',
    'RLHF_SCRIPT=$(python -c \'import swift; import os; print(os.path.dirname(swift.__file__) + "/cli/rlhf.py")\')\n'
    'python -m torch.distributed.run --nproc_per_node 1 "$RLHF_SCRIPT"',
    'SWIFT_DIR=$(python -c "import swift, os; print(os.path.dirname(swift.__file__))")\ntorchrun --nproc_per_node 2 $SWIFT_DIR/cli/rlhf.py',
])
def test_the_installed_cli_file_found_through_python_is_a_site(tmp_path, script):
    """ms-swift's CLI file located by asking Python where the package is (cmyandlqs/grpo_qwen2.5,
    https://github.com/cmyandlqs/grpo_qwen2.5 scripts/train_grpo.sh, eval66: two missed sites)."""
    (tmp_path / "requirements.txt").write_text("ms-swift==3.10.2\nvllm==0.11.0\n")
    (tmp_path / "train.sh").write_text(
        f"{script} \\\n    --rlhf_type grpo --model Qwen/Qwen2.5-0.5B --use_vllm true --vllm_mode colocate \\\n"
        "    --vllm_gpu_memory_utilization 0.4 --vllm_max_model_len 2048\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert sr.site.kind == "swift rlhf" and sr.site.settings["max_model_len"].value == 2048


@pytest.mark.parametrize("script", [
    'python $(python -c "import mypkg,os;print(os.path.dirname(mypkg.__file__))")/cli/rlhf.py',
    'python $(python -c "import swift,os;print(os.path.dirname(swift.__file__))")/cli/convert.py',
])
def test_another_package_or_a_file_that_is_no_swift_command_is_no_site(tmp_path, script):
    (tmp_path / "train.sh").write_text(f"{script} --rlhf_type grpo --model Qwen/Qwen2.5-0.5B --use_vllm true\n")
    assert not audit(tmp_path, gpu="H100-80GB x8").sites


def test_a_ray_launcher_config_needs_no_vllm_mode(tmp_path):
    # modelscope/ms-swift examples/ray/grpo/ray_grpo_colocate.yaml (https://github.com/modelscope/ms-swift), run as
    # `megatron rlhf --use_ray true --config "$SCRIPT_DIR/ray_grpo_colocate.yaml"`: use_vllm without vllm_mode, the
    # rollout replicas placed by colocate_groups; only `swift rlhf` (RLHFArguments._init_rollout) refuses that
    # (7 false ms-swift-mode-required P0s in the session-34 census)
    (tmp_path / "requirements.txt").write_text("ms-swift==4.0.0\nvllm==0.11.0\n")
    ray = ("rlhf_type: grpo\nmodel: Qwen/Qwen2.5-VL-3B-Instruct\nuse_vllm: true\n"
           "colocate_groups: [[train, rollout]]\nsleep_level: 1\n"
           "train:\n  gpus: 4\n  tensor_model_parallel_size: 1\nrollout:\n  gpus: 4\n  vllm_gpu_memory_utilization: 0.4\n")
    (tmp_path / "ray_grpo_colocate.yaml").write_text(ray)
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert not [f for f in sr.remarks if f.code == "ms-swift-mode-required"]
    # the same keys without the Ray launcher's are a `swift rlhf` config, which raises
    (tmp_path / "ray_grpo_colocate.yaml").write_text("rlhf_type: grpo\nmodel: Qwen/Qwen2.5-VL-3B-Instruct\nuse_vllm: true\nsleep_level: 1\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert [f.priority for f in sr.remarks if f.code == "ms-swift-mode-required"] == ["P0"]
