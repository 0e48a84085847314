"""An image whose name holds "vllm" but that the project builds itself from a Dockerfile ending in a
command of its own (`FROM vllm/vllm-openai… ENTRYPOINT [] CMD ["uvicorn", …]`) is the project's app,
not a vLLM server: run with no command (a Makefile's `docker run $(IMAGE)`, a compose or Kubernetes
`image:` of the same repository name) it is no launch site (eval75 Podwarden/vllm-warden). An image
whose build keeps vLLM's entrypoint, or one the project does not build, stays a site."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.own_images import _program

_APP = 'FROM vllm/vllm-openai:v0.25.1\nWORKDIR /app\nCOPY app /app/app\nENTRYPOINT []\nCMD ["uvicorn", "app.main:app", "--port", "8080"]\n'
_MAKE = "IMAGE ?= {image}\nbuild:\n\tdocker build -t $(IMAGE) .\nrun:\n\tdocker run --rm --gpus all -p 8080:8080 $(IMAGE)\n"


def _sites(tmp_path, **files):
    for name, text in files.items():
        path = tmp_path / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return audit(tmp_path, gpu="none").sites


def test_the_projects_own_app_image_is_no_site(tmp_path):
    assert _sites(tmp_path, Dockerfile=_APP, Makefile=_MAKE.format(image="vllm-warden:dev")) == []


def test_a_manifest_of_the_same_repository_name_is_no_site(tmp_path):
    compose = "services:\n  api:\n    image: registry.example.com/apps/vllm-warden:latest\n    ports: ['8080:8080']\n"
    ci = "build:\n  script:\n    - docker build -t vllm-warden:$CI_COMMIT_SHORT_SHA .\n"
    assert _sites(tmp_path, Dockerfile=_APP, **{"deploy__compose.yaml": compose, ".gitlab-ci.yml": ci}) == []


def test_a_build_that_keeps_vllms_entrypoint_stays_a_site(tmp_path):
    dockerfile = "FROM vllm/vllm-openai:v0.25.1\nRUN pip install vllm-gguf-plugin==0.0.4\n"
    (sr,) = _sites(tmp_path, Dockerfile=dockerfile, Makefile=_MAKE.format(image="vllm-warden:dev"))
    assert sr.site.kind == "vllm serve"


def test_an_image_the_project_does_not_build_stays_a_site(tmp_path):
    (sr,) = _sites(tmp_path, Dockerfile=_APP, Makefile=_MAKE.format(image="warden:dev"),
                   **{"compose.yaml": "services:\n  api:\n    image: example/vllm-warden:latest\n"})
    assert sr.site.file == "compose.yaml"


def test_a_common_name_ties_only_when_written_in_full(tmp_path):
    (sr,) = _sites(tmp_path, Dockerfile=_APP, Makefile="build:\n\tdocker build -t vllm:dev .\n",
                   **{"compose.yaml": "services:\n  api:\n    image: example/vllm:latest\n"})
    assert sr.site.file == "compose.yaml"


@pytest.mark.parametrize("text, got", [
    (_APP, "other"),
    ("FROM vllm/vllm-openai:v0.9.0\nENTRYPOINT []\n", "other"),
    ('FROM vllm/vllm-openai:v0.9.0\nENTRYPOINT ["nginx", "-g", "daemon off;"]\n', "other"),
    ("FROM vllm/vllm-openai:v0.9.0\nEXPOSE 8000\n", None),  # vLLM's entrypoint kept
    ('FROM vllm/vllm-openai:v0.9.0\nENTRYPOINT ["vllm", "serve"]\n', None),
    ('FROM vllm/vllm-openai:v0.9.0\nENTRYPOINT []\nCMD ["bash", "/app/start.sh"]\n', None),  # a script: read where it lies
    ('FROM vllm/vllm-openai:v0.9.0\nENTRYPOINT ["python3", "serve.py"]\n', None),
    ('FROM vllm/vllm-openai:v0.9.0 AS base\nENTRYPOINT []\nCMD ["uvicorn", "x:app"]\nFROM base\n', "other"),
])
def test_what_a_final_stage_runs(text, got):
    assert _program(text) == got


_KEPT = "FROM vllm/vllm-openai:v0.25.1\nRUN pip install --no-cache-dir vllm-gguf-plugin==0.0.4\n"


def test_a_build_that_keeps_its_base_runs_the_bases_release(tmp_path):
    """`docker run $(IMAGE)` in a Makefile recipe apart from the build's, a compose and a Kubernetes `image:` of
    that name: the base image's vLLM runs (0.25.1), not the newest an untagged name would be read as, and a
    change of the release is made at the Dockerfile's FROM."""
    k8s = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n      containers:\n"
           "        - name: w\n          image: registry.example.com/apps/vllm-warden:1.2.0\n"
           "          args: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\"]\n")
    compose = "services:\n  api:\n    image: registry.example.com/apps/vllm-warden:latest\n    command: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\"]\n"
    make = "IMAGE ?= vllm-warden:dev\nbuild:\n\tdocker build -t $(IMAGE) .\nrun:\n\tdocker run --gpus all $(IMAGE) --model Qwen/Qwen2.5-7B-Instruct\n"
    sites = _sites(tmp_path, Dockerfile=_KEPT, Makefile=make, **{"deploy__compose.yaml": compose, "deploy__k8s.yaml": k8s})
    assert sorted(s.site.file for s in sites) == ["Makefile", "deploy/compose.yaml", "deploy/k8s.yaml"]
    for sr in sites:
        assert (sr.version.version, sr.version.basis) == ("0.25.1", "image") and sr.site.kind == "vllm serve"
        assert sr.site.launch["image_at"] == ("Dockerfile", 1)


def test_a_build_that_installs_its_own_vllm_is_not_read_as_its_base(tmp_path):
    dockerfile = "FROM vllm/vllm-openai:v0.20.0\nRUN pip install vllm==0.21.0\n"
    compose = "services:\n  api:\n    image: example/vllm-warden:latest\n    command: [\"--model\", \"Qwen/Qwen2.5-7B-Instruct\"]\n"
    sites = _sites(tmp_path, Dockerfile=dockerfile, Makefile=_MAKE.format(image="vllm-warden:dev"), **{"deploy__compose.yaml": compose})
    (sr,) = [s for s in sites if s.site.file == "deploy/compose.yaml"]
    assert "image_at" not in sr.site.launch and sr.version.version != "0.20.0"  # the FROM's release is not what runs
