"""`--model <model_name> \\` in a launch script: a placeholder for the reader, which bash would read as
two redirections, leaving the next flag's value (`1`) as the model. eval105: TinyZero-TRL
scripts/grpo_vlm.sh. The placeholder is read as an unset variable: the model is unknown, never `1`."""
from __future__ import annotations

from vllm_kb.engine.scan.project import scan_project


def test_a_placeholder_is_no_model_and_the_other_flags_still_read(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.7.2\n")
    (tmp_path / "serve.sh").write_text("vllm serve --model <model_name> \\\n    --tensor-parallel-size 1 \\\n"
                                       "    --gpu-memory-utilization 0.8\n")
    (site,) = scan_project(tmp_path).sites
    assert site.model is None or not site.model.resolved
    assert site.settings["gpu_memory_utilization"].value == 0.8 and site.settings["tensor_parallel_size"].value == 1


def test_a_redirection_written_with_spaces_stays_one(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen2.5-0.5B-Instruct > log.txt 2>&1\n")
    (site,) = scan_project(tmp_path).sites
    assert site.model.value == "Qwen/Qwen2.5-0.5B-Instruct"
