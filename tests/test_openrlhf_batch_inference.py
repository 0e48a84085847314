"""`python -m openrlhf.cli.batch_inference --eval_task generate_vllm …` builds its own LLM() from its own
flags (knowledge/frameworks/openrlhf.yaml): a launch of the script that runs it, whether OpenRLHF is
installed or copied into the tree. OpenRLHF's examples/scripts/train_iterative_dpo_llama.sh and
train_rejection_sampling_llama.sh hold the command in `read -r -d '' generate_commands <<EOF … EOF` and
run `python -m $generate_commands` (lilei199908/OpenRLHF, https://github.com/lilei199908/OpenRLHF,
eval90: two sites missed). The training engines' defaults and fixed arguments are not this call's."""
from __future__ import annotations

import textwrap

from vllm_kb.engine.audit import audit

SCRIPT = """\
set -x
POLICY_MODEL_PATH=OpenRLHF/Llama-3-8b-sft-mixture
read -r -d '' generate_commands <<EOF
openrlhf.cli.batch_inference
   --eval_task {task} \\
   --pretrain $POLICY_MODEL_PATH \\
   --max_new_tokens 2048 \\
   --prompt_max_len 2048 \\
   {tp}--enable_prefix_caching \\
   --max_num_seqs 64 \\
   --output_path ./out.jsonl
EOF
echo $generate_commands
python -m $generate_commands
"""


def _sites(tmp_path, pin: str, task: str = "generate_vllm", tp: str = "--tp_size 4 \\\n   "):
    (tmp_path / "requirements.txt").write_text(f"openrlhf=={pin}\n")
    (tmp_path / "gen.sh").write_text(textwrap.dedent(SCRIPT).replace("{task}", task).replace("{tp}", tp))
    return audit(tmp_path, gpu="4xH100").sites


def test_generate_vllm_is_a_site_with_its_own_flags(tmp_path):
    (sr,) = _sites(tmp_path, "0.8.5")
    site = sr.site
    assert (site.file, site.line, site.kind, site.mode) == ("gen.sh", 15, "openrlhf batch_inference", "standalone_offline")
    assert site.model.value == "OpenRLHF/Llama-3-8b-sft-mixture"
    got = {k: s.value for k, s in site.settings.items()}
    assert got["tensor_parallel_size"] == 4 and got["max_num_seqs"] == 64 and got["enable_prefix_caching"] is True
    # batch_generate_vllm passes neither a dtype, a length nor a memory share: vLLM's own defaults hold
    assert "dtype" not in site.fixed and "max_model_len" not in got
    assert not {"gpu_memory_utilization", "max_model_len", "enforce_eager"} & set(site.framework_defaults)


def test_tp_size_left_out_is_every_gpu_the_process_sees(tmp_path):
    (sr,) = _sites(tmp_path, "0.8.5", tp="")
    tp = sr.site.settings["tensor_parallel_size"]
    assert not tp.resolved and "number of GPUs" in (tp.note or "")


def test_other_tasks_and_releases_without_the_module_start_no_vllm(tmp_path):
    (tmp_path / "rm").mkdir()
    (tmp_path / "new").mkdir()
    assert not _sites(tmp_path / "rm", "0.8.5", task="rm")  # the reward model, no vLLM
    assert not _sites(tmp_path / "new", "0.9.7")  # 0.9.6+ ship no cli/batch_inference.py
