"""A framework installed from a git commit or branch whose release cannot be placed
(engine/scan/framework_unplaced.py): nothing that rests on a guessed release is a P0.
Real case: tests/realcases/framework-git-commit--tinyzero-trl-control."""
import textwrap

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.pins import is_pin_file

TRL_COMMIT = "trl @ git+https://github.com/huggingface/trl.git@e751a16df56e70190fb94bed4a2035eec3303777"
RECIPE = """\
    model_name_or_path: Qwen/Qwen2.5-3B-Instruct
    max_prompt_length: 256
    max_completion_length: 1024
    use_vllm: true
    vllm_device: "cuda:3"
    """


def _audit(tmp_path, req_name: str, trl: str):
    files = {req_name: f"transformers==4.49.0\n{trl}\nvllm==0.7.2\n", "recipes/grpo.yaml": RECIPE,
             "train.sh": "accelerate launch src/grpo.py --config recipes/grpo.yaml\n"}
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return next(s for s in audit(tmp_path, gpu="A100-80GB").sites if s.site.framework == "trl")


def test_the_singular_requirement_file_is_read():
    assert is_pin_file("requirement.txt") and is_pin_file("deps/requirement-dev.txt") and is_pin_file("requirements.txt")
    assert not is_pin_file("requirement.md")


def test_a_git_commit_gives_no_release_dependent_p0(tmp_path):
    sr = _audit(tmp_path, "requirement.txt", TRL_COMMIT)
    assert sr.site.framework_unplaced.startswith("trl @ git+")
    assert "max_num_batched_tokens" not in sr.site.fixed  # TRL hard-codes 4096 only from 0.19.0 (L17)
    assert not [f for f in sr.remarks if f.priority == "P0"]
    assert not [r for r in sr.results if r.priority == "P0"]


def test_a_commit_the_history_holds_is_judged_as_its_own_code(tmp_path):
    # eval105 (TinyZero-TRL): e751a16 is 0.17.0.dev0, whose GRPOConfig still has vllm_device (gone in
    # 0.18), whose setup declares vllm>=0.7.0 and whose vllm-serve passes worker_cls (vLLM 0.7.2 has it):
    # neither 0.17.0's vllm>=0.8.3 nor its worker_extension_cls is a fact about the commit
    sr = _audit(tmp_path, "requirement.txt", TRL_COMMIT)
    assert sr.site.framework_version == "0.17.0.dev0"
    assert not [f for f in sr.remarks if f.code == "trl-legacy-key"]
    assert not [r for r in sr.results if r.check.id == "L43" and r.status == "recommended"]


def test_the_commits_own_declared_range_is_held_against_the_pin(tmp_path):
    (tmp_path / "requirements.txt").write_text(f"{TRL_COMMIT}\nvllm==0.6.6\n")
    (tmp_path / "recipes").mkdir()
    (tmp_path / "recipes/grpo.yaml").write_text(textwrap.dedent(RECIPE))
    (tmp_path / "train.sh").write_text("accelerate launch src/grpo.py --config recipes/grpo.yaml\n")
    sr = next(s for s in audit(tmp_path, gpu="A100-80GB").sites if s.site.framework == "trl")
    l43 = next(r for r in sr.results if r.check.id == "L43")
    assert l43.status == "recommended" and "vllm>=0.7.0" in l43.reason_text("en")


def test_without_any_trl_pin_the_newest_release_still_decides(tmp_path):
    sr = _audit(tmp_path, "requirement.txt", "trl")
    assert not sr.site.framework_unplaced and sr.site.fixed.get("max_num_batched_tokens") == 4096


def test_a_key_only_some_releases_read_is_not_written_for_a_commit(tmp_path):
    # TRL reads vllm_enable_sleep_mode from 0.23.0 only; a commit of unknown release may lack it, and
    # TrlParser rejects a key its GRPOConfig lacks: the H1 change is never written. (This commit's
    # history places it before 0.18, where `vllm_device` gives vLLM a GPU of its own: H1 does not apply.)
    sr = _audit(tmp_path, "requirement.txt", TRL_COMMIT)
    assert sr.site.mode == "rlhf_server"
    assert all(c.blocked == "unplaced" and c.after is None for c in sr.changes if c.target == "enable_sleep_mode")
    # a release keeps its own answer (0.19.0 has no such key: the newer release is named instead)
    pinned = _audit(tmp_path / "r", "requirements.txt", "trl==0.19.0")
    assert all(c.blocked != "unplaced" for c in pinned.changes)
