"""Images whose tag counts their maker's releases, not vLLM's (knowledge/deploy/framework_images.yaml):
the vLLM each one installs is read from the maker's own files at that tag, and the report says so.
A Dockerfile that only starts FROM a vLLM image launches nothing itself; a compose file's `${VAR}`
is read through what the repository holds in place of its git-ignored `.env`."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.image_tables import framework_image_source
from vllm_kb.engine.scan.images import image_version


@pytest.mark.parametrize("image, vllm", [
    ("kserve/huggingfaceserver:v0.13.0", "0.4.2"),  # the GPU image until 0.14.x
    ("docker.io/kserve/huggingfaceserver:v0.15.2-gpu", "0.8.5"),  # from 0.15.0 the GPU image is -gpu
    ("kserve/huggingfaceserver:v0.18.0", "0.19.0"),  # the CPU build of the same VLLM_VERSION
    ("kserve/huggingfaceserver:v0.15.2-openvino", None),  # OpenVINO's vLLM: not read
    ("kserve/huggingfaceserver:latest-gpu", None),
    ("ghcr.io/llm-d/llm-d-cuda:v0.8.0", "0.23.0"),
    ("ghcr.io/llm-d/llm-d-cuda:v0.5.0", None),  # no release note read for it
    ("quay.io/ascend/vllm-ascend:v0.10.0rc1", "0.10.0"),  # a plugin rc is the vLLM release its Dockerfile clones
    ("quay.io/ascend/vllm-ascend:v0.8.5rc1-openeuler", "0.8.5.post1"),
    ("quay.io/ascend/vllm-ascend:v0.14.0rc1-a3", "0.14.1"),
    ("quay.io/ascend/vllm-ascend:v0.11.0rc0", None),  # built on vLLM's own v0.11.0rc3
    ("rocm/vllm:rocm7.0.0_vllm_0.10.2_20251006", "0.10.2"),  # not the newest release by its day (0.11.0)
    ("rocm/vllm:rocm6.3.1_instinct_vllm0.8.3_20250415", "0.8.3"),
    ("nvcr.io/nvidia/tritonserver:25.03-vllm-python-py3", "0.7.3"),
    ("nvcr.io/nvidia/tritonserver:26.03-vllm-python-py3", "0.17.1"),  # FROM nvcr.io/nvidia/vllm:26.03-py3
    ("nvcr.io/nvidia/vllm:26.03.post1-py3", "0.17.1"),  # a patched respin of 26.03 (eval83 wutonglab)
    ("nvcr.io/nvidia/vllm:26.04.post1-py3", None),  # a month no row names
    ("vllm/vllm-omni-rocm:v0.12.0rc1", "0.12.0"),  # vLLM-Omni's rc, built on vLLM v0.12.0 (eval75 aibrix)
    ("vllm/vllm-omni:v0.12.0rc1", "0.12.0"),
    ("vllm/vllm-omni:v0.99.0rc1", None),  # a vLLM-Omni release no row names
])
def test_a_makers_tag_names_the_vllm_its_build_installs(image, vllm):
    assert image_version(image) == vllm


@pytest.mark.parametrize("image, vllm", [
    # a Volcengine blog's two 7B services (jianshu 6589622965e1): the vendor's build suffix after the release
    ("ai-containers-cn-beijing.cr.volces.com/deeplearning/vllm:0.7.1.v1.iaas", "0.7.1"),
    ("example.com/team/vllm:0.8.5.post1", "0.8.5.post1"),
    ("example.com/team/vllm:0.7.1.dev3", None),  # a build between releases: not 0.7.1
    ("example.com/team/vllm:0.7.1.rc1", None),
])
def test_a_vendors_dotted_suffix_after_the_release(image, vllm):
    assert image_version(image) == vllm


def test_where_the_release_of_a_makers_tag_is_said():
    assert framework_image_source("kserve/huggingfaceserver:v0.13.0") == (
        "0.4.2", "https://github.com/kserve/kserve/blob/v0.13.0/python/huggingface_server.Dockerfile")
    assert framework_image_source("rocm/vllm:rocm7.0.0_vllm_0.10.2_20251006") is None  # the tag names vLLM itself


def test_the_report_says_the_release_is_the_makers_word(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM kserve/huggingfaceserver:v0.13.0\n")
    (tmp_path / "isvc.yaml").write_text(
        "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: llama3}\nspec:\n"
        "  predictor:\n    model:\n      modelFormat: {name: huggingface}\n"
        "      args: [--model_name=llama3, --model_id=meta-llama/Meta-Llama-3-8B-Instruct]\n")
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.report.model import version_text

    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert str(sr.version.version) == "0.4.2"
    en, zh = (version_text(load(), sr.version, lang) for lang in ("en", "zh"))
    assert "kserve/huggingfaceserver:v0.13.0" in en and "huggingface_server.Dockerfile" in en and "0.4.2" in en
    assert "vLLM 0.4.2" in zh and "huggingface_server.Dockerfile" in zh


def test_a_vendor_image_pin_is_not_judged_as_pypis_wheel(tmp_path):
    # NVIDIA builds Triton's vLLM itself from 25.02 on: the PyPI wheel's kernel list is not its own
    (tmp_path / "Dockerfile").write_text("FROM nvcr.io/nvidia/tritonserver:25.03-vllm-python-py3\n")
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen2.5-1.5B-Instruct --max-model-len 4096\n")
    (sr,) = audit(tmp_path, gpu="RTX 5090").sites
    assert str(sr.version.version) == "0.7.3"
    assert not [r for r in sr.results if r.needs_change and r.priority == "P0"]


def test_a_dockerfile_that_only_starts_from_the_image_is_no_site(tmp_path):
    (tmp_path / "services" / "vllm").mkdir(parents=True)
    (tmp_path / "services" / "vllm" / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.8.5\nENV HF_HOME=/models\n")
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  vllm:\n    build:\n      context: ./services/vllm\n"
        "    command: [--model, Qwen/Qwen2.5-7B-Instruct, --max-model-len, '8192']\n")
    rep = audit(tmp_path, gpu="H100-80GB")
    assert [sr.site.file for sr in rep.sites] == ["docker-compose.yml"]
    assert str(rep.sites[0].version.version) == "0.8.5"
    assert not [s for s in rep.skipped if "services/services" in s.file]


def test_a_dockerfile_with_a_command_stays_a_site(tmp_path):
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "Qwen/Qwen2.5-7B-Instruct"]\n')
    rep = audit(tmp_path, gpu="H100-80GB")
    assert [sr.site.file for sr in rep.sites] == ["Dockerfile"]


COMPOSE = "services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.5\n    command: ${VLLM_ARGS}\n"
ARGS = "VLLM_ARGS=--model Qwen/Qwen2.5-7B-Instruct --max-model-len 8192\n"


@pytest.mark.parametrize("files", [
    {".env.example": ARGS},  # the template committed in place of the git-ignored .env
    {"envs/qwen.env": ARGS, "up.sh": "docker compose --env-file envs/qwen.env up -d\n"},
    {".env": ARGS, ".env.example": ARGS.replace("Qwen2.5-7B", "Qwen2.5-72B")},  # the .env itself wins
])
def test_a_compose_command_from_a_variable_is_read_through_the_env_file_the_repository_holds(tmp_path, files):
    (tmp_path / "docker-compose.yml").write_text(COMPOSE)
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert sr.site.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert sr.site.settings["max_model_len"].value == 8192


def test_two_env_files_the_scripts_pass_leave_the_variable_unread(tmp_path):
    (tmp_path / "docker-compose.yml").write_text(COMPOSE)
    (tmp_path / "a.env").write_text(ARGS)
    (tmp_path / "b.env").write_text(ARGS.replace("7B", "72B"))
    (tmp_path / "up.sh").write_text("docker compose --env-file a.env up -d\ndocker compose --env-file b.env up -d\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert "max_model_len" not in sr.site.settings


@pytest.mark.parametrize("placeholder", ['"__VLLM_EXTRA_ARGS__"', "<extra vllm args>"])
def test_a_templates_placeholder_is_no_value(tmp_path, placeholder):
    # parallelworks/activate-rag-vllm docker/env.example (eval60): VLLM_EXTRA_ARGS="__VLLM_EXTRA_ARGS__", which
    # run_local.sh fills with sed; read as written it was the model positional beside --model (a false L33 P0)
    (tmp_path / "docker-compose.yml").write_text("services:\n  vllm:\n    image: vllm/vllm-openai:v0.20.0\n"
                                                 "    command: >\n      --model ${MODEL_NAME}\n      ${VLLM_EXTRA_ARGS}\n")
    (tmp_path / "env.example").write_text(f"MODEL_NAME=Qwen/Qwen2.5-7B-Instruct\nVLLM_EXTRA_ARGS={placeholder}\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert not [r for r in sr.results if r.check.id == "L33" and r.needs_change and r.priority in ("P0", "P1")]
    assert "__VLLM_EXTRA_ARGS__" not in str(sr.site.model.value if sr.site.model else None)


def test_a_build_context_written_from_the_project_root_is_found_once(tmp_path):
    # services/docker-compose.yml with `context: ./services/vllm`, started with --project-directory .
    (tmp_path / "services" / "vllm").mkdir(parents=True)
    (tmp_path / "services" / "vllm" / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.8.5\n")
    (tmp_path / "services" / "docker-compose.yml").write_text(
        "services:\n  vllm:\n    build:\n      context: ./services/vllm\n    command: [--model, Qwen/Qwen2.5-7B-Instruct]\n")
    rep = audit(tmp_path, gpu="H100-80GB")
    assert [sr.site.file for sr in rep.sites] == ["services/docker-compose.yml"]
    assert str(rep.sites[0].version.version) == "0.8.5"
    assert not [s for s in rep.skipped if s.code == "unreadable"]


RUNTIME = ("apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\nmetadata: {name: hf-runtime}\nspec:\n"
           "  supportedModelFormats: [{name: huggingface, version: '1', autoSelect: true}]\n"
           "  containers:\n    - name: kserve-container\n      image: kserve/huggingfaceserver:v0.13.1\n"
           "      args: ['--model_name={{.Name}}']\n---\n")
ISVC = ("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: gemma2}\nspec:\n  predictor:\n"
        "    model:\n      modelFormat: {name: huggingface}\n{extra}      args: [--model_id=google/gemma-2-9b-it]\n"
        "      resources: {limits: {nvidia.com/gpu: '1'}}\n")


def test_an_inference_service_runs_the_vllm_of_its_runtimes_image(tmp_path):
    (tmp_path / "isvc.yaml").write_text(RUNTIME + ISVC.replace("{extra}", "      runtime: hf-runtime\n"))
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert str(sr.version.version) == "0.4.3"  # kserve#3784: Gemma 2 needed the image's vLLM bumped to 0.5.1
    assert "L21" in {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"}


@pytest.mark.parametrize("version, fp16", [("v0.14.1", True), ("v0.15.2-gpu", False), (None, True)])
def test_kserve_turns_auto_into_float16_only_in_its_0_13_and_0_14_runtimes(tmp_path, version, fp16):
    extra = f"      runtimeVersion: {version}\n" if version else ""
    (tmp_path / "isvc.yaml").write_text(ISVC.replace("{extra}", extra))
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    assert (sr.site.fixed.get("dtype") == "float16") is fp16
