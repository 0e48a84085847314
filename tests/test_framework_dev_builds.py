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
