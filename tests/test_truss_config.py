"""Truss config.yaml (basetenlabs/truss): each Truss pins its own folder, names its GPUs and the base image its
model code and data/ scripts run in (eval117 truss-examples); a pip freeze no install runs, beside the package's own
declaration, stands aside (eval117 verl-tool)."""
from vllm_kb.engine.scan import install_envs, stale_freeze, truss_config

CONFIG = """model_name: Gemma 2 27B
python_version: py311
model_metadata:
  repo_id: google/gemma-2-27b-it
requirements:
  - vllm==0.5.1
  - https://example.invalid/flashinfer-0.0.8-cp311-linux_x86_64.whl
resources:
  accelerator: B200:8
  use_gpu: true
"""


def test_the_requirements_list_pins_the_truss_at_its_lines():
    got = [(p.line, p.package, p.spec) for p in truss_config.pins(None, "g/config.yaml", CONFIG)]
    assert got == [(6, "vllm", "==0.5.1")]


def test_a_config_yaml_of_another_tool_pins_nothing():
    other = "requirements:\n  - vllm==0.5.1\ntraining:\n  epochs: 3\n"
    assert truss_config.pins(None, "config.yaml", other) == []
    assert truss_config.pins(None, "g/other.yaml", CONFIG) == []


def test_accelerator():
    assert truss_config.accelerator({"resources": {"accelerator": "B200:8"}}) == (8, ["B200"])
    assert truss_config.accelerator({"resources": {"accelerator": "A100"}}) == (1, ["A100"])
    assert truss_config.accelerator({"resources": {"cpu": "4"}}) == (None, [])


MODEL = """from vllm import LLM

class Model:
    def load(self):
        self.llm = LLM(model="google/gemma-2-27b-it", use_v2_block_manager=True)
"""


def test_the_model_code_runs_at_its_truss_release_on_its_gpus(write_project):
    from vllm_kb.engine.audit import audit

    root = write_project({"gemma/config.yaml": CONFIG, "gemma/model/model.py": MODEL,
                          "llava/config.yaml": "model_name: llava\nrequirements_file: ./requirements.txt\npython_version: py311\n",
                          "llava/requirements.txt": "vllm==0.3.0\n"})
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    assert str(sr.version.version) == "0.5.1"
    assert sr.facts["gpu"]["name"].startswith("NVIDIA B200") and sr.facts["gpu"]["count"] == 8


SCOUT = """base_image:
  image: vllm/vllm-openai:v0.8.4
model_metadata:
  repo_id: meta-llama/Llama-4-Scout-17B-16E-Instruct
docker_server:
  start_command: sh -c /app/data/do.sh
resources:
  accelerator: H100:4
"""


def test_a_data_script_the_start_command_runs_is_in_the_base_image(write_project):
    from vllm_kb.engine.audit import audit

    root = write_project({"scout/config.yaml": SCOUT, "requirements.txt": "vllm==0.3.0\n",
                          "scout/data/do.sh": "vllm serve meta-llama/Llama-4-Scout-17B-16E-Instruct --tensor-parallel-size 4\n",
                          "scout/data/other.sh": "vllm serve meta-llama/Llama-4-Scout-17B-16E-Instruct\n"})
    got = {sr.site.file: str(sr.version.version) for sr in audit(root, gpu="H100-80GB x8").sites}
    assert got == {"scout/data/do.sh": "0.8.4", "scout/data/other.sh": "0.3.0"}


FREEZE = "".join(f"pkg{i}=={i}.0\n" for i in range(40)) + "vllm==0.8.4\ntransformers==4.51.3\n"


def test_a_freeze_is_many_exact_pins():
    assert stale_freeze.is_freeze(FREEZE)
    assert not stale_freeze.is_freeze("vllm==0.8.4\ntransformers==4.51.3\n")
    assert not stale_freeze.is_freeze("".join(f"pkg{i}>={i}.0\n" for i in range(40)))


def _judged(write_project, files):
    from vllm_kb.engine.audit import audit

    serve = {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"}
    (sr,) = audit(write_project({**files, **serve}), gpu="A100-80GB").sites
    return str(sr.version.version)


PYPROJECT = '[project]\nname = "tool"\nversion = "0.1"\ndependencies = ["vllm<=0.11.0"]\n'


def test_a_freeze_no_install_runs_yields_to_the_packages_declaration(write_project, tmp_path):
    assert _judged(write_project, {"pyproject.toml": PYPROJECT, "requirements.txt": FREEZE}) == "0.11.0"


def test_a_freeze_the_readme_installs_stands(write_project):
    files = {"pyproject.toml": PYPROJECT, "requirements.txt": FREEZE, "README.md": "```bash\npip install -r requirements.txt\n```\n"}
    assert _judged(write_project, files) == "0.8.4"


def test_a_freeze_outside_a_vendored_packages_range_stands_aside_even_where_installed(write_project):
    setup = 'from setuptools import setup\nsetup(name="verl", install_requires=["vllm>=0.8.5,<=0.11.0"])\n'
    files = {"pyproject.toml": PYPROJECT, "requirements.txt": FREEZE, "verl/setup.py": setup,
             "README.md": "```bash\npip install -r requirements.txt\n```\n"}
    assert _judged(write_project, files) == "0.11.0"


def test_a_relative_cd_moves_the_requirements_file_named_after_it():
    files = {"requirements.txt", "evalplus/requirements.txt"}

    def resolve(_rel, ref):
        return ref if ref in files else None

    readme = "```bash\ncd evalplus\npip install -r requirements.txt\n```\n```bash\npip install -r requirements.txt\n```\n"
    assert set(install_envs.file_envs("README.md", readme, resolve)) == {"evalplus/requirements.txt", "requirements.txt"}
    only_sub = "```bash\ncd missing\npip install -r requirements.txt\n```\n"
    assert install_envs.file_envs("README.md", only_sub, resolve) == {}


def test_a_trusss_pin_is_no_release_for_the_rest_of_the_repository(write_project):
    from vllm_kb.engine.audit import audit

    root = write_project({"llava/config.yaml": "model_name: llava\nrequirements_file: ./requirements.txt\npython_version: py311\n",
                          "llava/requirements.txt": "vllm==0.3.0\n",
                          "tools/serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"})
    (sr,) = audit(root, gpu="H100-80GB").sites
    assert sr.version.basis == "none"
