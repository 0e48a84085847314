"""Which release a site is judged at where the project pins nothing for all of it (eval115): a Ray
application's runtime_env installs the release of the module it imports (engine/scan/ray_runtime_pins.py);
an NGC vLLM image of a month the vendor's notes read here do not name is "unknown (vendor release)", not
"untagged"; a sub-project's pin stays under its own root (engine/scan/sub_projects.py siblings_only); and
the summary counts the sites that carry their own release, in the built and the streamed report alike."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.report import model

MODULE = """from ray import serve
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.entrypoints.openai.cli_args import make_arg_parser


@serve.deployment
class Server:
    def __init__(self, args):
        self.args = args


app = Server.bind(AsyncEngineArgs.from_cli_args(make_arg_parser().parse_args([])))
"""

SERVICE = """apiVersion: ray.io/v1
kind: RayService
metadata:
  name: {name}
spec:
  serveConfigV2: |
    applications:
    - name: llm
      import_path: llm.serve:app
      runtime_env:
        pip: [{pip}]
"""


def _ray(tmp_path, *pips: str):
    (tmp_path / "llm").mkdir()
    (tmp_path / "llm" / "serve.py").write_text(MODULE)
    for n, pip in enumerate(pips):
        (tmp_path / f"svc{n}.yaml").write_text(SERVICE.format(name=f"svc{n}", pip=pip))
    return audit(tmp_path, gpu="H100-80GB x8")


def _l139(rep) -> list:
    return [r for sr in rep.sites for r in sr.results if r.check.id == "L139" and r.needs_change]


def test_a_rayservice_runtime_env_pin_is_the_imported_modules_release(tmp_path):
    rep = _ray(tmp_path, '"vllm==0.4.3", "transformers==4.40.2"')
    assert not _l139(rep)  # 0.4.3 has make_arg_parser where the module imports it


def test_without_the_pin_the_module_is_judged_at_the_newest(tmp_path):
    rep = _ray(tmp_path, '"transformers==4.40.2"')
    assert _l139(rep)  # the control: nothing installs 0.4.3, the newest release lacks the module


def test_a_bare_vllm_in_any_application_says_no_release(tmp_path):
    rep = _ray(tmp_path, '"vllm==0.4.3"', '"vllm"')
    assert _l139(rep)  # pip keeps whatever vLLM the image holds for the bare one


def test_applications_pinning_different_releases_judge_a_range(tmp_path):
    rep = _ray(tmp_path, '"vllm==0.4.3"', '"vllm==0.5.4"')
    sites = [sr for sr in rep.sites if sr.site.file == "llm/serve.py"]
    for sr in sites:
        assert sr.version.basis == "range" and set(map(str, sr.version.among)) >= {"0.4.3", "0.5.4"}


def test_a_deployment_decorators_runtime_env(tmp_path):
    (tmp_path / "serve.py").write_text(
        "from ray import serve\nfrom vllm import LLM\n\n\n"
        "@serve.deployment(ray_actor_options={'num_gpus': 1, 'runtime_env': {'pip': ['vllm==0.6.3']}})\n"
        "class Server:\n    def __init__(self):\n        self.llm = LLM(model='Qwen/Qwen2.5-7B-Instruct')\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    sr = next(sr for sr in rep.sites if sr.site.file == "serve.py")
    assert str(sr.version.version) == "0.6.3" and sr.version.pin.via == "ray-runtime-env"
    doc = model.build(rep)
    assert "runtime_env" in doc["sites"][0]["vllm"]["source"] and doc["summary"]["own_release"] == 1


NGC = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
      - name: server
        image: nvcr.io/nvidia/vllm:{tag}
        command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
        args: ["--model=Qwen/Qwen2.5-7B-Instruct"]
        resources:
          limits:
            nvidia.com/gpu: "1"
"""


def test_an_ngc_month_the_notes_do_not_name_is_unknown_not_untagged(tmp_path):
    (tmp_path / "deploy.yaml").write_text(NGC.format(tag="26.02-py3"))
    doc = model.build(audit(tmp_path, gpu="H100-80GB x8"))
    v = doc["sites"][0]["vllm"]
    assert v["basis"] == "image-untagged" and not v["pinned"]
    assert "26.02" in v["source"] and "unknown" in v["source"] and "pulled last" not in v["source"]
    assert not any(r["priority"] == "P0" for r in doc["sites"][0]["recommendations"])
    assert "26.02" in model.build(audit(tmp_path, gpu="H100-80GB x8"), "zh")["sites"][0]["vllm"]["source"]


def test_an_ngc_month_the_notes_name_is_its_release(tmp_path):
    (tmp_path / "deploy.yaml").write_text(NGC.format(tag="26.03-py3"))
    doc = model.build(audit(tmp_path, gpu="H100-80GB x8"))
    assert doc["sites"][0]["vllm"]["version"] == "0.17.1" and doc["summary"]["own_release"] == 1


def test_a_sibling_sub_projects_pin_is_not_the_root_packages(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "root"\nversion = "0.1"\ndependencies = ["torch"]\n')
    sub = tmp_path / "projects" / "evals"
    sub.mkdir(parents=True)
    (sub / "pyproject.toml").write_text('[project]\nname = "evals"\nversion = "0.1"\ndependencies = ["vllm >= 0.6.2"]\n')
    (sub / "run.py").write_text("from vllm import LLM\nLLM(model='Qwen/Qwen2.5-7B-Instruct')\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "gen.py").write_text("from vllm import LLM\nLLM(model='Qwen/Qwen2.5-7B-Instruct')\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    by = {sr.site.file: sr.version for sr in rep.sites}
    assert by["projects/evals/run.py"].basis == "range"
    assert by["pkg/gen.py"].basis == "none"  # the root package names no vLLM
    assert rep.default_version.basis == "none"


def test_a_requirements_pin_in_a_sub_folder_still_speaks_for_the_project(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "root"\nversion = "0.1"\n')
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "requirements.txt").write_text("vllm==0.8.5\n")
    (tmp_path / "gen.py").write_text("from vllm import LLM\nLLM(model='Qwen/Qwen2.5-7B-Instruct')\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    assert str(rep.default_version.version) == "0.8.5"  # not a sub-project: no manifest of its own


def test_the_header_does_not_claim_what_image_pinned_sites_contradict(tmp_path):
    (tmp_path / "deploy.yaml").write_text(NGC.format(tag="26.03-py3"))
    rep = audit(tmp_path, gpu="H100-80GB x8")
    for lang in ("en", "zh"):
        doc = model.build(rep, lang)
        assert doc["project"]["vllm"]["basis"] == "none"
        assert doc["project"]["vllm"]["source"] == rep.kb.t("version.none_project", lang, version=rep.default_version.version)
        assert doc["summary"]["own_release"] == 1 and doc["summary"]["sites"] == 1
