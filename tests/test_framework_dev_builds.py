"""A framework's development build (llamafactory 0.9.1.dev0) runs the vLLM range check of its
commit, which lies between the release before its line (0.9.0: vllm<=0.6.0) and the release the
line became (0.9.1: vllm<0.6.4): a vLLM both refuse is refused by every commit (P0); one only one
of them refuses depends on the commit (P1, naming both releases)."""
from __future__ import annotations

import json

import pytest

CONFIG = "model_name_or_path: Qwen/Qwen2.5-7B-Instruct\ntemplate: qwen\ninfer_backend: vllm\n"


def _l43(cli, write_project, fw: str, vllm: str):
    root = write_project({"requirements.txt": f"llamafactory=={fw}\nvllm=={vllm}\n",
                          "run.sh": "llamafactory-cli chat infer.yaml\n", "infer.yaml": CONFIG})
    code, out, err = cli("audit", str(root), "--gpu", "A100-80GB", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return [r for r in site["recommendations"] if r["check"] == "L43"]


@pytest.mark.parametrize(("fw", "vllm", "want"), [
    ("0.9.1.dev0", "0.6.3", "P1"),  # 0.9.0 refuses, 0.9.1 takes it
    ("0.9.1.dev0", "0.6.5", "P0"),  # both refuse
    ("0.9.1.dev0", "0.6.0", None),  # both take it
    ("0.9.1", "0.6.3", None),
    ("0.9.0", "0.6.3", "P0"),
])
def test_a_dev_build_is_judged_between_its_releases(cli, write_project, fw, vllm, want):
    got = _l43(cli, write_project, fw, vllm)
    assert [r["priority"] for r in got] == ([want] if want else [])
    if want == "P1":
        assert "0.9.0 … 0.9.1" in got[0]["reason"]


def _rollout_l43(cli, write_project, commit: str):
    root = write_project({
        "requirements.txt": f"ms-swift @ git+https://github.com/modelscope/ms-swift.git@{commit}\nvllm==0.7.3\n",
        "rollout.sh": "swift rollout --model Qwen/Qwen2.5-7B-Instruct\n"})
    code, out, err = cli("audit", str(root), "--gpu", "A100-80GB x2", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return [r for r in site["recommendations"] if r["check"] == "L43"]


@pytest.mark.parametrize(("commit", "want"), [
    # 3.5.0.dev0: the release before its line (3.4.x) and 3.5.0 both pass worker_extension_cls in
    # `swift rollout`, which vLLM 0.7.3's EngineArgs lacks: every commit between does too
    ("9de7addb3e", "P0"),
    # 3.4.0.dev0: 3.3.x had no rollout command, so whether the commit passes it is the commit's own,
    # which the history did not read: a fixed commit gets no verdict from one end's facts (eval105)
    ("fd84c468b8", None),
])
def test_a_git_commit_is_refused_where_both_ends_of_its_line_refuse(cli, write_project, commit, want):
    got = _rollout_l43(cli, write_project, commit)
    assert [r["priority"] for r in got] == ([want] if want else [])
    assert not got or "worker_extension_cls" in got[0]["reason"]
