"""setup.cfg: only [options] install_requires and [options.extras_require] are installs; isort's
known_third_party list in the same file names packages, not requirements (deep-diver/open-r1, eval73)."""
from vllm_kb.engine.scan.setup_pins import setup_cfg

CFG = """[isort]
known_first_party = open_r1
known_third_party =
    transformers
    datasets

[options]
packages = find:
install_requires =
    vllm==0.8.4
    torch>=2.5

[options.extras_require]
dev =
    transformers>=4.51
"""


def test_only_the_install_lists_are_pins():
    got = [(p.line, p.package, p.spec) for p in setup_cfg("setup.cfg", CFG)]
    assert got == [(10, "vllm", "==0.8.4"), (11, "torch", ">=2.5"), (15, "transformers", ">=4.51")]


SETUP = '''from setuptools import setup
VLLM_REQUIRES = ["tensordict>=0.8.0", "vllm>=0.7.3,<=0.8.5"]
SGLANG_REQUIRES = ["sglang[srt,openai]==0.4.8", "torch==2.7.1"]
install_requires = ["numpy<2.0.0", "transformers"]
setup(name="mytool", install_requires=install_requires,
      extras_require={"vllm": VLLM_REQUIRES, "sglang": SGLANG_REQUIRES, "all": install_requires})
'''


def test_setup_py_extras_are_groups():
    from vllm_kb.engine.scan.setup_pins import setup_py

    got = {p.package: p.group for p in setup_py("setup.py", SETUP)}
    assert got == {"vllm": "vllm", "sglang": "sglang", "torch": "sglang", "transformers": ""}


def test_a_torch_pin_of_an_extra_never_installed_is_not_the_projects(write_project):
    # AlexFanw/LegalSearch-R1 (a verl fork, eval73): torch==2.7.1 only in setup.py's sglang extra, while the
    # README installs requirements.txt (vllm==0.8.5.post1): L115 held that torch against vLLM's torch==2.6.0
    from vllm_kb.engine.audit import audit

    files = {"setup.py": SETUP, "requirements.txt": "vllm==0.8.5.post1\n", "README.md": "pip install -r requirements.txt\n",
             "serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"}

    def l115(extra: dict) -> str:
        (sr,) = audit(write_project({**files, **extra}), gpu="A100-80GB").sites
        (r,) = [r for r in sr.results if r.check.id == "L115"]
        return r.status

    assert l115({}) != "recommended"
    # an install that names the extra installs its torch beside vLLM
    assert l115({"README.md": "pip install -r requirements.txt\npip install -e .[sglang]\n"}) == "recommended"


EXTRA_SETUP = '''from setuptools import setup
VLLM_REQUIRES = ["vllm>=0.8.5,<=0.12.0"]
setup(name="docvqa", install_requires=["{base}"], extras_require={{"vllm": VLLM_REQUIRES}})
'''
IMAGE = "FROM nvidia/cuda:12.8.1-devel-ubuntu22.04\nARG VLLM_VERSION=0.20.2\nRUN pip install vllm==${VLLM_VERSION}\n"
LAUNCH = "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"


def test_an_optional_extras_range_is_judged_beside_what_the_projects_image_installs(write_project):
    # eval89 bdsaglam/docvqa-verl (https://github.com/bdsaglam/docvqa-verl): verl's setup.py extra says
    # vllm>=0.8.5,<=0.12.0 while docker/Dockerfile.stable.vllm installs 0.20.2; the launches were judged at 0.12.0
    # alone (a Qwen3.5 architecture 0.12.0 lacks: false P0) — now over both, at the newest
    from vllm_kb.engine.audit import audit

    def judged(files):
        (sr,) = audit(write_project(files), gpu="A100-80GB").sites
        return str(sr.version.version), sr.version.basis

    root = {"setup.py": EXTRA_SETUP.format(base="numpy"), "train/run.sh": LAUNCH}
    assert judged(root) == ("0.12.0", "range")  # no image: the extra's range alone
    assert judged({**root, "docker/Dockerfile.stable.vllm": IMAGE}) == ("0.20.2", "range")


def test_a_range_the_project_installs_itself_is_not_widened_by_an_image(write_project):
    from vllm_kb.engine.audit import audit

    files = {"setup.py": 'from setuptools import setup\nsetup(name="docvqa", install_requires=["vllm>=0.8.5,<=0.12.0"])\n',
             "train/run.sh": LAUNCH,
             "docker/Dockerfile.stable.vllm": IMAGE}
    (sr,) = audit(write_project(files), gpu="A100-80GB").sites
    assert str(sr.version.version) == "0.12.0"


# The Hugging Face layout (open-r1; R1-V and VLM-R1 copy it, eval107): every pin sits in a `_deps`
# table, and only what install_requires or an extra names through `deps[...]` / `deps_list(...)` is
# installed. R1-V's table says vllm==0.6.6.post1, which nothing installs; its setup.sh installs 0.7.2.
TABLE = '''import re
from setuptools import setup
_deps = ["accelerate>=1.2.1", "lighteval>=0.8", "trl==0.14.0", "vllm==0.6.6.post1", "torch>=2.5.1"]
deps = {b: a for a, b in (re.findall(r"^(([^!=<>~ ]+)(?:[!=<>~ ].*)?$)", x)[0] for x in _deps)}


def deps_list(*pkgs):
    return [deps[pkg] for pkg in pkgs]


extras = {}
extras["eval"] = deps_list("lighteval")
extras["dev"] = extras["eval"] + deps_list("torch")
install_requires = [deps["accelerate"], deps["trl"]]
setup(name="r1-v", install_requires=install_requires, extras_require=extras)
'''


def test_a_lookup_table_pin_counts_only_where_setup_takes_it():
    from vllm_kb.engine.scan.setup_pins import setup_py

    got = {p.package: p.group for p in setup_py("setup.py", TABLE)}
    assert got == {"trl": "", "lighteval": "eval", "torch": "dev"}  # vllm: in the table only


def test_an_unused_table_pin_is_not_the_sites_release(write_project):
    from vllm_kb.engine.audit import audit

    root = write_project({
        "src/r1-v/setup.py": TABLE,
        "src/r1-v/setup.sh": "pip install -e \".[dev]\"\npip install vllm==0.7.2\n",
        "src/r1-v/src/open_r1/trainer/grpo.py": "from vllm import LLM\nllm = LLM(model='Qwen/Qwen2-VL-2B-Instruct', enforce_eager=True)\n",
    })
    versions = {s.version.version for s in audit(root, gpu="H100-80GB x1").sites}
    assert versions == {"0.7.2"}


ENTRY = '''from setuptools import setup
setup(name="ramalama", install_requires=["vllm>=0.8.5"],
      entry_points={"ramalama.runtimes.v1alpha": ["vllm = ramalama.plugins.runtimes.inference.vllm:VllmPlugin"]},
      classifiers=["Programming Language :: Python :: 3"])
'''


def test_entry_points_are_no_requirements():
    """containers/ramalama setup.py:40 registers a runtime plugin named `vllm`; eval111 read that string
    as an unreadable vLLM pin (https://github.com/containers/ramalama/blob/8bc1f0a3/setup.py)."""
    from vllm_kb.engine.scan.setup_pins import setup_py

    assert [(p.package, p.spec) for p in setup_py("setup.py", ENTRY)] == [("vllm", ">=0.8.5")]


def test_a_setup_py_project_reports_no_phantom_pyproject(cli, write_project):
    """A project pinning vLLM in setup.py alone had `pyproject.toml: cannot be read` among its skipped files
    (Agent-RL/ReCall, eval111: https://github.com/Agent-RL/ReCall/blob/aaf16b31/setup.py)."""
    import json

    root = write_project({"setup.py": 'from setuptools import setup\nsetup(name="x", install_requires=["vllm==0.8.4"])\n',
                          "run.py": 'from vllm import LLM\nLLM("Qwen/Qwen2.5-7B-Instruct")\n'})
    code, out, _ = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    project = json.loads(out)["project"]
    assert project["vllm"]["version"] == "0.8.4" and not project.get("skipped")


PLUGIN_SETUP = '''import os, subprocess, sys
from setuptools import setup

def find_vllm(path):
    candidate = os.path.join(path, "vllm")
    subprocess.run([sys.executable, "-m", "pip", "show", "vllm"])
    return candidate

REQUIRES = ["numpy"]
REQUIRES.append("vllm>=0.8.5,<=0.11.0")

def main():
    setup(name="verl_npu", version="0.0.1", install_requires=REQUIRES, extras_require=extras())

def extras():
    return {"eval": ["transformers>=4.51"]}

main()
'''


def test_only_what_setup_installs_is_a_requirement():
    # MindSpeed-RL verl_npu/setup.py:156 `os.path.join(path, "vllm")` (eval117): a path, read as an unbounded vllm
    from vllm_kb.engine.scan.setup_pins import setup_py

    got = sorted((p.package, p.spec, p.group) for p in setup_py("setup.py", PLUGIN_SETUP))
    assert got == [("transformers", ">=4.51", "eval"), ("vllm", ">=0.8.5,<=0.11.0", "")]
