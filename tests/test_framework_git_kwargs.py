"""A framework installed from git is judged by the engine arguments its commit passes
(knowledge/frameworks/git_history.json `kwargs`, tools/framework_git_history.py): LLaMA-Factory main
from 2025-10-16 (0.9.4.dev0, declaring vLLM <=0.11.0) still passed disable_log_requests, which vLLM
0.10.1 removed (https://github.com/hiyouga/LlamaFactory/issues/9386)."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import framework_history

REPO = "git+https://github.com/hiyouga/LLaMA-Factory.git"


def _l43(tmp_path, req: str, vllm: str = "0.11.0"):
    (tmp_path / "requirements.txt").write_text(f"{req}\nvllm=={vllm}\n")
    (tmp_path / "infer_vllm.yaml").write_text("model_name_or_path: Qwen/Qwen3-8B\ntemplate: qwen3\ninfer_backend: vllm\n")
    (tmp_path / "run_api.sh").write_text("#!/bin/sh\nAPI_PORT=8000 llamafactory-cli api infer_vllm.yaml\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    return sr, next(r for r in sr.results if r.check.id == "L43")


def _run_passing(name: str, present: bool) -> dict:
    runs = framework_history.table()["frameworks"]["llamafactory"]["runs"]
    return next(r for r in runs if r["version"] == "0.9.4.dev0" and r.get("declared") == ">=0.4.3,<=0.11.0"
                and any(name in c["kwargs"] for c in r["kwargs"]) == present)


def test_the_history_holds_what_each_commit_passes():
    run = _run_passing("disable_log_requests", True)
    assert run["since"] >= "2025-10-16"


def test_a_commit_that_passes_the_removed_argument_is_p0(tmp_path):
    sha = _run_passing("disable_log_requests", True)["commits"].split()[-1]
    sr, r = _l43(tmp_path, f"llamafactory @ {REPO}@{sha}")
    assert r.status == "recommended" and r.priority == "P0", r.reason_text("en")
    assert "disable_log_requests" in r.reason_text("en") and sha in sr.facts["launch"]["fw_release"]


def test_the_release_pin_and_the_dev_pin_are_unchanged(tmp_path):
    _, r = _l43(tmp_path, "llamafactory==0.9.4.dev0")
    assert r.priority == "P0" and "disable_log_requests" in r.reason_text("en")


def test_main_as_of_its_newest_commit_passes_no_removed_argument(tmp_path):
    _, r = _l43(tmp_path, f"llamafactory @ {REPO}@main")
    assert "disable_log_requests" not in r.reason_text("en")
