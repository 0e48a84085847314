"""The demo server's own argument set: the extraction (tools/vllm_entrypoints.py →
knowledge/vllm/entrypoints.yaml) and the findings on an audited project
(engine/check/entrypoint_findings.py): an OpenAI-server option given to
`python -m vllm.entrypoints.api_server` (vllm-project/vllm#3651: `--api-key` on 0.3.3), the demo
parser's own options (never a lifecycle finding), and the module's removal in 0.25.0."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_entrypoints import scan  # noqa: E402

from vllm_kb.engine.audit import audit  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402

_DEMO = '''
    import argparse
    from vllm.engine.arg_utils import AsyncEngineArgs
    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--host", type=str, default=None)
        parser.add_argument("--log-level", type=str, default="debug")
        parser = AsyncEngineArgs.add_cli_args(parser)
'''
_SERVER = '''
    def make_arg_parser(parser):
        parser.add_argument("--host", type=str)
        parser.add_argument("--api-key", type=str)
        parser.add_argument("--served-model-name", type=str)
        parser.add_argument("--max-log", type=int)
        parser.add_argument("--chat-template", type=str)
        return parser
'''
_ENGINE = '''
    class EngineArgs:
        served_model_name: str = None
        def add_cli_args(parser):
            parser.add_argument("--max-log-len", type=int)
            return parser
'''


def test_scan_lists_the_server_options_the_demo_parser_lacks(tmp_path):
    root = write_release(tmp_path, {"vllm/entrypoints/api_server.py": _DEMO, "vllm/entrypoints/openai/cli_args.py": _SERVER,
                                    "vllm/engine/arg_utils.py": _ENGINE})
    got = scan(root)
    assert got["own"] == {"--host", "--log-level"}
    # --served-model-name is an engine field here, --max-log abbreviates the engine's --max-log-len
    assert got["refused"] == {"--api-key", "--chat-template"}


def test_the_server_options_of_a_dataclass_era_release_are_its_fields(tmp_path):
    server = '''
        from dataclasses import dataclass
        @dataclass
        class FrontendArgs:
            host: str | None = None
            api_key: list[str] | None = None
            enable_auto_tool_choice: bool = False
    '''
    root = write_release(tmp_path, {"vllm/entrypoints/api_server.py": _DEMO, "vllm/entrypoints/openai/cli_args.py": server,
                                    "vllm/engine/arg_utils.py": _ENGINE})
    assert scan(root)["refused"] == {"--api-key", "--enable-auto-tool-choice"}


def test_a_demo_server_without_the_engine_parser_is_not_described(tmp_path):
    root = write_release(tmp_path, {"vllm/entrypoints/api_server.py": "import argparse\n",
                                    "vllm/entrypoints/openai/cli_args.py": _SERVER, "vllm/engine/arg_utils.py": _ENGINE})
    assert scan(root) is None


def test_the_table_holds_the_releases_read():
    table = load().doc("vllm", "entrypoints.yaml").data
    assert table["releases"][0] == "0.1.0" and table["releases"][-1] == "0.24.0" and table["removed_in"] == "0.25.0"
    assert {"0.9.2", "0.15.0", "0.15.1"} <= set(table["releases"])  # read since the sources hold them (relbugs5)
    assert table["refused"]["--api-key"] == [["0.3.0", "0.24.0"]]
    assert table["refused"]["--served-model-name"] == [["0.1.0", "0.4.1"]]  # an engine argument from 0.4.2
    assert "--log-level" in table["own"] and "--max-model-len" not in table["refused"]


def _demo(tmp_path: Path, pin: str | None, args: str):
    if pin:
        (tmp_path / "requirements.txt").write_text(pin + "\n")
    (tmp_path / "start.sh").write_text(f"python -m vllm.entrypoints.api_server --model facebook/opt-125m {args}\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    return sr


def test_an_openai_server_option_on_the_demo_server_is_a_p0_and_removed(tmp_path):
    sr = _demo(tmp_path, "vllm==0.3.3", "--port 8080 --api-key token-abc --max-model-len 4096")
    found = {f.subject: f for f in sr.remarks if f.code == "entrypoint-option"}
    assert set(found) == {"api_key"} and found["api_key"].priority == "P0"
    assert "unrecognized arguments: --api-key" in found["api_key"].message["en"]
    assert ("unset", "api_key") in {(c.op, c.target) for c in sr.changes}


def test_the_demo_parsers_own_option_is_no_lifecycle_finding(tmp_path):
    # --log-level is an engine argument only from 0.31, but the demo server's own option from 0.4.2
    sr = _demo(tmp_path, "vllm==0.6.3", "--log-level info --served-model-name opt")
    assert not [f for f in sr.remarks if f.priority == "P0"]


def test_the_openai_server_takes_the_same_option(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.3.3\n")
    (tmp_path / "start.sh").write_text("python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --api-key k\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert not [f for f in sr.remarks if f.code.startswith("entrypoint")]


def test_the_demo_server_after_its_removal(tmp_path):
    sr = _demo(tmp_path, "vllm==0.26.0", "--port 8000")
    (f,) = [f for f in sr.remarks if f.code == "entrypoint-removed"]
    assert f.priority == "P0" and "No module named vllm.entrypoints.api_server" in f.message["en"]


def test_the_removal_is_p1_where_the_project_allows_releases_that_have_it(tmp_path):
    sr = _demo(tmp_path, "vllm>=0.4.0", "--port 8000")
    (f,) = [f for f in sr.remarks if f.code == "entrypoint-removed"]
    assert f.priority == "P1"
