"""KubeRay mounts a memory-backed emptyDir at the Ray container's /dev/shm (the first container of a
head or worker group), sized by its memory limit, else its request, else unbounded — unless
`rayStartParams` names a plasma directory (ray-operator controllers/ray/common/pod.go). The
container-shm check (L40) reads that volume instead of the 64 MiB container default."""
from __future__ import annotations

import json

import pytest

CLUSTER = """\
apiVersion: ray.io/v1
kind: RayCluster
metadata: {{name: c}}
spec:
  headGroupSpec:
    rayStartParams: {params}
    template:
      spec:
        containers:
          - name: ray-head
            image: vllm/vllm-openai:v0.9.2
            command: ["/bin/bash", "-lc", "--"]
            args: ["ray start --head; vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2 --max-model-len 4096"]
            resources:
              limits: {{nvidia.com/gpu: 2{memory}}}
"""


def _l40(cli, write_project, **kw):
    root = write_project({"cluster.yaml": CLUSTER.format(**kw)})
    code, out, err = cli("audit", str(root), "--gpu", "H100-80GB x2", "--isolated", "-q", "--format", "json")
    assert code in (0, 1), err
    (site,) = json.loads(out)["sites"]
    return next(c for c in site["checks"] if c["id"] == "L40")


@pytest.mark.parametrize("memory", ["", ", memory: 64Gi"])
def test_the_operator_mounts_shm_in_the_ray_container(cli, write_project, memory):
    assert _l40(cli, write_project, params="{}", memory=memory)["status"] == "enabled"


def test_a_small_memory_limit_is_a_small_shm(cli, write_project):
    got = _l40(cli, write_project, params="{}", memory=", memory: 64Mi")
    assert (got["status"], got["priority"]) == ("recommended", "P1")  # two workers in 64 MiB: a risk (vLLM #26360)


def test_a_plasma_directory_keeps_the_container_default(cli, write_project):
    got = _l40(cli, write_project, params="{plasma-directory: /tmp}", memory=", memory: 64Gi")
    assert (got["status"], got["priority"]) == ("recommended", "P1")
