"""`requirements*.lock` is a requirements file pip reads with -r (rye's `requirements.lock`, a `pip freeze`
kept under that name): its vLLM pin decides the release, wherever a requirements*.txt would (eval75
terrense/SFT_RLHF-DPO_GRPO-: docs/requirements.vllm.lock, the frozen venv its serve scripts run, pins 0.24.0)."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.pins import is_pin_file


def test_a_frozen_lock_under_docs_pins_the_release(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "requirements.vllm.lock").write_text("\ufeffaiohttp==3.14.1\ntorch==2.11.0\nvllm==0.24.0\n")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "serve.sh").write_text("exec $LAB/vllm_env/bin/vllm serve Qwen/Qwen3-8B --max-model-len 4096\n")
    (sr,) = audit(tmp_path, gpu="none").sites
    assert (sr.version.version, sr.version.basis) == ("0.24.0", "pin")


def test_which_lock_names_are_requirements_files():
    assert is_pin_file("requirements.lock") and is_pin_file("requirements-dev.lock") and is_pin_file("docs/requirements.vllm.lock")
    assert not is_pin_file("package.lock") and not is_pin_file("yarn.lock")
