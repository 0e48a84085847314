"""knowledge/vllm/lora_moe.yaml (tools/vllm_lora_moe.py) and its reader: LoRA on a mixture-of-experts
model whose class gives the fused-MoE LoRA no get_expert_mapping stops 0.11.1–0.24.0 at start-up."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import yaml

from vllm_kb.engine.check.startup_lora_moe import lora_moe_facts

ROOT = Path(__file__).resolve().parent.parent
TABLE = yaml.safe_load((ROOT / "knowledge/vllm/lora_moe.yaml").read_text(encoding="utf-8"))
sys.path.insert(0, str(ROOT / "tools"))
_SPEC = importlib.util.spec_from_file_location("vllm_lora_moe", ROOT / "tools" / "vllm_lora_moe.py")
assert _SPEC and _SPEC.loader
tool = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(tool)

MOE = {"moe": True}


def test_moe_class_without_mapping_raises_in_its_releases():
    got = lora_moe_facts(MOE, "Gemma4ForConditionalGeneration", TABLE, "0.20.0")
    assert got == {"lora_moe_unmapped": True, "lora_moe_fixed": "0.25.0", "lora_moe_pin": ">=0.25.0"}


def test_class_that_gained_the_method_gives_its_own_release():
    # Nemotron-H has get_expert_mapping from 0.14.0 (vLLM PR 31539), long before the walk of 0.25.0
    assert lora_moe_facts(MOE, "NemotronHForCausalLM", TABLE, "0.13.0")["lora_moe_pin"] == ">=0.14.0"
    assert lora_moe_facts(MOE, "NemotronHForCausalLM", TABLE, "0.14.0") == {}


def test_dense_or_unknown_models_and_other_releases_say_nothing():
    assert lora_moe_facts({"moe": False}, "Gemma4ForConditionalGeneration", TABLE, "0.20.0") == {}
    assert lora_moe_facts({}, "Gemma4ForConditionalGeneration", TABLE, "0.20.0") == {}
    assert lora_moe_facts(MOE, "Gemma4ForConditionalGeneration", TABLE, "0.25.0") == {}  # the walk finds it
    assert lora_moe_facts(MOE, "Llama4ForCausalLM", TABLE, "0.11.0") == {}  # MoE layers got no LoRA before 0.11.1
    assert lora_moe_facts(MOE, "Qwen3MoeForCausalLM", TABLE, "0.20.0") == {}  # mapped
    assert lora_moe_facts(MOE, "Gemma4ForConditionalGeneration", TABLE, "0.19.1") == {}  # no LoRA class yet: L60's other rule


def test_a_table_without_its_release_list_says_nothing():
    """A table without `releases` (hand-edited, half-written) is no table: nothing, never a TypeError."""
    table = {"unmapped": {"Llama4ForCausalLM": [["0.11.1", "0.24.0"]]}, "fixed": "0.25.0"}
    assert lora_moe_facts({"moe": True}, "Llama4ForCausalLM", table, "0.20.0") == {}


def test_post_release_reads_its_base():
    assert lora_moe_facts(MOE, "GraniteMoeForCausalLM", TABLE, "0.20.1")["lora_moe_unmapped"] is True


def _pkg(tmp_path: Path, files: dict[str, str]):
    models = tmp_path / "vllm/model_executor/models"
    models.mkdir(parents=True)
    (models / "interfaces.py").write_text("class SupportsLoRA(Protocol):\n    pass\n", encoding="utf-8")
    for name, text in files.items():
        (models / name).write_text(text, encoding="utf-8")
    return tool.Package(tmp_path)


MOE_FILE = '''
from vllm.model_executor.layers.fused_moe import FusedMoE
from vllm.model_executor.layers.logits_processor import LogitsProcessor

class XMoeModel(nn.Module):
    def __init__(self):
        self.experts = FusedMoE()

class XMoeForCausalLM(nn.Module, SupportsLoRA):
    def __init__(self):
        self.model = XMoeModel()
        self.logits_processor = LogitsProcessor()
        self.num_moe_layers = len(self.moe_layers)
'''


def test_judge_reads_class_children_and_builders(tmp_path):
    pkg = _pkg(tmp_path, {"xmoe.py": MOE_FILE + '''
class YMoeModel(XMoeModel):
    def get_expert_mapping(self):
        return []

class YMoeForCausalLM(nn.Module, SupportsLoRA):
    def __init__(self):
        self.model: YMoeModel = YMoeModel()

class ZForConditionalGeneration(nn.Module, SupportsLoRA):
    def __init__(self):
        self.language_model = init_vllm_registered_model(vllm_config, architectures=["XMoeForCausalLM"])

class WForConditionalGeneration(nn.Module, SupportsLoRA):
    def __init__(self):
        self.language_model = init_vllm_registered_model(vllm_config, architectures=arch)

class DenseForCausalLM(nn.Module, SupportsLoRA):
    def __init__(self):
        self.model = DenseModel()
''', "dense.py": "class DenseModel(nn.Module):\n    pass\n"})
    assert tool.judge(pkg, "XMoeForCausalLM") is True
    assert tool.judge(pkg, "YMoeForCausalLM") is False  # the child (an annotated assignment) has it
    assert tool.judge(pkg, "ZForConditionalGeneration") is True  # the registered language model lacks it
    assert tool.judge(pkg, "WForConditionalGeneration") is None  # which class is not literal: unknown
    # DenseForCausalLM's own file builds FusedMoE layers here (the fixture shares the file), so judge by a separate one
    pkg2 = _pkg(tmp_path / "b", {"dense.py": "class DenseModel(nn.Module):\n    pass\n\nclass DenseForCausalLM(nn.Module, SupportsLoRA):\n"
                                             "    def __init__(self):\n        self.model = DenseModel()\n"})
    assert tool.judge(pkg2, "DenseForCausalLM") is False  # no fused-MoE layer anywhere: never meets the raise


def test_table_matches_the_sources_when_they_are_here():
    src = Path("/work/sdists/src")
    if not (src / "0.24.0" / "vllm").is_dir():
        import pytest
        pytest.skip("release sources not unpacked here")
    assert TABLE["releases"][0] == "0.11.1" and TABLE["releases"][-1] == "0.24.0" and TABLE["fixed"] == "0.25.0"
