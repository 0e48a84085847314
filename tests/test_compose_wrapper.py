"""compose services whose vLLM command the argv alone does not show (eval81 jdaln/dgx-spark-inference-stack:
23 services were no site): `command: [serve, …]` on an image whose ENTRYPOINT is `vllm` (the project's
Dockerfile says so, or the image is named for vLLM and not built here), and a patching wrapper script
as entrypoint that ends in `exec "$@"` in front of `command: [vllm, serve, …]`."""
import pytest

from vllm_kb.engine.audit import audit

_SERVE = "services:\n  llm:\n    image: {image}\n    command:\n      - serve\n      - --model\n      - Qwen/Qwen3-8B\n" \
         "      - --max-model-len\n      - \"8192\"\n"
_WRAPPED = ("services:\n  llm:\n    image: my/vllm-node\n    volumes:\n      - ./patches:/opt/patches:ro\n"
            "    entrypoint: [/bin/bash, /opt/patches/start.sh]\n"
            "    command: [vllm, serve, Qwen/Qwen3-8B, --max-model-len, \"4096\", --enforce-eager]\n")


@pytest.fixture
def sites(write_project):
    return lambda files: audit(write_project(files), gpu="none").sites


def test_serve_first_on_an_image_the_project_builds_with_a_vllm_entrypoint(sites):
    dockerfile = "FROM nvidia/cuda:13.0.2-devel-ubuntu24.04 AS build\nRUN pip install vllm\nENTRYPOINT [\"vllm\"]\nCMD [\"--help\"]\n"
    readme = "Build it first:\n\n    docker build -t acme/vllm-spark-build:v2 -f docker/spark/Dockerfile .\n"
    (sr,) = sites({"docker/spark/Dockerfile": dockerfile, "README.md": readme,
                                "compose.yml": _SERVE.format(image="acme/vllm-spark-build:v2")})
    assert sr.site.kind == "vllm serve"
    assert sr.site.settings["max_model_len"].value == 8192
    assert "docker/spark/Dockerfile:3" in sr.site.mode_evidence


def test_serve_first_on_a_build_whose_entrypoint_is_another_program_is_no_site(sites):
    dockerfile = "FROM python:3.12\nRUN pip install vllm\nENTRYPOINT [\"/opt/nvidia/entry.sh\"]\n"
    readme = "    docker build -t acme/vllm-spark:v2 .\n"
    assert sites({"Dockerfile": dockerfile, "README.md": readme, "compose.yml": _SERVE.format(image="acme/vllm-spark:v2")}) == []


def test_serve_first_on_a_third_party_image_named_for_vllm(sites):
    (sr,) = sites({"compose.yml": _SERVE.format(image="someone/vllm-dgx-spark:v11")})
    assert sr.site.kind == "vllm serve"
    assert "someone/vllm-dgx-spark:v11" in sr.site.mode_evidence


def test_serve_first_on_an_image_not_named_for_vllm_is_no_site(sites):
    assert sites({"compose.yml": _SERVE.format(image="someone/llm-runner:v1")}) == []


def test_a_wrapper_that_execs_its_arguments_runs_the_command(sites):
    script = "#!/bin/bash\nset -euo pipefail\npython3 /opt/patches/fix_kernels.py\nexec \"$@\"\n"
    (sr,) = sites({"compose.yml": _WRAPPED, "patches/start.sh": script})
    assert sr.site.kind == "vllm serve"
    assert sr.site.settings["max_model_len"].value == 4096
    assert sr.site.settings["enforce_eager"].value is True


def test_a_wrapper_that_does_not_hand_on_its_arguments_is_read_as_before(sites):
    script = "#!/bin/bash\necho starting\npython3 /opt/patches/server.py\n"
    got = sites({"compose.yml": _WRAPPED, "patches/start.sh": script})
    # no service site of the command; only the fallback that reads any YAML string as a command line
    assert all("a command line in" in sr.site.mode_evidence for sr in got)


def test_a_kubernetes_configmap_wrapper_runs_its_args(sites):
    """The Kubernetes form (`command: [sh, script]` + `args: [vllm, serve, …]`) was already read through the
    ConfigMap's script; kept here beside the compose form so the two stay alike."""
    manifest = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: start-scripts}
data:
  run.sh: |
    #!/bin/sh
    set -e
    python3 -c 'print("warming up")'
    exec "$@"
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: llm}
spec:
  template:
    spec:
      volumes:
        - {name: scripts, configMap: {name: start-scripts}}
      containers:
        - name: vllm
          image: my/vllm-runtime:v1
          volumeMounts:
            - {name: scripts, mountPath: /scripts}
          command: [sh, /scripts/run.sh]
          args: [vllm, serve, Qwen/Qwen3-8B, --max-model-len, "16384"]
"""
    (sr,) = sites({"deploy.yaml": manifest})
    assert sr.site.kind == "vllm serve"
    assert sr.site.settings["max_model_len"].value == 16384
