"""A framework installed with its vLLM extra (`trl[vllm]==0.18.0`) and no vLLM pin beside it: pip
installs a vLLM in the range that release declares (knowledge/frameworks/compat.yaml), so an
option only the newest releases dropped is no P0 (engine/scan/extra_pins.py)."""
from __future__ import annotations

import pytest

SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --max-seq-len-to-capture 8192 --max-model-len 8192\n"



def test_the_extra_bounds_the_release(write_project, json_site, p0s):
    site = json_site(write_project({"setup.py": 'from setuptools import setup\nsetup(name="x", install_requires=["trl[vllm]==0.18.0"])\n',
                                     "serve.sh": SERVE}))
    assert site["vllm"]["basis"] == "range" and ">=0.8.3" in site["vllm"]["source"]
    assert not p0s(site)


@pytest.mark.parametrize("reqs", ["trl==0.18.0\n", "trl[vllm]==0.18.0\nvllm==0.34.0\n"])
def test_no_extra_or_a_vllm_pin_says_otherwise(write_project, reqs, json_site, p0s):
    site = json_site(write_project({"requirements.txt": reqs, "serve.sh": SERVE}))
    assert site["vllm"]["basis"] != "range"
    if "vllm==" in reqs:
        assert "not-in-version:max_seq_len_to_capture" in p0s(site)
    else:  # no vLLM pin at all: the release is the user's, the option's absence is a P1 that says so
        assert "not-in-version:max_seq_len_to_capture" not in p0s(site)
        (rec,) = [r for r in site["recommendations"] if r["check"] == "not-in-version:max_seq_len_to_capture"]
        assert rec["priority"] == "P1" and "pins no release" in rec["title"]


def test_a_tutorials_pip_install_is_its_release_only_where_nothing_pins(write_project, json_site, p0s):
    md = "Install:\n\n```bash\npip install vllm==0.8.5\n```\n"
    site = json_site(write_project({"guide/README.md": md, "guide/serve.sh": SERVE}))
    # judged as the release the instructions install, a P0 only where every later release fails too
    assert site["vllm"]["basis"] == "range" and site["vllm"]["version"] == "0.8.5" and not p0s(site)
    site = json_site(write_project({"guide/README.md": md, "guide/serve.sh": SERVE, "requirements.txt": "vllm==0.34.0\n"}))
    assert site["vllm"]["basis"] == "pin" and "not-in-version:max_seq_len_to_capture" in p0s(site)


def test_a_readme_install_is_judged_as_its_release_not_the_newest(write_project, json_site):
    # understand-r1-zero: README `pip install vllm==0.8.4`, LLM(swap_space=32) in the evaluation script
    md = "## Install\n\n```bash\npip install vllm==0.8.4 && pip install oat-llm==0.1.3.post1\n```\n"
    py = "import vllm\nllm = vllm.LLM(model='Qwen/Qwen2.5-Math-1.5B', swap_space=32, gpu_memory_utilization=0.9)\n"
    site = json_site(write_project({"README.md": md, "evaluate_model.py": py}), gpu="A100-40GB")
    assert site["vllm"]["version"] == "0.8.4"
    words = " ".join(r.get("reason", "") + r.get("title", "") for r in site["recommendations"])
    assert "0.34" not in words and "swap_space was removed" not in words


def test_a_readmes_list_of_the_versions_it_runs_is_its_release(write_project, json_site):
    # maxent-grpo (eval81): "The exact launcher validates the key runtime versions" then a list with
    # `vllm==0.8.4`; LLM(swap_space=…) in its evaluation scripts is no P0 of the newest release
    md = "## Versions\n\n- Python `3.10.x`\n- `torch==2.6.0`\n- `vllm==0.8.4`\n- `oat-llm==0.1.3.post1`\n"
    py = "import vllm\nllm = vllm.LLM(model='Qwen/Qwen2.5-Math-1.5B', swap_space=32)\n"
    site = json_site(write_project({"README.md": md, "eval.py": py}), gpu="A100-40GB")
    assert site["vllm"]["version"] == "0.8.4"
    # prose that names a release in passing is not a list of what the project runs
    md = "We saw a bug with vllm==0.8.4 and moved on.\n"
    site = json_site(write_project({"README.md": md, "eval.py": py}), gpu="A100-40GB")
    assert site["vllm"]["version"] != "0.8.4"
