"""What a vendor's vLLM image holds (knowledge/deploy/vendor_images.yaml `torch`) against the GPU (L6,
engine/check/startup_build.py vendor_torch_facts), and llm-d-deployer's quickstart values as sites
(engine/scan/deploy/llmd_deployer.py). A torch built for CUDA 12.4/12.6 has no sm_100/sm_120 kernels, so
such an image stops on a Blackwell card whatever vLLM's own kernels cover; an image no row names stays
unjudged."""
from __future__ import annotations

from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.deploy_tools import vendor_torch

# https://github.com/vllm-project/production-stack/issues/528 — lmcache/vllm-openai nightly on an RTX 5090
STACK = """servingEngineSpec:
  modelSpec:
    - name: "opt125m"
      repository: "lmcache/vllm-openai"
      tag: "{tag}"
      modelURL: "facebook/opt-125m"
      replicaCount: 1
      requestGPU: 1
"""

# https://github.com/llm-d/llm-d-deployer/issues/282 — the quickstart's sample application on an RTX 5070
DEPLOYER = """sampleApplication:
  enabled: true
  baseConfigMapRefName: basic-gpu-with-nixl-preset
  model:
    modelArtifactURI: hf://meta-llama/Llama-3.2-3B-Instruct
    modelName: "meta-llama/Llama-3.2-3B-Instruct"
  resources:
    limits:
      nvidia.com/gpu: 1
  prefill:
    replicas: 1
  decode:
    replicas: 1
    extraArgs: ["--max-model-len", "8192"]
modelservice:
  vllm:
    image:
      registry: ghcr.io
      repository: llm-d/llm-d
      tag: 0.0.8
"""


def _l6(sr):
    return next(r for r in sr.results if r.check.id == "L6")


def test_the_table_names_the_torch_of_known_tags_only():
    assert vendor_torch("lmcache/vllm-openai:nightly-2025-06-24")["torch_cuda"] == "12.6"
    assert vendor_torch("ghcr.io/llm-d/llm-d:0.0.8")["torch"] == "2.7.0"
    assert vendor_torch("quay.io/llm-d/llm-d:0.0.3")["torch_cuda"] == "12.4"
    assert vendor_torch("lmcache/vllm-openai:nightly-2025-09-01") is None  # not read: not judged
    assert vendor_torch("ghcr.io/llm-d/llm-d:0.0.4") is None
    assert vendor_torch("vllm/vllm-openai:v0.9.1") is None


def test_a_vendor_image_whose_torch_lacks_sm_120_is_a_p0_on_an_rtx_5090(write_project):
    (sr,) = audit(write_project({"values.yaml": STACK.format(tag="nightly-2025-06-24")}), gpu="RTX-5090").sites
    r = _l6(sr)
    assert (r.status, r.priority) == ("recommended", "P0")
    assert "startup.image_torch_ok" in repr(r) and "2.7.0+cu126" in repr(r)
    assert "lmcache/vllm-openai:nightly-2025-06-24" in repr(r)


def test_the_same_image_runs_on_hopper_and_an_unread_tag_is_not_judged(write_project):
    (sr,) = audit(write_project({"values.yaml": STACK.format(tag="nightly-2025-06-24")}), gpu="H100").sites
    assert _l6(sr).status == "enabled"
    (sr,) = audit(write_project({"values.yaml": STACK.format(tag="nightly-2025-09-01")}), gpu="RTX-5090").sites
    assert _l6(sr).priority != "P0" or _l6(sr).status != "recommended"


def test_the_official_cu128_image_stays_clean_on_an_rtx_5090(write_project):
    run = "docker run --gpus all vllm/vllm-openai:v0.10.0 --model facebook/opt-125m\n"
    (sr,) = audit(write_project({"run.sh": run}), gpu="RTX-5090").sites
    assert _l6(sr).status == "enabled"


def test_llm_d_deployer_values_are_the_decode_and_prefill_sites(write_project):
    rep = audit(write_project({"values.yaml": DEPLOYER}), gpu="RTX-5070")
    assert len(rep.sites) == 2
    for sr in rep.sites:
        s = sr.site
        assert s.tool == "llm-d" and s.image == "ghcr.io/llm-d/llm-d:0.0.8" and s.gpu_request == 1
        assert s.model.value == "meta-llama/Llama-3.2-3B-Instruct"
        assert s.settings["served_model_name"].implied
        r = _l6(sr)
        assert (r.status, r.priority) == ("recommended", "P0")
    decode = next(sr for sr in rep.sites if sr.site.line == DEPLOYER.splitlines().index("  decode:") + 1)
    assert decode.site.settings["max_model_len"].value in (8192, "8192")


def test_a_disabled_sample_application_and_other_values_are_no_site(write_project):
    off = DEPLOYER.replace("enabled: true", "enabled: false")
    assert not audit(write_project({"values.yaml": off}), gpu="H100").sites
    assert not audit(write_project({"values.yaml": "sampleApplication:\n  enabled: true\n"}), gpu="H100").sites


def test_deployer_values_of_another_shape_are_read_without_a_scanner_error(write_project, tmp_path):
    # a values file is hand-written: a string where the chart ranges over a list, a list where it reads a
    # mapping. The scanner takes what it can and never stops on it (it used to raise on an int or a list)
    odd = {
        "servedModelNames": DEPLOYER.replace('modelName: "meta-llama/Llama-3.2-3B-Instruct"',
                                             'modelName: "meta-llama/Llama-3.2-3B-Instruct"\n    servedModelNames: 5'),
        "extraArgs": DEPLOYER.replace('extraArgs: ["--max-model-len", "8192"]', "extraArgs: 7"),
        "limits": DEPLOYER.replace("    limits:\n      nvidia.com/gpu: 1", "    limits: [1]"),
        "vllm": DEPLOYER[:DEPLOYER.index("modelservice:")] + "modelservice:\n  vllm: [ghcr.io/llm-d/llm-d]\n",
    }
    for name, text in odd.items():
        rep = audit(write_project({"values.yaml": text}, tmp_path / name), gpu="H100")
        assert len(rep.sites) == 2 and not [s for s in rep.skipped if s.code == "scanner-error"], name
    # a GPU count given as a request only is read as the pod's GPUs
    asked = DEPLOYER.replace("    limits:\n      nvidia.com/gpu: 1", "    requests:\n      nvidia.com/gpu: 2")
    assert {sr.site.gpu_request for sr in audit(write_project({"values.yaml": asked}, tmp_path / "req"), gpu="H100").sites} == {2}


# https://github.com/xorbitsai/inference/issues/3776 — Xinference's image pip-installs PyPI's vLLM 0.8.5 wheel
XINFERENCE = "docker run -d --gpus all -p 9997:9997 xprobe/xinference:{tag} xinference-local -H 0.0.0.0\n" \
             "docker exec xinference xinference launch --model-engine vllm --model-name qwen2.5-instruct " \
             "--size-in-billions 7 --model-format pytorch\n"


def test_a_framework_image_holding_the_pypi_wheel_is_judged_as_that_wheel(write_project):
    (sr,) = audit(write_project({"launch.sh": XINFERENCE.format(tag="v1.7.1.post1")}), gpu="RTX-PRO-6000").sites
    r = _l6(sr)
    assert (r.status, r.priority) == ("recommended", "P0")
    assert "PyPI wheel" in repr(r) and "2.6.0+cu124" in repr(r)
    (sr,) = audit(write_project({"launch.sh": XINFERENCE.format(tag="v1.7.1.post1")}), gpu="H100").sites
    assert _l6(sr).status == "enabled"


def test_a_later_wheel_and_a_cuda_variant_tag_get_no_p0(write_project):
    for tag in ("v1.17.1", "v1.7.1.post1-cu128"):  # 0.9.2's wheel has sm_120; a -cu128 build is not the table's
        (sr,) = audit(write_project({"launch.sh": XINFERENCE.format(tag=tag)}), gpu="RTX-PRO-6000").sites
        assert _l6(sr).priority != "P0", tag


def test_a_vendor_build_of_an_old_release_is_not_judged_from_its_number(write_project):
    # NVIDIA's Triton image builds vLLM for its own CUDA: no `pypi_wheel`, so its release number says nothing
    from vllm_kb.engine.scan.image_tables import pypi_wheel_release
    assert pypi_wheel_release("nvcr.io/nvidia/tritonserver:25.12-vllm-python-py3") is None
    assert pypi_wheel_release("xprobe/xinference:v1.7.1.post1") == "0.8.5"
    assert pypi_wheel_release("gpustack/gpustack:v0.6.1") == "0.8.5.post1"
