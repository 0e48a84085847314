"""Model identity beyond the family (engine/kb/model_identity.py): wrapper VLMs take their
language model's shapes but keep their own architecture; a reward, embedding or other-modality
model built on a catalogued family gets that family's architecture and context as unknown, never
as a confident wrong fact; a plain checkpoint name says the weights are unquantized."""
from __future__ import annotations

import pytest
from vllm_kb.engine.check.startup_arch import arch_facts
from vllm_kb.engine.kb import knowledge, models

KB = knowledge.load()
DATA = KB.doc("models.yaml").data


def facts(name: str, config: dict | None = None) -> dict:
    return models.model_facts(name, KB.models, DATA["quantized_markers"], config=config, identity=DATA)


# (name, architecture, attention heads, KV heads, layers) — the language model's shapes
WRAPPERS = [
    ("OpenGVLab/InternVL2_5-78B-AWQ", "InternVLChatModel", 64, 8, 80),  # Qwen2.5-72B (gpustack#814: 64 heads)
    ("OpenGVLab/InternVL2_5-8B", "InternVLChatModel", 32, 8, 32),  # internlm2_5-7b-chat
    ("OpenGVLab/InternVL3-38B", "InternVLChatModel", 40, 8, 64),  # Qwen2.5-32B
    ("OpenGVLab/InternVL3-8B-hf", "InternVLForConditionalGeneration", 28, 4, 28),
    ("lmms-lab/LLaVA-Video-7B-Qwen2", "LlavaQwenForCausalLM", 28, 4, 28),  # vLLM #32338
    ("lmms-lab/llava-onevision-qwen2-72b-ov", "LlavaQwenForCausalLM", 64, 8, 80),
    ("llava-hf/llava-onevision-qwen2-7b-ov-hf", "LlavaOnevisionForConditionalGeneration", 28, 4, 28),
    ("llava-hf/llava-1.5-7b-hf", "LlavaForConditionalGeneration", 32, 32, 32),
    ("liuhaotian/llava-v1.5-13b", "LlavaLlamaForCausalLM", 40, 40, 40),
    ("llava-hf/llava-v1.6-mistral-7b-hf", "LlavaNextForConditionalGeneration", 32, 8, 32),
    ("liuhaotian/llava-v1.6-mistral-7b", "LlavaMistralForCausalLM", 32, 8, 32),
    ("openbmb/MiniCPM-V-2_6", "MiniCPMV", 28, 4, 28),
    ("microsoft/Phi-3-vision-128k-instruct", "Phi3VForCausalLM", 32, 32, 32),
]


@pytest.mark.parametrize("name,arch,heads,kv,layers", WRAPPERS)
def test_a_wrapper_keeps_its_class_and_takes_its_language_models_shapes(name, arch, heads, kv, layers):
    f = facts(name)
    assert f["architecture"] == arch and f["multimodal"]
    assert (f["num_attention_heads"], f["num_key_value_heads"], f["num_hidden_layers"]) == (heads, kv, layers)
    assert "max_context" not in f or f["family"] == "blip2"  # the wrapper's config may say another context


def test_a_wrapper_never_inherits_its_backbones_architecture():
    for name in ("/volumes/repos/LLaVA-NeXT/LLaVA-Video-7B-Qwen2", "Salesforce/blip2-opt-2.7b",
                 "OpenGVLab/InternVL2_5-78B-AWQ", "openbmb/MiniCPM-Llama3-V-2_5", "HuggingFaceM4/Idefics3-8B-Llama3"):
        assert facts(name).get("architecture") not in ("Qwen2ForCausalLM", "LlamaForCausalLM", "OPTForCausalLM", "MiniCPMForCausalLM")
    assert facts("Salesforce/blip2-opt-2.7b")["max_context"] == 2048  # OPT's table (gpustack#313)


def test_a_class_only_its_authors_code_registers_has_no_transformers_fallback():
    table = KB.doc("vllm", "architectures.yaml").data
    out = arch_facts(facts("lmms-lab/LLaVA-Video-7B-Qwen2"), table, "0.13.0")
    assert out["arch_registered"] is False and out["arch_fallback"] == "none"
    hf = arch_facts(facts("llava-hf/llava-onevision-qwen2-7b-ov-hf"), table, "0.13.0")
    assert hf["arch_registered"] is True


# names that contain a catalogued family but are another model: the architecture (and context)
# must be unknown, not the family's
@pytest.mark.parametrize("name", [
    "Qwen/Qwen2.5-Math-PRM-7B", "Skywork/Skywork-Reward-Llama-3.1-8B", "internlm/internlm2-7b-reward",
    "nvidia/Llama-3.1-Nemotron-70B-Reward-HF", "Alibaba-NLP/gte-Qwen2-7B-instruct", "intfloat/e5-mistral-7b-instruct",
    "Qwen/Qwen3-Embedding-8B", "Qwen/Qwen3-Reranker-4B", "Qwen/Qwen2-Audio-7B-Instruct",
    "/models/v2/Qwen2-Audio-7B-Instruct",
])
def test_a_derived_model_gets_no_confident_family_facts(name):
    f = facts(name)
    assert "architecture" not in f and "max_context" not in f and "family" not in f
    assert f.get("derived_from")


def test_head_models_keep_the_backbone_shapes_and_modality_ones_drop_them():
    assert facts("Skywork/Skywork-Reward-Llama-3.1-8B")["num_attention_heads"] == 32  # the same transformer
    audio = facts("Qwen/Qwen2-Audio-7B-Instruct")  # its language model is not Qwen2-7B's shape
    assert "num_attention_heads" not in audio and audio["multimodal"]


@pytest.mark.parametrize("name,arch", [
    ("Qwen/Qwen2.5-7B-Instruct", "Qwen2ForCausalLM"), ("Qwen/Qwen2.5-Coder-7B-Instruct", "Qwen2ForCausalLM"),
    ("mistralai/Mistral-7B-Instruct-v0.3", "MistralForCausalLM"), ("deepseek-ai/DeepSeek-V3", "DeepseekV3ForCausalLM"),
    ("meta-llama/Llama-3.2-11B-Vision-Instruct", "MllamaForConditionalGeneration"),
    ("Qwen/Qwen2.5-VL-7B-Instruct", "Qwen2_5_VLForConditionalGeneration"), ("google/gemma-3-27b-it", "Gemma3ForConditionalGeneration"),
    ("/models/qwen2.5-7b-instruct-q4_k_m.gguf", "Qwen2ForCausalLM"), ("/data/v1.2/Qwen2.5-72B-Instruct", "Qwen2ForCausalLM"),
])
def test_plain_names_keep_their_identity(name, arch):
    f = facts(name)
    assert f["architecture"] == arch and "derived_from" not in f


def test_qwen25_math_has_its_own_short_context():
    # VectorInstitute/vector-inference#61: max_model_len 32768 refused, max_position_embeddings=4096
    f = facts("Qwen/Qwen2.5-Math-7B-Instruct")
    assert f["max_context"] == 4096 and f["num_attention_heads"] == 28 and f["params_b"] == pytest.approx(7.62)


@pytest.mark.parametrize("name,plain", [
    ("./models/llama-2-7b-hf", "exact"), ("/data/Llama-2-7b-chat-hf/", "exact"), ("Qwen/Qwen2.5-7B-Instruct", "exact"),
    ("/models/qwen2.5-7b-sft", "family"), ("TheBloke/Llama-2-7B-AWQ", None), ("acme/mystery-7b", None),
    ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", None),
])
def test_a_plain_checkpoint_name_says_the_weights_are_unquantized(name, plain):
    assert facts(name).get("unquantized") == plain


def test_a_config_json_decides_over_the_name():
    f = facts("./models/llama-2-7b-hf", config={"quantization_config": {"quant_method": "awq"}})
    assert f["quantized"] and "unquantized" not in f


def test_a_family_number_running_on_into_letters_is_another_name():
    # Gemma 3n (Gemma3nForConditionalGeneration) is not Gemma 3; glm-4v is not GLM-4
    fams = KB.models
    assert (models.family_of("google/gemma-3n-E4B-it", fams) or {}).get("id") != "gemma3"
    assert (models.family_of("THUDM/glm-4v-9b", fams) or {}).get("id") != "glm"
    assert (models.family_of("google/gemma-3-4b-it", fams) or {}).get("id") == "gemma3"
    assert (models.family_of("THUDM/glm-4-9b-chat", fams) or {}).get("id") == "glm"


@pytest.mark.parametrize("name,context", [
    ("THUDM/chatglm2-6b", 32768),  # its config.json: seq_length 32768 (GLM-4#776 served it at 32768)
    ("THUDM/chatglm3-6b", 8192),
    ("THUDM/chatglm3-6b-32k", 32768),
])
def test_chatglm_contexts_are_each_checkpoints_own(name, context):
    assert facts(name)["max_context"] == context


# a quantization's bit width in the name is no parameter count: "-AWQ-4bit" on a 32B model once
# matched the family's `-4b` size rule and sized it as Qwen3-VL-4B (vLLM #29707's checkpoint)
@pytest.mark.parametrize("name,params,layers", [
    ("cpatonn/Qwen3-VL-32B-Instruct-AWQ-4bit", 32.0, 64),
    ("cpatonn/Qwen3-VL-8B-Instruct-AWQ-4bit", 8.0, 36),
    ("cpatonn/Qwen3-VL-2B-Instruct-AWQ-8bit", 2.0, 28),
])
def test_a_bit_width_in_the_name_is_not_the_models_size(name, params, layers):
    f = facts(name)
    assert abs(f["params_b"] - params) / params < 0.15 and f["num_hidden_layers"] == layers
    # …and cpatonn's AWQ uploads are llm-compressor exports (vLLM #29732's log: quantization=compressed-tensors)
    assert f["quant_method"] == "compressed-tensors" and f["quant_source"] == "catalog"


@pytest.mark.parametrize("name,family,params", [
    ("DeepSeek-R1-32B-FULL", None, 32.0),  # a 32B distill's folder (vllm#15457), never the 671B R1
    ("someuser/DeepSeek-R1-32B-AWQ", None, 32.0),
    ("Kimi-K2-8B", None, 8.0),
    ("deepseek-ai/DeepSeek-R1", "deepseek-v3", 671),  # no size in the name: the family's
    ("meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama4", 109),  # 17B beside an expert count is the active size
    ("Qwen/Qwen3-30B-A3B", "qwen3-moe", 30.5),
    ("google/gemma-2-2b-it", "gemma2", 2.61),  # rounding in a name is no contradiction
    ("meta-llama/Llama-3.2-1B-Instruct", "llama3", 1.24),
])
def test_a_size_in_the_name_that_rules_out_the_family_model(name, family, params):
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.kb.models import model_facts
    f = model_facts(name, load().models, [])
    assert f.get("family") == family and f.get("params_b") == params
