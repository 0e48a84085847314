"""Applications that build the engine in-process from vLLM's own command-line parser
(`AsyncEngineArgs.add_cli_args(parser)`, `from_cli_args(args)`): what the module sets on the parsed
namespace wins over the command line; a console script the project's packaging declares is such a
launch; a module no command of the project runs is a site of its own, whose command line is unknown."""
from __future__ import annotations

import json

SERVER = """\
import argparse
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

MODEL_PATH = "Qwen/Qwen2.5-7B-Instruct"


def share():
    return 0.8


def main():
    parser = argparse.ArgumentParser()
    parser = AsyncEngineArgs.add_cli_args(parser)
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    args.model = MODEL_PATH
    args.max_model_len = 16384
    args.gpu_memory_utilization = share()
    return AsyncLLMEngine.from_engine_args(AsyncEngineArgs.from_cli_args(args))
"""


def _sites(cli, root):
    code, out, err = cli("audit", str(root), "--gpu", "A100-80GB", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    return json.loads(out)["sites"]


def _settings(site):
    return {s["name"]: s.get("value") for s in site["settings"]}


def test_what_the_module_sets_wins_over_the_command_line(cli, write_project):
    (site,) = _sites(cli, write_project({"app/server.py": SERVER, "requirements.txt": "vllm==0.8.5\n",
                                         "run.sh": "python app/server.py --max-model-len 4096 --port 9000 --dtype half\n"}))
    got = _settings(site)
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"
    assert (got["max_model_len"], got["dtype"]) == (16384, "half")
    assert got["gpu_memory_utilization"] is None  # a call: not the command line's, not vLLM's default


def test_a_console_script_the_project_declares(cli, write_project):
    for packaging in ({"pyproject.toml": '[project]\nname = "app"\n[project.scripts]\napp-server = "app.server:main"\n'},
                      {"setup.py": "from setuptools import setup\nsetup(name='app', entry_points={'console_scripts': "
                                   "['app-server=app.server:main']})\n"}):
        root = write_project({"app/server.py": SERVER, "app/__init__.py": "", "requirements.txt": "vllm==0.8.5\n",
                              "start.sh": "app-server --dtype half --port 9000\n", **packaging})
        (site,) = _sites(cli, root)
        assert site["file"] == "start.sh" and site["kind"].startswith("python app-server")
        assert _settings(site)["dtype"] == "half"


def test_a_module_no_command_runs_is_a_site_with_its_command_line_unknown(cli, write_project):
    (site,) = _sites(cli, write_project({"app/server.py": SERVER, "requirements.txt": "vllm==0.8.5\n"}))
    assert (site["file"], site["syntax"]) == ("app/server.py", "python-argv")
    got = _settings(site)
    assert got["max_model_len"] == 16384 and got["tensor_parallel_size"] is None
    assert not any(c["file"] == "app/server.py" and c.get("line") for r in site["recommendations"] for c in r["changes"]
                   if c.get("fixable"))  # told as flags, never written into the module
