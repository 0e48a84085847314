"""A model known only by a size written in a local folder's name, and batch-job files of HPC
schedulers (eval70: KG_GRPO's SLURM `.job` scripts launching verl from `outputs/verl-sft-cwq-39b-step400`,
a 7B run of task 39)."""
from __future__ import annotations

from vllm_kb.engine.audit import audit


def _l16(root):
    (sr,) = audit(root, gpu="H100-80GB x1").sites
    return next(r for r in sr.results if r.check.id == "L16")


def test_a_size_in_a_local_folders_name_is_a_warning_not_a_certainty(write_project, tmp_path):
    r = _l16(write_project({"requirements.txt": "vllm==0.20.0\n", "serve.sh": "vllm serve outputs/run-sft-39b-step400\n"},
                           tmp_path / "folder"))
    assert r.status == "recommended" and r.priority == "P1" and "local folder" in r.reason_text("en")
    # an upload's name states its size by convention: still P0 (vllm#7028's hiuman/Vistral-7B-Chat-quantize shape)
    r = _l16(write_project({"requirements.txt": "vllm==0.20.0\n", "serve.sh": "vllm serve someorg/Custom-120B-Chat\n"},
                           tmp_path / "hub"))
    assert r.status == "recommended" and r.priority == "P0"


def test_a_batch_job_file_with_a_shell_shebang_is_a_script(write_project, tmp_path):
    job = "#!/usr/bin/env bash\n#SBATCH --gpus=4\nvllm serve Qwen/Qwen2.5-7B-Instruct -tp 4\n"
    assert [s.site.file for s in audit(write_project({"run.job": job}, tmp_path / "a")).sites] == ["run.job"]
    # without a shebang a .job file may be anything (a CI job definition): not read as a script
    assert not audit(write_project({"run.job": job.split("\n", 1)[1]}, tmp_path / "b")).sites


def test_a_moe_folder_of_a_dense_family_is_a_size_read_from_the_name(write_project, tmp_path):
    # bdsaglam/docvqa-verl examples/grpo_trainer/run_qwen3_30b_veomni.sh (https://github.com/bdsaglam/docvqa-verl,
    # eval89): `/Qwen3-30B-MoE-merge` matched the dense qwen3 family at 30B (≈56 GiB a GPU); the name says MoE,
    # so the family's dense shape describes another model and the size is the name's guess: P1, not P0
    r = _l16(write_project({"requirements.txt": "vllm==0.20.0\n",
                            "serve.sh": "vllm serve /Qwen3-30B-MoE-merge --gpu-memory-utilization 0.7\n"}, tmp_path / "moe"))
    assert r.status == "recommended" and r.priority == "P1"
    # the same folder without the word keeps the family's size; `-merge` names a training run's output, whose
    # config.json the project does not hold (engine/check/name_guess.py): P1; named as the model itself: P0
    r = _l16(write_project({"requirements.txt": "vllm==0.20.0\n",
                            "serve.sh": "vllm serve /Qwen3-30B-merge --gpu-memory-utilization 0.7\n"}, tmp_path / "dense"))
    assert r.status == "recommended" and r.priority == "P1" and "/Qwen3-30B-merge" in r.reason_text("en")
    r = _l16(write_project({"requirements.txt": "vllm==0.20.0\n",
                            "serve.sh": "vllm serve /Qwen3-30B --gpu-memory-utilization 0.7\n"}, tmp_path / "plain"))
    assert r.status == "recommended" and r.priority == "P0"
