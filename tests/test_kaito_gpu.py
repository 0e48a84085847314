"""The GPU a KAITO Workspace leaves unnamed is not --gpu's (engine/scan/deploy/kaito.py _unnamed_gpu): a placeholder
machine type (`<your-vm-sku>`, the Arc examples) or a MIG slice leaves the site without GPU facts, so no hardware
verdict (B3 at P1 in eval113) is drawn from --gpu; an `accelerator` partition asks for `count` whole GPUs."""
from __future__ import annotations

import json

import pytest

WS = """\
apiVersion: kaito.sh/v1beta1
kind: Workspace
metadata: {name: ws}
resource:
%s
inference:
  preset: {name: "phi-4-mini-instruct"}
"""


def _site(cli, write_project, resource: str, tmp_path):
    root = write_project({"ws.yaml": WS % resource, "requirements.txt": "vllm==0.26.0\n"}, tmp_path)
    code, out, err = cli("audit", str(root), "--isolated", "-q", "--format", "json", "--gpu", "H100-80GB x8")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return site


@pytest.mark.parametrize("resource", ["  instanceType: <your-vm-sku>", '  instanceType: "${VM_SKU}"',
                                      "  partition: {mode: mig, profile: 2g.24gb}"])
def test_an_unnamed_gpu_draws_no_verdict_from_the_gpu_given(cli, write_project, tmp_path, resource):
    site = _site(cli, write_project, resource, tmp_path)
    b3 = next(c for c in site["checks"] if c["id"] == "B3")
    assert b3["status"] == "unknown" and site["gpu_count"] is None and site["gpu_from"]
    assert not [r for r in site["recommendations"] if r["priority"] in ("P0", "P1")]


def test_an_accelerator_partition_asks_for_its_count_and_a_known_machine_stays(cli, write_project, tmp_path):
    site = _site(cli, write_project, "  partition: {mode: accelerator, count: 2}", tmp_path / "a")
    assert (site["gpu_request"], site["gpu_count"], site["gpu_from"]) == (2, 2, None)
    site = _site(cli, write_project, '  instanceType: "Standard_NC24ads_A100_v4"', tmp_path / "b")
    assert site["gpu_from"] and site["gpu_count"] == 1  # the machine's own A100, not the 8 H100s
