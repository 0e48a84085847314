"""Which checkpoints load only through their own code (models.yaml `remote_code`, check L50): the
families whose config or tokenizer transformers has no class for, not their transformers ports,
and not a local checkpoint whose config.json carries no code of its own."""
from __future__ import annotations

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.models import model_facts
from vllm_kb.engine.report import model as report_model
from vllm_kb.engine.report.catalogue import expand


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


@pytest.mark.parametrize(("name", "tokenizer_remote"), [
    ("OpenGVLab/InternVL2_5-4B", False),   # Qwen2.5 backbone: a transformers tokenizer
    ("OpenGVLab/InternVL3-8B", False),
    ("OpenGVLab/InternVL2_5-8B", True),    # InternLM2.5 backbone: InternLM2Tokenizer is the repository's
    ("THUDM/chatglm3-6b", True),
])
def test_tokenizer_part_of_remote_code(name, tokenizer_remote):
    assert _facts(name).get("tokenizer_remote_code") is tokenizer_remote


def test_tokenizer_config_decides_the_tokenizer_part():
    kb = load()
    data = kb.doc("models.yaml").data
    config = {"architectures": ["InternVLChatModel"], "model_type": "internvl_chat",
              "auto_map": {"AutoConfig": "configuration_internvl_chat.InternVLChatConfig"}}
    own = model_facts("./InternVL-custom", kb.models, [], config=config, tokenizer={"tokenizer_class": "Qwen2Tokenizer"}, identity=data)
    assert own.get("tokenizer_remote_code") is False
    remote = model_facts("./InternVL-custom", kb.models, [], config=config,
                         tokenizer={"auto_map": {"AutoTokenizer": ["tokenization_internlm2.InternLM2Tokenizer", None]}}, identity=data)
    assert remote.get("tokenizer_remote_code") is True


def _l50(tmp_path, version, model_name):
    (tmp_path / "infer.py").write_text(f'from vllm import LLM\nllm = LLM(model="{model_name}")\n')
    (site,) = expand(report_model.build(audit(tmp_path, gpu="H100-80GB", vllm_version=version), "en"))["sites"]
    return next(c for c in site["checks"] if c["id"] == "L50")


@pytest.mark.parametrize(("version", "model_name", "status"), [
    ("0.8.5", "OpenGVLab/InternVL2_5-4B", "not_applicable"),  # vLLM's InternVLChatConfig, Qwen2 tokenizer
    ("0.10.2", "OpenGVLab/InternVL2_5-4B", "recommended"),    # internvl_chat left the registry in 0.10.0
    ("0.6.0", "OpenGVLab/InternVL2_5-4B", "recommended"),     # AutoConfig was tried first up to 0.6.0
    ("0.8.5", "OpenGVLab/InternVL2_5-8B", "recommended"),     # InternLM2Tokenizer
])
def test_l50_follows_the_release_and_the_tokenizer(tmp_path, version, model_name, status):
    assert _l50(tmp_path, version, model_name)["status"] == status


@pytest.mark.parametrize("verl,extra,status", [
    ("0.7.1", "actor_rollout_ref.model.trust_remote_code=True", "enabled"),
    ("0.4.1", "actor_rollout_ref.model.trust_remote_code=True", "enabled"),
    ("0.7.1", "", "recommended"),
    # 0.6.0's async rollout server passes trust_remote_code=True whatever the key (vllm_async_server.py:210)
    ("0.6.0", "actor_rollout_ref.rollout.mode=async", "enabled"),
    ("0.6.0", "actor_rollout_ref.rollout.mode=sync", "recommended"),
    ("0.6.1", "actor_rollout_ref.rollout.mode=async", "recommended"),
])
def test_verl_passes_the_models_trust_remote_code_to_vllm(tmp_path, verl, extra, status):
    # GRPO_testbed (https://github.com/MalveauxLuke/GRPO_testbed, eval68): the Moonlight and MiniCPM-o examples set
    # actor_rollout_ref.model.trust_remote_code=True, which verl hands to the rollout's vLLM from 0.4.0
    (tmp_path / "requirements.txt").write_text(f"verl=={verl}\nvllm==0.8.5\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen-7B-Chat "
                                     f"actor_rollout_ref.rollout.name=vllm {extra}\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(x for x in sr.results if x.check.id == "L50")
    assert r.status == status
