"""The per-release start-up tables the launch checks read: pipeline parallelism per architecture
(tools/vllm_architectures.py → knowledge/vllm/architectures.yaml `pp`) and the quantization facts
a checkpoint name gives (engine/check/startup_quant.py)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_architectures import lora_scan, pp_scan  # noqa: E402

from vllm_kb.engine.check.startup_arch import arch_facts  # noqa: E402
from vllm_kb.engine.check.startup_quant import quant_facts  # noqa: E402
from vllm_kb.engine.kb import catalog as catalog_mod  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402



def test_pp_follows_bases_across_modules_and_packages(tmp_path):
    root = write_release(tmp_path, {
        "vllm/model_executor/models/registry.py": """
            _TEXT_GENERATION_MODELS = {
                "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),
                "MistralForCausalLM": ("mistral", "MistralForCausalLM"),
                "WhisperForConditionalGeneration": ("whisper", "WhisperForConditionalGeneration"),
                "GemmaForCausalLM": ("transformers", "TransformersForCausalLM"),
                "Mystery": ("mystery", "Mystery"),
            }
            _PREVIOUSLY_SUPPORTED_MODELS = {"OldForCausalLM": "0.9.0"}
        """,
        "vllm/model_executor/models/llama.py": "class LlamaForCausalLM(nn.Module, SupportsLoRA, SupportsPP):\n    pass\n",
        "vllm/model_executor/models/mistral.py": "class MistralForCausalLM(LlamaForCausalLM):\n    pass\n",
        "vllm/model_executor/models/whisper.py": "class WhisperForConditionalGeneration(nn.Module, SupportsMultiModal):\n    pass\n",
        "vllm/model_executor/models/transformers/base.py": "class Base(nn.Module, SupportsPP):\n    pass\n",
        "vllm/model_executor/models/transformers/causal.py": "class CausalMixin(Base):\n    pass\n",
        "vllm/model_executor/models/transformers/__init__.py": "class TransformersForCausalLM(CausalMixin): ...\n",
        "vllm/model_executor/models/mystery.py": "Mystery = make_class()\n",
    })
    yes, unresolved = pp_scan(root)
    assert yes == {"LlamaForCausalLM", "MistralForCausalLM", "GemmaForCausalLM"}
    assert unresolved == {"Mystery"}  # made at run time: unknown, never "no PP"


def test_pp_list_of_the_early_releases(tmp_path):
    root = write_release(tmp_path, {"vllm/config.py": '_PP_SUPPORTED_MODELS = [\n    "LlamaForCausalLM",\n    "GPT2LMHeadModel",\n]\n'})
    assert pp_scan(root) == ({"LlamaForCausalLM", "GPT2LMHeadModel"}, set())


def test_llama4_gains_pp_in_084():
    table = load().doc("vllm", "architectures.yaml").data
    model = {"architecture": "Llama4ForConditionalGeneration"}
    before = arch_facts(model, table, "0.8.3")
    assert before["arch_pp"] is False and before["arch_pp_pin"] == ">=0.8.4"
    assert arch_facts(model, table, "0.8.4")["arch_pp"] is True
    assert arch_facts({"architecture": "LlamaForCausalLM"}, table, "0.6.0")["arch_pp"] is True
    assert "arch_pp" not in arch_facts({"architecture": "LlamaForCausalLM"}, table, "0.5.0")  # no PP at all: L3's own rule


def test_lora_follows_the_interface_and_the_early_attribute(tmp_path):
    new = write_release(tmp_path / "new", {
        "vllm/model_executor/models/interfaces.py": "class SupportsLoRA(Protocol):\n    supports_lora = True\n",
        "vllm/lora/__init__.py": "",
        "vllm/model_executor/models/registry.py": """
            _TEXT_GENERATION_MODELS = {
                "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),
                "MistralForCausalLM": ("mistral", "MistralForCausalLM"),
                "MllamaForConditionalGeneration": ("mllama", "MllamaForConditionalGeneration"),
                "Flagged": ("flagged", "Flagged"),
                "Mystery": ("mystery", "Mystery"),
            }
        """,
        "vllm/model_executor/models/llama.py": "class LlamaForCausalLM(nn.Module, SupportsLoRA, SupportsPP):\n    pass\n",
        "vllm/model_executor/models/mistral.py": "class MistralForCausalLM(LlamaForCausalLM):\n    pass\n",
        "vllm/model_executor/models/mllama.py": "class MllamaForConditionalGeneration(nn.Module, SupportsMultiModal, SupportsPP):\n    pass\n",
        "vllm/model_executor/models/flagged.py": "class Flagged(nn.Module):\n    supports_lora = True\n",
        "vllm/model_executor/models/mystery.py": "Mystery = make_class()\n",
    })
    assert lora_scan(new) == ({"LlamaForCausalLM", "MistralForCausalLM", "Flagged"}, {"Mystery"})
    # before the interfaces module (0.4.1-0.5.0) a LoRA model class lists its supported_lora_modules
    old = write_release(tmp_path / "old", {
        "vllm/model_executor/models/__init__.py": '_MODELS = {"LlamaForCausalLM": ("llama", "LlamaForCausalLM"), "GemmaForCausalLM": ("gemma", "GemmaForCausalLM")}\n',
        "vllm/model_executor/models/llama.py": "class LlamaForCausalLM(nn.Module):\n    supported_lora_modules = ['qkv_proj']\n",
        "vllm/model_executor/models/gemma.py": "class GemmaForCausalLM(nn.Module):\n    pass\n",
        "vllm/lora/__init__.py": "",
    })
    assert lora_scan(old) == ({"LlamaForCausalLM"}, set())


def test_qwen2_vl_gains_lora_in_064_and_a_post_release_reads_as_its_base():
    table = load().doc("vllm", "architectures.yaml").data
    model = {"architecture": "Qwen2VLForConditionalGeneration"}
    for v in ("0.6.3", "0.6.3.post1"):
        got = arch_facts(model, table, v)
        assert got["arch_lora"] is False and got["arch_lora_pin"] == ">=0.6.4"
    assert arch_facts(model, table, "0.6.4")["arch_lora"] is True
    assert arch_facts({"architecture": "LlamaForCausalLM"}, table, "0.4.1")["arch_lora"] is True
    assert "arch_lora_pin" not in arch_facts({"architecture": "MllamaForConditionalGeneration"}, table, "0.6.4")


def _quant(model: dict, version: str, gpu: dict | None = None) -> dict:
    kb = load()
    facts = {"model": model, "engine": {}, "args": {}, "gpu": gpu or {}}
    return quant_facts(facts, kb.doc("vllm", "startup.yaml").data, catalog_mod.load(), version)


def test_bnb_prequant_only_when_the_checkpoint_says_so():
    named = {"name": "unsloth/DeepSeek-R1-Distill-Llama-70B-bnb-4bit", "quantized": True, "quant_method": "bitsandbytes", "quant_source": "name"}
    assert _quant(named, "0.7.3")["quant_bnb_prequant"] is True
    vague = {"name": "someone/model-4bit", "quantized": True, "quant_method": "bitsandbytes", "quant_source": "name"}
    assert "quant_bnb_prequant" not in _quant(vague, "0.7.3")
    # a local folder: only its own config.json says what it holds (a merged QLoRA run keeps "-bnb" in its name)
    folder = {"name": "./models/llama-3-8b-bnb-4bit", "quantized": True, "quant_method": "bitsandbytes", "quant_source": "name"}
    got = _quant(folder, "0.7.3")
    assert "quant_bnb_prequant" not in got and got["quant_bnb_prequant_named"] is True
    read = {**folder, "quant_source": "config"}
    assert _quant(read, "0.7.3")["quant_bnb_prequant"] is True


def test_min_capability_is_read_from_the_config_classes(tmp_path):
    from vllm_quant_capability import scan

    q = "vllm/model_executor/layers/quantization/"
    root = write_release(tmp_path, {
        q + "__init__.py": 'QUANTIZATION_METHODS = {"awq": AWQConfig, "fp8": Fp8Config, "odd": OddConfig, "sub": SubConfig}\n',
        q + "awq.py": "class AWQConfig(QuantizationConfig):\n    @classmethod\n    def get_min_capability(cls):\n        return 75\n",
        q + "fp8.py": "class Fp8Config(QuantizationConfig):\n    def get_min_capability(cls):\n        return 80\n"
                      "class SubConfig(Fp8Config):\n    pass\n",
        q + "odd.py": "class OddConfig(QuantizationConfig):\n    def get_min_capability(cls):\n        return 89 if x else 80\n",
        q + "compressed_tensors/schemes/wna16.py": "class CompressedTensorsWNA16(Scheme):\n    def get_min_capability(cls):\n        return 80\n",
    })
    assert scan(root) == {"awq": 75, "fp8": 80, "sub": 80}  # a value that depends on run-time state is left out
    assert scan(root, schemes=True) == {"wna16": 80, "any": 80}  # `any`: the lowest of every scheme class



def test_min_capability_of_0_2_0_is_read_from_quantization_utils(tmp_path):
    """0.2.0–0.2.1 kept the package in vllm/model_executor/quantization_utils/ (_QUANTIZATION_REGISTRY)."""
    from vllm_quant_capability import scan

    q = "vllm/model_executor/quantization_utils/"
    root = write_release(tmp_path, {
        q + "__init__.py": '_QUANTIZATION_REGISTRY = {"awq": AWQConfig}\n',
        q + "awq.py": "class AWQConfig(QuantizationConfig):\n    @classmethod\n    def get_min_capability(cls):\n        return 80\n",
    })
    assert scan(root) == {"awq": 80}

def test_the_checkpoints_method_stands_for_an_unset_flag_with_its_certainty():
    # no --quantization: vLLM takes the method from the checkpoint; a GPU check on it is P0 only when
    # the method is certain (config, catalog, an unambiguous name marker), else L7 says P1
    awq = {"name": "TheBloke/Llama-2-7B-AWQ", "quantized": True, "quant_method": "awq", "quant_source": "name"}
    got = _quant(awq, "0.8.5", {"compute_capability": 7.0})
    assert (got["quant_method"], got["quant_certain"], got["quant_gpu_ok"]) == ("awq", True, False)
    fp8 = {"name": "someone/Llama-3-8B-FP8", "quantized": True, "quant_method": "fp8", "quant_source": "name"}
    assert _quant(fp8, "0.8.5", {"compute_capability": 7.5})["quant_certain"] is False
    fp8_config = dict(fp8, quant_source="config")
    assert _quant(fp8_config, "0.8.5", {"compute_capability": 7.5})["quant_certain"] is True
