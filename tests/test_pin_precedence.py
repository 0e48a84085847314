"""The release a site is judged at, rule by rule (docs/pins.md): which pins, installs and images
decide it, and what a range or an unreadable specifier may conclude. One test per rule of the
precedence; the rules older than this file have their own tests (test_pins, test_pin_scope,
test_image_beside, test_source_pins, test_copied_requirements, test_extra_pins)."""
import json

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import catalog
from vllm_kb.engine.kb.versions import Version
from vllm_kb.engine.scan import deploy, pins
from vllm_kb.engine.scan.project import choice_for, scan_project
from vllm_kb.engine.scan.requirement import from_requirement

CAT = catalog.load()
KNOWN = [Version(v) for v in CAT.raw.get("releases", CAT.raw["versions"])]
# --disable-log-requests: in every release up to 0.16.0, gone from 0.17.0 on (0.16.0 arg_utils.py, 0.17.0 has none)
SERVE = "#!/bin/bash\nvllm serve Qwen/Qwen2.5-0.5B-Instruct --disable-log-requests\n"


def _choice(write_project, files, site="serve.sh"):
    sc = scan_project(write_project({**files, "serve.sh": files.get("serve.sh", SERVE)}))
    return choice_for(site, sc.choices, sc.default, sc.own)


def _p0(rep, file="serve.sh"):
    sr = next(s for s in rep.sites if s.site.file == file)
    return sr, {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"} | \
        {f.code for f in sr.remarks if f.priority == "P0"}


@pytest.mark.parametrize("line", ["vllm==0.8.5 \\", "vllm==0.8.5 --hash=sha256:0123abcd", "vllm==0.8.5   --config-settings x=y"])
def test_pip_options_after_a_requirement_are_not_its_specifier(line):
    # pip-compile --generate-hashes writes `vllm==0.8.5 \` and the hashes below: an exact pin, not an unreadable one
    p = from_requirement("requirements.txt", 1, line, "requirements")
    assert p.exact == "0.8.5" and p.text == "vllm==0.8.5"


def test_an_unreadable_specifier_never_outranks_a_readable_pin():
    # DB-Opt-R1: an install script's `vllm==$VLLM_VERSION` beside the requirements file's vllm==0.11.0
    odd = pins.Pin("requirements.txt", 1, "vllm==${VLLM_VERSION}", "==${VLLM_VERSION}", "requirements")
    exact = pins.Pin("pyproject.toml", 3, "vllm==0.8.5", "==0.8.5", "pyproject", "0.8.5")
    bare = pins.Pin("setup.py", 3, "vllm", "", "setup")
    assert pins.choose([odd, exact], KNOWN, "0.34.0").version == "0.8.5"
    assert pins.choose([bare, odd], KNOWN, "0.34.0").basis == "unreadable"  # over a bare name only


def test_an_unreadable_pin_gives_no_p0_of_some_releases_only(write_project):
    # the release is some release the audit cannot name: an option only newer releases dropped is a P1
    rep = audit(write_project({"requirements.txt": "vllm==${VLLM_VERSION}\n", "serve.sh": SERVE}), gpu="H100-80GB x8")
    sr, p0 = _p0(rep)
    assert sr.version.basis == "unreadable" and not p0
    assert any(f.code == "not-in-version" and f.priority == "P1" for f in sr.remarks)


def test_a_range_gives_a_p0_only_where_every_release_in_it_refuses(write_project):
    sr, p0 = _p0(audit(write_project({"requirements.txt": "vllm>=0.8,<0.20\n", "serve.sh": SERVE}), gpu="H100-80GB x8"))
    assert sr.version.basis == "range" and not p0  # 0.8.x-0.16.0 have the option
    sr, p0 = _p0(audit(write_project({"requirements.txt": "vllm>=0.18,<0.25\n", "serve.sh": SERVE}), gpu="H100-80GB x8"))
    assert sr.version.basis == "range" and "not-in-version" in p0  # every release of this range refuses it


@pytest.mark.parametrize("name,text", [
    ("pdm.lock", '[[package]]\nname = "vllm"\nversion = "0.8.5"\n'),
    ("Pipfile", '[packages]\nvllm = "==0.8.5"\n'),
    ("Pipfile.lock", json.dumps({"default": {"vllm": {"version": "==0.8.5"}}}, indent=1)),
])
def test_pdm_and_pipenv_files_pin(write_project, name, text):
    c = _choice(write_project, {name: text})
    assert c.version == "0.8.5" and c.basis == "pin" and c.pin.file == name


def test_a_lock_outranks_the_manifest_it_resolves(write_project):
    c = _choice(write_project, {"Pipfile": '[packages]\nvllm = "*"\n',
                                "Pipfile.lock": json.dumps({"default": {"vllm": {"version": "==0.8.5"}}})})
    assert c.version == "0.8.5" and c.pin.file == "Pipfile.lock"


def test_an_included_requirements_file_pins_the_including_files_folder(write_project):
    # `-r reqs/base.txt`: pip reads base.txt's lines as requirements.txt's own, whatever base.txt is named
    c = _choice(write_project, {"requirements.txt": "-r reqs/base.txt\n", "reqs/base.txt": "vllm==0.8.5\n"})
    assert c.version == "0.8.5" and c.pin.file == "reqs/base.txt"
    c = _choice(write_project, {"requirements.txt": "--constraint=requirements/constraints.txt\nvllm\n",
                                "requirements/constraints.txt": "vllm==0.9.2\n"})
    assert c.version == "0.9.2"


def test_a_git_url_at_a_release_tag_is_that_release(write_project):
    c = _choice(write_project, {"serve.sh": "pip install git+https://github.com/vllm-project/vllm.git@v0.8.5\n" + SERVE})
    assert c.version == "0.8.5" and c.basis == "pin"
    c = _choice(write_project, {"requirements.txt": "vllm @ git+https://github.com/vllm-project/vllm@0123456789abcdef\n"})
    assert c.basis == "source"  # a commit is no release


def _notebook(*cells):
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                                  "source": [ln + "\n" for ln in c]} for c in cells], "metadata": {}, "nbformat": 4,
                       "nbformat_minor": 5}, indent=1)


def test_a_notebook_runs_what_it_installs_itself(write_project):
    # TRL's examples/notebooks: grpo_agent.ipynb installs vllm==0.11.2, sft_trl_lora_qlora.ipynb `pip install -qU vllm`
    launch = ["from vllm import LLM", "llm = LLM(model='Qwen/Qwen2.5-0.5B-Instruct')"]
    files = {"nb/a.ipynb": _notebook(["!pip install -q vllm==0.11.2"], launch),
             "nb/b.ipynb": _notebook(["!pip install -qU vllm"], launch),
             "nb/c.ipynb": _notebook(["!pip install vllm"], launch)}
    sc = scan_project(write_project(files))
    got = {s.file: choice_for(s.file, sc.choices, sc.default, sc.own) for s in sc.sites}
    assert got["nb/a.ipynb"].version == "0.11.2"
    assert got["nb/b.ipynb"].basis == "unbounded" and got["nb/b.ipynb"].pin.file == "nb/b.ipynb"  # -U: the newest
    assert got["nb/c.ipynb"].version == "0.11.2"  # a plain install keeps what the folder's environment holds


_EXTRAS = '[project]\nname="x"\ndependencies=[]\n[project.optional-dependencies]\nnew=["vllm>=0.10"]\nvllm=["vllm==0.8.5"]\n'


def test_the_extra_an_install_names_decides_where_extras_disagree(write_project):
    # OpenRLHF-style extras (`vllm`, `vllm_latest`): one pins a release, another a newer range; the script installs `.[new]`
    c = _choice(write_project, {"pyproject.toml": _EXTRAS, "serve.sh": 'pip install -e ".[new]"\n' + SERVE})
    assert c.basis == "range" and c.pin.line == 5
    c = _choice(write_project, {"pyproject.toml": _EXTRAS, "README.md": "uv sync --extra vllm\n"})
    assert c.version == "0.8.5" and c.pin.line == 6


def test_without_a_named_extra_every_extra_is_read(write_project):
    c = _choice(write_project, {"pyproject.toml": _EXTRAS})
    assert c.version == "0.8.5"  # the exact pin, as before: no install says which extra runs


def test_the_extra_that_lists_vllm_decides_its_frameworks_over_the_base_list(write_project):
    # one pyproject: the base list bounds transformers from below only, the extra that installs vLLM caps it (an RL
    # library's `verl` extra beside vllm==0.8.5): the vLLM site runs with the extra's range, so L125 has no open bound
    toml = ('[project]\nname="x"\ndependencies=["transformers>=4.35.0"]\n[project.optional-dependencies]\n'
            'rl=["vllm==0.8.5", "transformers>=4.51.0,<5.0.0"]\ndev=["transformers>=4.40"]\n')
    sc = scan_project(write_project({"pyproject.toml": toml, "serve.sh": SERVE}))
    assert sc.ctx.framework_pin("serve.sh", "transformers").spec == ">=4.51.0,<5.0.0"


def test_a_bare_framework_pin_never_outranks_one_that_names_a_release(write_project):
    # requirements.txt lists `transformers` bare, pyproject.toml pins it: one install, the pin decides (as for vLLM)
    sc = scan_project(write_project({"requirements.txt": "vllm==0.11.0\ntransformers\n",
                                     "pyproject.toml": '[project]\nname="x"\ndependencies=["transformers==4.57.1"]\n',
                                     "serve.sh": SERVE}))
    assert sc.ctx.framework_pin("serve.sh", "transformers").exact == "4.57.1"
    # where the pins name releases, the file that also pins vLLM still decides (DB-Opt-R1's requirements-eval.txt)
    sc = scan_project(write_project({"requirements.txt": "vllm==0.11.0\ntransformers>=4.55.2,<5\n",
                                     "pyproject.toml": '[project]\nname="x"\ndependencies=["transformers==5.5.4"]\n',
                                     "serve.sh": SERVE}))
    assert sc.ctx.framework_pin("serve.sh", "transformers").spec == ">=4.55.2,<5"


def test_a_compose_build_arg_sets_the_dockerfiles_arg(write_project):
    # `ARG VLLM_VERSION` with no default: the compose file that builds the image gives its value
    files = {"Dockerfile": "FROM python:3.11\nARG VLLM_VERSION\nRUN pip install vllm==${VLLM_VERSION}\n",
             "docker-compose.yml": "services:\n  a:\n    build:\n      context: .\n      args:\n        VLLM_VERSION: 0.8.5\n"}
    c = _choice(write_project, files)
    assert c.version == "0.8.5" and c.basis == "pin"
    # two services that build it with different values: neither (the pin stays unreadable)
    files["docker-compose.yml"] += "  b:\n    build:\n      context: .\n      args:\n        VLLM_VERSION: 0.9.2\n"
    assert _choice(write_project, files).basis == "unreadable"


def test_a_launch_runs_the_requirements_file_its_script_installs(write_project):
    # `pip install -r envs/serve.txt` before `vllm serve`: that file's vLLM, though no pin file is named like it
    rep = audit(write_project({"envs/serve.txt": "vllm==0.8.5\n", "serve.sh": "pip install -r envs/serve.txt\n" + SERVE.split("\n", 1)[1]}),
                gpu="H100-80GB x8")
    sr, p0 = _p0(rep)
    assert str(sr.version.version) == "0.8.5" and not p0


_PLAYBOOK = """- hosts: all
  tasks:
    - name: Copy vllm wheel
      copy:
        src: ./vllm-dist/vllm-0.16.0rc2.dev367+g98b0205c3.d20260221-cp310-cp310-linux_x86_64.whl
        dest: /tmp/
    - name: Find vllm wheel
      find:
        paths: /tmp
        patterns: "vllm-*.whl"
      register: wheel
    - name: Install vllm from wheel
      command: uv pip install {{ wheel.files[0].path }}
"""


def test_a_playbook_installs_the_vllm_wheel_it_copies(write_project):
    # kika/qwen-hotaisle (https://github.com/kika/qwen-hotaisle, blind set eval60): the wheel it copies and installs
    c = _choice(write_project, {"setup.yml": _PLAYBOOK})
    assert c.basis == "source" and c.pin.line == 5 and c.version == "0.16.0"


def test_a_build_after_a_release_candidate_may_hold_the_next_minor_release():
    # `0.16.0rc2.dev367`: main after the 0.16.0 branch was cut as likely as the branch: up to 0.17.0
    from vllm_kb.engine.scan import source_pins
    assert [str(v) for v in source_pins.span_of("0.16.0rc2.dev367+g98b0205c3", KNOWN)] == ["0.15.1", "0.17.0"]
    assert [str(v) for v in source_pins.span_of("0.11.1.dev123", KNOWN)] == ["0.11.0", "0.11.1"]


def test_a_framework_checkout_is_the_release_its_version_file_names(write_project):
    # PRL-addENV is ms-swift's own tree: setup(name='ms_swift', version=get_version()) reads swift/version.py
    setup = ("version_file = 'swift/version.py'\n\ndef get_version():\n    return '0'\n\n"
             "from setuptools import setup\nsetup(name='ms_swift', version=get_version())\n")
    sc = scan_project(write_project({"setup.py": setup, "swift/version.py": "__version__ = '3.3.0.dev0'\n", "serve.sh": SERVE}))
    pin = sc.ctx.framework_pin("serve.sh", "ms-swift")
    assert pin is not None and pin.exact == "3.3.0.dev0" and pin.own


def test_a_shell_docker_build_arg_and_a_compose_dotenv_value_set_the_dockerfiles_arg(write_project, tmp_path):
    dockerfile = ("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nARG VLLM_VERSION\nRUN pip install vllm==${VLLM_VERSION}\n"
                  'CMD ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct"]\n')
    # a script's `docker build --build-arg … -f docker/Dockerfile .` (continuations joined): the image's own vLLM
    rep = audit(write_project({"docker/Dockerfile": dockerfile,
                               "build.sh": "docker build -t me/vllm:1 \\\n  --build-arg VLLM_VERSION=0.6.3 \\\n  -f docker/Dockerfile .\n"},
                              tmp_path / "script"))
    assert [str(sr.version.version) for sr in rep.sites] == ["0.6.3"]
    # compose `${VLLM_VERSION:-0.8.5}`: the .env beside it wins, else the default
    compose = ("services:\n  a:\n    build:\n      context: .\n      dockerfile: docker/Dockerfile\n"
               "      args:\n        VLLM_VERSION: ${VLLM_VERSION:-0.8.5}\n")
    files = {"docker/Dockerfile": dockerfile, "docker-compose.yml": compose}
    assert [str(sr.version.version) for sr in audit(write_project(files, tmp_path / "compose")).sites] == ["0.8.5"]
    files[".env"] = "VLLM_VERSION=0.9.2\n"
    assert [str(sr.version.version) for sr in audit(write_project(files, tmp_path / "dotenv")).sites] == ["0.9.2"]
    # a value from the shell with no default stays unread: not the newest release as a certain pin
    files = {"docker/Dockerfile": dockerfile, "build.sh": "docker build --build-arg VLLM_VERSION=$V -f docker/Dockerfile .\n"}
    assert [sr.version.basis for sr in audit(write_project(files, tmp_path / "unread")).sites] != ["build"]
    # an option after the context takes its value as `docker build` does (the table docker_run reads builds with):
    # `--iidfile image.id` is no context
    files = {"docker/Dockerfile": dockerfile,
             "build.sh": "docker build --build-arg VLLM_VERSION=0.6.3 -f docker/Dockerfile . --iidfile image.id\n"}
    assert [str(sr.version.version) for sr in audit(write_project(files, tmp_path / "after")).sites] == ["0.6.3"]


def test_a_dockerfile_variant_installing_inside_bash_c_pins_the_folder(write_project, tmp_path):
    # eval70 LLMInfra: Dockerfile-Nvidia's `RUN bash -c "source …/activate env && pip install vllm==0.5.1 -i … --timeout=7200"`
    docker = ('FROM ubuntu:22.04\nRUN bash -c "source ~/miniconda3/bin/activate llm && pip install vllm==0.5.1 '
              '-i https://pypi.example/simple/ --no-cache-dir --timeout=7200"\n')
    rep = audit(write_project({"Dockerfile-Nvidia": docker, "serve.sh": "vllm serve Qwen/Qwen2-7B-Instruct\n"}, tmp_path / "a"))
    assert [str(sr.version.version) for sr in rep.sites] == ["0.5.1"]
    assert pins.is_dockerfile("docker/Dockerfile_cuda") and not pins.is_dockerfile("dockerfiles.md")
    assert not pins.is_dockerfile("docs/dockerfile_build_guidance.rst") and pins.is_dockerfile("docker/dockerfile")


def test_a_dockerfile_variant_is_a_launch_site_too(write_project, tmp_path):
    # eval70: a `Dockerfile-<variant>` was read for its pins but never as the image whose CMD starts vLLM
    docker = 'FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "org/m", "--max-model-len", "4096"]\n'
    for name in ("Dockerfile-Nvidia", "docker/Dockerfile_cuda", "Dockerfile.cuda"):
        (sr,) = audit(write_project({name: docker}, tmp_path / name.replace("/", "_"))).sites
        assert (sr.site.file, str(sr.version.version), sr.site.settings["max_model_len"].value) == (name, "0.8.5", 4096)
    assert deploy.is_dockerfile("Dockerfile-Nvidia") and not deploy.is_dockerfile("Dockerfile-notes.md")


def test_a_requirements_file_of_any_name_a_script_installs_is_a_pin(write_project):
    # eval89 Lorenayannnnn/classmate-cot-verl (https://github.com/Lorenayannnnn/classmate-cot-verl): install.sh runs
    # `pip install -r my_requirements.txt`, whose vllm==0.11.0 was never read (judged unpinned, the newest release)
    from vllm_kb.engine.audit import audit

    def judged(files):
        (sr,) = audit(write_project(files), gpu="A100-80GB").sites
        return str(sr.version.version), sr.version.pinned

    files = {"my_requirements.txt": "numpy\nvllm==0.11.0\n", "run.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"}
    newest = judged(files)
    assert newest[0] != "0.11.0" and not newest[1]  # a file nothing installs says nothing
    assert judged({**files, "install.sh": "pip install -r my_requirements.txt\n"}) == ("0.11.0", True)


_EXTRA_ONLY = '[project]\nname="x"\ndependencies=[]\n[project.optional-dependencies]\nvllm=["vllm==0.8.5"]\n'
_GPT_OSS = "#!/bin/bash\nvllm serve openai/gpt-oss-20b\n"  # mxfp4: unknown to 0.8.5, known from 0.10.1 (L10)


def test_a_pin_only_an_unnamed_extra_holds_is_a_p1(write_project):
    # no install line names the `vllm` extra: the launch may run a plain install's newest release, which starts
    sr, p0 = _p0(audit(write_project({"pyproject.toml": _EXTRA_ONLY, "serve.sh": _GPT_OSS}), gpu="H100-80GB x1"))
    assert sr.version.version == "0.8.5" and not p0
    l10 = next(r for r in sr.results if r.check.id == "L10")
    assert l10.priority == "P1" and "optional extra" in l10.reason.en and "可选 extra" in l10.reason.zh
    # the project's own install names it: its P0 stands
    sr, p0 = _p0(audit(write_project({"pyproject.toml": _EXTRA_ONLY, "serve.sh": _GPT_OSS, "Makefile": "install:\n\tuv sync --extra vllm\n"}),
                       gpu="H100-80GB x1"))
    assert "L10" in p0


@pytest.mark.parametrize("toml, extras", [
    (_EXTRA_ONLY, ["vllm"]),
    ('[project]\nname="x"\ndependencies=["vllm>=0.8"]\n[project.optional-dependencies]\nvllm=["vllm==0.8.5"]\n', []),
    ('[project]\nname="x"\n[dependency-groups]\ndev=["vllm==0.8.5"]\n', []),  # uv installs `dev` by default
    ('[tool.poetry.dependencies]\nvllm = { version = "^0.6.3", optional = true }\n[tool.poetry.extras]\nlocal = ["vllm"]\n', ["local"]),
    ('[tool.poetry.dependencies]\nvllm = "^0.6.3"\n', []),
])
def test_which_pyproject_lists_vllm_in_extras_only(toml, extras):
    from vllm_kb.engine.scan.extra_groups import optional_only

    assert optional_only(toml) == extras


def test_a_lock_of_an_extra_only_vllm_is_marked(write_project):
    lock = '[[package]]\nname = "vllm"\nversion = "0.8.5"\n'
    sc = scan_project(write_project({"pyproject.toml": _EXTRA_ONLY, "uv.lock": lock, "serve.sh": SERVE}))
    assert [(p.file, p.unnamed_extra) for p in sc.pins if p.package == "vllm"] == [("pyproject.toml", "vllm"), ("uv.lock", "vllm")]


def test_an_extra_pin_beside_a_plain_install_is_no_extra_only_pin(write_project):
    # requirements.txt installs vLLM anyway: the extra's pin is not the only way it comes in
    sc = scan_project(write_project({"pyproject.toml": _EXTRA_ONLY, "requirements.txt": "vllm==0.8.5\n", "serve.sh": SERVE}))
    assert not [p for p in sc.pins if p.package == "vllm" and p.unnamed_extra]
