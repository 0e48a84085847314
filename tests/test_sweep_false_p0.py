"""Classes of false P0 found by auditing real repositories (the sweep of December 2026): a value
near a registered name where a plugin can register more, a family's broad pattern claiming a later
release of another architecture."""
from __future__ import annotations

import json

import pytest

from vllm_kb.engine.kb import knowledge, models

CONFIG = """\
model: vllm-ascend/Qwen3-235B-A22B-W8A8
tensor-parallel-size: 8
kv-transfer-config: '{"kv_connector": "MooncakeConnectorV1", "kv_role": "kv_producer"}'
"""


def _findings(cli, root):
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x8", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    return {(r["check"].split(":")[0], r["priority"]) for s in json.loads(out)["sites"] for r in s["recommendations"]
            if r["kind"] == "finding"}


@pytest.mark.parametrize("install, expect", [
    ("vllm==0.13.0\nvllm-ascend==0.13.0\n", ("value-unlisted", "P1")),  # vllm-ascend registers MooncakeConnectorV1
    ("vllm==0.13.0\n", ("value-unknown", "P0")),  # nothing registers it: a misspelt MooncakeConnector
])
def test_a_connector_near_a_listed_one_is_a_typo_only_without_a_plugin(cli, write_project, install, expect):
    root = write_project({"requirements.txt": install, "serve.sh": "vllm serve --config prefill.yaml\n",
                          "prefill.yaml": CONFIG})
    got = _findings(cli, root)
    assert expect in got, got


@pytest.mark.parametrize("name", ["zai-org/GLM-4.7", "vllm-ascend/GLM-4.7-W8A8", "zai-org/GLM-4.7-Flash"])
def test_a_later_dotted_glm_release_is_not_the_dense_glm_4_9b(name):
    fam = models.family_of(name, knowledge.load().models)
    assert fam is None or fam.get("moe") is not False, fam and fam["id"]


OME_RUNTIME = """\
apiVersion: ome.io/v1beta1
kind: ClusterServingRuntime
metadata: {name: vllm-vision}
spec:
  engineConfig:
    volumes:
      - name: dshm
        emptyDir: {medium: Memory}
    runner:
      name: ome-container
      image: docker.io/vllm/vllm-openai:v0.9.0.1
      command: [python3, -m, vllm.entrypoints.openai.api_server, --port, "8080", --model, $(MODEL_PATH),
                --tensor-parallel-size, "2", --limit-mm-per-prompt, image=1, --max-model-len, "8192"]
      volumeMounts:
        - {mountPath: /dev/shm, name: dshm}
      resources:
        limits: {nvidia.com/gpu: 2}
"""


def test_an_ome_runner_is_a_container_with_its_image_and_shm(cli, write_project):
    code, out, err = cli("audit", str(write_project({"rt.yaml": OME_RUNTIME})), "--gpu", "H100-80GB x2", "--isolated", "-q",
                         "--format", "json")
    (site,) = json.loads(out)["sites"]
    assert site["vllm"]["version"] == "0.9.0.1"  # a four-part release read from the tag
    assert not [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]


@pytest.mark.parametrize("image, version", [("opea/vllm-gaudi:1.22.0", None), ("vllm/vllm-openai:v0.10.1.1", "0.10.1.1"),
                                            ("ghcr.io/x/vllm-custom:v0.8.5-cu124", "0.8.5")])
def test_a_vendor_numbering_beyond_vllm_is_no_release(image, version):
    from vllm_kb.engine.scan.images import image_version

    assert image_version(image) == version
