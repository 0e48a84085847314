"""A cloud machine type names its GPU and how many (knowledge/deploy/cloud_instances.yaml): a pod's
nodeSelector or node affinity on node.kubernetes.io/instance-type, SkyPilot's instance_type and a
KAITO Workspace's resource.instanceType run on that GPU whatever --gpu says."""
from __future__ import annotations

import textwrap

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import deploy_tools
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.scan import gpu_types


def test_every_family_names_a_catalog_gpu_and_no_size_twice():
    ids = {g["id"] for g in load().gpus}
    seen: set[str] = set()
    for fam in deploy_tools.load("cloud_instances")["families"]:
        assert fam["gpu"] in ids, fam["family"]
        for name in fam["sizes"]:
            assert name.lower() not in seen, name
            seen.add(name.lower())


def test_spellings():
    assert gpu_types.instance_gpu("g5.12xlarge") == ("A10G", 4)
    assert gpu_types.instance_gpu("ml.g5.2xlarge") == ("A10G", 1)  # SageMaker
    assert gpu_types.instance_gpu("NC24ads_A100_v4") == ("A100-80GB", 1)  # Azure without Standard_
    assert gpu_types.instance_gpu("Standard_ND96isr_H100_v5") == ("H100-SXM-80GB", 8)
    assert gpu_types.instance_gpu("a3-highgpu-8g") == ("H100-SXM-80GB", 8)
    assert gpu_types.instance_gpu("m5.xlarge") is None
    assert gpu_types.instance_gpu("Standard_NV6ads_A10_v5") is None  # a sixth of an A10: not a whole GPU
    assert gpu_types.instance_gpu(None) is None


def test_pod_machine_from_selector_and_affinity():
    assert gpu_types.pod_machine({"nodeSelector": {"node.kubernetes.io/instance-type": "g6.xlarge"}}) == ("L4", 1)
    aff = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["p4d.24xlarge"]}]}]}}}}
    assert gpu_types.pod_machine(aff) == ("A100-40GB", 8)
    two = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "node.kubernetes.io/instance-type", "operator": "In",
                               "values": ["g5.xlarge", "g6e.xlarge"]}]}]}}}}
    assert gpu_types.pod_machine(two) is None  # either machine: the GPU is not known


POD = """\
apiVersion: apps/v1
kind: Deployment
metadata: {{name: llm}}
spec:
  template:
    spec:
      nodeSelector:
        node.kubernetes.io/instance-type: {machine}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.3
          args: ["--model", "Qwen/Qwen2.5-1.5B-Instruct"{extra}]
          resources: {{limits: {{nvidia.com/gpu: {n}}}}}
"""


def _p0(tmp_path, files, gpu="H100-80GB x8"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return sorted(r.check.id for r in sr.results if r.priority == "P0" and r.status == "recommended"), sr


def test_a_t4_machine_refuses_bfloat16_whatever_gpu_says(tmp_path):
    p0, _ = _p0(tmp_path, {"k.yaml": POD.format(machine="g4dn.xlarge", extra="", n=1)})
    assert "L4" in p0  # bfloat16 checkpoint on a T4 (compute capability 7.5)
    p0, _ = _p0(tmp_path, {"k.yaml": POD.format(machine="g4dn.xlarge", extra=', "--dtype", "half"', n=1)})
    assert p0 == []


def test_the_machine_counts_its_gpus(tmp_path):
    p0, sr = _p0(tmp_path, {"k.yaml": POD.format(machine="g5.12xlarge", extra=', "--tensor-parallel-size", "4"', n=4)},
                 gpu="A10G")
    assert sr.facts["gpu"]["count"] == 4  # four A10G although --gpu says one
    assert "L34" not in p0  # TP 4 fits the machine (the pod has no /dev/shm volume: L40 stays)


KAITO = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: params
data:
  inference_config.yaml: |
    max_probe_steps: 6
    vllm:
      gpu-memory-utilization: 0.9
      {key}
---
apiVersion: kaito.sh/v1beta1
kind: Workspace
metadata:
  name: ws
resource:
  instanceType: "{machine}"
inference:
  preset:
    name: {preset}
  config: "params"
"""


def test_kaito_workspace_is_a_site_with_its_preset_model_and_machine(tmp_path):
    text = KAITO.format(key="max-model-len: 4096", machine="Standard_NC24ads_A100_v4", preset="phi-4-mini-instruct")
    p0, sr = _p0(tmp_path, {"ws.yaml": text, "requirements.txt": "vllm==0.10.1.1\n"})
    assert sr.site.tool == "kaito" and sr.site.model.value == "microsoft/Phi-4-mini-instruct"
    assert sr.site.settings["max_model_len"].value == 4096 and sr.site.settings["max_model_len"].line == 10
    assert sr.facts["gpu"]["memory_gib"] > 70  # the machine's A100 80GB, not --gpu's H100
    assert not sr.site.settings["tensor_parallel_size"].resolved  # KAITO chooses it
    assert p0 == []


def test_kaito_configmap_flag_the_release_lacks_is_p0_and_not_auto_fixed(tmp_path, cli):
    text = KAITO.format(key="max-seq-len-to-capture: 8192", machine="Standard_NC24ads_A100_v4", preset="Qwen/Qwen3-8B")
    p0, sr = _p0(tmp_path, {"ws.yaml": text, "requirements.txt": "vllm==0.12.0\n"})
    assert sr.site.model.value == "Qwen/Qwen3-8B"  # a Hugging Face id as the preset name
    found = [(f.code, f.priority, f.subject) for f in sr.remarks if f.priority == "P0"]
    assert [c for c, _, subj in found if "max_seq_len_to_capture" in subj or "max-seq-len-to-capture" in subj], found
    assert p0 == []
    # the key sits inside the ConfigMap's block scalar: --fix leaves it to the user, byte for byte
    cli("audit", str(tmp_path), "--gpu", "H100", "--fix", "--unsafe-fixes")
    assert (tmp_path / "ws.yaml").read_text() == text


def test_a_tuning_workspace_is_not_a_site(tmp_path):
    (tmp_path / "t.yaml").write_text(textwrap.dedent("""\
        apiVersion: kaito.sh/v1beta1
        kind: Workspace
        metadata: {name: tune}
        resource: {instanceType: Standard_NC24ads_A100_v4}
        tuning:
          preset: {name: phi-3-mini-4k-instruct}
          method: qlora
        """))
    assert audit(tmp_path, gpu="H100").sites == []


def test_gpu_spec_takes_a_machine_type():
    from vllm_kb.engine.kb import hardware

    hw = hardware.parse_spec("g5.12xlarge, host 192GiB", load().gpus)
    assert hw.gpu["name"] == "NVIDIA A10G" and hw.gpu["count"] == 4 and hw.host_memory_gib == 192
    assert hardware.parse_spec("ml.g4dn.xlarge", load().gpus).gpu["compute_capability"] == 7.5
