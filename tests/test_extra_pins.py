"""A framework installed with its vLLM extra (`trl[vllm]==0.18.0`) and no vLLM pin beside it: pip
installs a vLLM in the range that release declares (knowledge/frameworks/compat.yaml), so an
option only the newest releases dropped is no P0 (engine/scan/extra_pins.py)."""
from __future__ import annotations

import json

import pytest

SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --max-seq-len-to-capture 8192 --max-model-len 8192\n"


def _site(cli, root):
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return site


def _p0(site):
    return [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]


def test_the_extra_bounds_the_release(cli, write_project):
    site = _site(cli, write_project({"setup.py": 'from setuptools import setup\nsetup(name="x", install_requires=["trl[vllm]==0.18.0"])\n',
                                     "serve.sh": SERVE}))
    assert site["vllm"]["basis"] == "range" and ">=0.8.3" in site["vllm"]["source"]
    assert not _p0(site)


@pytest.mark.parametrize("reqs", ["trl==0.18.0\n", "trl[vllm]==0.18.0\nvllm==0.34.0\n"])
def test_no_extra_or_a_vllm_pin_says_otherwise(cli, write_project, reqs):
    site = _site(cli, write_project({"requirements.txt": reqs, "serve.sh": SERVE}))
    assert site["vllm"]["basis"] != "range"
    assert "not-in-version:max_seq_len_to_capture" in _p0(site)
