"""A site's platform read from its own deployment before --gpu's GPU (eval115 M3/M4): a RayService that
runs the file on a TPU node pool, Ray Serve LLM's accelerator_type, a pod's device-plugin resource, the
vendor image the folder's README runs the launch in. Such a site gets no CUDA-only advice (CUDA graphs,
FP8 KV on the GPU …), and an NVIDIA or mixed deployment keeps --gpu's GPU."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.scan import gpu_types, readme_platform

KB = load()

_SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --enforce-eager --max-model-len 8192\n"


def _site(path, gpu="H100-80GB x8"):
    rep = audit(path, gpu=gpu)
    assert len(rep.sites) == 1, [sr.site.id for sr in rep.sites]
    return rep.sites[0]


def _checks(sr) -> dict:
    return {r.check.id: r for r in sr.results}


def test_other_accelerator_names():
    assert gpu_types.other_platform("TPU-V6E") == "tpu"
    assert gpu_types.other_platform("Intel-GAUDI") == "hpu"
    assert gpu_types.other_platform("Ascend910B") == "npu"
    assert gpu_types.other_platform("Intel-GPU-Max-1550") == "xpu"
    assert gpu_types.other_platform("aws-neuron-core") == "neuron"
    assert gpu_types.other_platform("AMD-Instinct-MI300X-OAM") == "rocm"
    assert gpu_types.other_platform("A10G") is None and gpu_types.other_platform("nvidia-l4") is None


def test_resources_name_another_accelerator_only_without_an_nvidia_request():
    assert gpu_types.from_resources({"limits": {"google.com/tpu": "8", "cpu": "4"}}) == ["google.com/tpu"]
    assert gpu_types.from_resources({"requests": {"huawei.com/Ascend910": 1}}) == ["huawei.com/Ascend910"]
    assert gpu_types.from_resources({"limits": {"nvidia.com/gpu": 1, "google.com/tpu": 8}}) == []
    assert gpu_types.from_resources({"limits": {"cpu": "4", "memory": "8Gi"}}) == []


def _pod(selector=None, resources=None):
    return {"nodeSelector": selector or {}, "containers": [{"name": "c", "resources": resources or {}}]}


def test_pods_other_wants_every_accelerator_pod_on_one_other_platform():
    tpu = _pod({"cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice"}, {"limits": {"google.com/tpu": 8}})
    head = _pod(resources={"limits": {"cpu": 2}})
    name, path = gpu_types.pods_other({"spec": {"head": {"spec": head}, "workers": [{"spec": tpu}]}})
    assert name == "tpu-v6e-slice" and "nodeSelector" in path
    gpu = _pod(resources={"limits": {"nvidia.com/gpu": 1}})
    assert gpu_types.pods_other({"spec": {"a": {"spec": tpu}, "b": {"spec": gpu}}}) is None
    l4 = _pod({"cloud.google.com/gke-accelerator": "nvidia-l4"})
    assert gpu_types.pods_other({"spec": {"a": {"spec": tpu}, "b": {"spec": l4}}}) is None
    assert gpu_types.pods_other({"spec": {"head": {"spec": head}}}) is None


def test_readme_images_of_one_other_platform(tmp_path):
    class Ctx:
        files = ["a/README.md", "a/run.sh", "b/README.md", "b/run.sh", "c/README.md", "c/run.sh"]

        def read(self, rel):
            return (tmp_path / rel).read_text()
    for d, text in (("a", "docker run --rm \\\n  -v /usr/local/Ascend/driver:/usr/local/Ascend/driver \\\n"
                          "  -it quay.io/ascend/vllm-ascend:v0.10.0rc1 bash\nthen vllm serve\n"),
                    ("b", "docker pull vllm/vllm-openai:v0.10.0\ndocker pull quay.io/ascend/vllm-ascend:v0.10.0rc1\n"),
                    ("c", "See https://github.com/vllm-project/vllm-ascend for the vllm plugin.\n")):
        (tmp_path / d).mkdir()
        (tmp_path / d / "README.md").write_text(text)
    ctx = Ctx()
    assert readme_platform.folder_platform(ctx, "a/run.sh") == ("npu", "quay.io/ascend/vllm-ascend:v0.10.0rc1", "a/README.md:1")
    assert readme_platform.folder_platform(ctx, "b/run.sh") is None  # a CUDA image beside it: no one platform
    assert readme_platform.folder_platform(ctx, "c/run.sh") is None  # a link is no container


def test_readme_image_makes_the_script_an_ascend_site(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel\nRUN pip install vllm==0.7.2\n")
    (tmp_path / "npu").mkdir()
    (tmp_path / "npu" / "README.md").write_text("```\ndocker run -it quay.io/ascend/vllm-ascend:v0.10.0rc1-310p bash\n```\n")
    (tmp_path / "npu" / "serve.sh").write_text(_SERVE)
    sr = _site(tmp_path)
    checks = _checks(sr)
    assert sr.facts["site"]["platform"] == "npu" and "gpu" not in sr.facts
    assert checks["A2"].status == "not_applicable" and "Ascend NPU" in checks["A2"].reason_text("en")
    assert "昇腾 NPU" in checks["A2"].reason_text("zh")


def test_a_folder_without_the_readme_stays_on_the_gpu(tmp_path):
    (tmp_path / "serve.sh").write_text(_SERVE)
    sr = _site(tmp_path)
    assert sr.facts["site"]["platform"] == "cuda" and "H100" in sr.facts["gpu"]["name"]
    assert _checks(sr)["A2"].status == "recommended"


def test_k8s_tpu_resource_with_a_custom_image(tmp_path):
    (tmp_path / "deploy.yaml").write_text("""apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: us-docker.pkg.dev/acme/serving/llm:1.0
        command: ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--enforce-eager"]
        resources:
          limits: {google.com/tpu: "4"}
""")
    sr = _site(tmp_path)
    assert sr.facts["site"]["platform"] == "tpu" and "gpu" not in sr.facts
    assert _checks(sr)["A2"].status == "not_applicable"


def test_amd_device_request_keeps_the_amd_gpu_of_the_run(tmp_path):
    """amd.com/gpu names no card: with `--gpu MI300X` the ROCm checks keep its facts (L65 and the others read them)."""
    (tmp_path / "deploy.yaml").write_text("""apiVersion: v1
kind: Pod
metadata: {name: vllm}
spec:
  containers:
  - name: vllm
    image: rocm/vllm:latest
    command: ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--enforce-eager"]
    resources:
      limits: {amd.com/gpu: "1"}
""")
    sr = _site(tmp_path, "MI300X x1")
    assert sr.facts["site"]["platform"] == "rocm" and "MI300X" in sr.facts["gpu"]["name"]
    assert _checks(sr)["A2"].status == "recommended"  # HIP graphs: A2 is judged on ROCm


def test_rayservice_tpu_pool_binds_the_python_file(tmp_path):
    (tmp_path / "serve.py").write_text(
        "from vllm import LLM\nfrom ray import serve\n\n@serve.deployment\nclass D:\n"
        "    def __init__(self):\n        self.llm = LLM(model='meta-llama/Meta-Llama-3-8B', enforce_eager=True)\n\n"
        "app = D.bind()\n")
    (tmp_path / "rs.yaml").write_text("""apiVersion: ray.io/v1
kind: RayService
metadata: {name: x}
spec:
  serveConfigV2: |
    applications:
      - name: llm
        import_path: serve:app
  rayClusterConfig:
    headGroupSpec:
      template:
        spec:
          containers: [{name: head, image: $IMG}]
    workerGroupSpecs:
    - groupName: tpu
      template:
        spec:
          containers:
          - name: w
            image: $IMG
            resources: {limits: {google.com/tpu: "8"}}
          nodeSelector: {cloud.google.com/gke-tpu-accelerator: tpu-v5-lite-podslice}
""")
    sr = next(s for s in audit(tmp_path, gpu="H100-80GB x8").sites if s.site.file == "serve.py")
    assert sr.facts["site"]["platform"] == "tpu" and "gpu" not in sr.facts
    assert _checks(sr)["A2"].status == "not_applicable"
