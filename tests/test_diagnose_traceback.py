"""`vllm-kb diagnose --error` with a pasted traceback or a whole log (text, --error-file, stdin):
the exception lines weigh first, then the frames' source lines, then the rest; what is echoed is
bounded, redacted and free of control characters; English and Chinese."""
import io
import json

from vllm_kb.cli.main import main
from vllm_kb.engine.advise.diagnose import launch
from vllm_kb.engine.kb import traceback_text
from vllm_kb.engine.kb.knowledge import load

FA_ASSERT = """\
INFO 02-17 09:12:01 [__init__.py:190] Automatically detected platform cuda.
ERROR 02-17 09:12:40 [core.py:210] EngineCore hit an exception: Traceback (most recent call last):
ERROR 02-17 09:12:40 [core.py:210]   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 202, in run_engine_core
ERROR 02-17 09:12:40 [core.py:210]     engine_core = EngineCoreProc(*args, **kwargs)
ERROR 02-17 09:12:40 [core.py:210]   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/attention/backends/flash_attn.py", line 156, in __init__
ERROR 02-17 09:12:40 [core.py:210]     assert is_fa_version_supported(self.fa_version)
ERROR 02-17 09:12:40 [core.py:210] AssertionError
"""

DP_DENSE = """\
(EngineCore_0 pid=4242) Process Process-1:
Traceback (most recent call last):
  File "/usr/lib/python3.12/multiprocessing/process.py", line 313, in _bootstrap
    self.run()
  File "/opt/trl/trl/scripts/vllm_serve.py", line 352, in llm_worker
    llm = LLM(
  File "/opt/venv/lib/python3.12/site-packages/vllm/config/parallel.py", line 580, in __post_init__
    raise ValueError(
ValueError: Offline data parallel mode is not supported/useful for dense models.
"""


def test_a_bare_assertion_error_is_named_by_its_frame():
    kb = load()
    parsed = traceback_text.parse(FA_ASSERT)
    assert parsed.last == "AssertionError"
    assert parsed.frames[-1].code == "assert is_fa_version_supported(self.fa_version)"
    assert [h.id for h in launch.recognise(kb, FA_ASSERT)][:1] == ["L13"]
    assert launch.recognise(kb, "AssertionError") == []  # the last line alone names nothing


def test_the_exception_line_outranks_words_elsewhere_in_the_log():
    log = "INFO max_model_len 4096 exceeds the KV cache … (a warning)\n" + DP_DENSE
    assert [h.id for h in launch.recognise(load(), log)][:1] == ["L43"]


def test_log_prefixes_are_dropped_and_a_message_over_several_lines_is_kept_whole():
    text = "(RayWorkerWrapper pid=77, ip=10.0.0.2) ValueError: The model's max seq len (32768) is larger than\n" \
           "(RayWorkerWrapper pid=77, ip=10.0.0.2) the maximum number of tokens that can be stored in KV cache (1024).\n"
    parsed = traceback_text.parse(text)
    assert parsed.exceptions == ("ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (1024).",)


def test_error_file_and_stdin_read_the_same_traceback(tmp_path, capsys, monkeypatch):
    f = tmp_path / "crash.log"
    f.write_text(FA_ASSERT)
    assert main(["diagnose", "--error-file", str(f), "--gpu", "V100-32GB", "--format", "json"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(FA_ASSERT.encode())))
    assert main(["diagnose", "--error", "-", "--gpu", "V100-32GB", "--format", "json"]) == 0
    from_stdin = json.loads(capsys.readouterr().out)
    assert from_file["launch"][0]["id"] == from_stdin["launch"][0]["id"] == "L13"


def test_both_sources_at_once_is_a_usage_error(tmp_path, capsys):
    f = tmp_path / "e.log"
    f.write_text("AssertionError\n")
    assert main(["diagnose", "--error", "x", "--error-file", str(f), "--gpu", "none"]) == 2


def test_what_is_echoed_is_bounded_redacted_and_has_no_control_characters(tmp_path, capsys):
    token = "hf_" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zQ"
    noisy = "\x1b[31m" + "x" * 300_000 + "\n" + DP_DENSE.replace(
        "dense models.", f"dense models. HF_TOKEN={token} \x07\x1b]0;title\x07")
    f = tmp_path / "big.log"
    f.write_text(noisy)
    for lang in ("en", "zh"):
        assert main(["diagnose", "--error-file", str(f), "--gpu", "none", "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert token not in out and "\x07" not in out and "\x1b" not in out
        assert "L43" in out
    parsed = traceback_text.parse(noisy)
    assert len(parsed.text) <= traceback_text.MAX_CHARS
    assert len(traceback_text.echo(parsed, noisy)) <= traceback_text.ECHO
