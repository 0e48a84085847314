"""Launches whose release is decided on their own path (helper sites4): a `docker run IMAGE` that
Python builds as an f-string and runs with `shell=True` runs that image's vLLM, not the folder's
pin. Each example is written after a public project (URLs in the test)."""
from __future__ import annotations

import pytest


def test_a_docker_run_fstring_python_runs_is_judged_as_its_image(write_project, json_site):
    # after eval harnesses that start the server from Python, e.g. an f-string
    # `docker run … vllm/vllm-openai:{TAG} --model {m} --tensor-parallel-size {tp}` handed to
    # subprocess.run(cmd, shell=True): the image's tag named the release only in scripts before
    root = write_project({
        "requirements.txt": "vllm==0.6.3\n",
        "launch.py": '''import subprocess

MODEL = "Qwen/Qwen2.5-7B-Instruct"
TAG = "v0.8.5"


def start(tp=2):
    cmd = f"docker run -d --gpus all --ipc=host vllm/vllm-openai:{TAG} --model {MODEL} --tensor-parallel-size {tp}"
    subprocess.run(cmd, shell=True, check=True)
''',
    })
    site = json_site(root)
    assert site["vllm"]["version"] == "0.8.5" and site["vllm"]["basis"] == "image", site["vllm"]
    assert site["kind"] == "api_server"
    assert {s["name"]: s["value"] for s in site["settings"]}["tensor_parallel_size"] == 2


def test_an_argv_list_docker_run_is_judged_as_its_image(write_project, json_site):
    root = write_project({
        "requirements.txt": "vllm==0.6.3\n",
        "launch.py": '''import subprocess
IMAGE = "vllm/vllm-openai:v0.9.2"
subprocess.Popen(["docker", "run", "--gpus", "all", "--ipc=host", IMAGE, "--model", "Qwen/Qwen2.5-7B-Instruct"])
''',
    })
    assert json_site(root)["vllm"]["version"] == "0.9.2"


SETUP_PY = 'from setuptools import setup\nsetup(name="x", install_requires=["vllm==0.6.3"])\n'
SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2\n"


def test_a_script_that_installs_vllm_before_its_launch_runs_that_release(write_project, json_site):
    # after setup-and-serve scripts such as giorgiopiatti/GovSim setup_vllm.sh (a conda env, then
    # `pip3 install vllm==0.6.4`): the launch runs the release installed last on its path, not
    # the setup.py pin beside it, and the report says which pin it used and why
    root = write_project({"setup.py": SETUP_PY,
                          "serve.sh": "#!/bin/bash\npip install -e .\npip install vllm==0.8.5\n" + SERVE})
    v = json_site(root)["vllm"]
    assert v["version"] == "0.8.5", v
    assert "serve.sh:3" in v["source"] and "setup.py:2" in v["source"], v


def test_an_install_script_the_launch_runs_first_counts(write_project, json_site):
    root = write_project({"setup.py": SETUP_PY,
                          "setup.sh": "#!/bin/bash\npip install -e .\npip install 'vllm==0.9.2'\n",
                          "run.sh": "#!/bin/bash\nbash setup.sh\n" + SERVE})
    v = json_site(root)["vllm"]
    assert v["version"] == "0.9.2" and "setup.sh:3" in v["source"], v


def test_a_project_install_after_the_vllm_pin_leaves_the_folder_pin(write_project, json_site):
    # `pip install -e .` after the pin re-resolves the project's own vllm==0.6.3: not read as 0.8.5
    root = write_project({"setup.py": SETUP_PY,
                          "serve.sh": "#!/bin/bash\npip install vllm==0.8.5\npip install -e .\n" + SERVE})
    v = json_site(root)["vllm"]
    assert v["version"] == "0.6.3" and v["source"].startswith("pinned at setup.py:2"), v


def test_an_install_after_the_launch_is_not_on_its_path(write_project, json_site):
    root = write_project({"setup.py": SETUP_PY,
                          "serve.sh": "#!/bin/bash\n" + SERVE + "pip install vllm==0.8.5\n"})
    assert json_site(root)["vllm"]["version"] == "0.6.3"


GEN_EVAL = """name: gen-eval
channels:
  - conda-forge
dependencies:
  - python=3.10
  - pip
  - pip:
      - vllm==0.5.4
"""


def test_a_conda_environment_file_of_any_name_pins_its_folder(write_project, json_site):
    # `conda env create -f gen-eval.yaml`: an environment file is known by its shape, not its name
    # (README instructions such as `conda env create -f vllm_cuda.yml` with a `- pip: [vllm==…]` list)
    root = write_project({"gen-eval.yaml": GEN_EVAL,
                          "gen.py": 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen2.5-7B-Instruct")\n'})
    v = json_site(root)["vllm"]
    assert v["version"] == "0.5.4" and v["source"].startswith("pinned at gen-eval.yaml:8"), v


def test_a_yaml_that_is_not_an_environment_file_pins_nothing(write_project, json_site):
    root = write_project({"eval.yaml": "tasks:\n  - gsm8k\ndependencies:\n  - vllm==0.5.4\n",
                          "gen.py": 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen2.5-7B-Instruct")\n'})
    assert json_site(root)["vllm"]["basis"] == "none"


def test_conda_activate_picks_the_environment_file_with_that_name(write_project, json_site):
    root = write_project({"setup.py": SETUP_PY, "gen-eval.yaml": GEN_EVAL,
                          "environment-vllm.yml": "name: vllm-serve\ndependencies:\n  - pip:\n      - vllm==0.8.5\n",
                          "scripts/eval.sh": "#!/bin/bash\nsource ~/miniconda3/etc/profile.d/conda.sh\n"
                                             "conda activate gen-eval\n" + SERVE})
    v = json_site(root)["vllm"]
    assert v["version"] == "0.5.4", v
    assert "gen-eval.yaml:8" in v["source"] and "gen-eval" in v["source"] and "setup.py:2" in v["source"], v


def test_an_install_after_activation_wins_and_an_unknown_environment_says_nothing(write_project, json_site):
    files = {"setup.py": SETUP_PY, "gen-eval.yaml": GEN_EVAL,
             "run.sh": "#!/bin/bash\nconda activate gen-eval\npip install vllm==0.6.6\n" + SERVE}
    assert json_site(write_project(files))["vllm"]["version"] == "0.6.6"
    files["run.sh"] = "#!/bin/bash\npip install vllm==0.8.5\nconda activate other\n" + SERVE
    v = json_site(write_project(files))["vllm"]
    assert v["source"].startswith("pinned at setup.py:2"), v  # 0.8.5 went into the environment left behind


def test_a_command_line_grown_with_plus_equals_is_read(scanned):
    # `cmd = f"docker run … {IMAGE}"; cmd += f" --model {MODEL} …"; subprocess.run(cmd, shell=True)`
    (site, other) = scanned({"launch.py": '''import subprocess
MODEL = "Qwen/Qwen2.5-7B-Instruct"
IMAGE = "vllm/vllm-openai:v0.8.5"


def start(tp=2):
    cmd = f"docker run -d --gpus all --ipc=host {IMAGE}"
    cmd += f" --model {MODEL} --tensor-parallel-size {tp}"
    cmd += " --max-model-len 16384"
    subprocess.run(cmd, shell=True)


def local(port):
    cmd = f"vllm serve {MODEL} --port {port}"
    cmd += " --max-num-seqs 16"
    subprocess.run(cmd, shell=True)
'''})
    assert site.image == "vllm/vllm-openai:v0.8.5" and site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert {n: s.value for n, s in site.settings.items()} == {"tensor_parallel_size": 2, "max_model_len": 16384}
    assert other.settings["max_num_seqs"].value == 16 and not other.settings["port"].resolved  # never guessed


def test_a_function_that_runs_the_command_it_is_handed_makes_its_calls_sites(scanned):
    # `def run_cmd(cmd): subprocess.run(cmd, shell=True)` / `def spawn(argv, log): Popen(argv, …)`:
    # the command exists only where the helper is called, so that call is the site
    got = scanned({"serve.py": '''import os
import subprocess
import sys

MODEL = "Qwen/Qwen2.5-7B-Instruct"


def run_cmd(cmd):
    print(cmd)
    return subprocess.run(cmd, shell=True, check=True)


def spawn(argv, log):
    return subprocess.Popen(argv, stdout=log, stderr=log)


def serve(tp=2):
    run_cmd(f"vllm serve {MODEL} --tensor-parallel-size {tp}")


def serve_module():
    argv = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", MODEL]
    argv += ["--gpu-memory-utilization", "0.8"]
    with open("log.txt", "w") as log:
        return spawn(argv, log)


def unrelated():
    run_cmd("nvidia-smi")
'''})
    assert [(s.line, s.kind) for s in got] == [(18, "vllm serve"), (25, "api_server")]
    assert got[0].settings["tensor_parallel_size"].value == 2
    assert got[1].settings["gpu_memory_utilization"].value == 0.8


def test_a_piece_added_under_an_undecided_condition_is_left_out_and_reported(scanned):
    # the common `if tp > 1: cmd += f" --tensor-parallel-size {tp}"` of launch helpers: the site is
    # still read, the conditional pieces are reported as such (a list's items are treated alike)
    (site,) = scanned({"l.py": '''import subprocess
MODEL = "Qwen/Qwen2.5-7B-Instruct"


def launch(tp, max_len=None, port=8000):
    cmd = f"python -m vllm.entrypoints.openai.api_server --model {MODEL} --port {port}"
    if tp > 1:
        cmd += f" --tensor-parallel-size {tp}"
    cmd += " --enforce-eager"
    subprocess.run(cmd, shell=True)
'''})
    assert {n: s.value for n, s in site.settings.items()} == {"port": 8000, "enforce_eager": True}
    assert [o["code"] for o in site.opaque] == ["conditional"] and "tp > 1" in site.opaque[0]["what"]


def test_a_value_grown_under_a_condition_stays_unknown_elsewhere(scanned):
    (site,) = scanned({"g.py": '''import sys
from vllm import LLM
model = "org/base"
if len(sys.argv) > 1:
    model += "-70B"
llm = LLM(model=model)
'''})
    assert not site.model.resolved  # never the base name alone


def test_a_helper_another_module_imports_makes_the_call_the_site_once(scanned):
    # `from pkg.utils import run_cmd` + `run_cmd(f"vllm serve …")`: the caller holds no subprocess
    # word at all; the spawn inside the helper (its command only the parameter) is not a second site
    got = scanned({"pkg/__init__.py": "",
                   "pkg/utils.py": "import subprocess\n\n\ndef run_cmd(cmd):\n    return subprocess.run(cmd, shell=True, check=True)\n",
                   "main.py": 'from pkg.utils import run_cmd\n\nMODEL = "Qwen/Qwen2.5-7B-Instruct"\n\n'
                              'if __name__ == "__main__":\n    run_cmd(f"vllm serve {MODEL} --max-model-len 8192")\n'})
    assert [(s.id, s.settings["max_model_len"].value) for s in got] == [("main.py:6", 8192)]


def test_a_method_that_runs_the_command_it_is_handed_makes_its_calls_sites(scanned):
    # `self.run_cmd(cmd)` on a launcher class: `self` is no command parameter; the spawn inside is no site
    got = scanned({"launch.py": '''import subprocess

MODEL = "Qwen/Qwen2.5-7B-Instruct"


class Launcher:
    def run_cmd(self, cmd, check=True):
        return subprocess.run(cmd, shell=True, check=check)

    @staticmethod
    def spawn(argv):
        return subprocess.Popen(argv)

    def serve(self, tp=2):
        self.run_cmd(f"vllm serve {MODEL} --tensor-parallel-size {tp}")

    def other(self):
        Launcher.spawn(["vllm", "serve", MODEL, "--max-model-len", "4096"])
'''})
    assert [(s.line, s.settings.get("tensor_parallel_size", s.settings.get("max_model_len")).value) for s in got] == \
        [(15, 2), (18, 4096)]


@pytest.mark.parametrize("imports,call", [
    ("import pkg.utils", "pkg.utils.run_cmd"),
    ("import pkg.utils as u", "u.run_cmd"),
    ("from pkg import utils", "utils.run_cmd"),
    ("from pkg import utils as ut", "ut.run_cmd"),
])
def test_a_helper_called_through_its_module_makes_the_call_the_site_once(scanned, imports, call):
    got = scanned({"pkg/__init__.py": "",
                   "pkg/utils.py": "import subprocess\n\n\ndef run_cmd(cmd):\n    return subprocess.run(cmd, shell=True, check=True)\n",
                   "main.py": f'{imports}\n\nMODEL = "Qwen/Qwen2.5-7B-Instruct"\n\n'
                              f'if __name__ == "__main__":\n    {call}(f"vllm serve {{MODEL}} --max-model-len 8192")\n'})
    assert [(s.id, s.settings["max_model_len"].value) for s in got] == [("main.py:6", 8192)]


def test_a_setup_script_that_installs_vllm_after_the_project_decides_its_folder(write_project, json_site):
    # a README-less setup.sh: `pip install -e .` (setup.py pins 0.6.3), then `pip install vllm==0.9.2`:
    # the environment every launch of the folder runs in holds 0.9.2, and the report says why
    root = write_project({"setup.py": SETUP_PY, "setup.sh": "#!/bin/bash\npip install -e .\npip install vllm==0.9.2\n",
                          "gen.py": 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen2.5-7B-Instruct")\n'})
    v = json_site(root)["vllm"]
    assert v["version"] == "0.9.2" and "setup.sh:3" in v["source"] and "after the project itself" in v["source"], v


def test_two_setup_scripts_that_disagree_leave_the_project_pin(write_project, json_site):
    root = write_project({"setup.py": SETUP_PY, "a.sh": "#!/bin/bash\npip install -e .\npip install vllm==0.9.2\n",
                          "b.sh": "#!/bin/bash\npip install -e .\npip install vllm==0.8.5\n",
                          "gen.py": 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen2.5-7B-Instruct")\n'})
    assert json_site(root)["vllm"]["source"].startswith("pinned at setup.py:2")


def test_conda_run_names_the_environment_of_its_one_command(write_project, json_site):
    root = write_project({"setup.py": SETUP_PY, "gen-eval.yaml": GEN_EVAL,
                          "run.sh": "#!/bin/bash\nconda run -n gen-eval --no-capture-output " + SERVE})
    v = json_site(root)["vllm"]
    assert v["version"] == "0.5.4" and "conda run -n" in v["source"], v


def test_an_environment_named_by_a_variable_is_not_where_the_earlier_install_went(write_project, json_site):
    root = write_project({"setup.py": SETUP_PY,
                          "run.sh": "#!/bin/bash\npip install vllm==0.8.5\nconda activate \"$ENV_NAME\"\n" + SERVE})
    assert json_site(root)["vllm"]["source"].startswith("pinned at setup.py:2")


@pytest.mark.parametrize("path", ['os.path.join(os.path.dirname(sys.executable), "vllm")',
                                  'f"{os.path.dirname(sys.executable)}/vllm"'])
def test_an_argv_whose_program_is_a_path_variable_to_vllm(scanned, path):
    # neuralmagic/research src/automation/vllm/server.py (eval73): `vllm_path = os.path.join(
    # os.path.dirname(sys.executable), "vllm")`, then Popen([f"{vllm_path}", "serve", model, …])
    code = f'''import os, subprocess, sys


def start(model, port):
    vllm_path = {path}
    cmd = [f"{{vllm_path}}", "serve", model, "--port", str(port), "--max-model-len", "8192"]
    return subprocess.Popen(cmd)
'''
    (site,) = scanned({"server.py": code})
    assert site.kind == "vllm serve" and site.settings["max_model_len"].value == 8192


def test_an_argv_whose_program_path_is_another_tool_is_no_launch(scanned):
    code = '''import os, subprocess, sys
tool = os.path.join(os.path.dirname(sys.executable), "guidellm")
subprocess.Popen([f"{tool}", "serve", "--port", "8000"])
'''
    assert scanned({"bench.py": code}) == []


@pytest.mark.parametrize("path,found", [
    ('VLLM_VENV_BIN if os.path.exists(VLLM_VENV_BIN) else shutil.which("vllm") or "vllm"', True),
    ('shutil.which("vllm")', True),
    ('shutil.which("vllm") or VLLM_VENV_BIN', True),
    ('VLLM_VENV_BIN if os.path.exists(VLLM_VENV_BIN) else shutil.which("sglang")', False),  # two programs: no launch
])
def test_an_argv_whose_program_is_one_of_several_paths_to_vllm(scanned, path, found):
    # eval89 0xquinto/inference-engineering-portfolio (https://github.com/0xquinto/inference-engineering-portfolio)
    # 02-inference-benchmarks/src/runners/vllm_runner.py: `vllm_bin = VLLM_VENV_BIN if os.path.exists(VLLM_VENV_BIN)
    # else shutil.which("vllm") or "vllm"`, then Popen([vllm_bin, "serve", model, …]) — a missed site
    code = f'''import os, shutil, subprocess

VLLM_VENV_BIN = "/workspace/venvs/vllm/bin/vllm"


def start(model, port):
    vllm_bin = {path}
    cmd = [vllm_bin, "serve", model, "--port", str(port), "--max-model-len", "8192"]
    return subprocess.Popen(cmd)
'''
    sites = scanned({"runner.py": code})
    assert [(s.kind, s.settings["max_model_len"].value) for s in sites] == ([("vllm serve", 8192)] if found else [])
