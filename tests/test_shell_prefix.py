"""A shell script with a syntax error is read up to the command that holds it: bash runs each command
before it reads the next, so the commands above the error have run (engine/scan/shell_prefix.py).
Shaped after jasonacox/TinyLLM vllm/run-awq.sh, where a stray line with an open quote follows the
`docker run` of the server."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.shell_prefix import before_error

_LAUNCH = ("NAME=awq\n"
           "docker stop $NAME\n"
           "docker run -d --gpus all --name $NAME \\\n"
           "    vllm/vllm-openai:v0.6.3 \\\n"
           "    --model TheBloke/Mistral-7B-Instruct-v0.1-AWQ \\\n"
           "    --quantization awq\n"
           "\n"
           "    # notes\n")


def test_the_commands_before_a_stray_quote_are_read(tmp_path):
    (tmp_path / "run.sh").write_text("#!/bin/bash\n" + _LAUNCH + '-q ${Q} --dtype ${D}"\n\necho "done"\n')
    rep = audit(tmp_path)
    (sr,) = rep.sites
    assert (sr.site.file, sr.site.line) == ("run.sh", 4)
    assert sr.site.settings["quantization"].value == "awq"
    (skip,) = rep.skipped
    # the read stops at the broken command's first line, and says so
    assert (skip.file, skip.line, skip.code) == ("run.sh", 10, "shell-partial")


def test_a_command_that_runs_into_the_error_is_not_read(tmp_path):
    # the quote opens inside the launch's own continuation lines: bash never runs it
    (tmp_path / "run.sh").write_text("#!/bin/bash\necho start\nvllm serve m \\\n  --dtype \"half\n")
    rep = audit(tmp_path)
    assert rep.sites == []
    assert [(s.line, s.code) for s in rep.skipped] == [(2 + 1, "shell-partial")]


def test_an_open_compound_command_is_left_out_whole():
    text = "a\nif true; then\n  vllm serve m\n  echo \"x\nfi\n"
    assert before_error(text, 4) == ("a\n", 2)  # the `if` is parsed whole before any of it runs
    fn = "a\nb\nf() {\n  vllm serve m\n  echo 'x\n}\nf\n"
    got = before_error(fn, 5)
    assert got is not None and "vllm" not in got[0]
    assert before_error("echo \"x\n", 1) is None  # nothing before it
