"""Charts that write a pod's containers as a map (bjw-s app-template in a Flux HelmRelease or its
values file): the container's `command` + `args` are the launch (the model the first args item),
`image: {repository, tag}` names the release, and /dev/shm comes from the chart's persistence."""
from __future__ import annotations

import json

RELEASE = """\
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: llm}
spec:
  chartRef: {kind: OCIRepository, name: app-template}
  values:
    controllers:
      llm:
        containers:
          app:
            image:
              repository: ghcr.io/someone/vllm-custom
              tag: v0.10.1-cu128
            command: ["vllm", "serve"]
            args:
              - Qwen/Qwen2.5-7B-Instruct
              - --tensor-parallel-size
              - "2"
              - --max-model-len
              - "8192"
            resources:
              limits: {nvidia.com/gpu: 2}
"""
SHM = """\
    persistence:
      dshm:
        type: emptyDir
        medium: Memory
        sizeLimit: 16Gi
        globalMounts:
          - path: /dev/shm
"""


def _site(cli, root):
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x2", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return site


def _p0(site):
    return sorted(r["check"] for r in site["recommendations"] if r["priority"] == "P0")


def test_model_release_and_gpus_of_a_map_container(cli, write_project):
    site = _site(cli, write_project({"k8s/llm/helmrelease.yaml": RELEASE}))
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"
    assert (site["vllm"]["version"], site["vllm"]["basis"]) == ("0.10.1", "image")
    assert site["effective"]["tensor_parallel_size"] == 2


def _flagged(site, check):
    return [r["priority"] for r in site["recommendations"] if r["check"] == check and r["priority"] in ("P0", "P1")]


def test_shm_from_the_chart_persistence(cli, write_project):
    """Without a /dev/shm mount two GPUs share 64 MiB (L40: a P1 for two NVLinked H100s since cd9c9ec0, whose
    workers have started in reports); the chart's memory emptyDir clears it."""
    bare = _site(cli, write_project({"k8s/llm/helmrelease.yaml": RELEASE}))
    mounted = _site(cli, write_project({"k8s/llm/helmrelease.yaml": RELEASE + SHM}))
    assert _flagged(bare, "L40") == ["P1"]
    assert _flagged(mounted, "L40") == []


def test_a_values_file_of_the_chart(cli, write_project):
    values = "\n".join(line[4:] for line in RELEASE.split("  values:\n", 1)[1].splitlines()) + "\n"
    site = _site(cli, write_project({"k8s/llm/values.yaml": values}))
    assert site["model"]["name"] == "Qwen/Qwen2.5-7B-Instruct"


def test_an_env_map_is_read_and_written_as_a_map(cli, write_project, tmp_path):
    """app-template's `env: {NAME: value}`: read as the container's environment; a fix adds a key of
    the map, never a `- name:` item (which would break the chart's values)."""
    release = RELEASE.replace("            resources:", "            env:\n              VLLM_USE_V1: \"0\"\n            resources:")
    site = _site(cli, write_project({"k8s/llm/helmrelease.yaml": release}))
    assert {e["name"]: e.get("value") for e in site["env"]}.get("VLLM_USE_V1") == "0"
