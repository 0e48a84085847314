"""KubeRay's Ray pods (engine/scan/deploy/kuberay.py). Modelled on KubeRay's own vLLM samples
(https://github.com/ray-project/kuberay/blob/master/ray-operator/config/samples/vllm/ray-service.vllm.yaml:
a head without GPUs, a worker group of 2-GPU pods): KubeRay runs `ray start` in each group's Ray
container, so a vLLM image there is a Ray node, not a `vllm serve`; a launch on the Ray backend from
the GPU-less head places its workers on the pods, and vLLM 0.11.1's check of TP × PP against "the
number of visible devices" of each worker's node (L34, vllm/v1/worker/gpu_worker.py 0.11.1:210) reads
a pod's GPUs, not the machine's --gpu."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit

CLUSTER = """apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: vllm{annotations}
spec:
  headGroupSpec:
    rayStartParams: {{}}
    template:
      spec:
        containers:
        - name: ray-head
          image: vllm/vllm-openai:v{release}
          command: ["/bin/sh", "-c"]
          args:
          - ray start --head --block & sleep 30; vllm serve facebook/opt-13b --tensor-parallel-size {tp} --distributed-executor-backend ray
          resources:
            limits: {{cpu: "4", memory: "16Gi"}}
  workerGroupSpecs:
  - replicas: 2
    groupName: gpu-group
    rayStartParams: {{}}
    template:
      spec:
        containers:
        - name: ray-worker
          image: vllm/vllm-openai:v{release}
          resources:
            limits: {{cpu: "8", memory: "64Gi", nvidia.com/gpu: "2"}}
"""


def _l34(tmp_path, gpu=None, annotations="", **kw):
    (tmp_path / "raycluster.yaml").write_text(CLUSTER.format(annotations=annotations, **{"release": "0.11.1", "tp": 2, **kw}))
    rep = audit(tmp_path, gpu=gpu)
    # the head's own launch (a worker whose command KubeRay keeps runs its image's `vllm serve` too)
    head = [sr for sr in rep.sites if sr.site.kind == "vllm serve" and "distributed_executor_backend" in sr.site.settings]
    assert len(head) == 1
    r = next(r for r in head[0].results if r.check.id == "L34")
    return rep, head[0], (r.status, r.priority)


@pytest.mark.parametrize("gpu", [None, "H100-80GB x1", "H100-80GB x8"])
def test_a_gpu_less_head_reads_the_pods_gpus_not_the_machines(tmp_path, gpu):
    rep, head, l34 = _l34(tmp_path, gpu)
    assert head.site.gpu_request == 2 and head.site.launch["ray_pod_gpus"] == 2
    assert l34[1] != "P0", l34  # TP 2 on 2-GPU pods starts on 0.11.1
    assert [sr.site.kind for sr in rep.sites] == ["vllm serve"]  # the worker's Ray container is no site


def test_a_world_larger_than_a_pod_is_still_the_0_11_1_p0(tmp_path):
    assert _l34(tmp_path, tp=4)[2] == ("recommended", "P0")
    assert _l34(tmp_path, tp=4, release="0.11.2")[2][1] != "P0"  # 0.11.2 checks it only for mp data parallelism


def test_a_container_whose_command_kuberay_keeps_runs_the_image(tmp_path):
    keep = '\n  annotations:\n    ray.io/overwrite-container-cmd: "true"'
    rep, _, _ = _l34(tmp_path, annotations=keep)
    # the worker runs the image's entrypoint: `vllm serve` from 0.11.1 (docker/Dockerfile:500), the API
    # server module before (0.11.0 :542)
    assert sorted(sr.site.kind for sr in rep.sites) == ["vllm serve", "vllm serve"]
    rep, _, _ = _l34(tmp_path, annotations=keep, release="0.11.0")
    assert sorted(sr.site.kind for sr in rep.sites) == ["api_server", "vllm serve"]


RAYJOB = """apiVersion: ray.io/v1
kind: RayJob
metadata:
  name: vllm-job
spec:
  entrypoint: vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2 --distributed-executor-backend ray
  rayClusterSpec:
    headGroupSpec:
      rayStartParams: {{}}
      template:
        spec:
          containers:
          - name: ray-head
            image: {image}
    workerGroupSpecs:
    - groupName: gpu
      replicas: 1
      rayStartParams: {{}}
      template:
        spec:
          containers:
          - name: ray-worker
            image: {image}
            resources:
              limits: {{nvidia.com/gpu: 2}}
"""


@pytest.mark.parametrize("image,version,pinned", [
    ("vllm/vllm-openai:v0.9.2", "0.9.2", True),
    ("rayproject/ray:2.46.0-py311-gpu", None, False),  # no vLLM release in the tag: the folder's, never guessed
    # Ray's LLM image counts Ray's releases: the vLLM it ships is in Ray's image lock files, which nothing here reads
    # (the ray 2.52.0 wheel's llm extra only floors it, vllm[audio]>=0.11.0): no release from the tag (census 37, kuberay)
    ("rayproject/ray-llm:2.52.0-py311-cu128", None, False),
])
def test_a_rayjob_entrypoint_runs_the_head_image_release(write_project, json_site, image, version, pinned):
    # the entrypoint is the job's driver, run on the head node in the head group's Ray container
    v = json_site(write_project({"rayjob.yaml": RAYJOB.format(image=image)}))["vllm"]
    assert v["pinned"] is pinned and (version is None or v["version"] == version), v
    assert (v["basis"] == "image") is pinned


@pytest.mark.parametrize("params,release,p0", [
    ('{num-gpus: "0"}', "0.11.0", True),  # Ray's head node holds no GPU: the driver is refused
    ('{num-gpus: "0"}', "0.33.0", False),  # the check is gone
    ("{}", "0.11.0", False),  # Ray counts what the pod shows: P1 below, never a P0
])
def test_a_ray_driver_on_a_head_that_gives_ray_no_gpu(tmp_path, params, release, p0):
    text = CLUSTER.format(annotations="", release=release, tp=2).replace("rayStartParams: {}", f"rayStartParams: {params}", 1)
    (tmp_path / "raycluster.yaml").write_text(text)
    (head,) = [sr for sr in audit(tmp_path).sites if sr.site.kind == "vllm serve"]
    r = next(r for r in head.results if r.check.id == "L34")
    assert ((r.status, r.priority) == ("recommended", "P0") and "Current node has no GPU" in r.reason_text("en")) == p0


@pytest.mark.parametrize("release,head_limits,priority", [
    ("0.11.0", '{cpu: "4", memory: "16Gi"}', "P1"),  # no num-gpus, no GPU asked: Ray most likely sees none
    ("0.33.0", '{cpu: "4", memory: "16Gi"}', None),  # the driver check is gone
    ("0.11.0", '{cpu: "4", memory: "16Gi", nvidia.com/gpu: "1"}', None),  # KubeRay gives Ray the head's GPU
])
def test_a_ray_driver_on_a_head_that_writes_no_num_gpus(tmp_path, release, head_limits, priority):
    text = CLUSTER.format(annotations="", release=release, tp=2).replace(
        'limits: {cpu: "4", memory: "16Gi"}', f"limits: {head_limits}", 1)
    (tmp_path / "raycluster.yaml").write_text(text)
    (head,) = [sr for sr in audit(tmp_path).sites if sr.site.kind == "vllm serve"]
    r = next(r for r in head.results if r.check.id == "L34")
    got = r.priority if r.status == "recommended" and "Current node has no GPU" in r.reason_text("en") else None
    assert got == priority, (r.status, r.priority, r.reason_text("en"))
