"""Pins that must not outrank the project's own (engine/scan/pin_scope.py): another platform's
requirements file, a vendored framework copy's files, a sub-folder setup script's install."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan import pin_scope
from vllm_kb.engine.scan.install_pins import literal_vars
from vllm_kb.engine.scan.project import scan_project

_VERL_GATE = "verl/verl/workers/rollout/vllm_rollout/__init__.py"


def test_accelerator_variant_files():
    for rel in ("requirements-npu.txt", "verl/requirements_rocm.txt", "requirements/xpu.txt", "requirements-cpu-build.txt",
                "requirements-tpu.in"):
        assert pin_scope.is_variant(rel), rel
    for rel in ("requirements.txt", "requirements-cuda.txt", "requirements_sglang.txt", "requirements/common.txt",
                "requirements-dev.txt", "pyproject.toml", "scripts/setup_cpu.sh"):
        assert not pin_scope.is_variant(rel), rel


def test_a_vendored_copy_and_its_npu_file_yield_to_the_project_pin(write_project):
    # liuzy1019/LiveMCP-GRPO (https://github.com/liuzy1019/LiveMCP-GRPO): a vendored verl whose Ascend
    # requirements-npu.txt pins transformers==4.52.4; the project pins 4.57.6 at its root
    files = {"requirements.txt": "transformers==4.57.6\nvllm==0.11.0\n",
             "verl/requirements.txt": "transformers\n", "verl/requirements-npu.txt": "transformers==4.52.4\ntorchvision==0.20.1\n",
             "verl/setup.py": 'from setuptools import setup\nsetup(name="verl", extras_require={"vllm": ["vllm>=0.8.5,<=0.10.0"]})\n',
             _VERL_GATE: "from vllm import LLM\n", "verl/examples/run.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"}
    sc = scan_project(write_project(files))
    assert sc.ctx.framework_pin("verl/examples/run.sh", "transformers").exact == "4.57.6"
    assert sc.ctx.version_for("verl/examples/run.sh") == "0.11.0"
    assert not any(p.file == "verl/requirements-npu.txt" for p in sc.ctx.dependency_pins)  # no CUDA site's torchvision


def test_a_variant_file_alone_still_pins(write_project):
    # a project that pins vLLM only in its ROCm file: nothing else says which release it runs
    sc = scan_project(write_project({"requirements-rocm.txt": "vllm==0.8.5\ntransformers==4.51.0\n",
                                     "serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"}))
    assert sc.ctx.version_for("serve.sh") == "0.8.5"
    assert sc.ctx.framework_pin("serve.sh", "transformers").exact == "4.51.0"


def test_a_copy_keeps_its_pins_where_the_project_pins_nothing(write_project):
    files = {"verl/requirements.txt": "transformers==4.51.0\n", _VERL_GATE: "from vllm import LLM\n",
             "verl/examples/run.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"}
    sc = scan_project(write_project(files))
    assert sc.ctx.framework_pin("verl/examples/run.sh", "transformers").exact == "4.51.0"


def test_a_defaulted_variable_is_read_as_its_default():
    text = 'V="${VLLM_VERSION:-0.20.0}"\nVLLM_VERSION="${VLLM_VERSION:-0.20.0}"\nexport T=${T-4.57.6}\nH="${H:-$HOME/x}"\n'
    assert literal_vars(text) == {"V": "0.20.0", "VLLM_VERSION": "0.20.0", "T": "4.57.6"}
    assert "X" not in literal_vars('X="${X:-0.1}"\nX=0.2\n')  # two values: which one a pip line sees is not read


_SM120 = ('#!/bin/bash\nVLLM_VERSION="${VLLM_VERSION:-0.20.0}"\nENV_PREFIX="${ENV_PREFIX:-/envs/sm120}"\n'
          'conda create -p "$ENV_PREFIX" python=3.12 -y\nconda activate "$ENV_PREFIX"\n'
          'python -m pip install "vllm==$VLLM_VERSION" --extra-index-url https://wheels.vllm.ai/cu130\n')
_SERVE = "#!/bin/bash\npython -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-4B --disable-log-requests\n"


def test_a_sub_folder_setup_script_does_not_outrank_the_project_pin(write_project):
    # PshySimon/DB-Opt-R1 (https://github.com/PshySimon/DB-Opt-R1): scripts/setup_sm120_…sh installs
    # vllm==$VLLM_VERSION (default 0.20.0) into its own conda env; scripts/serve_vllm.sh runs the
    # project's requirements-eval.txt vllm==0.11.0 (it was judged at the newest release as "unreadable")
    root = write_project({"requirements-eval.txt": "vllm==0.11.0\ntransformers>=4.55.2,<5\n",
                          "requirements-trl.txt": "trl==1.2.0\ntransformers==5.5.4\n",
                          "scripts/setup_sm120.sh": _SM120, "scripts/serve_vllm.sh": _SERVE})
    sc = scan_project(root)
    assert sc.ctx.version_for("scripts/serve_vllm.sh") == "0.11.0"
    assert any(p.text == "vllm==$VLLM_VERSION (vllm==0.20.0)" for p in sc.pins)  # read, and listed
    # the transformers installed with that vLLM pin, not the TRL stack's
    assert sc.ctx.framework_pin("scripts/serve_vllm.sh", "transformers").file == "requirements-eval.txt"


def test_a_sub_folder_setup_script_still_pins_where_nothing_above_does(write_project):
    sc = scan_project(write_project({"scripts/setup_sm120.sh": _SM120, "scripts/serve_vllm.sh": _SERVE}))
    assert sc.ctx.version_for("scripts/serve_vllm.sh") == "0.20.0"


def _tfgame(root_req: str) -> dict:
    return {"requirements.txt": f"torch>=2.0.0\n{root_req}\n", _VERL_GATE: "from vllm import LLM\n",
            "verl/requirements.txt": "ray\nvllm<=0.6.3\n",
            "verl/setup.py": 'from setuptools import setup\nsetup(name="verl", install_requires=["vllm<=0.6.3"])\n',
            "verl/examples/run.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n", "serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n"}


def test_a_root_floor_over_a_copys_cap_is_both(write_project):
    # DBMing/TFGame (https://github.com/DBMing/TFGame, eval62): the root
    # requirements.txt says only `vllm>=0.2.0`, the vendored verl 0.2 caps `vllm<=0.6.3` and its code runs only
    # there; the copy's launches run a release both allow (0.6.3), the project's own ones the root's newest
    sc = scan_project(write_project(_tfgame("vllm>=0.2.0")))
    assert sc.ctx.version_for("verl/examples/run.sh") == "0.6.3"
    got = sc.choices["verl"]
    assert got.basis == "range" and got.pin.spec == "<=0.6.3,>=0.2.0" and got.pin.within.startswith("requirements.txt:2")
    assert sc.ctx.version_for("serve.sh") == sc.default.version != "0.6.3"


def test_a_root_bare_name_leaves_the_copys_cap(write_project):
    sc = scan_project(write_project(_tfgame("vllm")))
    assert sc.ctx.version_for("verl/examples/run.sh") == "0.6.3"


def test_a_root_pin_that_decides_alone(write_project):
    # an exact root pin, or a floor above the copy's cap (no release meets both): the project's own pin decides
    for req in ("vllm==0.8.5", "vllm>=0.7.0"):
        sc = scan_project(write_project(_tfgame(req)))
        assert sc.ctx.version_for("verl/examples/run.sh") == sc.ctx.default_version, req
        assert "verl" not in sc.choices, req
    sc = scan_project(write_project(_tfgame("vllm>=0.5,<0.9")))  # a range with a ceiling of its own: both ceilings
    assert sc.ctx.version_for("verl/examples/run.sh") == "0.6.3" and sc.choices["verl"].pin.spec == "<=0.6.3,>=0.5,<0.9"


def test_dev_requirement_names():
    for rel in ("requirements-test.txt", "requirements_dev.txt", "test-requirements.txt", "dev-requirements.txt",
                "requirements/docs.txt", "requirements-tests.in", "requirements/test.txt"):
        assert pin_scope._dev_name(rel), rel
    for rel in ("requirements.txt", "requirements-cuda.txt", "requirements/common.txt", "requirements-latest.txt",
                "pyproject.toml", "requirements_devices.txt"):
        assert not pin_scope._dev_name(rel), rel


_PSTACK = {"pyproject.toml": '[project]\nname = "router"\nversion = "0"\ndependencies = ["vllm==0.13.0"]\n',
           "requirements-test.txt": "pytest\ntransformers==4.51.1\nvllm==0.13.0\n",
           ".github/workflows/e2e.yml": "jobs:\n  e2e:\n    steps:\n      - run: |\n          pip install -e .\n"
                                       "          vllm serve facebook/opt-125m --port 8001\n"}


def test_a_test_requirements_file_nothing_installs_pins_nothing(write_project):
    # vllm-project/production-stack (https://github.com/vllm-project/production-stack): requirements-test.txt pins
    # transformers==4.51.1 beside vllm==0.13.0, but the workflows install `-e .` and no file names it
    sc = scan_project(write_project(_PSTACK))
    assert sc.ctx.framework_pin(".github/workflows/e2e.yml", "transformers") is None
    assert sc.ctx.version_for(".github/workflows/e2e.yml") == "0.13.0"


def test_a_test_requirements_file_something_installs_still_pins(write_project):
    files = dict(_PSTACK)
    files[".github/workflows/e2e.yml"] = files[".github/workflows/e2e.yml"].replace("pip install -e .", "pip install -r requirements-test.txt")
    sc = scan_project(write_project(files))
    assert sc.ctx.framework_pin(".github/workflows/e2e.yml", "transformers").exact == "4.51.1"
    # …as does one a README tells the reader to install
    files = dict(_PSTACK, **{"README.md": "Run `pip install -r requirements-test.txt` first.\n"})
    assert scan_project(write_project(files)).ctx.framework_pin(".github/workflows/e2e.yml", "transformers").exact == "4.51.1"


_GATE = ("from importlib.metadata import version\nv = version('vllm')\nif v == '0.6.3':\n    pass\n"
         "else:\n    raise ValueError(f'vllm version {v} not supported. Currently supported versions are 0.6.3.')\n")


def _skythought(find: str = '\n[tool.setuptools.packages.find]\ninclude = ["evals*"]\n') -> dict:
    # NovaSky-AI/SkyThought (https://github.com/NovaSky-AI/SkyThought): the root evals package pins vllm==0.7.0 and
    # its file list leaves skythought/skythought-rl out; that folder is verl 0.1, a project of its own requiring vllm<=0.6.3
    return {"pyproject.toml": f'[project]\nname = "evals"\nversion = "0.1.0"\ndependencies = ["vllm==0.7.0"]\n{find}',
            "evals/__init__.py": "", "evals/run.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n",
            "sub-rl/pyproject.toml": '[project]\nname = "verl"\nversion = "0.1"\ndependencies = ["vllm<=0.6.3"]\n',
            "sub-rl/verl/__init__.py": "", "sub-rl/verl/trainer/main_ppo.py": "", "sub-rl/verl/version/version": "0.1\n",
            "sub-rl/verl/workers/rollout/vllm_rollout/__init__.py": "from vllm import LLM\n",
            "sub-rl/verl/third_party/vllm/__init__.py": _GATE,
            "sub-rl/examples/run.sh": "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct "
                                      "actor_rollout_ref.rollout.name=vllm trainer.n_gpus_per_node=8\n"}


def test_a_copy_the_root_package_leaves_out_runs_its_own_pin(write_project):
    sc = scan_project(write_project(_skythought()))
    assert sc.ctx.version_for("sub-rl/examples/run.sh") == "0.6.3"
    assert sc.ctx.version_for("evals/run.sh") == "0.7.0"
    # …as where a uv workspace or the package's own list names it, the root package's release decides
    for find in ('\n[tool.uv.workspace]\nmembers = ["sub-rl"]\n', '\n[tool.setuptools.packages.find]\ninclude = ["evals*", "sub*"]\n'):
        files = _skythought(find)
        files["sub-rl/verl/workers/rollout/vllm_rollout/__init__.py"] = "from vllm import LLM\n"
        if "sub*" in find:
            files = {k.replace("sub-rl", "sub_rl"): v for k, v in files.items()}
        sc = scan_project(write_project(files))
        rel = "sub_rl/examples/run.sh" if "sub*" in find else "sub-rl/examples/run.sh"
        assert sc.ctx.version_for(rel) == "0.7.0", find


def test_a_copy_whose_root_package_files_are_unread_may_run_either(write_project):
    # setuptools' automatic discovery: judged at the root's release as before, the copy's own release beside it
    sc = scan_project(write_project(_skythought("")))
    assert sc.ctx.version_for("sub-rl/examples/run.sh") == "0.7.0"
    assert sc.choices["sub-rl"].pin.rival == "0.6.3" and sc.choices["sub-rl"].pin.file == "pyproject.toml"


def _l43(rep, rel: str):
    return [(r.status, r.priority) for sr in rep.sites if sr.site.file == rel for r in sr.results if r.check.id == "L43"]


def test_verl_refusing_only_the_root_release_is_p0_only_where_the_root_environment_runs_it(write_project):
    # the root package's files read and leaving the copy out: judged at 0.6.3, which verl 0.1 runs
    assert ("recommended", "P0") not in _l43(audit(write_project(_skythought()), gpu="H100-80GB x8"), "sub-rl/examples/run.sh")
    # not read: either may run it, so the refusal is said, at P1
    assert _l43(audit(write_project(_skythought("")), gpu="H100-80GB x8"), "sub-rl/examples/run.sh") == [("recommended", "P1")]
    # an environment file at the root (LiveMCP-GRPO's shape) still decides alone
    files = {k: v for k, v in _skythought("").items() if k != "pyproject.toml"} | {"requirements.txt": "vllm==0.7.0\n"}
    assert _l43(audit(write_project(files), gpu="H100-80GB x8"), "sub-rl/examples/run.sh") == [("recommended", "P0")]


def test_which_root_package_file_lists_leave_a_copy_out():
    from vllm_kb.engine.scan.sub_projects import _left_out

    def left(data, lock=""):
        return _left_out(data, "third/verl", lambda rel: lock if rel == "uv.lock" else None)
    find = {"tool": {"setuptools": {"packages": {"find": {"include": ["evals*"]}}}}}
    assert left(find) is True
    assert left({"tool": {"setuptools": {"packages": {"find": {"include": ["third*"]}}}}}) is None
    assert left({"tool": {"setuptools": {"packages": {"find": {"where": ["src"]}}}}}) is True  # outside every `where`
    assert left({"tool": {"setuptools": {"packages": ["evals", "evals.cli"]}}}) is True
    assert left({"tool": {"setuptools": {"packages": ["third"]}}}) is None
    assert left({"tool": {"hatch": {"build": {"targets": {"wheel": {"packages": ["src/evals"]}}}}}}) is True
    assert left({"tool": {"poetry": {"packages": [{"include": "third"}]}}}) is None
    assert left({"tool": {"uv": {"workspace": {"members": ["third/*"]}}}}) is None
    assert left(find, lock='[[package]]\nname = "verl"\nsource = { editable = "third/verl" }\n') is None
    assert left({"project": {"name": "evals"}}) is False  # automatic discovery: not read
