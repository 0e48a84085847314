"""BitsAndBytes support per architecture and release: the extraction (tools/vllm_bnb_support.py →
knowledge/vllm/bnb_support.yaml), the facts read from it (engine/check/startup_bnb.py) and L22
on an audited project."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_bnb_support import loader_check, scan  # noqa: E402

from vllm_kb.engine.check.startup_bnb import bnb_facts  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402

_LOADER = '''
    class BitsAndBytesModelLoader:
        def _load_weights(self, model_config, model):
            if not hasattr(model, "load_weights"):
                raise AttributeError("no load_weights")
            if not hasattr(model, "packed_modules_mapping"):
                raise AttributeError(
                    f"Model {type(model).__name__} does not support BitsAndBytes "
                    "quantization yet. No 'packed_modules_mapping' found.")
'''



def test_scan_reads_the_attribute_the_loader_tests_through_bases(tmp_path):
    root = write_release(tmp_path, {
        "vllm/model_executor/model_loader/bitsandbytes_loader.py": _LOADER,
        "vllm/model_executor/models/registry.py": """
            _TEXT_GENERATION_MODELS = {
                "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),
                "MistralForCausalLM": ("mistral", "MistralForCausalLM"),
                "LoraOnly": ("lora", "LoraOnly"),
                "Annotated": ("lora", "Annotated"),
                "Late": ("lora", "Late"),
                "Mystery": ("mystery", "Mystery"),
            }
            _MULTIMODAL_MODELS = {"LlavaForConditionalGeneration": ("llava", "LlavaForConditionalGeneration")}
        """,
        "vllm/model_executor/models/interfaces.py": """
            class SupportsLoRA(Protocol):
                packed_modules_mapping: ClassVar[dict] = {}
            class SupportsBare(Protocol):
                packed_modules_mapping: ClassVar[dict]
        """,
        "vllm/model_executor/models/llama.py": "class LlamaForCausalLM(nn.Module):\n    packed_modules_mapping = {'qkv_proj': ['q_proj']}\n",
        "vllm/model_executor/models/mistral.py": "class MistralForCausalLM(LlamaForCausalLM):\n    pass\n",
        "vllm/model_executor/models/lora.py": """
            class LoraOnly(nn.Module, SupportsLoRA):
                pass
            class Annotated(nn.Module, SupportsBare):
                pass
            class Late(nn.Module):
                def __init__(self):
                    self.packed_modules_mapping = {}
        """,
        "vllm/model_executor/models/llava.py": "class LlavaForConditionalGeneration(nn.Module, SupportsMultiModal):\n    pass\n",
        "vllm/model_executor/models/mystery.py": "Mystery = make_class()\n",
    })
    assert loader_check(root) == ("vllm/model_executor/model_loader/bitsandbytes_loader.py", 8, "packed_modules_mapping")
    yes, no, unresolved = scan(root)
    assert yes == {"LlamaForCausalLM", "MistralForCausalLM", "LoraOnly", "Late"}
    # an annotation without a value is no attribute; a base from outside the package is unknown
    assert "Annotated" in no
    assert unresolved == {"Mystery", "LlavaForConditionalGeneration"}


def test_no_loader_no_scan(tmp_path):
    root = write_release(tmp_path, {"vllm/model_executor/models/registry.py": "_TEXT_GENERATION_MODELS = {}\n"})
    assert scan(root) is None


def test_support_per_release_from_the_table():
    table = load().doc("vllm", "bnb_support.yaml").data
    llava = {"architecture": "LlavaForConditionalGeneration"}
    assert bnb_facts(llava, table, "0.6.3") == {"bnb_arch_ok": False, "bnb_arch_since": "0.6.5",
                                                "bnb_arch_pin": ">=0.6.5,<=0.27.1"}
    assert bnb_facts(llava, table, "0.6.5") == {"bnb_arch_ok": True}
    assert bnb_facts({"architecture": "Qwen2ForCausalLM"}, table, "0.5.4")["bnb_arch_since"] == "0.6.4"
    assert bnb_facts({"architecture": "LlamaForCausalLM"}, table, "0.5.0") == {"bnb_arch_ok": True}
    # no loader before 0.5.0 or from 0.28.0; an architecture the table does not list says nothing
    assert bnb_facts({"architecture": "LlamaForCausalLM"}, table, "0.28.0") == {}
    assert bnb_facts({"architecture": "LlamaForCausalLM"}, table, "0.4.3") == {}
    assert bnb_facts({"architecture": "NoSuchForCausalLM"}, table, "0.6.3") == {}


def test_loader_sources_are_named_perwrite_release():
    table = load().doc("vllm", "bnb_support.yaml").data
    rows = {r["release"]: r for r in table["loader"]}
    assert rows["0.6.6"]["attribute"] == "bitsandbytes_stacked_params_mapping"
    assert rows["0.7.0"]["attribute"] == "packed_modules_mapping"
    assert rows["0.9.0"]["file"].endswith("bitsandbytes_loader.py")
    assert table["releases"][0] == "0.5.0" and table["releases"][-1] == "0.27.1"


def test_a_dispatcher_class_is_unresolved(tmp_path):
    root = write_release(tmp_path, {
        "vllm/model_executor/model_loader/loader.py": _LOADER,
        "vllm/model_executor/models/registry.py": '_MULTIMODAL_MODELS = {"MiniCPMV": ("minicpmv", "MiniCPMV")}\n',
        "vllm/model_executor/models/minicpmv.py": """
            class MiniCPMV26(nn.Module):
                packed_modules_mapping = {"qkv_proj": ["q_proj"]}
            class MiniCPMV(nn.Module):
                def __new__(cls, *, vllm_config, prefix=""):
                    return MiniCPMV26(vllm_config=vllm_config, prefix=prefix)
        """,
    })
    assert scan(root) == (set(), set(), {"MiniCPMV"})  # the instance is another class: never "no"
