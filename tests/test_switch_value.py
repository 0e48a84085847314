"""`--enable-chunked-prefill true` on a release where the flag is a switch (BooleanOptionalAction from vLLM
0.8.5, 0.8.5 vllm/engine/arg_utils.py:150-152): the stray-positional P0 names the cause — the flag takes no
value here, 0.5.3–0.8.4 took one (StoreBoolean nargs='?', 0.8.4 arg_utils.py:783-790) — and what to write
instead. eval97 Zityuen/open-r1-coderm slurm/experimental/serve_r1_vllm.slurm:84 under vllm==0.8.5.post1
(https://github.com/Zityuen/open-r1-coderm)."""
import pytest
from vllm_kb.engine.audit import audit


def _stray(tmp_path, pin: str, line: str):
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"vllm serve Qwen/Qwen2.5-7B-Instruct {line}\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    return [f for f in sr.remarks if f.code == "stray-positional"]


@pytest.mark.parametrize("line,says", [
    ("--enable-chunked-prefill true", "Write `--enable-chunked-prefill` alone: drop `true`"),
    ("--enable-chunked-prefill False", "Write `--no-enable-chunked-prefill` instead"),
    ("--enforce-eager false", "Leave `--enforce-eager` out"),  # a store_true switch has no --no- form
])
def test_a_switch_followed_by_a_boolean_says_why_and_what_to_write(tmp_path, line, says):
    (f,) = _stray(tmp_path, "0.8.5.post1", line)
    assert f.priority == "P0" and says in f.message["en"]
    assert "takes no value in vLLM 0.8.5" in f.message["en"] and "unrecognized arguments" in f.message["en"]
    assert "不接受取值" in f.message["zh"]
    if "chunked" in line:
        assert "from 0.8.5 on (0.5.3–0.8.4 took a value after it)" in f.message["en"]


def test_the_release_that_took_the_value_has_no_finding(tmp_path):
    assert _stray(tmp_path, "0.7.3", "--enable-chunked-prefill true") == []


def test_another_stray_word_keeps_the_plain_words(tmp_path):
    (f,) = _stray(tmp_path, "0.8.5.post1", "--enable-chunked-prefill maybe")
    assert f.message["en"].startswith("Unexpected positional argument maybe")
