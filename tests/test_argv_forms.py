"""Subprocess argv forms eval83 found missed (engine/scan/python_argv_forms.py): a list seeded with
`["vllm"]` and grown with `.extend()` before `subprocess.run(args=cmd)` (the command by keyword),
and a computed interpreter in the program slot followed by `-m vllm.…`."""
from __future__ import annotations

import pytest

GROWN = '''import subprocess


def start(mode, model, extra):
    cmd = ["vllm"]
    cmd.extend([mode])
    cmd.extend([model])
    cmd.extend(extra)
    cmd += ["--max-model-len", "8192"]
    cmd.append("--enforce-eager")
    return subprocess.run({call}, text=True)


if __name__ == "__main__":
    start("serve", "Qwen/Qwen2.5-7B-Instruct", [])
'''


@pytest.mark.parametrize("call", ["cmd", "args=cmd"])
def test_a_seed_list_grown_by_extend_is_read_by_keyword_too(scanned, call):
    got = scanned({"launch.py": GROWN.format(call=call)})
    assert [(s.id, s.settings["max_model_len"].value) for s in got] == [("launch.py:11", 8192)]


INTERP = '''import subprocess
import sys
from pathlib import Path


def vllm_python():
    return str(Path(sys.prefix) / "venvs" / "vllm" / "bin" / "python")


def start(model):
    command = [vllm_python(), "-m", "{module}", "--model", model, "--max-model-len", "4096"]
    return subprocess.Popen(command)


start("Qwen/Qwen2.5-7B-Instruct")
'''


def test_a_computed_interpreter_running_vllm_module_is_a_site(scanned):
    got = scanned({"server.py": INTERP.format(module="vllm.entrypoints.openai.api_server")})
    assert [(s.id, s.settings["max_model_len"].value) for s in got] == [("server.py:12", 4096)]


def test_a_computed_program_with_another_module_is_no_site(scanned):
    assert scanned({"server.py": INTERP.format(module="http.server")}) == []


def test_a_name_holding_a_helpers_argv_is_read_through_the_helper(scanned):
    """`cmd = build_command(model)` then `subprocess.Popen(cmd)`, as `subprocess.Popen(build_command(model))`."""
    src = INTERP.format(module="vllm.entrypoints.openai.api_server").replace(
        "def start(model):\n    command = [", "def build(model):\n    return [").replace(
        "    return subprocess.Popen(command)\n", "\n\ndef start(model):\n    cmd = build(model)\n    return subprocess.Popen(cmd)\n")
    got = scanned({"server.py": src})
    assert [(s.file, s.settings["max_model_len"].value) for s in got] == [("server.py", 4096)]
