"""vLLM's CPU build as the platform of a site (helper cpu, blind miss heldout63 vllm#12794): a `+cpu`
pin, VLLM_TARGET_DEVICE=cpu or a CPU image make the site run vLLM's CPU backend, whose start-up
refusals keep their P0 (a GPTQ/AWQ checkpoint up to 0.6.3.post1, the float16 → bfloat16 cast);
VLLM_CPU_KVCACHE_SPACE alone is a hint (P1), proof where the target has no GPU (`--gpu none`, heldout87
gitcode-deepseek-awq-cpu); the GPU checks do not judge the site."""
from __future__ import annotations

import json

import pytest

from vllm_kb.engine.check.site_platform import cpu_build, platform

CONFIG = json.dumps({"architectures": ["MistralForCausalLM"], "model_type": "mistral", "hidden_size": 4096,
                     "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
                     "num_key_value_heads": 8, "max_position_embeddings": 32768, "vocab_size": 32000,
                     "torch_dtype": "float16",
                     "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128,
                                             "desc_act": True, "sym": True}})


def test_the_cpu_build_is_read_from_its_pin_its_variable_and_its_image():
    assert cpu_build("vllm==0.6.3.post1+cpu", {}) == "proof"
    assert cpu_build("vllm==0.6.3.post1", {"VLLM_TARGET_DEVICE": "cpu"}) == "proof"
    assert cpu_build("vllm==0.6.3.post1", {"VLLM_CPU_KVCACHE_SPACE": "40"}) == "hint"
    assert cpu_build("vllm==0.20.0+cu129", {}) is None
    assert cpu_build("vllm==0.6.3.post1", {"VLLM_TARGET_DEVICE": "cuda"}) is None
    assert platform({}, {}, "public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo:v0.9.2") == "cpu"
    assert platform({}, {}, "vllm/vllm-openai-cpu:v0.11.0") == "cpu"
    assert platform({"device": "cpu"}, {}, None) == "cpu"
    assert platform({}, {}, "vllm/vllm-openai:v0.10.0") == "cuda"


def _site(json_site, write_project, files, gpu="none"):
    files = {"models/gptq/config.json": CONFIG, "serve.sh": "vllm serve ./models/gptq/\n", **files}
    return json_site(write_project(files), gpu)


def _prio(site, name="quant-activation-dtype"):
    return next((r["priority"] for r in site["recommendations"] if name in r["check"] or r["check"] == "L120"), None)


@pytest.mark.parametrize("files, expect", [
    ({"requirements.txt": "vllm==0.6.3.post1+cpu\n"}, "P0"),  # setup.py's CPU label
    ({"requirements.txt": "vllm==0.6.3.post1\n", "serve.sh": "VLLM_TARGET_DEVICE=cpu vllm serve ./models/gptq/\n"}, "P0"),
    ({"requirements.txt": "vllm==0.6.3.post1\n",
      "serve.sh": "VLLM_CPU_KVCACHE_SPACE=40 vllm serve ./models/gptq/\n"}, "P0"),  # a hint, and no GPU: only the CPU build starts
    ({"requirements.txt": "vllm==0.6.4+cpu\n"}, None),  # 0.6.4 no longer casts float16 by itself
    ({"requirements.txt": "vllm==0.6.3.post1\n"}, None),  # nothing says CPU: `--gpu none` is no CPU build
])
def test_a_gptq_checkpoint_on_the_cpu_build_up_to_0_6_3_post1(json_site, write_project, files, expect):
    assert _prio(_site(json_site, write_project, files), "quant-activation-dtype") == expect


def test_the_cpu_variable_on_a_gpu_target_stays_a_hint(json_site, write_project):
    # a GPU launch may carry VLLM_CPU_KVCACHE_SPACE unused: with a GPU named, the CPU refusal stays P1
    site = _site(json_site, write_project, {"requirements.txt": "vllm==0.6.3.post1\n",
                                            "serve.sh": "VLLM_CPU_KVCACHE_SPACE=40 vllm serve ./models/gptq/\n"}, gpu="T4")
    assert _prio(site, "quant-activation-dtype") == "P1"


def test_a_cpu_site_gets_no_gpu_p0(json_site, write_project):
    site = _site(json_site, write_project, {"requirements.txt": "vllm==0.6.3.post1+cpu\n",
                                            "serve.sh": "vllm serve ./models/gptq/ --gpu-memory-utilization 0.99\n"},
                 gpu="T4")
    assert [r["check"] for r in site["recommendations"] if r["priority"] == "P0"] == ["L120"]


@pytest.mark.parametrize("pin, expect", [("vllm==0.6.6+cpu", "P0"), ("vllm==0.7.0+cpu", None), ("vllm==0.6.6", None)])
def test_lora_on_the_cpu_build_before_0_7_0(json_site, write_project, pin, expect):
    site = json_site(write_project({"requirements.txt": pin + "\n",
                                    "serve.sh": "vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora\n"}), "none")
    got = next((r["priority"] for r in site["recommendations"] if r["check"] == "L60"), None)
    assert got == expect


@pytest.mark.parametrize("env, pin, expect", [("", "vllm==0.11.0+cpu", "P0"), ("VLLM_MLA_DISABLE=1 ", "vllm==0.11.0+cpu", None),
                                              ("", "vllm==0.11.0", None)])
def test_an_mla_model_on_the_cpu_build_0_10_to_0_27(json_site, write_project, env, pin, expect):
    site = json_site(write_project({"requirements.txt": pin + "\n",
                                    "serve.sh": env + "vllm serve deepseek-ai/DeepSeek-V2-Lite-Chat --trust-remote-code\n"}), "none")
    got = next((r["priority"] for r in site["recommendations"] if r["check"] == "L13"), None)
    assert got == expect
