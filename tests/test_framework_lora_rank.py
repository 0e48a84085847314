"""The LoRA rank a framework hands its vLLM: verl's actor lora_rank (as is up to 0.6.0, rounded up to
a rank vLLM accepts from 0.6.1), ms-swift GRPO's lora_rank with vllm_enable_lora (colocated rollout,
3.10+; vllm_max_lora_rank is not read there), and LLaMA-Factory's scripts/vllm_infer.py, which reads
no vllm_max_lora_rank (vLLM's default 16 holds; the fix goes through vllm_config)."""
from __future__ import annotations

import json

import pytest

VERL = """\
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 {extra}
"""

SWIFT = """\
swift rlhf \\
    --rlhf_type grpo \\
    --model Qwen/Qwen2.5-3B-Instruct \\
    --use_vllm true \\
    {extra}
"""


def _p0(site) -> list[str]:
    return [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]


def _check(site, cid: str) -> dict:
    return next(c for c in site["checks"] if c["id"] == cid)


@pytest.mark.parametrize("verl, vllm, rank, p0", [
    ("0.5.0", "0.10.0", 1, True),     # handed over as 1: vLLM before 0.11.1 accepts 8 … 512
    ("0.5.0", "0.12.0", 1, False),    # 0.11.1+ lists 1
    ("0.5.0", "0.10.0", 48, True),
    ("0.5.0", "0.10.0", 64, False),
    ("0.6.1", "0.10.0", 48, False),   # rounded up to 64 by verl itself
    ("0.6.1", "0.10.0", 1, False),    # rounded up to 8
])
def test_verl_lora_rank_reaches_vllm(json_site, write_project, verl, vllm, rank, p0):
    root = write_project({"run.sh": VERL.format(extra=f"actor_rollout_ref.model.lora_rank={rank}"),
                          "requirements.txt": f"verl=={verl}\nvllm=={vllm}\n"})
    site = json_site(root, "H100-80GB")
    assert ("L61" in _p0(site)) is p0
    if p0:  # the change names verl's own key
        assert "actor_rollout_ref.model.lora_rank=" in json.dumps(site["changes"])


def test_verl_without_lora_or_release_leaves_lora_off(json_site, write_project):
    root = write_project({"run.sh": VERL.format(extra=""), "requirements.txt": "verl==0.5.0\nvllm==0.10.0\n"})
    assert _check(json_site(root, "H100-80GB"), "L61")["status"] == "not_applicable"
    # an unknown verl release: which rank reaches vLLM is unknown, so nothing is claimed
    root = write_project({"run.sh": VERL.format(extra="actor_rollout_ref.model.lora_rank=48"), "requirements.txt": "vllm==0.10.0\n"})
    assert "L61" not in _p0(json_site(root, "H100-80GB"))


@pytest.mark.parametrize("extra, p0", [
    ("--vllm_mode colocate --vllm_enable_lora true --train_type lora --lora_rank 48", True),
    ("--vllm_mode colocate --vllm_enable_lora true --lora_rank 64", False),
    ("--vllm_mode colocate --vllm_enable_lora true --lora_rank 48 --vllm_max_lora_rank 64", True),  # not read by rlhf
    ("--vllm_mode colocate --vllm_enable_lora false --lora_rank 48", False),  # merged weights, no vLLM LoRA
    ("--vllm_mode colocate --vllm_enable_lora true --train_type full --lora_rank 48", False),
])
def test_swift_grpo_lora_rank(json_site, write_project, extra, p0):
    root = write_project({"grpo.sh": SWIFT.format(extra=extra), "requirements.txt": "ms-swift==3.10.0\nvllm==0.10.2\n"})
    site = json_site(root, "H100-80GB")
    assert ("L61" in _p0(site)) is p0
    if p0:
        text = json.dumps(site["changes"])
        assert "--lora_rank 64" in text and "--vllm_max_lora_rank" not in text


def _lf(json_site, write_project, script: str, rank: int):
    root = write_project({
        "infer.sh": script,
        "requirements.txt": "llamafactory==0.9.4\nvllm==0.11.0\n",
        "saves/sft/adapter_config.json": json.dumps({"peft_type": "LORA", "r": rank}),
    })
    return json_site(root, "A100-80GB")


VLLM_INFER = "python scripts/vllm_infer.py --model_name_or_path Qwen/Qwen2.5-7B-Instruct --adapter_name_or_path saves/sft {extra}\n"


def test_vllm_infer_reads_no_vllm_max_lora_rank(json_site, write_project):
    site = _lf(json_site, write_project, VLLM_INFER.format(extra=""), 32)
    assert "L62" in _p0(site)  # vLLM's default 16, not the chat engine's 32
    assert "vllm_config" in json.dumps(site["changes"]) and "vllm_max_lora_rank" not in json.dumps(site["changes"])
    # the key written on the script's command line does not reach vLLM either
    site = _lf(json_site, write_project, VLLM_INFER.format(extra="--vllm_max_lora_rank 64"), 32)
    assert "L62" in _p0(site)
    assert "vllm_max_lora_rank" in site["framework_info"]["unmapped"]
    # vllm_config does
    site = _lf(json_site, write_project, VLLM_INFER.format(extra="--vllm_config '{\"max_lora_rank\": 32}'"), 32)
    assert "L62" not in _p0(site)


def test_chat_engine_keeps_vllm_max_lora_rank(json_site, write_project):
    chat = "llamafactory-cli chat --model_name_or_path Qwen/Qwen2.5-7B-Instruct --adapter_name_or_path saves/sft --infer_backend vllm\n"
    site = _lf(json_site, write_project, chat, 32)
    assert _check(site, "L62")["status"] == "enabled"  # chat/vllm_engine.py passes vllm_max_lora_rank (32)


TRAIN_YAML = "model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nstage: sft\nfinetuning_type: lora\nlora_rank: {rank}\noutput_dir: saves/qwen/lora/sft\n"


@pytest.mark.parametrize("rank, p0", [(64, True), (16, False)])
def test_rank_from_the_projects_training_config(json_site, write_project, rank, p0):
    # the adapter folder is what the training writes: not in the project, its rank in the training YAML
    root = write_project({
        "examples/train_lora/qwen_lora_sft.yaml": TRAIN_YAML.format(rank=rank),
        "infer.sh": "python scripts/vllm_infer.py --model_name_or_path Qwen/Qwen2.5-7B-Instruct --adapter_name_or_path saves/qwen/lora/sft\n",
        "requirements.txt": "llamafactory==0.9.4\nvllm==0.11.0\n",
    })
    site = json_site(root, "A100-80GB")
    assert ("L62" in _p0(site)) is p0
    if p0:
        assert "qwen_lora_sft.yaml" in _check(site, "L62")["reason"]


def test_swift_infer_takes_the_rank_of_its_sft_run(json_site, write_project):
    root = write_project({
        "train.sh": "swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type lora --lora_rank 32 --output_dir output\n",
        "infer.sh": "swift infer --adapters output/v0-20250514-101010/checkpoint-500 --infer_backend vllm\n",
        "requirements.txt": "ms-swift==3.4.1\nvllm==0.8.5\n",
    })
    site = json_site(root, "A100-80GB")  # `swift sft` builds no engine: the one site is infer.sh
    assert "L62" in _p0(site) and "train.sh" in _check(site, "L62")["reason"]
