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
