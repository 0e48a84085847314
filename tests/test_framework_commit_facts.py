"""A framework installed from a commit of its main branch (a release not placed) takes the keys'
defaults of the version the commit says (knowledge/frameworks/git_history.json), and the `implies`
rules that hold from a commit on (`since_commit`). LLaMA-Factory #2798 (9ee416a8, before vllm_gpu_util
existed: vLLM's 0.9, not the much later 0.7) and #7234 (scripts/vllm_infer.py passes max_model_len
only from #7235, commit 522a3e8493)."""
from __future__ import annotations

from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import framework_history, frameworks

_LF = "https://github.com/hiyouga/LLaMA-Factory.git"


def test_position_orders_the_main_branch():
    before, fix = framework_history.position("llamafactory", "18968405d0"), framework_history.position("llamafactory", "522a3e8493")
    assert before is not None and fix is not None and before < fix
    assert framework_history.position("llamafactory", "abc") is None  # too short to name one commit


@pytest.mark.parametrize("commit,version,implied", [
    ("18968405d0", "0.9.2.dev0", False),  # before #7235: LLM() without max_model_len
    ("522a3e8493", "0.9.2.dev0", True),  # the fix itself
    (None, "0.9.2", True),  # a release: its versions decide
    (None, "0.9.2.dev0", False),  # a dev build of unknown commit: most predate the fix
])
def test_vllm_infer_max_model_len_from_the_fix_on(commit, version, implied):
    fw = frameworks.get("llamafactory")
    got = [r["arg"] for r, _ in fw.implied({"cutoff_len": 2048, "max_new_tokens": 1024}, version, "vllm_infer", commit)]
    assert ("max_model_len" in got) is implied


def _project(tmp_path: Path, sha: str, command: str) -> Path:
    (tmp_path / "requirements.txt").write_text(f"llamafactory @ git+{_LF}@{sha}\nvllm==0.7.3\n")
    (tmp_path / "run.sh").write_text(command + "\n")
    return tmp_path


@pytest.mark.parametrize("sha,max_len", [("18968405d06a325cb55ffaba665272cab58817d4", None),
                                         ("522a3e8493b3fbc7eccac56781aa9241fefb4198", 3072)])
def test_a_commit_pin_reads_that_commits_script(tmp_path, sha, max_len):
    root = _project(tmp_path, sha, "python scripts/vllm_infer.py --model_name_or_path Qwen/Qwen2.5-7B-Instruct --template qwen")
    (site,) = audit(root, gpu="A100-80GB").sites
    assert site.facts["engine"].get("max_model_len") == max_len


def test_a_commit_before_vllm_gpu_util_leaves_vllms_share(tmp_path):
    (tmp_path / "requirements.txt").write_text(f"llmtuner @ git+{_LF}@9ee416a8fcf19d3dd8bdc310ba5a5eeead6db2fa\nvllm==0.3.3\n")
    (tmp_path / "run.sh").write_text("python src/cli_demo.py --model_name_or_path Qwen/Qwen1.5-7B-Chat --template qwen --infer_backend vllm\n")
    (site,) = audit(tmp_path, gpu="A100-80GB").sites
    assert site.facts["engine"]["gpu_memory_utilization"] == 0.9  # not 0.7, LLaMA-Factory's default from 0.9.3
