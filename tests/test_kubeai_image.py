"""A KubeAI Model without `image:` runs the image the controller's chart configures for its
resource profile (`modelServers.VLLM.images[<imageName> or default]`): read from the chart values
when the project holds them, else a vLLM image of a release the manifest does not name — never the
newest release as if the project pinned it."""
from __future__ import annotations

import json

MODEL = """\
apiVersion: kubeai.org/v1
kind: Model
metadata: {name: m}
spec:
  url: hf://Qwen/Qwen2.5-7B-Instruct
  engine: VLLM
  args: ["--max-model-len=8192", "--disable-log-requests"]
  resourceProfile: nvidia-gpu-h100:1
"""
VALUES = """\
modelServers:
  VLLM:
    images:
      default: "vllm/vllm-openai:v0.8.3"
      h100: "vllm/vllm-openai:v0.9.2"
resourceProfiles:
  nvidia-gpu-h100:
    imageName: "h100"
"""


def _site(cli, root):
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return site


def test_the_chart_image_of_the_profile_decides_the_release(cli, write_project):
    site = _site(cli, write_project({"models/m.yaml": MODEL, "charts/kubeai/values.yaml": VALUES}))
    assert (site["vllm"]["version"], site["vllm"]["basis"]) == ("0.9.2", "image")


def test_the_default_image_without_an_image_name(cli, write_project):
    values = VALUES.replace('imageName: "h100"', "limits: {nvidia.com/gpu: 1}")
    site = _site(cli, write_project({"models/m.yaml": MODEL, "charts/kubeai/values.yaml": values}))
    assert site["vllm"]["version"] == "0.8.3"


def test_without_the_chart_the_release_is_not_named(cli, write_project):
    site = _site(cli, write_project({"models/m.yaml": MODEL}))
    assert site["vllm"]["basis"] == "image-untagged"
    assert not [r for r in site["recommendations"] if r["priority"] == "P0"]  # --disable-log-requests: some releases have it


HELMRELEASE = """\
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: kubeai}
spec:
  chart:
    spec: {chart: kubeai, version: 0.19.0, sourceRef: {kind: HelmRepository, name: kubeai}}
"""


def test_values_of_any_file_name_and_a_helmrelease_s_values(cli, write_project):
    site = _site(cli, write_project({"models/m.yaml": MODEL, "kubeai-values.yaml": VALUES}))
    assert site["vllm"]["version"] == "0.9.2"


def test_a_helmrelease_s_own_values(cli, write_project):
    inline = HELMRELEASE + "  values:\n" + "".join("    " + line + "\n" for line in VALUES.splitlines())
    site = _site(cli, write_project({"models/m.yaml": MODEL, "flux/kubeai.yaml": inline}))
    assert site["vllm"]["version"] == "0.9.2"


def test_the_chart_release_names_the_image_its_values_carry(cli, write_project):
    """kubeai chart 0.19.0 ships vllm/vllm-openai:v0.8.3 (knowledge/deploy/kubeai.yaml)."""
    site = _site(cli, write_project({"models/m.yaml": MODEL, "flux/kubeai.yaml": HELMRELEASE}))
    assert (site["vllm"]["version"], site["vllm"]["basis"]) == ("0.8.3", "image")


def test_a_chart_dependency_names_the_release(cli, write_project):
    dep = "apiVersion: v2\nname: platform\nversion: 1.0.0\ndependencies:\n  - {name: kubeai, version: 0.21.0, repository: https://www.kubeai.org}\n"
    site = _site(cli, write_project({"models/m.yaml": MODEL, "charts/platform/Chart.yaml": dep}))
    assert site["vllm"]["version"] == "0.10.2"


def test_a_chart_release_the_table_lacks_names_no_release(cli, write_project):
    site = _site(cli, write_project({"models/m.yaml": MODEL, "flux/kubeai.yaml": HELMRELEASE.replace("0.19.0", "0.x")}))
    assert site["vllm"]["basis"] == "image-untagged"
