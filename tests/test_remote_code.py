"""Which checkpoints load only through their own code (models.yaml `remote_code`, check L50): the
families whose config or tokenizer transformers has no class for, not their transformers ports,
and not a local checkpoint whose config.json carries no code of its own."""
from __future__ import annotations

import pytest
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.models import model_facts


def _facts(name, config=None):
    kb = load()
    data = kb.doc("models.yaml").data
    return model_facts(name, kb.models, data.get("quantized_markers", []), config=config,
                       publishers=data.get("publishers"), identity=data)


@pytest.mark.parametrize("name", ["Qwen/Qwen-7B-Chat", "THUDM/chatglm3-6b", "THUDM/glm-4-9b-chat",
                                  "internlm/internlm2_5-7b-chat", "baichuan-inc/Baichuan2-13B-Chat",
                                  "openbmb/MiniCPM-V-2_6", "OpenGVLab/InternVL2_5-8B", "/data/models/internlm2-chat-7b"])
def test_remote_code_families(name):
    assert _facts(name).get("remote_code") is True


@pytest.mark.parametrize("name", ["THUDM/glm-4-9b-chat-hf", "OpenGVLab/InternVL3-8B-hf", "Qwen/Qwen2.5-7B-Instruct",
                                  "THUDM/GLM-4-32B-0414", "meta-llama/Llama-3.1-8B-Instruct"])
def test_native_or_ported(name):
    assert not _facts(name).get("remote_code")


def test_a_local_config_without_code_is_not_claimed():
    config = {"architectures": ["InternLM2ForCausalLM"], "model_type": "internlm2", "num_hidden_layers": 32}
    assert _facts("./internlm2-chat-7b", config=config).get("remote_code") is False
    config["auto_map"] = {"AutoConfig": "configuration_internlm2.InternLM2Config"}
    assert _facts("./internlm2-chat-7b", config=config).get("remote_code") is True
