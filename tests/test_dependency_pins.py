"""L115: the project's torch (and torchvision, torchaudio, xformers, vllm-flash-attn, flashinfer)
pins against the exact versions the pinned vLLM release requires (knowledge/vllm/dependency_pins.yaml,
tools/vllm_dependency_pins.py): one pip command asking for both cannot resolve (P0); installs
apart depend on their order (P1); matching pins, ranges and a torch of the same minor release
installed apart say nothing."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import dependency_pins

ROOT = Path(__file__).resolve().parents[1]
SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"


def _l115(root: Path):
    rep = audit(root, gpu="A100-80GB")
    (sr,) = rep.sites
    (r,) = [r for r in sr.results if r.check.id == "L115"]
    return r, sr


def _judged(write_project, files: dict[str, str]):
    r, sr = _l115(write_project({"serve.sh": SERVE, **files}))
    return (r.status, r.priority if r.status == "recommended" else None), sr


def test_the_table_holds_each_releases_exact_pins():
    assert dependency_pins.requires("0.5.4")["torch"] == {"spec": "==2.4.0", "at": "requirements-cuda.txt:7"}
    assert dependency_pins.requires("0.7.2")["xformers"]["spec"] == "==0.0.28.post3"
    assert dependency_pins.requires("0.6.5")["torch"]["spec"] == "==2.5.1"  # `platform_machine != 'aarch64'` holds on x86_64
    assert dependency_pins.requires("0.20.0")["flashinfer-python"]["spec"] == "==0.6.8.post1"
    assert dependency_pins.requires("0.1.0")["torch"]["spec"] == ">=2.0.0"  # a range: not judged
    # no requirement file in these sdists: the wheel's own METADATA (Requires-Dist) says it
    assert dependency_pins.requires("0.4.0")["torch"] == {"spec": "==2.1.2", "at": "vllm-0.4.0.dist-info/METADATA:25"}
    assert dependency_pins.requires("0.15.1")["torch"]["spec"] == "==2.9.1"


# https://github.com/vllm-project/vllm/issues/3147 — torch 2.2.1 beside vLLM 0.3.2, whose wheel pins torch 2.1.2
def test_a_release_known_from_its_wheel_is_judged_like_the_others(write_project):
    assert _judged(write_project, {"requirements.txt": "vllm==0.3.2\ntorch==2.2.1\n"})[0] == ("recommended", "P0")


@pytest.mark.skipif(not Path("/work/sdists/src/0.34.0").is_dir(), reason="needs the unpacked vLLM releases")
def test_the_table_is_what_the_tool_reads_from_the_releases():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "vllm_dependency_pins.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_one_requirements_file_with_another_torch_cannot_install(write_project):
    got, sr = _judged(write_project, {"requirements.txt": "torch==2.1.1\nvllm==0.5.4\n"})
    assert got == ("recommended", "P0")
    (ch,) = [c for c in sr.changes if c.op == "pin" and c.target == "torch"]
    assert (ch.file, ch.line, ch.value) == ("requirements.txt", 1, "==2.4.0")


def test_a_matching_or_local_build_pin_is_fine(write_project):
    assert _judged(write_project, {"requirements.txt": "torch==2.4.0+cu121\ntorchvision==0.19.0\nvllm==0.6.3\n"})[0] == ("enabled", None)


def test_same_minor_torch_in_the_same_install_still_cannot_resolve(write_project):
    assert _judged(write_project, {"requirements.txt": "torch==2.4.1\nvllm==0.6.3\n"})[0] == ("recommended", "P0")


def test_same_minor_torch_installed_apart_works(write_project):
    # SimpleVLA-RL #50: torch 2.4.1 beside vLLM 0.6.3 (torch 2.4.0) from another requirements file ran
    got, _ = _judged(write_project, {"requirements.txt": "vllm==0.6.3\n", "requirements-sim.txt": "torch==2.4.1\n"})
    assert got[1] != "P0" and got[0] != "recommended"


def test_another_minor_torch_installed_apart_is_p1(write_project):
    got, _ = _judged(write_project, {"requirements.txt": "vllm==0.6.3\n", "requirements-sim.txt": "torch==2.2.0\n"})
    assert got == ("recommended", "P1")


def test_dockerfile_order(write_project):
    after = "FROM python:3.11\nRUN pip install vllm==0.6.3\nRUN pip install torch==2.2.0\n"
    before = "FROM python:3.11\nRUN pip install torch==2.2.0\nRUN pip install vllm==0.6.3\n"
    same = "FROM python:3.11\nRUN pip install --no-cache-dir \\\n    vllm==0.6.3 \\\n    torch==2.2.0\n"
    assert _judged(write_project, {"Dockerfile": after})[0] == ("recommended", "P1")
    assert _judged(write_project, {"Dockerfile": before})[0][0] != "recommended"
    assert _judged(write_project, {"Dockerfile": same})[0] == ("recommended", "P0")


def test_dockerfile_two_commands_on_one_line_are_two_installs(write_project):
    got, _ = _judged(write_project, {"Dockerfile": "FROM python:3.11\nRUN pip install torch==2.2.0 && pip install vllm==0.6.3\n"})
    assert got[0] != "recommended"


def test_xformers_for_another_torch_in_the_same_file(write_project):
    got, sr = _judged(write_project, {"requirements.txt": "vllm==0.7.2\nxformers==0.0.29.post3\n"})
    assert got == ("recommended", "P0")
    assert not [c for c in sr.changes if c.op == "pin" and c.target == "xformers"]  # named, not edited


def test_markers_for_another_platform_and_ranges_say_nothing(write_project):
    darwin = "vllm==0.6.3\ntorch==2.2.0; sys_platform == 'darwin'\n"
    assert _judged(write_project, {"requirements.txt": darwin})[0][0] != "recommended"
    assert _judged(write_project, {"requirements.txt": "vllm>=0.6.3\ntorch==2.2.0\n"})[0][0] != "recommended"
    assert _judged(write_project, {"requirements.txt": "vllm==0.6.3\ntorch>=2.1\n"})[0] == ("enabled", None)


def test_pyproject_dependencies_resolve_together_optional_groups_apart(write_project):
    deps = '[project]\nname = "x"\nversion = "0"\ndependencies = ["vllm==0.6.3", "torch==2.2.0"]\n'
    apart = '[project]\nname = "x"\nversion = "0"\ndependencies = ["vllm==0.6.3"]\n[project.optional-dependencies]\ntrain = ["torch==2.2.0"]\n'
    assert _judged(write_project, {"pyproject.toml": deps})[0] == ("recommended", "P0")
    assert _judged(write_project, {"pyproject.toml": apart})[0] == ("recommended", "P1")


def test_a_torch_only_requirements_file_is_read(write_project):
    # the file names no framework: it was skipped before torch was read
    got, _ = _judged(write_project, {"requirements.txt": "vllm==0.6.3\n", "requirements-torch.txt": "torch==2.3.0\n"})
    assert got == ("recommended", "P1")


@pytest.mark.parametrize("where", [{"README.md": "## Setup\n\n```bash\npip install --no-deps -r requirements.txt\n```\n"},
                                   {"Dockerfile": "FROM python:3.10\nCOPY requirements.txt .\nRUN pip install --no-deps -r requirements.txt\n"},
                                   {"Makefile": "install:\n\tpython -m pip install --no-deps --requirement=requirements.txt\n"},
                                   {"setup.sh": "pip install -U --no-deps -r ./requirements.txt\n"}])
def test_one_file_installed_without_dependencies_is_no_resolution(write_project, where):
    # `--no-deps`: pip installs each line as written and never stops with ResolutionImpossible; the torch
    # vLLM was not built for is still what it imports, a P1 with its own words
    got, sr = _judged(write_project, {"requirements.txt": "torch==2.1.1\nvllm==0.5.4\n", **where})
    assert got == ("recommended", "P1")
    (r,) = [r for r in sr.results if r.check.id == "L115"]
    assert "--no-deps" in r.reason("en") and "ResolutionImpossible" not in r.reason("en")
    (ch,) = [c for c in sr.changes if c.op == "pin" and c.target == "torch"]
    assert (ch.file, ch.value) == ("requirements.txt", "==2.4.0")


def test_no_deps_for_another_file_leaves_the_resolution(write_project):
    got, _ = _judged(write_project, {"requirements.txt": "torch==2.1.1\nvllm==0.5.4\n",
                                     "README.md": "pip install --no-deps -r requirements-dev.txt\n", "requirements-dev.txt": "pytest\n"})
    assert got == ("recommended", "P0")


_TWO_ENVS = {"conda": ("conda create -n train python=3.10 -y\nconda activate train\npip install -r requirements.txt\n\n"
                       "conda create -n serve python=3.10 -y && conda activate serve\npip install -r requirements-vllm.txt\n"),
             "venv": ("python -m venv .venv-train\nsource .venv-train/bin/activate\npip install -r requirements.txt\ndeactivate\n"
                      "python -m venv .venv-vllm\n. .venv-vllm/bin/activate\npip install -r requirements-vllm.txt\n"),
             "pip by path": "venv-a/bin/pip install -r requirements.txt\nvenv-b/bin/python -m pip install -r requirements-vllm.txt\n"}


@pytest.mark.parametrize("how", sorted(_TWO_ENVS))
def test_files_installed_into_different_environments_never_meet(write_project, how):
    # aielte-research/HackSynth-GRPO's README: training in one environment, vLLM in a venv of its own
    files = {"requirements.txt": "torch==2.2.0\n", "requirements-vllm.txt": "vllm==0.6.3\n"}
    got, _ = _judged(write_project, {**files, "README.md": f"## Setup\n\n```bash\n{_TWO_ENVS[how]}```\n"})
    assert got[0] != "recommended"


def test_files_installed_into_one_environment_still_meet(write_project):
    # one env activated for both installs (or no instruction at all): the order is not known, P1 as before
    files = {"requirements.txt": "torch==2.2.0\n", "requirements-vllm.txt": "vllm==0.6.3\n"}
    one = "conda activate work\npip install -r requirements.txt\npip install -r requirements-vllm.txt\n"
    assert _judged(write_project, {**files, "setup.sh": one})[0] == ("recommended", "P1")
    assert _judged(write_project, {**files, "setup.sh": "pip install -r requirements-vllm.txt\n"})[0] == ("recommended", "P1")


_ENV_FILE = "name: serve\ndependencies:\n  - python=3.11\n  - pip:\n      - vllm==0.5.4\n"


def test_a_script_pin_in_another_conda_env_than_the_env_files_vllm(write_project):
    # 02lyx/iterative-dpo: vLLM from an environment file, torch pinned by the script in another env it activates
    script = "conda env create -f serve.yaml\nconda create -n train -y\nconda activate train\npip install torch==2.1.2\n"
    assert _judged(write_project, {"serve.yaml": _ENV_FILE, "setup.sh": script})[0][0] != "recommended"
    # the same env activated for the torch install: the pins meet
    same = "conda env create -f serve.yaml\nconda activate serve\npip install torch==2.1.2\n"
    assert _judged(write_project, {"serve.yaml": _ENV_FILE, "setup.sh": same})[0] == ("recommended", "P1")


def test_one_script_installing_into_two_envs_in_turn(write_project):
    two = "conda activate train\npip install torch==2.1.2\nconda activate serve\npip install vllm==0.5.4\n"
    assert _judged(write_project, {"setup.sh": two})[0][0] != "recommended"
    one = "conda activate serve\npip install torch==2.1.2\npip install vllm==0.5.4\n"
    assert _judged(write_project, {"setup.sh": one})[0][0] == "recommended"


def test_separate_dockerfiles_are_separate_installs(write_project):
    files = {"requirements.txt": "torch==2.2.0\n", "requirements-vllm.txt": "vllm==0.6.3\n",
             "docker/Dockerfile.train": "FROM python:3.10\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n",
             "docker/Dockerfile.serve": "FROM python:3.10\nCOPY requirements-vllm.txt .\nRUN pip install -r requirements-vllm.txt\n"}
    assert _judged(write_project, files)[0][0] != "recommended"


def test_a_torch_beside_its_own_vllm_release_is_that_install(write_project):
    # HackSynth-GRPO: requirements_vllm.txt pins torch 2.7.0 with vllm 0.9.0.1, the site's vLLM comes from requirements.txt
    got, _ = _judged(write_project, {"requirements.txt": "vllm==0.6.3\n",
                                     "requirements_vllm.txt": "torch==2.7.0\nvllm==0.9.0.1\n"})
    assert got[0] != "recommended"


def test_install_envs_reads_only_lines_that_install_or_activate():
    """install_envs skips, before any regular expression, the lines with neither `install` nor
    `activate` (most of a README): the environments are the ones a full read gives."""
    from vllm_kb.engine.scan import install_envs

    text = ("# Setup\nSome prose; with && chains || and $ prompts.\n$ conda activate serve && echo hi\n"
            "! pip install \\\n  -r requirements-vllm.txt; ls\nconda deactivate\n"
            "source .venv/bin/activate\n% python -m pip install --requirement=requirements.txt\n")
    got = install_envs.file_envs("README.md", text, lambda rel, ref: ref)
    assert got == {"requirements-vllm.txt": {"env:serve"}, "requirements.txt": {"env:.venv"}}
    assert install_envs.file_envs("README.md", "use -r here, no installer", lambda rel, ref: ref) == {}


@pytest.mark.parametrize("build, judged", [
    ("VLLM_TARGET_DEVICE=empty pip install -e .", False),        # vllm-ascend's base: no kernels, no torch pin
    ("pip install -e .", True),                                  # a CUDA build of the v0.11.0 tag
])
def test_a_checkout_built_for_no_device_pins_no_torch(write_project, build, judged):
    # eval85 hicann/cann-recipes-train: vLLM v0.11.0 built with VLLM_TARGET_DEVICE=empty under vllm-ascend, then
    # torch 2.7.1 with torch-npu. setup.py reads requirements/common.txt alone for it (0.11.0:549), which pins no torch
    docker = ("FROM ubuntu:22.04\nRUN git clone -b v0.11.0 --depth 1 https://github.com/vllm-project/vllm.git && \\\n"
              f"    cd vllm && {build} && cd ..\nRUN pip install torch==2.7.1 torch-npu==2.7.1\n")
    got, _ = _judged(write_project, {"Dockerfile": docker})
    assert (got[0] == "recommended") is judged


_PYPROJECT = '[project]\nname = "x"\nversion = "0"\ndependencies = ["%s"]\n'


@pytest.mark.parametrize("script, sub", [
    # the top-level setup_env.sh installs torch (no vLLM) for the project's own env; the sub-project (a uv project
    # of its own) pins vLLM in its pyproject
    ("pip install torch==2.5.1 torchvision==0.20.1\n", {"sub/pyproject.toml": _PYPROJECT % "vllm==0.12.0"}),
    # as the repository is: vLLM pinned in the sub-project's exported requirements.txt, torch>=2.9.0,<2.10 in its
    # pyproject: the nearer folder's torch is the launches'
    ("pip install torch==2.5.1\n", {"sub/requirements.txt": "vllm==0.12.0\n", "sub/pyproject.toml": _PYPROJECT % "torch>=2.9.0,<2.10"}),
])
def test_setup_script_above_a_sub_project_stands_aside(write_project, script, sub):
    """kapilw25/multi_agent_alignment_drift: setup_env.sh's torch==2.5.1 is not literature/tulu_train's
    (https://github.com/kapilw25/multi_agent_alignment_drift)."""
    root = write_project({"setup_env.sh": script, "sub/serve.sh": SERVE, **sub})
    sites = [s for s in audit(root, gpu="A100-80GB").sites if s.site.file == "sub/serve.sh"]
    assert sites and sites[0].version.version == "0.12.0"
    assert not [r for r in sites[0].results if r.check.id == "L115" and r.status == "recommended"]
