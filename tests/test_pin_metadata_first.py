"""The package's own metadata pinning one release outranks a range in an auxiliary requirements file
(eval101: a trainer whose setup.py extra pins vllm==0.9.1 beside a requirements_noflash.txt with
vllm<0.9.0, an install variant without flash-attn); the plain requirements.txt keeps its rank."""
from __future__ import annotations

import json

SCRIPT = "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2.5-0.5B-Instruct', max_model_len=2048)\n"
SETUP = "from setuptools import setup\nsetup(name='t', version='0.1', extras_require={'vllm': ['vllm==0.9.1']})\n"


def _version(cli, root):
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", "--gpu", "H100-80GB x1")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return site["vllm"]["version"]


def test_setup_exact_pin_over_an_auxiliary_range(cli, write_project):
    root = write_project({"setup.py": SETUP, "requirements_noflash.txt": "torch\nvllm<0.9.0\n", "run.py": SCRIPT})
    assert _version(cli, root) == "0.9.1"


def test_the_plain_requirements_file_keeps_its_rank(cli, write_project):
    root = write_project({"setup.py": SETUP, "requirements.txt": "vllm<0.9.0\n", "run.py": SCRIPT})
    assert _version(cli, root) == "0.8.5.post1"
