"""Releases before 0.4.1 read like the others: the old loader's registry (`_MODEL_REGISTRY`, before
0.2.5) and its quantizable classes (0.2.0–0.2.1.post1), LoRA from 0.3.0 (`supports_lora` in 0.3.0),
the LoRA logits layer's vocabulary bound (tools/vllm_lora_vocab.py), and the facts the launch
checks read from them."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from release_tree import write_release  # noqa: E402
from vllm_architectures import lora_scan, quant_scan, registry_entries, registry_file, scan  # noqa: E402
import vllm_lora_vocab  # noqa: E402

from vllm_kb.engine.check.startup_arch import arch_facts  # noqa: E402
from vllm_kb.engine.check.startup_lora_vocab import lora_vocab_facts  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402

KB = load()

OLD_LOADER = """
    from vllm.model_executor.models import LlamaForCausalLM, BloomForCausalLM, MistralForCausalLM

    _MODEL_REGISTRY = {
        "LlamaForCausalLM": LlamaForCausalLM,
        "LLaMAForCausalLM": LlamaForCausalLM,
        "BloomForCausalLM": BloomForCausalLM,
        "MistralForCausalLM": MistralForCausalLM,
    }

    _MODEL_CLASSES_SUPPORT_QUANTIZATION = [
        LlamaForCausalLM,
        MistralForCausalLM,
    ]
"""


def test_the_old_loader_registry_and_its_quantizable_classes(tmp_path):
    root = write_release(tmp_path, {
        "vllm/model_executor/model_loader.py": OLD_LOADER,
        "vllm/model_executor/models/__init__.py": "from vllm.model_executor.models.llama import LlamaForCausalLM\n",
        "vllm/model_executor/models/llama.py": "class LlamaForCausalLM(nn.Module):\n    pass\n",
        "vllm/model_executor/models/bloom.py": "class BloomForCausalLM(nn.Module):\n    pass\n",
        "vllm/model_executor/models/mistral.py": "class MistralForCausalLM(nn.Module):\n    pass\n",
    })
    # models/__init__.py only imports: the registry is the loader's dict of classes
    assert registry_file(root).name == "model_loader.py"
    registered, removed, plugin = scan(registry_file(root))
    assert registered == {"LlamaForCausalLM", "LLaMAForCausalLM", "BloomForCausalLM", "MistralForCausalLM"}
    assert ("BloomForCausalLM", "", "BloomForCausalLM") in set(registry_entries(registry_file(root)))
    assert quant_scan(root) == {"LlamaForCausalLM", "LLaMAForCausalLM", "MistralForCausalLM"}
    assert lora_scan(root) is None  # no vllm/lora/: no LoRA before 0.3.0


def test_lora_of_030_is_the_supports_lora_flag(tmp_path):
    root = write_release(tmp_path, {
        "vllm/model_executor/model_loader.py": 'def get_model():\n    if getattr(model_class, "supports_lora", False):\n        pass\n',
        "vllm/model_executor/models/__init__.py": '_MODELS = {\n    "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),\n'
                                                  '    "QWenLMHeadModel": ("qwen", "QWenLMHeadModel"),\n}\n',
        "vllm/model_executor/models/llama.py": "class LlamaForCausalLM(nn.Module):\n    supports_lora = True\n",
        "vllm/model_executor/models/qwen.py": "class QWenLMHeadModel(nn.Module):\n    pass\n",
        "vllm/lora/__init__.py": "",
        "vllm/lora/models.py": 'TARGET_MODULES_QKV = ["qkv_proj", "o_proj", "embed_tokens", "lm_head"]\n',
        "vllm/lora/layers.py": "def create_lora_weights(self):\n    if 32000 < self.base_layer.vocab_size > 33024:\n        raise ValueError('x')\n",
    })
    assert lora_scan(root) == ({"LlamaForCausalLM"}, set())
    assert vllm_lora_vocab.limit(root) == (33024, "vllm/lora/layers.py", 2)
    assert vllm_lora_vocab.lm_head_scan(root) == ({"LlamaForCausalLM"}, set())


def test_lm_head_follows_the_nearest_supported_lora_modules(tmp_path):
    root = write_release(tmp_path, {
        "vllm/model_executor/models/__init__.py": '_MODELS = {\n    "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),\n'
                                                  '    "Qwen2ForCausalLM": ("qwen2", "Qwen2ForCausalLM"),\n'
                                                  '    "MistralForCausalLM": ("mistral", "MistralForCausalLM"),\n'
                                                  '    "OddForCausalLM": ("odd", "OddForCausalLM"),\n}\n',
        "vllm/model_executor/models/llama.py": 'class LlamaForCausalLM(nn.Module):\n    supported_lora_modules = ["qkv_proj", "lm_head"]\n',
        "vllm/model_executor/models/qwen2.py": 'class Qwen2ForCausalLM(nn.Module):\n    supported_lora_modules = ["qkv_proj"]\n',
        "vllm/model_executor/models/mistral.py": "class MistralForCausalLM(LlamaForCausalLM):\n    pass\n",
        "vllm/model_executor/models/odd.py": "class OddForCausalLM(nn.Module):\n    supported_lora_modules = make()\n",
        "vllm/lora/models.py": "def f(self):\n    self.supported_lora_modules = copy.deepcopy(self.model.supported_lora_modules)\n",
    })
    assert vllm_lora_vocab.lm_head_scan(root) == ({"LlamaForCausalLM", "MistralForCausalLM"}, {"OddForCausalLM"})


def _arch():
    return KB.doc("vllm", "architectures.yaml").data


def test_the_table_reaches_back_to_010():
    table = _arch()
    assert table["releases"][0] == "0.1.0"
    qwen = {"architecture": "QWenLMHeadModel"}
    # Qwen came in 0.1.4: 0.1.3 refuses it, and the change is the pin
    assert arch_facts(qwen, table, "0.1.3")["arch_registered"] is False
    assert arch_facts(qwen, table, "0.1.3")["arch_pin"] == ">=0.1.4"
    assert arch_facts(qwen, table, "0.1.4")["arch_registered"] is True


def test_quantization_per_class_in_020_and_021():
    table = _arch()
    bloom = {"architecture": "BloomForCausalLM"}
    assert arch_facts(bloom, table, "0.2.1.post1")["arch_quant"] is False
    assert arch_facts(bloom, table, "0.2.1.post1")["arch_quant_pin"] == ">=0.2.2"
    assert arch_facts({"architecture": "MistralForCausalLM"}, table, "0.2.0")["arch_quant"] is False
    assert arch_facts({"architecture": "MistralForCausalLM"}, table, "0.2.1")["arch_quant"] is True
    assert "arch_quant" not in arch_facts(bloom, table, "0.2.2")  # every class from 0.2.2


def test_lora_vocab_bound_per_release():
    table = KB.doc("vllm", "lora_vocab.yaml").data
    yi = {"architecture": "LlamaForCausalLM", "vocab_size": 64000}
    got = lora_vocab_facts(yi, table, "0.3.3")
    assert got == {"lora_vocab_limit": 33024, "lora_vocab_error": "When using LoRA, vocab size must be 32000 >= vocab_size <= 33024",
                   "lora_vocab_pin": ">=0.4.1", "lora_lm_head": True}
    assert lora_vocab_facts(yi, table, "0.4.0.post1")["lora_vocab_limit"] == 33024
    assert lora_vocab_facts(yi, table, "0.4.1")["lora_vocab_limit"] == 128512
    # Qwen2's LoRA modules leave the LM head alone in 0.4.x: no bound applies to it
    assert lora_vocab_facts({"architecture": "Qwen2ForCausalLM", "vocab_size": 151936}, table, "0.4.1")["lora_lm_head"] is False
    # Llama 3 with the 256 extra rows needs the 0.4.1 bound exactly
    assert lora_vocab_facts({"architecture": "LlamaForCausalLM", "vocab_size": 128256}, table, "0.3.3")["lora_vocab_pin"] == ">=0.4.1"


def test_lora_vocab_from_080_reads_embedding_modules():
    """From 0.8.0 the LoRA modules are the built model's linear layers plus the class's
    embedding_modules: LlamaForCausalLM names lm_head there, and 0.17.0 words the bound anew."""
    table = KB.doc("vllm", "lora_vocab.yaml").data
    big = {"architecture": "LlamaForCausalLM", "vocab_size": 300000}
    got = lora_vocab_facts(big, table, "0.9.2")
    assert (got["lora_vocab_limit"], got["lora_lm_head"]) == (257024, True)
    assert lora_vocab_facts(big, table, "0.15.1")["lora_vocab_limit"] == 257024
    new = lora_vocab_facts(big, table, "0.17.0")
    assert (new["lora_vocab_limit"], new["lora_vocab_error"]) == (258048, "When using LoRA, vocab size must be <= 258048")
    # Gemma 3 (262,144 rows) keeps its LM head out of embedding_modules: no bound applies
    assert lora_vocab_facts({"architecture": "Gemma3ForCausalLM", "vocab_size": 262144}, table, "0.17.0").get("lora_lm_head") is False
