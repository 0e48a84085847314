"""A config.json without architectures (L290) and LoRA adapters whose weights hold a whole layer
(L284), read from the files alone; FastChat's worker default per fschat release (L50)."""
from __future__ import annotations

import dataclasses
import json
import struct
from pathlib import Path
from types import SimpleNamespace

from vllm_kb.engine.check.host_compat import release_defaults
from vllm_kb.engine.check.lora_adapters import lora_facts, unsupported_tensor
from vllm_kb.engine.check.startup_no_arch import no_arch_facts
from vllm_kb.engine.kb.model_config import config_scalars

TABLE = {"errors": [{"vllm": ">=0.7.0,<0.10.1", "words": "TypeError: 'NoneType' object is not iterable"},
                    {"vllm": ">=0.10.1", "words": "ValueError: No model architectures are specified"}],
         "mapped_from": "0.11.1", "fills": {"deepseek_vl_v2": {"since": "0.17.0"}},
         "checked": {"deepseek_vl_v2": {"since": "0.7.0"}}}
VL2 = {"config_architectures": False, "model_type": "deepseek_vl_v2", "architecture": "DeepseekVLV2ForCausalLM"}


def test_config_without_architectures_is_read_as_such():
    facts: dict = {}
    config_scalars(facts, {"model_type": "deepseek_vl_v2", "language_config": {"architectures": ["DeepseekV2ForCausalLM"]}}, None)
    assert facts["config_architectures"] is False
    config_scalars(facts, {"model_type": "llama", "architectures": ["LlamaForCausalLM"]}, None)
    assert facts["config_architectures"] is True


def test_deepseek_vl2_is_refused_until_its_config_class_fills_the_class_in():
    assert no_arch_facts(VL2, {}, TABLE, "0.7.3") == {
        "no_arch": "refused", "no_arch_words": "TypeError: 'NoneType' object is not iterable",
        "no_arch_class": "DeepseekVLV2ForCausalLM", "no_arch_fills": "0.17.0"}
    assert no_arch_facts(VL2, {}, TABLE, "0.16.0")["no_arch_words"] == "ValueError: No model architectures are specified"
    assert no_arch_facts(VL2, {}, TABLE, "0.17.0") == {}


def test_overrides_that_name_the_class_or_cannot_be_read_settle_it():
    assert no_arch_facts(VL2, {"hf_overrides": {"architectures": ["DeepseekVLV2ForCausalLM"]}}, TABLE, "0.7.3") == {}
    assert no_arch_facts(VL2, {"hf_overrides": "not json"}, TABLE, "0.7.3") == {}
    assert no_arch_facts(VL2, {"hf_overrides": '{"max_position_embeddings": 4096}'}, TABLE, "0.7.3")["no_arch"] == "refused"


def test_another_model_type_is_only_a_maybe():
    other = {"config_architectures": False, "model_type": "custom_lm"}
    assert no_arch_facts(other, {}, TABLE, "0.12.0")["no_arch"] == "maybe"
    assert no_arch_facts({**other, "weight_formats": ["gguf"]}, {}, TABLE, "0.12.0") == {}


def _safetensors(path: Path, names: list[str]) -> None:
    header = {n: {"dtype": "BF16", "shape": [1], "data_offsets": [2 * i, 2 * i + 2]} for i, n in enumerate(names)}
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"\0" * (2 * len(names)))


def test_a_whole_lm_head_in_the_adapter_header_is_refused(tmp_path: Path):
    folder = tmp_path / "adapter"
    folder.mkdir()
    (folder / "adapter_config.json").write_text(json.dumps({"r": 8, "target_modules": ["q_proj", "lm_head"]}))
    _safetensors(folder / "adapter_model.safetensors", ["base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight",
                                                        "base_model.model.lm_head.base_layer.weight"])
    got = lora_facts({"lora_modules": ["sql=adapter"]}, {}, tmp_path, tmp_path)
    assert got["lora_weight_refused"] == "sql (tensor base_model.model.lm_head.base_layer.weight)"
    (folder / "adapter_model.safetensors").unlink()  # only the config: PEFT's default may have saved the layer
    assert lora_facts({"lora_modules": ["sql=adapter"]}, {}, tmp_path, tmp_path)["lora_weight_embed"] == "sql (target_modules: lm_head)"


def test_lora_pairs_and_the_embedding_pair_pass():
    assert unsupported_tensor(["base_model.model.lm_head.lora_A.weight", "base_model.model.model.embed_tokens.lora_embedding_A",
                               "base_model.model.score.weight"]) is None


def test_a_hub_adapter_row_names_its_refused_tensor(tmp_path: Path):
    rows = {"org/adapter": {"adapter_tensors": ["base_model.model.lm_head.base_layer.weight"]}}
    got = lora_facts({"lora_modules": ["a=org/adapter"]}, {}, tmp_path, tmp_path, hub_row=rows.get)
    assert got["lora_weight_refused"].startswith("a (org/adapter: tensor base_model.model.lm_head")


@dataclasses.dataclass
class _Site:
    kind: str
    framework_defaults: dict


def test_fastchat_worker_trusts_remote_code_only_from_fschat_0233():
    site = _Site("python -m fastchat.serve.vllm_worker", {"trust_remote_code": True})
    assert release_defaults(site, lambda pkg: SimpleNamespace(exact="0.2.29")).framework_defaults == {}
    assert release_defaults(site, lambda pkg: SimpleNamespace(exact="0.2.33")).framework_defaults == {"trust_remote_code": True}
    assert release_defaults(site, lambda pkg: None).framework_defaults == {"trust_remote_code": True}  # unpinned: the newest
