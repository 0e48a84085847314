"""NVIDIA Dynamo's vLLM worker: `python3 -m dynamo.vllm <vLLM flags>` in a script or in a
DynamoGraphDeployment's services (v1alpha1 `extraPodSpec.mainContainer`, v1beta1 pod templates).
Dynamo's own options leave the site, the rest go to vLLM's engine-argument parser alone; the
vllm-runtime image's tag names Dynamo's release, whose line fixes the vLLM inside
(knowledge/deploy/framework_images.yaml). Before, such a project had no site at all."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.images import framework_image, image_version, is_vllm_like_image

DGD = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: qwen3-agg
spec:
  backendFramework: vllm
  services:
    Frontend:
      componentType: frontend
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:{tag}
    VllmDecodeWorker:
      componentType: worker
      resources:
        limits:
          gpu: "2"
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:{tag}
          command: [python3, -m, dynamo.vllm]
          args:
            - --model
            - Qwen/Qwen3-8B
            - --tensor-parallel-size
            - "2"
            - --disable-log-requests
            - --namespace
            - qwen
"""


@pytest.mark.parametrize("tag, vllm", [("1.1.0-rc5", "0.19.0"), ("1.1.1", "0.19.0"), ("0.9.1", "0.14.1"), ("0.8.1.post1", "0.12.0"),
                                       ("1.3.0", "0.23.0"), ("1.2.0-deepseek-v4-dev.2", None), ("1.1.0-dev.1", None),
                                       ("0.5.0", None), ("my-tag", None)])
def test_the_runtime_tag_counts_dynamo_releases(tag, vllm):
    image = f"nvcr.io/nvidia/ai-dynamo/vllm-runtime:{tag}"
    assert image_version(image) == vllm  # 0.5.0 is Dynamo 0.5.0, never vLLM 0.5.0
    assert not is_vllm_like_image(image)  # its entrypoint is not vLLM's server: a Frontend is no site


def test_the_runtime_tag_names_the_dynamo_release():
    assert framework_image("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.1") == {"ai-dynamo": "1.0.1", "vllm": "0.16.0"}


def test_a_graph_deployment_worker_is_a_site(tmp_path):
    (tmp_path / "deploy.yaml").write_text(DGD.format(tag="1.1.0-rc5"))
    (sr,) = audit(tmp_path, gpu="H100 x2").sites
    site = sr.site
    assert site.kind == "python -m dynamo.vllm (AsyncEngineArgs)" and site.model.value == "Qwen/Qwen3-8B"
    assert sr.version.version == "0.19.0" and site.gpu_request == 2  # the service's `resources.limits.gpu`
    assert "namespace" not in site.settings and "namespace" not in site.unknown  # Dynamo's own option
    assert site.container["shm_size"] == "8Gi"  # the operator's default /dev/shm volume
    gone = [f for f in sr.remarks if f.priority == "P0" and "--disable-log-requests" in f.message["en"]]
    assert gone and gone[0].line == DGD.splitlines().index("            - --disable-log-requests") + 1


def test_the_flag_is_kept_where_the_runtime_has_it(tmp_path):
    (tmp_path / "deploy.yaml").write_text(DGD.format(tag="1.0.2"))  # vLLM 0.16.0 still has it
    (sr,) = audit(tmp_path, gpu="H100 x2").sites
    assert sr.version.version == "0.16.0"
    assert not [f for f in sr.remarks if f.priority == "P0"]


WORKER = "#!/bin/bash\npython3 -m dynamo.vllm --model Qwen/Qwen3-0.6B {extra}\n"


def _p0(tmp_path, extra: str, pins: str) -> list:
    (tmp_path / "worker.sh").write_text(WORKER.format(extra=extra))
    (tmp_path / "requirements.txt").write_text(pins)
    (sr,) = audit(tmp_path, gpu="H100 x1").sites
    return [f.code for f in sr.remarks if f.priority == "P0"] + [r.check.id for r in sr.results if r.needs_change and r.priority == "P0"]


def test_server_options_stop_the_worker(tmp_path):
    # the worker's vLLM parser is AsyncEngineArgs.add_cli_args: no --port, no tool-call options
    assert _p0(tmp_path, "--port 8000 --enable-auto-tool-choice --tool-call-parser hermes", "vllm==0.14.1\n").count("entrypoint-option") == 3


def test_engine_options_and_dynamo_options_pass(tmp_path):
    assert _p0(tmp_path, "--disable-log-requests --is-prefill-worker --dyn-tool-call-parser hermes --served-model-name q",
               "vllm==0.14.1\n") == []


@pytest.mark.parametrize("pins, connector, want", [
    ("ai-dynamo[vllm]==1.0.0\nvllm==0.16.0\n", "nixl", ["L143"]),
    ("ai-dynamo[vllm]==1.1.1\nvllm==0.19.0\n", "none", ["L143"]),
    ("ai-dynamo[vllm]==0.9.1\nvllm==0.14.1\n", "none", []),  # 0.9.1 needs it to turn NIXL off
])
def test_dynamo_1_refuses_its_connector_option(tmp_path, pins, connector, want):
    assert _p0(tmp_path, f"--connector {connector}", pins) == want


@pytest.mark.parametrize("shared, want", [("      sharedMemory:\n        size: 16Gi\n", "16Gi"),
                                          ("      sharedMemory:\n        disabled: true\n", None)])
def test_the_operator_shared_memory_follows_the_component(tmp_path, shared, want):
    text = DGD.format(tag="1.1.1").replace("      componentType: worker\n", "      componentType: worker\n" + shared)
    (tmp_path / "deploy.yaml").write_text(text)
    (sr,) = audit(tmp_path, gpu="H100 x2").sites
    assert sr.site.container.get("shm_size") == want
