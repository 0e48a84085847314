"""A command line's `choices=` (built from a Literal) bind a Python call's value only where the
engine checks it too: block_size is SkipValidation in CacheConfig (0.9.1 config.py:1456), and
before 0.9.1 the config classes were plain dataclasses, so LLM(block_size=256) on 0.9.2 gets past
configuration while `--block-size 256` is refused by argparse."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.cli_choices import engine_skips


def _p0(tmp_path, files: dict, vllm: str) -> list[str]:
    (tmp_path / "requirements.txt").write_text(f"vllm=={vllm}\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [f"{f.code}:{f.subject}" for s in audit(tmp_path, gpu="A100-80GB").sites for f in s.remarks
            if f.priority == "P0"]


def test_python_block_size_outside_the_cli_choices_is_not_a_refusal(tmp_path):
    src = 'from vllm import LLM\nllm = LLM("Qwen/Qwen2-7B-Instruct", block_size=256)\n'
    assert _p0(tmp_path, {"run.py": src}, "0.9.2") == []


def test_the_same_value_on_the_command_line_is(tmp_path):
    assert _p0(tmp_path, {"serve.sh": "vllm serve Qwen/Qwen2-7B-Instruct --block-size 256\n"}, "0.9.2") \
        == ["value-not-in-version:block_size=256"]


def test_a_value_the_engine_checks_by_hand_stays_a_refusal(tmp_path):
    src = 'from vllm import LLM\nllm = LLM("Qwen/Qwen2-7B-Instruct", dtype="bfloat61")\n'
    assert _p0(tmp_path, {"run.py": src}, "0.9.0")


@pytest.mark.parametrize(("syntax", "name", "version", "skips"), [
    ("python-call", "block_size", "0.11.0", True),
    ("python-call", "dtype", "0.8.5", False),
    ("python-call", "prefix_caching_hash_algo", "0.8.5", False),
    ("python-call", "collect_detailed_traces", "0.9.0", True),
    ("python-call", "collect_detailed_traces", "0.9.1", False),
    ("python-call", "quantization", "0.8.5", False),
    ("cli", "block_size", "0.11.0", False),
])
def test_which_values_the_engine_skips(syntax, name, version, skips):
    assert engine_skips(syntax, name, version) is skips
