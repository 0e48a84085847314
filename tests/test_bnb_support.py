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


def test_fused_checkpoint_weights_break_the_name_matching_loader():
    from vllm_bnb_fused import breaks

    llama_stacked = {"q_proj": ("qkv_proj", 0), "k_proj": ("qkv_proj", 1), "v_proj": ("qkv_proj", 2),
                     "gate_proj": ("gate_up_proj", 0), "up_proj": ("gate_up_proj", 1)}
    dotted = [".gate_proj.", ".down_proj.", ".up_proj.", ".q_proj.", ".k_proj.", ".v_proj.", ".o_proj."]
    plain = [t.strip(".") for t in dotted]
    fused = {"qkv_proj", "gate_up_proj"}
    # 0.6.3-0.6.4: no dotted target names the fused weight, so it stays `.weight` (vllm#9937's KeyError)
    assert breaks(fused, dotted, llama_stacked)
    # 0.5.0-0.6.2: `up_proj` inside `gate_up_proj` quantizes it, then the mapping renames it away
    assert breaks(fused, plain, llama_stacked)
    # a target list that names the fused weights and a mapping that leaves them alone loads
    assert not breaks(fused, dotted + [".qkv_proj.", ".gate_up_proj."], {})
    assert not breaks(set(), dotted, llama_stacked)


def test_fused_spans_from_the_table():
    table = load().doc("vllm", "bnb_support.yaml").data
    phi3 = {"architecture": "Phi3ForCausalLM", "name": "microsoft/Phi-3-mini-128k-instruct",
            "arch_source": "https://huggingface.co/microsoft/Phi-3-mini-128k-instruct/blob/main/config.json"}
    assert bnb_facts(phi3, table, "0.6.3.post1") == {"bnb_arch_ok": False, "bnb_fused": True, "bnb_arch_since": "0.6.5",
                                                     "bnb_arch_pin": ">=0.6.5,<=0.27.1"}
    assert bnb_facts({**phi3, "name": "/models/phi3", "arch_source": "config.json"}, table, "0.5.4")["bnb_fused"] is True
    assert bnb_facts(phi3, table, "0.6.5") == {"bnb_arch_ok": True}
    # a re-upload judged by the family's config may store the projections apart: not known
    assert bnb_facts({**phi3, "name": "unsloth/Phi-3-mini-4k-instruct-bnb-4bit"}, table, "0.5.4") == {}
    # Llama's checkpoints store q/k/v and gate/up apart: never fused
    assert bnb_facts({"architecture": "LlamaForCausalLM"}, table, "0.6.3") == {"bnb_arch_ok": True}


def test_fused_scan_of_a_release(tmp_path):
    from vllm_bnb_support import fused_broken, fused_names

    loader = '''
        class BitsAndBytesModelLoader:
            default_target_modules = [".gate_proj.", ".up_proj.", ".q_proj.", ".k_proj.", ".v_proj."]
            def _load_weights(self, model_config, model):
                if not hasattr(model, "bitsandbytes_stacked_params_mapping"):
                    raise AttributeError(
                        f"Model {type(model).__name__} does not support BitsAndBytes quantization yet.")
    '''
    files = {
        "vllm/model_executor/model_loader/loader.py": loader,
        "vllm/model_executor/models/registry.py": """
            _TEXT_GENERATION_MODELS = {
                "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),
                "Phi3ForCausalLM": ("phi3", "Phi3ForCausalLM"),
            }
        """,
        "vllm/model_executor/models/llama.py": """
            class LlamaForCausalLM(nn.Module):
                packed_modules_mapping = {"qkv_proj": ["q_proj", "k_proj", "v_proj"]}
                bitsandbytes_stacked_params_mapping = {"q_proj": ("qkv_proj", 0), "up_proj": ("gate_up_proj", 1)}
        """,
        "vllm/model_executor/models/phi3.py": """
            class Phi3ForCausalLM(LlamaForCausalLM):
                packed_modules_mapping = {"qkv_proj": ["qkv_proj"], "gate_up_proj": ["gate_up_proj"]}
        """,
    }
    old = write_release(tmp_path / "0.6.3", files)
    fused = fused_names([old])
    assert fused == {"Phi3ForCausalLM": {"qkv_proj", "gate_up_proj"}}
    assert fused_broken(old, {"LlamaForCausalLM", "Phi3ForCausalLM"}, fused) == {"Phi3ForCausalLM"}
    # a loader that reads the targets from the model's own layers breaks nothing
    new = write_release(tmp_path / "0.6.5", {**files, "vllm/model_executor/model_loader/loader.py":
                                             loader + "\n            def _get_bnb_target_modules(self, model):\n                pass\n"})
    assert fused_broken(new, {"LlamaForCausalLM", "Phi3ForCausalLM"}, fused) == set()
