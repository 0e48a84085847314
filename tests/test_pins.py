import pytest
from vllm_kb.engine.kb import catalog
from vllm_kb.engine.kb.versions import Version
from vllm_kb.engine.scan import pins
from vllm_kb.engine.scan.context import ScanContext

CAT = catalog.load()
KNOWN = [Version(v) for v in CAT.raw.get("releases", CAT.raw["versions"])]


def scan(tmp_path, name, text):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return pins.scan(ScanContext(root=tmp_path, catalog=CAT, default_version="0.33.0"), name, text)


@pytest.mark.parametrize("name,text,spec,line", [
    ("requirements.txt", "torch\nvllm==0.6.3  # pinned\n", "==0.6.3", 2),
    ("requirements/serve.txt", "vllm[tensorizer]>=0.8.5,<0.9 ; python_version>'3.9'\n", ">=0.8.5,<0.9", 1),
    ("requirements.txt", "vllm @ https://host/vllm-0.10.2-cp38-abi3-manylinux1_x86_64.whl\n", "==0.10.2", 1),
    ("pyproject.toml", '[project]\nname="x"\ndependencies=["vllm>=0.10,<0.12"]\n', ">=0.10,<0.12", 3),
    ("pyproject.toml", '[tool.poetry.dependencies]\npython="^3.10"\nvllm = "^0.6.3"\n', ">=0.6.3,<0.7", 3),  # Poetry's caret as PEP 440
    ("setup.py", 'from setuptools import setup\nsetup(install_requires=["vllm==0.9.2", "x"])\n', "==0.9.2", 2),
    ("environment.yml", "dependencies:\n  - python=3.11\n  - pip:\n    - vllm==0.31.0\n", "==0.31.0", 4),
    ("environment.yml", "dependencies:\n  - conda-forge::vllm=0.8\n", "==0.8.*", 2),
    ("uv.lock", '[[package]]\nname = "vllm"\nversion = "0.20.0"\n', "==0.20.0", 3),
    # AReaL's vLLM variant: a second project file its Dockerfile syncs for VARIANT=vllm
    ("pyproject.vllm.toml", '[project]\nname="areal"\n[project.optional-dependencies]\nvllm=["vllm==0.19.1; sys_platform == \'linux\'"]\n',
     "==0.19.1", 4),
])
def test_pin_forms(tmp_path, name, text, spec, line):
    (p,) = [p for p in scan(tmp_path, name, text) if p.package == "vllm"]  # torch is read too (check L115)
    assert p.spec == spec and p.line == line


def test_lookalike_packages_are_not_pins(tmp_path):
    # vllm-flash-attn is read as itself (vLLM pins it; check L115), never as vllm; vllmx not at all
    got = scan(tmp_path, "requirements.txt", "vllm-flash-attn==2.6.2\nvllmx==1\n")
    assert [(p.package, p.exact) for p in got] == [("vllm-flash-attn", "2.6.2")]


def test_choosing_a_version():
    exact = pins.Pin("requirements.txt", 1, "vllm==0.6.3", "==0.6.3", "requirements", "0.6.3")
    ranged = pins.Pin("pyproject.toml", 3, "vllm>=0.10,<0.12", ">=0.10,<0.12", "pyproject")
    assert pins.choose([ranged, exact], KNOWN, "0.33.0").version == "0.6.3"
    c = pins.choose([ranged], KNOWN, "0.33.0")
    assert not c.pinned and c.version.startswith("0.11") and c.basis == "range" and c.where == "pyproject.toml:3"
    c = pins.choose([], KNOWN, "0.33.0")
    assert c.version == "0.33.0" and not c.pinned and c.basis == "none"


def test_a_range_beside_an_exact_torch_resolves_as_pip_does(tmp_path):
    # pip backtracks past every release whose own torch requirement the project's torch==2.0.1
    # contradicts (0.2.2 asks torch>=2.1.0): the newest installable is 0.2.1.post1 (torch==2.0.1)
    got = scan(tmp_path, "requirements.txt", "fschat==0.2.29\nvllm>=0.1.7\ntorch==2.0.1\n")
    vllm, torch = [p for p in got if p.package == "vllm"], [p for p in got if p.package == "torch"]
    c = pins.choose(vllm, KNOWN, "0.33.0", torch)
    assert c.version == "0.2.1.post1" and c.basis == "range" and "0.2.2" not in c.among and "0.2.0" in c.among
    # apart from that file, or with a torch no release fits, the range keeps its newest release
    apart = [pins.Pin("env/requirements.txt", 1, "torch==2.0.1", "==2.0.1", "requirements", "2.0.1", "torch")]
    assert pins.choose(vllm, KNOWN, "0.33.0", apart).among is None
    odd = [pins.Pin("requirements.txt", 3, "torch==1.0.0", "==1.0.0", "requirements", "1.0.0", "torch")]
    assert pins.choose(vllm, KNOWN, "0.33.0", odd).version == pins.choose(vllm, KNOWN, "0.33.0").version


def test_broken_toml_is_skipped_with_reason(tmp_path):
    ctx = ScanContext(root=tmp_path, catalog=CAT, default_version="0.33.0")
    assert pins.scan(ctx, "pyproject.toml", "[project\nvllm") == []
    assert ctx.skipped[0].code == "toml-error"
    assert ctx.skipped[0].line == 1  # file:line, from the message where tomllib has no lineno (3.11-3.13)


@pytest.mark.parametrize("rel,text,code,line", [
    ("pdm.lock", '[[package]]\nname = "vllm"\nversion = \n', "toml-error", 3),
    ("Pipfile", '[packages]\nvllm = {version = "==0.6.3"\n', "toml-error", 2),
    ("Pipfile.lock", '{"default": {"vllm": {"version": "==0.6.3"}},\n ', "parse-error", 2),
])
def test_a_broken_lock_file_is_skipped_at_its_line(tmp_path, rel, text, code, line):
    ctx = ScanContext(root=tmp_path, catalog=CAT, default_version="0.33.0")
    assert pins.scan(ctx, rel, text) == []
    assert (ctx.skipped[0].code, ctx.skipped[0].line) == (code, line)


def test_a_fork_that_keeps_the_framework_name_pins_that_framework_release(tmp_path):
    # Search-R1 / TinyZero: verl's own setup.py, version literal or read from verl/version/version
    got = scan(tmp_path, "setup.py", 'from setuptools import setup\nsetup(name="verl", version="0.1",\n'
               '      install_requires=["vllm<=0.6.3", "ray"])\n')
    # ray is read too: Ray Serve LLM is a serving package that starts vLLM (engine/check/host_compat.py)
    assert {(p.package, p.spec) for p in got} == {("vllm", "<=0.6.3"), ("verl", "==0.1"), ("ray", "")}
    (tmp_path / "verl" / "version").mkdir(parents=True)
    (tmp_path / "verl" / "version" / "version").write_text("0.2.0.dev\n")
    text = 'import os\nfrom setuptools import setup\nv = open("verl/version/version").read().strip()\nsetup(name="verl", version=v)\n'
    (tmp_path / "setup.py").write_text(text)
    ctx = ScanContext(root=tmp_path, catalog=CAT, default_version="0.33.0", files=["setup.py", "verl/version/version"])
    (p,) = pins.scan(ctx, "setup.py", text)
    assert (p.package, p.exact, p.line) == ("verl", "0.2.0.dev", 4)
    # a project of its own name is no framework pin, and its name is no requirement
    assert scan(tmp_path, "setup.py", 'from setuptools import setup\nsetup(name="trl-recipes", install_requires=["trl==0.19.0"])\n')[0].spec == "==0.19.0"
    assert scan(tmp_path, "setup.py", 'from setuptools import setup\nsetup(name="verl")\n') == []


def test_a_script_that_installs_the_vllm_it_starts_pins_its_folder(tmp_path):
    # `pip install vllm==0.6.3` then `vllm serve` in one script: that release runs, as a Dockerfile's
    # RUN line says (continuation lines and options between the words included)
    from vllm_kb.engine.audit import audit

    (tmp_path / "run.sh").write_text("#!/bin/bash\npip install --no-cache-dir \\\n    vllm==0.6.3 openai\n"
                                     "vllm serve Qwen/Qwen2.5-7B-Instruct\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert (sr.version.version, sr.version.basis) == ("0.6.3", "pin")
    assert sr.version.pin.file == "run.sh" and sr.version.pin.line == 3
    # a script without an install says nothing: the release stays the project's
    (tmp_path / "run.sh").write_text("vllm serve Qwen/Qwen2.5-7B-Instruct\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert sr.version.version == "0.8.5"


def _release(root):
    from vllm_kb.engine.scan.project import scan_project

    sc = scan_project(root)
    return sc.default.version, sc.default.where


_SERVE = {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"}
_UV_LOCK = 'version = 1\n\n[[package]]\nname = "vllm"\nversion = "0.8.4"\nsource = { registry = "https://pypi.org/simple" }\n'
_POETRY_LOCK = '[[package]]\nname = "vllm"\nversion = "0.4.0.post1"\noptional = false\n'


def test_a_lock_outside_the_pyproject_requirement_is_not_the_install(write_project):
    # LiveCodeBench: a poetry.lock left at vllm 0.4.0.post1 beside `vllm>=0.5.0.post1` and a uv.lock at 0.8.4
    py = '[project]\nname = "x"\nversion = "0.1"\ndependencies = ["vllm>=0.5.0.post1"]\n'
    root = write_project({**_SERVE, "pyproject.toml": py, "poetry.lock": _POETRY_LOCK, "uv.lock": _UV_LOCK})
    assert _release(root) == ("0.8.4", "uv.lock:5")
    (root / "uv.lock").unlink()
    version, where = _release(root)  # the stale lock alone says nothing: the range stands
    assert where == "pyproject.toml:4" and version != "0.4.0.post1"


def test_uv_lock_over_poetry_lock_unless_poetry_declares_the_dependencies(write_project):
    poetry_lock = _POETRY_LOCK.replace("0.4.0.post1", "0.6.3")
    root = write_project({**_SERVE, "pyproject.toml": '[project]\nname = "x"\nversion = "0.1"\ndependencies = ["vllm>=0.5"]\n',
                          "poetry.lock": poetry_lock, "uv.lock": _UV_LOCK})
    assert _release(root)[0] == "0.8.4"
    (root / "pyproject.toml").write_text('[tool.poetry]\nname = "x"\n\n[tool.poetry.dependencies]\nvllm = "^0.6.3"\n')
    assert _release(root)[0] == "0.6.3"


def test_a_makefile_recipe_install_pins_the_folder(write_project):
    # huggingface/open-r1's Makefile: `uv pip install vllm==0.8.5.post1` in its install recipe
    mk = "install:\n\tuv venv openr1 --python 3.11\n\t. openr1/bin/activate && uv pip install --upgrade pip && \\\n" \
         "\tuv pip install vllm==0.8.5.post1 && \\\n\tuv pip install -e \".[dev]\"\n"
    assert _release(write_project({**_SERVE, "Makefile": mk})) == ("0.8.5.post1", "Makefile:4")


def test_pins_in_the_install_that_pins_vllm_hold_where_that_release_runs(write_project):
    # Open-Reasoner-Zero: docker/Dockerfile pins transformers and torchvision in the one `pip install`
    # that pins vllm, and the code that starts vLLM is outside docker/
    from vllm_kb.engine.scan.project import scan_project

    run = "RUN pip install transformers==4.48.1 \\\n    torchvision==0.18.0 vllm==0.6.5 peft\nRUN pip install trl==0.14.0\n"
    root = write_project({"docker/Dockerfile": "FROM python:3.10\n" + run, "train.py": "from vllm import LLM\n"})
    ctx = scan_project(root).ctx
    assert ctx.framework_pin("train.py", "transformers").text == "transformers==4.48.1"
    assert ctx.framework_pin("train.py", "torchvision").line == 3
    assert ctx.framework_pin("train.py", "trl") is None  # another command: not the same install
    # a folder with its own vLLM pin keeps to its own
    root = write_project({"docker/Dockerfile": "FROM python:3.10\n" + run, "train.py": "from vllm import LLM\n",
                          "eval/requirements.txt": "vllm==0.6.5\n", "eval/run.py": "from vllm import LLM\n"})
    ctx = scan_project(root).ctx
    assert ctx.framework_pin("eval/run.py", "transformers") is None
    assert ctx.framework_pin("train.py", "transformers").exact == "4.48.1"


def test_only_a_variant_pyproject_is_a_pin_file():
    assert pins.is_pin_file("pyproject.vllm.toml") and pins.is_pin_file("sub/pyproject.cuda.toml")
    assert not pins.is_pin_file("pyproject.toml.bak") and not pins.is_pin_file("pyproject.a.b.toml")


def test_a_bare_name_never_outranks_a_constraint_in_another_file(tmp_path):
    # Wyyyb/CriticCoT simpleRL-reason (https://github.com/Wyyyb/CriticCoT): requirements.txt says `vllm`,
    # pyproject.toml `vllm<=0.6.3`; both apply to one install, so the constraint decides (it was 0.34.0)
    bare = pins.Pin("requirements.txt", 12, "vllm", "", "requirements")
    ranged = pins.Pin("pyproject.toml", 44, "vllm<=0.6.3", "<=0.6.3", "pyproject")
    c = pins.choose([bare, ranged], KNOWN, "0.33.0")
    assert c.version == "0.6.3" and c.where == "pyproject.toml:44" and c.bare_beside == ("requirements.txt:12",)
    assert pins.choose([bare], KNOWN, "0.33.0").basis == "unbounded"


def test_the_version_line_names_the_bare_file_it_set_aside(tmp_path):
    from vllm_kb.engine.audit import audit
    (tmp_path / "requirements.txt").write_text("torch\nvllm\n")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "0.1"\ndependencies = ["vllm<=0.6.3"]\n')
    (tmp_path / "gen.py").write_text('from vllm import LLM\nllm = LLM(model="Qwen/Qwen2.5-7B-Instruct")\n')
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.report.model import version_text
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    assert sr.version.version == "0.6.3"
    kb = load()
    assert "requirements.txt:2" in version_text(kb, sr.version, "en") and "requirements.txt:2" in version_text(kb, sr.version, "zh")


def test_a_bare_name_in_an_alternative_requirements_file_is_said_to_be_apart(tmp_path):
    # alibaba/ROLL (https://github.com/alibaba/ROLL, eval85): requirements_torch260_vllm.txt pins vllm==0.8.4,
    # requirements_torch2100_vllm.txt names a bare vllm: one file per torch, alternative installs, not one
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.report.model import version_text

    pinned = pins.Pin("requirements_torch260_vllm.txt", 12, "vllm==0.8.4", "==0.8.4", "requirements", "0.8.4")
    bare = pins.Pin("requirements_torch2100_vllm.txt", 16, "vllm", "", "requirements")
    c = pins.choose([pinned, bare], KNOWN, "0.33.0")
    assert c.version == "0.8.4" and c.bare_apart
    text = version_text(load(), c, "en")
    assert "apart from this one" in text and "one install" not in text
    # a pyproject's constraint and a requirements file's bare name are one install (CriticCoT): said so
    beside = pins.choose([pins.Pin("requirements.txt", 1, "vllm", "", "requirements"),
                          pins.Pin("pyproject.toml", 4, "vllm<=0.6.3", "<=0.6.3", "pyproject")], KNOWN, "0.33.0")
    assert not beside.bare_apart and "one install" in version_text(load(), beside, "en")
