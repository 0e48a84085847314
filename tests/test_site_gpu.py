"""The GPU a deployment names for its own site wins over --gpu: KubeAI resourceProfiles, pod
nodeSelectors, SkyPilot accelerators, Modal's gpu=. Shapes from KubeAI's manifests/models."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import site_gpu
from vllm_kb.engine.kb.knowledge import load

KUBEAI = """apiVersion: kubeai.org/v1
kind: Model
metadata: {{name: m}}
spec:
  features: [TextGeneration]
  url: hf://{model}
  engine: VLLM
  args: [{args}]
  resourceProfile: {profile}
"""


def _sites(tmp_path, files, gpu="H100-80GB x8"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return {sr.site.file: sr for sr in audit(tmp_path, gpu=gpu).sites}


def _p0(sr):
    return sorted(r.check.id for r in sr.results if r.priority == "P0" and r.status == "recommended")


def test_resolve_against_the_catalog():
    gpus = load().gpus
    assert site_gpu.resolve(["nvidia-gpu-l4"], {"name": "NVIDIA H100 80GB HBM3", "count": 8}, gpus)[1]["memory_gib"] < 24
    assert site_gpu.resolve(["NVIDIA-A100-SXM4-80GB"], None, gpus)[1]["compute_capability"] == 8.0
    assert site_gpu.resolve(["nvidia-l4"], None, gpus)[1] is not None  # GKE's accelerator label
    assert site_gpu.resolve(["amd-gpu-mi300x"], None, gpus)[:2] == ("rocm", None)
    assert site_gpu.resolve(["L4", "A10G"], None, gpus)[1:] == (None, True)  # a choice: unknown
    assert site_gpu.resolve(["made-up-gpu"], None, gpus)[1:] == (None, True)


def test_kubeai_profile_gpu_and_cpu_offload(tmp_path):
    # KubeAI's deepseek-r1-70b-gh200: BF16 70B on one GH200 with --cpu-offload-gb=120 starts
    got = _sites(tmp_path, {
        "gh200.yaml": KUBEAI.format(model="deepseek-ai/DeepSeek-R1-Distill-Llama-70B", profile="nvidia-gpu-gh200:1",
                                    args="--max-model-len=32768, --gpu-memory-utilization=0.95, --kv-cache-dtype=fp8, --cpu-offload-gb=120"),
        "l4.yaml": KUBEAI.format(model="Qwen/Qwen2.5-72B-Instruct", profile="nvidia-gpu-l4:1", args="--max-model-len=8192"),
    })
    gh, l4 = got["gh200.yaml"], got["l4.yaml"]
    assert "GH200" in gh.facts["gpu"]["name"] and gh.facts["gpu"]["count"] == 1 and "L16" not in _p0(gh)
    assert "L4" in l4.facts["gpu"]["name"] and "L16" in _p0(l4)  # 72B BF16 cannot load on one L4, whatever --gpu says


def test_node_selector_and_skypilot_types(tmp_path):
    pod = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector:\n    cloud.google.com/gke-accelerator: nvidia-l4\n"
           "  containers:\n  - name: v\n    image: vllm/vllm-openai:v0.9.1\n    args: [--model, Qwen/Qwen2.5-7B-Instruct]\n"
           "    resources: {limits: {nvidia.com/gpu: 1}}\n")
    sky = ("resources:\n  any_of:\n    - {accelerators: L4:1}\n    - {accelerators: A10G:1}\nrun: |\n"
           "  vllm serve Qwen/Qwen2.5-7B-Instruct\n")
    got = _sites(tmp_path, {"pod.yaml": pod, "sky.yaml": sky})
    assert "L4" in got["pod.yaml"].facts["gpu"]["name"]
    assert "gpu" not in got["sky.yaml"].facts  # L4 or A10G: memory verdicts wait for the GPU
