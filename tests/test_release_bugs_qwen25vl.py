"""L133's Qwen2.5-VL rows: the vision qkv reshape of 0.7.2 met through the BitsAndBytes loader (vLLM
#12900) and the merged vision gate_up_proj of 0.10.1-0.10.1.1 that escapes a compressed-tensors ignore
list naming its shards (vLLM #23320)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from release_tree import write_release  # noqa: E402
from vllm_release_bugs import build  # noqa: E402

from vllm_kb.engine.check.startup_release_bugs import model_bug_facts  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402
from vllm_kb.engine.kb.unquantized import ignore_unfused  # noqa: E402

_ARCH = "Qwen2_5_VLForConditionalGeneration"
_F = "vllm/model_executor/models/qwen2_5_vl.py"
_RESHAPE = '''
    class Qwen2_5_VisionTransformer:
        def load_weights(self, weights):
            for name, loaded_weight in weights:
                if name.endswith("qkv.weight"):
                    loaded_weight = loaded_weight.view(3, visual_num_heads, head_size, visual_embed_dim)
'''
_SPLIT = '''
    class Qwen2_5_VisionAttention:
        def split_qkv(self, qkv):
            return qkv.chunk(3, dim=-1)

    class Qwen2_5_VisionTransformer:
        def load_weights(self, weights):
            for name, loaded_weight in weights:
                weight_loader(param, loaded_weight)
'''
_MLP_SPLIT = '''
    class Qwen2_5_VisionMLP:
        def __init__(self):
            self.gate_proj = ColumnParallelLinear()
            self.up_proj = ColumnParallelLinear()

    class Qwen2_5_VLForConditionalGeneration:
        pass
'''
_MLP_MERGED = '''
    class Qwen2_5_VisionMLP:
        def __init__(self):
            self.gate_up_proj = MergedColumnParallelLinear(
                prefix="gate_up_proj")

    class Qwen2_5_VLForConditionalGeneration:
        pass
'''
_MLP_MAPPED = _MLP_MERGED.replace("        pass\n", '''        packed_modules_mapping = {
            "gate_up_proj": ["gate_proj", "up_proj"],
        }
''')


@pytest.mark.parametrize("releases,bug,expected", [
    ((("0.7.2", {_F: _RESHAPE}), ("0.7.3", {_F: _SPLIT})),
     "qwen2-5-vl-bnb-vision-qkv", {"load": "bitsandbytes", "affected": [["0.7.2", "0.7.2"]], "fixed": "0.7.3"}),
    ((("0.10.0", {_F: _MLP_SPLIT}), ("0.10.1", {_F: _MLP_MERGED}), ("0.10.1.1", {_F: _MLP_MERGED}), ("0.10.2", {_F: _MLP_MAPPED})),
     "qwen2-5-vl-vision-mlp-ignore",
     {"ignore_unfused": "visual.gate_up_proj", "affected": [["0.10.1", "0.10.1.1"]], "fixed": "0.10.2"}),
])
def test_build_reads_the_fix_where_it_lives(tmp_path, releases, bug, expected):
    for v, files in releases:
        write_release(tmp_path / "src" / v, files)
    row = next(b for b in build([tmp_path / "src"])["model_bugs"] if b["id"] == bug)
    assert {k: row[k] for k in expected} == expected


def _table():
    return load().doc("vllm", "release_bugs.yaml").data


@pytest.mark.parametrize("engine,version,hit", [
    ({"quantization": "bitsandbytes", "load_format": "bitsandbytes"}, "0.7.2", True),
    ({"quantization": "bitsandbytes"}, "0.7.2", True),
    ({}, "0.7.2", False),  # 16-bit weights load (the report's first launch)
    ({"quantization": "bitsandbytes"}, "0.7.3", False),
])
def test_bnb_only_through_the_bitsandbytes_loader(engine, version, hit):
    f = model_bug_facts(_ARCH, engine, _table(), version, {"multimodal": True})
    assert (f.get("release_bug") == "qwen2-5-vl-bnb-vision-qkv") == hit


_SHARDS = ["lm_head", "visual.blocks.0.mlp.gate_proj", "visual.blocks.0.mlp.up_proj", "visual.blocks.0.mlp.down_proj"]


@pytest.mark.parametrize("quant,expected", [
    ({"quant_method": "compressed-tensors", "ignore": _SHARDS}, ["visual.gate_up_proj"]),
    # the fused name itself, or a regex that matches it, is ignored by every release
    ({"quant_method": "compressed-tensors", "ignore": _SHARDS + ["visual.blocks.0.mlp.gate_up_proj"]}, []),
    ({"quant_method": "compressed-tensors", "ignore": ["lm_head", "re:visual.*"]}, []),
    ({"quant_method": "compressed-tensors", "ignore": _SHARDS + ["re:visual.*"]}, []),
    ({"quant_method": "compressed-tensors", "ignore": ["lm_head"]}, []),
    ({"quant_method": "awq", "modules_to_not_convert": ["visual"]}, []),
    # a hand-edited config.json: an ignore list that is no list is read as none (it raised before)
    ({"quant_method": "compressed-tensors", "ignore": 5}, []),
    ({"quant_method": "compressed-tensors", "ignore": "visual.blocks.0.mlp.gate_proj"}, []),
])
def test_ignore_unfused(quant, expected):
    assert ignore_unfused(quant) == expected


@pytest.mark.parametrize("unfused,version,hit", [
    (["visual.gate_up_proj"], "0.10.1", True),
    (["visual.gate_up_proj"], "0.10.1.1", True),
    (["visual.gate_up_proj"], "0.10.0", False),  # separate gate_proj / up_proj layers still
    (["visual.gate_up_proj"], "0.10.2", False),  # packed_modules_mapping maps them back
    (None, "0.10.1", False),  # an ignore list that matches the merged layer, or none
])
def test_vision_mlp_ignore(unfused, version, hit):
    model = {"multimodal": True, "quant_method": "compressed-tensors",
             **({"quant_ignore_unfused": unfused} if unfused else {})}
    f = model_bug_facts(_ARCH, {}, _table(), version, model)
    assert (f.get("release_bug") == "qwen2-5-vl-vision-mlp-ignore") == hit
