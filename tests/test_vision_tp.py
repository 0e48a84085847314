"""A vision tower's heads against TP per release: the extraction (tools/vllm_vision_tp.py →
knowledge/vllm/vision_tp.yaml), the facts (engine/check/startup_vision.py) and L2 on a project."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_vision_tp import scan  # noqa: E402

from vllm_kb.engine.check.startup_vision import vision_split, vision_unsplit  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402

_SPLIT = '''
    class FooVisionAttention(nn.Module):
        def __init__(self, num_heads):
            world_size = get_tensor_model_parallel_world_size()
            self.per_partition = dist_utils.divide(
                num_heads, world_size)
'''
_FALLBACK = '''
    class InternParallelAttention(nn.Module):
        def __init__(self, config):
            self.per_partition = divide(self.num_heads, self.tp_size)
    def _init_attn(config, tp_size):
        if config.num_attention_heads % tp_size == 0:
            return InternParallelAttention(config)
        return InternSdpaAttention(config)
'''
_ASSERT = '''
    class BarVisionAttention(nn.Module):
        def __init__(self, num_heads, tp_size):
            assert self.num_heads % tp_size == 0
'''


def test_scan_tells_strict_splits_from_fallbacks(tmp_path):
    root = write_release(tmp_path, {
        "vllm/model_executor/models/registry.py": "_MULTIMODAL_MODELS = {}\n",
        "vllm/model_executor/models/foo_vl.py": _SPLIT,
        "vllm/model_executor/models/intern_vit.py": _FALLBACK,
        "vllm/model_executor/models/bar_vl.py": _ASSERT,
        # a text model's divide() of its heads is no vision tower
        "vllm/model_executor/models/llama.py": "class LlamaAttention:\n    def f(self):\n        self.n = divide(self.num_heads, tp_size)\n",
    })
    got = scan(root)
    assert got == {"foo_vl": {"strict": True, "line": 5}, "intern_vit": {"strict": False, "line": 4},
                   "bar_vl": {"strict": True, "line": 4}}


_QKV = '''
    class MllamaVisionSdpaAttention(nn.Module):
        def __init__(self, config):
            self.num_local_heads = self.num_heads // model_parallel_size
            self.qkv_proj = QKVParallelLinear(self.embed_dim, self.head_dim, self.num_heads)
    class MllamaVisionDataParallel(nn.Module):
        def __init__(self, config):
            self.qkv_proj = QKVParallelLinear(self.embed_dim, self.head_dim, self.num_heads, disable_tp=True)
'''
_RAISES = '''
    class SiglipTPAttention(nn.Module):
        def __init__(self, config):
            if self.total_num_heads % tp_size != 0:
                raise ValueError("Number of attention heads must be divisible by the tensor model parallel size")
'''


def test_scan_sees_qkv_parallel_linear_and_a_raise(tmp_path):
    """QKVParallelLinear divides the heads in its constructor; `if heads % tp: raise` is the strict
    test, not a fallback; blip.py holds only a vision tower whatever its classes are called."""
    root = write_release(tmp_path, {
        "vllm/model_executor/models/registry.py": "_MULTIMODAL_MODELS = {}\n",
        "vllm/model_executor/models/mllama.py": _QKV,
        "vllm/model_executor/models/siglip.py": _RAISES,
        "vllm/model_executor/models/blip.py": "class BlipAttention:\n    def f(self):\n        self.qkv = QKVParallelLinear(d, h, n)\n",
        # a text model's QKVParallelLinear is no vision tower
        "vllm/model_executor/models/qwen2.py": "class Qwen2Attention:\n    def f(self):\n        self.qkv = QKVParallelLinear(d, h, n, k)\n",
    })
    assert scan(root) == {"mllama": {"strict": True, "line": 5}, "siglip": {"strict": True, "line": 4},
                          "blip": {"strict": True, "line": 3}}


def test_split_per_release_from_the_table():
    table = load().doc("vllm", "vision_tp.yaml").data
    glm = {"vision_module": "glm4_1v", "vision_num_heads": 12}
    assert vision_split(glm, {}, table, "0.10.1.1") is True
    assert vision_split(glm, {}, table, "0.9.2") is True  # GLM-4.1V came with 0.9.2
    assert vision_split(glm, {}, table, "0.9.1") is False  # before the module
    assert vision_split(glm, {"mm_encoder_tp_mode": "data"}, table, "0.10.2") is False
    intern = {"vision_module": "intern_vit", "vision_num_heads": 25}
    for v in ("0.5.5", "0.6.0", "0.10.0", "0.11.0", "0.34.0"):
        assert vision_split(intern, {}, table, v) is False, v
    assert vision_split({"vision_num_heads": 16}, {}, table, "0.10.0") is False  # no module: nothing claimed
    # split by QKVParallelLinear's own divide(): Llama 3.2 Vision's tower until mllama left (0.11.0)
    mllama = {"vision_module": "mllama", "vision_num_heads": 16}
    assert [vision_split(mllama, {}, table, v) for v in ("0.6.1", "0.6.2", "0.10.2", "0.11.0")] == [False, True, True, False]


def _l2(tmp_path: Path, pin: str, model: str, tp: int, extra: str = ""):
    from vllm_kb.engine.audit import audit

    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text(f"#!/bin/bash\nvllm serve {model} --tensor-parallel-size {tp}{extra}\n")
    rep = audit(tmp_path, gpu=f"A100-80GB x{tp}")
    return next(r for sr in rep.sites for r in sr.results if r.check.id == "L2")


def test_l2_fires_where_the_release_splits_the_vision_heads(tmp_path):
    r = _l2(tmp_path, "0.10.1.1", "zai-org/GLM-4.1V-9B-Thinking", 8)
    assert (r.status, r.priority) == ("recommended", "P0") and "12" in r.reason_text("en")


def test_l2_quiet_in_data_mode(tmp_path):
    r = _l2(tmp_path, "0.10.2", "zai-org/GLM-4.1V-9B-Thinking", 8, " --mm-encoder-tp-mode data")
    assert r.status != "recommended"


def test_l2_quiet_where_the_release_falls_back(tmp_path):
    # InternViT's 25 heads at TP 4: an unsplit vision attention, the launch goes on
    r = _l2(tmp_path, "0.6.0", "OpenGVLab/InternVL2-26B", 4)
    assert r.status != "recommended"


def test_unsplit_names_why_the_heads_stay_whole():
    table = load().doc("vllm", "vision_tp.yaml").data
    intern = {"vision_module": "intern_vit", "vision_num_heads": 25}
    assert vision_unsplit(intern, {}, table, "0.5.5", 4) == "none"  # 0.5.x never split InternViT
    assert vision_unsplit(intern, {}, table, "0.6.0", 4) == "fallback"
    assert vision_unsplit(intern, {}, table, "0.6.0", 5) is None  # 25 heads split over 5
    assert vision_unsplit(intern, {}, table, "0.6.0", 1) is None
    glm = {"vision_module": "glm4_1v", "vision_num_heads": 12}
    assert vision_unsplit(glm, {}, table, "0.10.1.1", 8) is None  # split strictly: tp_vision_ok decides
    assert vision_unsplit(glm, {"mm_encoder_tp_mode": "data"}, table, "0.10.2", 8) == "data"


def test_l2_says_why_vision_heads_that_do_not_divide_do_not_matter(tmp_path):
    """vLLM #8097 (first seen in heldout37): InternVL2-26B at TP 4, whose 25 InternViT heads 4 does
    not divide; the releases keep them whole, and L2 says so instead of an empty not-applicable
    (enabled where the catalog knows the language model's KV heads too, not-applicable where not)."""
    r = _l2(tmp_path, "0.5.5", "OpenGVLab/InternVL2-26B", 4)
    assert r.status in ("not_applicable", "enabled") and "25" in r.reason_text("en") and "25" in r.reason_text("zh")
    r = _l2(tmp_path, "0.6.3", "OpenGVLab/InternVL2_5-78B", 4)
    assert r.status != "recommended" and "25" in r.reason_text("en")
