"""tools/vllm_lora_towers.py: the multimodal classes whose get_mm_mapping names no module of theirs
as the vision tower (so LoRA wraps the tower), against L60's rule for them."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from vllm_kb.engine.kb.versions import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent
_SPEC = importlib.util.spec_from_file_location("vllm_lora_towers", ROOT / "tools" / "vllm_lora_towers.py")
assert _SPEC and _SPEC.loader
tool = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(tool)

QWEN3_VL_0110 = '''
class Qwen3VLForConditionalGeneration(nn.Module, SupportsMultiModal, SupportsLoRA):
    def __init__(self, *, vllm_config, prefix=""):
        super().__init__()
        self.visual = Qwen3_VisionTransformer(config.vision_config)
        self.language_model = Qwen3LLMForCausalLM(vllm_config=vllm_config)

    def get_mm_mapping(self):
        return MultiModelKeys.from_string_field(
            language_model="language_model", connector="model.visual.merger", tower_model="model.visual.")
'''
QWEN3_VL_MOE = '''
class Qwen3VLMoeForConditionalGeneration(Qwen3VLForConditionalGeneration):
    def __init__(self, *, vllm_config, prefix=""):
        super().__init__(vllm_config=vllm_config)
        self.moe_extra = 1
'''
QWEN3_VL_0111 = QWEN3_VL_0110.replace('"model.visual.merger"', '"visual.merger"').replace('"model.visual."', '"visual."')


def _models(tmp_path: Path, files: dict[str, str]) -> dict:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tool.index(tmp_path)


def test_a_tower_prefix_naming_no_module_is_found_with_its_subclasses(tmp_path):
    classes = _models(tmp_path, {"qwen3_vl.py": QWEN3_VL_0110, "qwen3_vl_moe.py": QWEN3_VL_MOE})
    assert tool.unfiltered(classes) == ["Qwen3VLForConditionalGeneration", "Qwen3VLMoeForConditionalGeneration"]


def test_the_module_names_filter_the_tower(tmp_path):
    classes = _models(tmp_path, {"qwen3_vl.py": QWEN3_VL_0111, "qwen3_vl_moe.py": QWEN3_VL_MOE})
    assert tool.unfiltered(classes) == []


def test_l60_rule_names_the_release_and_classes():
    rule = tool.l60_rule()
    spec = SpecifierSet(rule["vllm"])
    assert [v for v in ("0.10.2", "0.11.0", "0.11.1", "0.14.0") if spec.contains(v)] == ["0.11.0"]
    assert "Qwen3VLMoeForConditionalGeneration" in rule["when"]
