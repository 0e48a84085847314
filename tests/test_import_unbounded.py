"""A module-level import of a name vLLM moved, in a project whose only install line has no bound
(`RUN pip install vllm`): a build of the last half year got a release without the name, and the
script stops at its imports, so L139 is a P0; its pin is a release proven to have the name, never
one of vllm.utils's __getattr__ releases (0.11.1-0.13.0) whose shim maps only a few other names
(eval101: a multi-image example copied from vLLM's examples, FlexibleArgumentParser from vllm.utils)."""
from __future__ import annotations

import json

SCRIPT = ("from vllm import LLM\nfrom vllm.utils import FlexibleArgumentParser\n\n"
          "parser = FlexibleArgumentParser()\nllm = LLM(model='Qwen/Qwen2.5-0.5B-Instruct', max_model_len=2048)\n")


def _l139(cli, root):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", "--gpu", "H100-80GB x1")
    assert code in (0, 1), err
    (site,) = [s for s in json.loads(out)["sites"] if s["file"] == "run.py"]
    (rec,) = [r for r in site["recommendations"] if r["check"] == "L139"]
    return rec, site


def test_an_unbounded_install_line_makes_it_a_p0_with_a_proven_pin(cli, write_project):
    root = write_project({"Dockerfile": "FROM python:3.11\nRUN pip install vllm\nCOPY run.py .\nCMD python run.py\n", "run.py": SCRIPT})
    rec, site = _l139(cli, root)
    assert rec["priority"] == "P0"
    (pin,) = [c for c in site["changes"] if c["target"] == "vllm"]
    assert pin["after"].endswith("vllm==0.11.0")


def test_nothing_installed_stays_p1(cli, write_project):
    root = write_project({"run.py": SCRIPT})
    rec, _ = _l139(cli, root)
    assert rec["priority"] == "P1"


def test_one_import_is_one_p0_per_file(cli, write_project):
    two = SCRIPT + "other = LLM(model='Qwen/Qwen2.5-1.5B-Instruct', max_model_len=2048)\n"
    root = write_project({"Dockerfile": "FROM python:3.11\nRUN pip install vllm\nCOPY run.py .\nCMD python run.py\n", "run.py": two})
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", "--gpu", "H100-80GB x1")
    assert code in (0, 1), err
    got = sorted((s["line"], r["priority"]) for s in json.loads(out)["sites"] if s["file"] == "run.py"
                 for r in s["recommendations"] if r["check"] == "L139")
    assert got == [(5, "P0"), (6, "P1")]
