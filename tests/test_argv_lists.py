"""An argv list written as a vLLM launch, whose spawn is out of sight (engine/scan/argv_lists.py)."""
import json

from vllm_kb.engine.scan import argv_lists

# the shape of tomasruizt/lewidi2025's vllm_command() (https://github.com/tomasruizt/lewidi2025): a function
# returns the argv and a package's server helper runs it; three flags are gone from 0.34.0
_RETURNED = '''from serverlib import start_server


def serve_command(model: str, port: int) -> list[str]:
    cmd = [
        "vllm",
        "serve",
        model,
        "--task=generate",
        "--disable-log-requests",
        "--max-seq-len-to-capture=8192",
        f"--port={port}",
    ]
    return cmd


def main():
    start_server(serve_command("Qwen/Qwen2.5-7B-Instruct", 8000))
'''


def _p0(cli, root) -> dict:
    code, out, _ = cli("audit", str(root), "--format", "json", "--quiet")
    return {(s["file"], s["line"]): sorted(r["check"] for r in s["recommendations"] if r["priority"] == "P0")
            for s in json.loads(out)["sites"]}


def test_a_returned_argv_is_a_launch(cli, write_project):
    root = write_project({"requirements.txt": "vllm==0.34.0\n", "app/serve.py": _RETURNED})
    assert _p0(cli, root) == {("app/serve.py", 5): ["not-in-version:disable_log_requests", "not-in-version:max_seq_len_to_capture",
                                                   "not-in-version:task"]}


def test_module_level_and_interpreter_argv(scanned):
    # tomasruizt/llm_app examples/vllm-video-inference.py: a module-level list handed to a helper
    text = ('import sys\nfrom helpers import run\nCMD = ["vllm", "serve", "Qwen/Qwen2.5-VL-3B-Instruct", "--max-model-len", "8192"]\n'
            'API = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", "Qwen/Qwen3-8B"]\nrun(CMD)\nrun(API)\n')
    a, b = scanned({"requirements.txt": "vllm==0.10.0\n", "ex.py": text})
    assert (a.line, a.kind, a.model.value, a.settings["max_model_len"].value) == (3, "vllm serve", "Qwen/Qwen2.5-VL-3B-Instruct", 8192)
    assert (b.line, b.kind, b.model.value) == (4, "api_server", "Qwen/Qwen3-8B")


def test_a_list_a_spawn_of_the_file_runs_is_one_site(scanned):
    text = 'import subprocess\ncmd = ["vllm", "serve", "Qwen/Qwen3-8B", "--port", "8001"]\nsubprocess.Popen(cmd)\n'
    (s,) = scanned({"requirements.txt": "vllm==0.10.0\n", "run.py": text})
    assert s.model.value == "Qwen/Qwen3-8B"


def test_what_starts_a_launch():
    import ast

    def first(src):
        return ast.parse(src).body[0].value

    assert argv_lists.starts_launch(first('["/opt/venv/bin/vllm", "serve", m]'))
    assert argv_lists.starts_launch(first('["python3", "-m", "vllm.entrypoints.api_server"]'))
    for src in ('["vllm", "bench", "serve"]', '["pip", "install", "vllm"]', '["python", "-m", "vllm.entrypoints.cli.main"]',
                '["vllm"]', '("vllm", "serve", m)'):
        assert not argv_lists.starts_launch(first(src)), src
    assert argv_lists.mentions('cmd = ["vllm", "serve", m]') and not argv_lists.mentions('x = "vllm serve m"')


def test_a_table_of_cases_or_a_container_spec_is_no_launch(scanned):
    # gpustack's tests/worker/backends/test_backend.py: parametrize rows of argv lists; kserve's e2e fixtures:
    # a container spec's "command" beside an image the container_spec reader judges
    rows = ('import pytest\n\n\n@pytest.mark.parametrize("argv", [\n    ["vllm", "serve", "/models/llm", "--port", "8000"],\n'
            '    (["vllm", "serve"], None),\n])\ndef test_it(argv):\n    assert argv\n')
    spec = 'POD = {"containers": [{"name": "main", "image": IMAGE, "command": ["vllm", "serve", "/mnt/models"]}]}\n'
    assert scanned({"requirements.txt": "vllm==0.10.0\n", "tests/test_rows.py": rows, "fixtures.py": spec}) == []


def test_the_prefilter_answers_as_its_pattern():
    """mentions passes a text without `serve` and a quote or `vllm.entrypoints.` before the pattern
    runs: the answer is the pattern's own, whatever the text."""
    import random

    rng = random.Random(7)
    parts = ['"vllm"', "'vllm'", '"/usr/bin/vllm"', ", ", ",", '"serve"', "'serve'", '"serve', "serve'", '"-m"', "'-m'",
             '"vllm.entrypoints.openai.api_server"', "vllm.entrypoints.", "vllm", " ", "\n", "x = [", "]", "observe'"]
    for _ in range(3000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 9)))
        assert argv_lists.mentions(text) == ("vllm" in text and argv_lists._WRITTEN.search(text) is not None), text
