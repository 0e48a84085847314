"""The model catalog (knowledge/models.yaml) and engine/kb/models.py: the facts a name yields, the
architecture dimensions against the parameter counts they imply, and reading a local
checkpoint's config.json without leaving the project."""
from __future__ import annotations

import json
import os

import pytest
from vllm_kb.engine.kb import knowledge, models, schemas

KB = knowledge.load()
MARKERS = KB.doc("models.yaml").data["quantized_markers"]
SCHEMA = schemas.raw("facts")["properties"]["model"]


def facts(name: str, config: dict | None = None, tokenizer: dict | None = None) -> dict:
    return models.model_facts(name, KB.models, MARKERS, config=config, tokenizer=tokenizer)


# --- the catalog ------------------------------------------------------------------------

# (name, total B, active B or None) for the sizes the catalog gives full dimensions for
SIZES = [
    ("meta-llama/Llama-3.2-1B-Instruct", 1.24, None), ("meta-llama/Llama-3.2-3B-Instruct", 3.21, None),
    ("meta-llama/Llama-3.1-8B-Instruct", 8.03, None), ("meta-llama/Llama-3.3-70B-Instruct", 70.55, None),
    ("meta-llama/Llama-3.1-405B-Instruct", 405.85, None),
    ("Qwen/Qwen2.5-0.5B-Instruct", 0.49, None), ("Qwen/Qwen2.5-1.5B-Instruct", 1.54, None),
    ("Qwen/Qwen2.5-3B-Instruct", 3.09, None), ("Qwen/Qwen2.5-7B-Instruct", 7.62, None),
    ("Qwen/Qwen2.5-14B-Instruct", 14.77, None), ("Qwen/Qwen2.5-32B-Instruct", 32.76, None),
    ("Qwen/Qwen2.5-72B-Instruct", 72.71, None),
    ("Qwen/Qwen3-0.6B", 0.6, None), ("Qwen/Qwen3-1.7B", 1.7, None), ("Qwen/Qwen3-4B", 4.02, None),
    ("Qwen/Qwen3-8B", 8.19, None), ("Qwen/Qwen3-14B", 14.77, None), ("Qwen/Qwen3-32B", 32.76, None),
    ("Qwen/Qwen3-30B-A3B", 30.5, 3.3), ("Qwen/Qwen3-235B-A22B", 235.1, 22),
    ("deepseek-ai/DeepSeek-V3", 671, 37), ("deepseek-ai/DeepSeek-R1", 671, 37),
    ("deepseek-ai/DeepSeek-V2-Lite-Chat", 15.7, 2.4),
    ("mistralai/Mistral-7B-Instruct-v0.3", 7.24, None), ("mistralai/Mixtral-8x7B-Instruct-v0.1", 46.7, 12.9),
    ("mistralai/Mixtral-8x22B-Instruct-v0.1", 141, 39),
    ("google/gemma-2-2b-it", 2.61, None), ("google/gemma-2-9b-it", 9.24, None), ("google/gemma-2-27b-it", 27.2, None),
    ("google/gemma-3-1b-it", 1.0, None), ("google/gemma-3-4b-it", 4.3, None), ("google/gemma-3-12b-it", 12.2, None),
    ("google/gemma-3-27b-it", 27.4, None),
    ("openai/gpt-oss-20b", 20.9, 3.6), ("openai/gpt-oss-120b", 116.8, 5.1),
    ("zai-org/GLM-4.5", 355, 32), ("zai-org/GLM-4.5-Air", 106, 12),
    # the families real launch reports name (tests/realcases)
    ("Qwen/Qwen1.5-0.5B-Chat", 0.62, None), ("Qwen/Qwen1.5-7B-Chat", 7.72, None), ("Qwen/Qwen1.5-14B-Chat", 14.17, None),
    ("Qwen/Qwen1.5-32B-Chat", 32.51, None), ("Qwen/Qwen1.5-72B-Chat", 72.29, None), ("Qwen/Qwen1.5-110B-Chat", 111.2, None),
    ("Qwen/Qwen1.5-MoE-A2.7B-Chat", 14.32, 2.7), ("Qwen/Qwen-7B-Chat", 7.72, None), ("Qwen/Qwen-14B-Chat", 14.17, None),
    ("Qwen/Qwen2-0.5B-Instruct", 0.49, None), ("Qwen/Qwen2-7B-Instruct", 7.62, None), ("Qwen/Qwen2-72B-Instruct", 72.71, None),
    ("Qwen/Qwen2-57B-A14B-Instruct", 57.41, 14.2), ("Qwen/QwQ-32B", 32.76, None),
    ("deepseek-ai/deepseek-coder-6.7b-instruct", 6.74, None), ("deepseek-ai/deepseek-coder-33b-instruct", 33.34, None),
    ("deepseek-ai/deepseek-llm-67b-chat", 67.4, None), ("moonshotai/Kimi-K2-Instruct", 1026, None),
    ("meta-llama/Llama-2-7b-chat-hf", 6.74, None), ("meta-llama/Llama-2-13b-chat-hf", 13.02, None),
    ("meta-llama/Llama-2-70b-chat-hf", 68.98, None), ("codellama/CodeLlama-34b-Instruct-hf", 33.74, None),
    ("huggyllama/llama-30b", 32.53, None), ("mistralai/Mistral-Nemo-Instruct-2407", 12.25, None),
    ("mistralai/Mistral-Small-24B-Instruct-2501", 23.57, None), ("mistralai/Mistral-Large-Instruct-2407", 122.6, None),
    ("google/gemma-7b-it", 8.54, None), ("microsoft/phi-4", 14.66, None), ("microsoft/Phi-3-medium-4k-instruct", 13.96, None),
    ("THUDM/glm-4-9b-chat", 9.4, None), ("zai-org/GLM-4-32B-0414", 32.57, None), ("01-ai/Yi-34B-Chat", 34.39, None),
    ("internlm/internlm2_5-7b-chat", 7.74, None), ("baichuan-inc/Baichuan2-13B-Chat", 13.9, None),
    ("openbmb/MiniCPM4-8B", 8.19, None), ("ibm-granite/granite-3.1-8b-instruct", 8.17, None),
    ("TinyLlama/TinyLlama-1.1B-Chat-v1.0", 1.1, None),
]


@pytest.mark.parametrize("name,total,active", SIZES)
def test_catalog_sizes_and_dims_agree(name, total, active):
    f = facts(name)
    assert f["params_b"] == pytest.approx(total)
    if active is not None:
        assert f["active_params_b"] == pytest.approx(active)
    # The dimensions must add up to the parameter count the model card states: a typo in a
    # layer count or width shows up here. Gemma 3 4B+ also carry a ~0.42B vision tower.
    computed, _ = models.params_from_arch(f)
    vision = 0.42 if f.get("multimodal") else 0.0
    assert computed == pytest.approx(total - vision, rel=0.03), f"{name}: dims give {computed}B"
    assert f["arch_source"].startswith("https://huggingface.co/"), "every entry names its config.json"


def test_every_entry_with_dims_names_its_source():
    for fam in KB.models:
        if "arch" in fam:
            assert "source" in fam or all("source" in s for s in fam.get("sizes", []) if "arch" in s), fam["id"]
        for size in fam.get("sizes", []):
            if "arch" in size:
                assert "source" in size or "source" in fam, (fam["id"], size["match"])


def test_fact_names_and_meanings_are_kept():
    f = facts("meta-llama/Llama-3.1-8B-Instruct")
    assert f["family"] == "llama3" and f["moe"] is False and f["max_context"] == 131072
    assert f["eagle_draft"] == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B" and f["eagle_method"] == "eagle3"
    ds = facts("deepseek-ai/DeepSeek-R1")
    assert ds["mla"] and ds["mtp"] and ds["moe"] and ds["quantized"] and ds["quant_method"] == "fp8"
    assert facts("unsloth/DeepSeek-R1-BF16")["quantized"] is False
    oss = facts("openai/gpt-oss-120b")
    assert oss["quantized"] and oss["quant_method"] == "mxfp4" and oss["sliding_window"]
    assert facts("Qwen/Qwen2.5-7B-Instruct-AWQ")["quant_method"] == "awq"
    assert facts("google/gemma-3-4b-it")["multimodal"] and not facts("google/gemma-3-1b-it")["multimodal"]


@pytest.mark.parametrize("name", [n for n, _, _ in SIZES] + ["acme/mystery-13B", "Qwen/Qwen3-30B-A3B-Instruct-2507"])
def test_model_facts_follow_the_facts_schema(name):
    f = facts(name)
    unknown = set(f) - set(SCHEMA["properties"])
    assert not unknown, f"facts the schema does not declare: {sorted(unknown)}"
    assert not schemas.errors("facts", {"model": f})


def test_names_do_not_borrow_a_neighbours_size():
    assert facts("openai/gpt-oss-120b")["num_hidden_layers"] == 36  # not the 20b entry
    assert facts("openai/gpt-oss-20b")["num_hidden_layers"] == 24
    assert facts("meta-llama/Meta-Llama-3-8B-Instruct")["max_context"] == 8192
    assert facts("meta-llama/Llama-3.1-8B-Instruct")["max_context"] == 131072
    # a Llama 3.0 fine-tune with its own words before the size (eval83 wellflat), not a point release
    assert facts("elyza/Llama-3-ELYZA-JP-8B")["max_context"] == 8192
    assert facts("tokyotech-llm/Llama-3-Swallow-70B-Instruct-v0.1")["max_context"] == 8192
    assert facts("tokyotech-llm/Llama-3.1-Swallow-8B-Instruct-v0.1")["max_context"] == 131072
    assert facts("Qwen/Qwen2.5-7B-Instruct")["max_context"] == 32768  # what vLLM derives from config.json
    assert facts("Qwen/Qwen2.5-7B")["max_context"] == 131072
    # the small bases differ: 0.5B and 3B say 32768, 1.5B 131072 (their config.json; eval64 VRL)
    assert facts("Qwen/Qwen2.5-3B")["max_context"] == 32768 and facts("Qwen/Qwen2.5-0.5B")["max_context"] == 32768
    assert facts("Qwen/Qwen2.5-1.5B")["max_context"] == 131072
    assert facts("Qwen/Qwen3-30B-A3B-Instruct-2507")["max_context"] == 262144
    assert facts("Qwen/Qwen3-30B-A3B")["active_params_b"] == 3.3  # the catalog, not the name's "A3B"
    assert facts("mistralai/Mistral-7B-v0.1")["sliding_window_size"] == 4096
    assert "sliding_window_size" not in facts("mistralai/Mistral-7B-Instruct-v0.3")


@pytest.mark.parametrize("name,local,window", [
    ("google/gemma-3-4b-it", 29, 1024), ("google/gemma-3-27b-it", 52, 1024), ("google/gemma-3-1b-it", 22, 512),
    ("google/gemma-2-9b-it", 21, 4096), ("openai/gpt-oss-120b", 18, 128), ("openai/gpt-oss-20b", 12, 128),
    ("mistralai/Mistral-7B-v0.1", 32, 4096),
])
def test_sliding_window_layer_counts(name, local, window):
    f = facts(name)
    assert f["num_sliding_layers"] == local and f["sliding_window_size"] == window


def test_mla_dims():
    f = facts("deepseek-ai/DeepSeek-V3")
    assert (f["kv_lora_rank"], f["qk_rope_head_dim"], f["num_hidden_layers"]) == (512, 64, 61)


def test_tp_divides_heads():
    llama = facts("meta-llama/Llama-3.1-8B-Instruct")  # 32 heads, 8 KV heads
    assert [t for t in (1, 2, 4, 8, 16, 32, 64) if models.tp_divides(llama, t)] == [1, 2, 4, 8, 16, 32]
    qwen = facts("Qwen/Qwen2.5-7B-Instruct")  # 28 heads, 4 KV heads
    assert [t for t in (1, 2, 4, 8) if models.tp_divides(qwen, t)] == [1, 2, 4]
    assert models.kv_heads_per_gpu(llama, 16) == 1 and models.kv_heads_per_gpu(llama, 4) == 2


# --- config.json --------------------------------------------------------------------------

LLAMA_CONFIG = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
    "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
    "max_position_embeddings": 131072, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
    "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192},
}


def test_arch_from_a_llama_config():
    arch = models.arch_from_config(LLAMA_CONFIG)
    assert arch["num_hidden_layers"] == 32 and arch["num_key_value_heads"] == 8 and "head_dim" not in arch
    assert models.derived_max_len(LLAMA_CONFIG) == (131072, "max_position_embeddings")  # llama3 scaling is in the table
    assert models.params_from_arch(arch)[0] == pytest.approx(8.03, rel=0.01)


def test_a_local_checkpoint_overrides_the_catalog():
    cfg = dict(LLAMA_CONFIG, num_hidden_layers=16, quantization_config={"quant_method": "awq", "bits": 4})
    f = facts("./checkpoints/my-llama-3.1-8b-finetune", config=cfg)
    assert f["family"] == "llama3" and f["num_hidden_layers"] == 16 and f["arch_source"] == "config.json"
    assert f["quantized"] and f["quant_method"] == "awq"


def test_an_unknown_local_model_gets_its_size_from_the_config():
    f = facts("/models/house-model", config=LLAMA_CONFIG)
    assert "family" not in f and f["params_b"] == pytest.approx(8.03, rel=0.01) and f["max_context"] == 131072


def test_multimodal_text_config_layer_types_and_yarn():
    gemma = {"model_type": "gemma3", "text_config": {
        "hidden_size": 2560, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 4,
        "head_dim": 256, "vocab_size": 262208, "sliding_window": 1024, "max_position_embeddings": 131072,
        "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"]}}
    arch = models.arch_from_config(gemma)
    assert arch["num_sliding_layers"] == 3 and arch["sliding_window_size"] == 1024
    qwen = {"hidden_size": 3584, "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
            "vocab_size": 152064, "max_position_embeddings": 32768, "sliding_window": 131072, "use_sliding_window": False,
            "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}
    assert "sliding_window_size" not in models.arch_from_config(qwen)  # a window Qwen2 does not use
    # YaRN stretches the original table up to vLLM 0.29; from 0.30 the table is taken as already stretched
    assert models.derived_max_len(qwen, version="0.29.0")[0] == 131072
    assert models.derived_max_len(qwen, version="0.30.0")[0] == 32768
    mixtral = {"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
               "vocab_size": 32000, "intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2}
    arch = models.arch_from_config(mixtral)
    assert arch["num_experts"] == 8 and arch["moe_intermediate_size"] == 14336
    assert models.arch_from_config({"model_type": "bert"}) == {}


def test_derived_max_len_follows_the_release():
    cohere = {"max_position_embeddings": 8192, "model_max_length": 131072}
    assert models.derived_max_len(cohere, version="0.8.2") == (8192, "max_position_embeddings")
    assert models.derived_max_len(cohere, version="0.8.3") == (131072, "model_max_length")
    qwen = {"max_position_embeddings": 32768}
    assert models.derived_max_len(qwen, {"model_max_length": 16384}, version="0.9.2")[0] == 32768
    assert models.derived_max_len(qwen, {"model_max_length": 16384}, version="0.10.0")[0] == 16384
    assert models.derived_max_len({"seq_length": 2048, "max_position_embeddings": 8192})[0] == 2048
    linear = {"max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 4.0}}
    assert models.derived_max_len(linear)[0] == 16384
    assert models.derived_max_len({"hidden_size": 8}) == (None, None)


def test_length_keys_are_read_in_vllms_order_per_release():
    # possible_keys: GPT-2's n_positions from the first list; seq_length from 0.2.2, model_max_length
    # from 0.4.0; n_ctx is never one of them
    gpt2 = {"model_type": "gpt2", "n_positions": 1024, "n_ctx": 1024}
    assert models.derived_max_len(gpt2, version="0.8.5") == (1024, "n_positions")
    assert models.derived_max_len({"n_ctx": 1024}, version="0.8.5") == (None, None)
    glm = {"seq_length": 2048, "max_position_embeddings": 8192}
    assert models.derived_max_len(glm, version="0.2.1") == (8192, "max_position_embeddings")
    assert models.derived_max_len(glm, version="0.2.2") == (2048, "seq_length")
    short = {"max_position_embeddings": 8192, "model_max_length": 4096}
    assert models.derived_max_len(short, version="0.3.3") == (8192, "max_position_embeddings")
    assert models.derived_max_len(short, version="0.4.0") == (4096, "model_max_length")
    # equal lengths: the first key of the list names it, as vLLM's strict `<` does
    assert models.derived_max_len({"seq_len": 2048, "n_positions": 2048}, version="0.8.5")[1] == "n_positions"


def test_gpt2_family_names_n_positions():
    # DialoGPT is GPT-2 at three sizes: a 1024-position table its config.json calls n_positions
    got = models.model_facts("microsoft/DialoGPT-medium", KB.models, MARKERS, version="0.8.5")
    assert got["max_context"] == 1024 and got["max_len_key"] == "n_positions"
    assert got["num_hidden_layers"] == 24 and not got.get("max_context_family")
    assert models.model_facts("openai-community/gpt2-xl", KB.models, MARKERS)["max_len_key"] == "n_positions"
    # ChatGLM and Qwen (v1) write it as seq_length; the GLM-4 transformers port as max_position_embeddings
    key = {n: models.model_facts(n, KB.models, MARKERS).get("max_len_key")
           for n in ("THUDM/chatglm3-6b", "THUDM/glm-4-9b-chat", "THUDM/glm-4-9b-chat-hf", "Qwen/Qwen-7B-Chat", "Qwen/Qwen2.5-7B")}
    assert key == {"THUDM/chatglm3-6b": "seq_length", "THUDM/glm-4-9b-chat": "seq_length",
                   "THUDM/glm-4-9b-chat-hf": "max_position_embeddings", "Qwen/Qwen-7B-Chat": "seq_length", "Qwen/Qwen2.5-7B": None}


def test_command_r_length_follows_the_release():
    # vllm#3676/#3727: max_position_embeddings 8192 beside model_max_length 131072 in config.json
    def at(version: str | None) -> dict:
        return models.model_facts("CohereForAI/c4ai-command-r-v01", KB.models, MARKERS,
                                  version=version)
    assert at("0.4.0")["max_context"] == 8192 and at("0.4.0")["model_max_length"] == 131072
    assert at("0.8.3")["max_context"] == 131072 and at("0.8.3")["max_len_key"] == "model_max_length"
    # the tokenizer's model_max_length may cap it: unknown, and not sized by max_position_embeddings either
    assert "max_context" not in at("0.10.0") and "max_position_embeddings" not in at("0.10.0")
    assert at("0.4.0")["torch_dtype"] == "float16"
    cfg = {"max_position_embeddings": 8192, "model_max_length": 131072, "hidden_size": 8, "num_hidden_layers": 2}
    assert facts("/models/my-cohere", config=cfg)["model_max_length"] == 131072


def test_phi3_small_is_remote_code():
    # phi3small: the config class is the repository's own (vLLM #5244, #6263); mini and medium are transformers'
    for name in ("microsoft/Phi-3-small-8k-instruct", "/models/huggingface/Phi-3-small-128k-instruct/"):
        f = facts(name)
        assert f["architecture"] == "Phi3SmallForCausalLM" and f["model_type"] == "phi3small" and f["remote_code"]
    assert not facts("microsoft/Phi-3-medium-4k-instruct").get("remote_code")


def test_remote_code_identities_from_vllm_tests():
    # classes whose config lives only in the checkpoint's code (vLLM's test registry loads each with
    # trust_remote_code): MiniCPM3, MiniCPM-o, Phi-4-multimodal's main revision
    for name, arch in (("openbmb/MiniCPM3-4B", "MiniCPM3ForCausalLM"), ("openbmb/MiniCPM-o-2_6", "MiniCPMO"),
                       ("microsoft/Phi-4-multimodal-instruct", "Phi4MMForCausalLM")):
        f = facts(name)
        assert f["architecture"] == arch and f["remote_code"], name
    assert facts("openbmb/MiniCPM4-8B")["architecture"] == "MiniCPMForCausalLM"


def test_glm45v_text_shapes_are_glm45_airs():
    v, air = facts("zai-org/GLM-4.5V"), facts("zai-org/GLM-4.5-Air")
    for k in ("num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "num_experts"):
        assert v[k] == air[k], k
    assert v["max_context"] == 65536 and not v.get("dims_family")


def test_config_scalars():
    cfg = dict(LLAMA_CONFIG, quantization_config={"quant_method": "compressed_tensors", "config_groups": {
        "g": {"weights": {"type": "float", "num_bits": 8}, "input_activations": {"type": "float", "num_bits": 8}}}})
    f = facts("my/model", config=cfg)
    assert f["torch_dtype"] == "bfloat16" and f["architecture"] == "LlamaForCausalLM" and f["model_type"] == "llama"
    assert f["quant_method"] == "compressed-tensors" and f["quant_scheme"] == "fp8" and f["quant_source"] == "config"
    plain = facts("my/model-awq", config=LLAMA_CONFIG)  # no quantization_config: the name still hints
    assert plain["quant_method"] == "awq" and plain["quant_source"] == "name"
    assert facts("my/model", config=LLAMA_CONFIG)["quantized"] is False
    f = facts("my/model", config=dict(LLAMA_CONFIG, torch_dtype="float16"), tokenizer={"model_max_length": 8192})
    assert f["torch_dtype"] == "float16" and f["tokenizer_max_len"] == 8192 and f["max_context"] == 8192
    assert facts("Qwen/Qwen2.5-7B-Instruct-AWQ")["quant_source"] == "name"
    assert facts("deepseek-ai/DeepSeek-V3")["quant_source"] == "catalog"


def _write(path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")


def test_read_local_config_inside_the_project(tmp_path):
    _write(tmp_path / "models" / "llama" / "config.json", LLAMA_CONFIG)
    _write(tmp_path / "deploy" / "ckpt" / "config.json", LLAMA_CONFIG)
    assert models.read_local_config(tmp_path, "models/llama")["num_hidden_layers"] == 32
    assert models.read_local_config(tmp_path, "./models/llama/")["vocab_size"] == 128256
    assert models.read_local_config(tmp_path, "ckpt", base=tmp_path / "deploy") is not None  # next to the file naming it
    assert models.read_local_config(tmp_path, str(tmp_path / "models" / "llama")) is not None  # absolute, inside
    assert models.read_local_config(tmp_path, "meta-llama/Llama-3.1-8B") is None  # a Hub id, not a folder here
    assert models.read_local_config(tmp_path, "$MODEL_DIR") is None
    assert models.read_local_config(tmp_path, None) is None


def test_read_local_config_refuses_what_leaves_the_project_or_is_not_json(tmp_path):
    project, outside = tmp_path / "project", tmp_path / "outside"
    _write(outside / "ckpt" / "config.json", LLAMA_CONFIG)
    _write(project / "bad" / "config.json", "{not json")
    _write(project / "list" / "config.json", "[1, 2]")
    assert models.read_local_config(project, "../outside/ckpt") is None
    assert models.read_local_config(project, str(outside / "ckpt")) is None
    os.symlink(outside / "ckpt", project / "linked")
    assert models.read_local_config(project, "linked") is None  # a link out of the project
    assert models.read_local_config(project, "bad") is None
    assert models.read_local_config(project, "list") is None
    huge = project / "huge" / "config.json"
    _write(huge, " " * (models.CONFIG_MAX_BYTES + 1))
    assert models.read_local_config(project, "huge") is None


def test_the_local_hugging_face_cache_is_read_never_fetched(tmp_path):
    from vllm_kb.engine.kb import checkpoint

    repo = tmp_path / "hub" / "models--acme--house-7b"
    blob = repo / "blobs" / "abc123"
    _write(blob, dict(LLAMA_CONFIG, num_hidden_layers=40))
    _write(repo / "blobs" / "tok", {"model_max_length": 4096})
    snap = repo / "snapshots" / "rev1"
    snap.mkdir(parents=True)
    os.symlink(blob, snap / "config.json")  # the cache's own layout: snapshot files link to blobs
    os.symlink(repo / "blobs" / "tok", snap / "tokenizer_config.json")
    _write(repo / "refs" / "main", "rev1")
    env = {"HF_HUB_CACHE": str(tmp_path / "hub")}
    ck = checkpoint.read_hub_cache("acme/house-7b", env)
    assert ck.where == "hf-cache" and ck.config["num_hidden_layers"] == 40 and ck.tokenizer["model_max_length"] == 4096
    assert checkpoint.read_hub_cache("acme/house-7b", {"HF_HOME": str(tmp_path)}).config["num_hidden_layers"] == 40
    assert checkpoint.read_hub_cache("acme/missing", env) is None  # not cached: nothing, and nothing downloaded
    assert checkpoint.read_hub_cache("../etc/passwd", env) is None
    assert checkpoint.read_hub_cache("acme/house-7b", dict(env, VLLM_KB_HF_CACHE="0")) is None
    # a project folder wins over the cache; a Hub id falls back to it
    _write(tmp_path / "proj" / "acme" / "house-7b" / "config.json", dict(LLAMA_CONFIG, num_hidden_layers=8))
    assert checkpoint.read_checkpoint(tmp_path / "proj", "acme/house-7b", env=env).config["num_hidden_layers"] == 8
    assert checkpoint.read_checkpoint(tmp_path / "other", "acme/house-7b", env=env).where == "hf-cache"
    # a link out of the cache's repo folder is refused
    outside = tmp_path / "secret.json"
    _write(outside, {"num_hidden_layers": 1, "hidden_size": 1})
    snap2 = repo / "snapshots" / "rev0"
    snap2.mkdir()
    os.symlink(outside, snap2 / "config.json")
    (snap / "config.json").unlink()
    assert checkpoint.read_hub_cache("acme/house-7b", env) is None


@pytest.mark.parametrize("name, method, scheme", [
    ("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8", "modelopt", None),
    ("nvidia/Llama-3.3-70B-Instruct-FP4", "modelopt_fp4", None),
    ("neuralmagic/Qwen2.5-VL-72B-Instruct-quantized.w4a16", "compressed-tensors", "wna16"),
    ("RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w8a8", "compressed-tensors", "w8a8_int8"),
    ("RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "compressed-tensors", "fp8"),
    ("someone/Llama-3-8B-FP8", "fp8", None),  # another publisher's FP8: the generic method
    ("unsloth/Qwen3-8B-FP8-Dynamic", "compressed-tensors", "fp8"),
    ("Qwen/Qwen2.5-7B-Instruct-AWQ", "awq", None),
])
def test_publisher_and_tool_names_give_the_checkpoint_format(name, method, scheme):
    f = facts(name)
    assert f["quant_method"] == method
    assert f.get("quant_scheme") == scheme


def test_a_config_quantization_wins_over_the_name():
    f = facts("nvidia/Some-Model-FP8", config={"quantization_config": {"quant_method": "fp8"}})
    assert f["quant_method"] == "fp8" and f["quant_source"] == "config"


@pytest.mark.parametrize("name, family_default", [
    ("/models/Qwen/Qwen3___7-35B-A3B", True),  # ModelScope's "___" is "."; a newer generation than any entry
    ("/models/Qwen/Qwen3___6-35B-A3B", False),  # Qwen3.6 keeps Qwen3.5's classes and shapes: its entry
    ("Qwen/Qwen3.6-27B", False),
    ("Qwen/Qwen3.5-122B-A10B-GPTQ-Int4", False),  # a quantized upload of a catalogued size
    ("Qwen/Qwen3-30B-A3B", False),
    ("Qwen/Qwen3-30B-A3B-Instruct-2507", False),  # the catalog has the 2507 refresh
    ("Qwen/Qwen3-9B", True),  # no such size in the catalog
    ("meta-llama/Llama-3.1-8B-Instruct", False),  # the entry was read from Llama-3.1-8B's config.json
    ("deepseek-ai/DeepSeek-R1-0528", False),  # a refresh the entry lists among its generations
    ("deepseek-ai/DeepSeek-V3.2-Exp", False),  # its own entry (sparse attention), read from V3.2-Exp's config.json
    ("deepseek-ai/DeepSeek-V3.3", True),  # a newer generation the V3 entry does not list
])
def test_a_limit_is_the_models_own_only_from_an_exact_entry(name, family_default):
    f = facts(name)
    assert "max_context" in f
    assert f.get("max_context_family", False) is family_default
    assert "max_context_family" not in facts(name, config={"max_position_embeddings": 262144, "num_hidden_layers": 2, "hidden_size": 8})


def test_modelscope_path_reads_the_dot():
    assert models._short_name("/data/Qwen/Qwen3___6-35B-A3B") == "Qwen/Qwen3.6-35B-A3B"


def test_a_family_is_named_as_a_whole_word_not_inside_a_longer_name_or_a_size():
    # seen in vLLM 0.6.3's own vision example: google/paligemma-3b-mix-224 is no Gemma 3
    from vllm_kb.engine.kb import models as M
    from vllm_kb.engine.kb.knowledge import load

    fams = load().models
    assert (M.family_of("google/gemma-3-4b-it", fams) or {}).get("id") == "gemma3"
    assert (M.family_of("google/paligemma-3b-mix-224", fams) or {}).get("id") != "gemma3"
    assert (M.family_of("TomoroAI/tomoro-colqwen3-embed-4b", fams) or {}).get("id") != "qwen3"
    assert (M.family_of("01-ai/Yi-34B-Chat", fams) or {}).get("id") == "yi"


def test_the_family_the_name_starts_with_wins_over_its_backbone():
    # LLaVA-Video-7B-Qwen2 (vLLM #32338) is a LLaVA model on Qwen2, not Qwen2; the organisation
    # (mistralai/…) is read only when the name itself names no family
    from vllm_kb.engine.kb import models as M
    from vllm_kb.engine.kb.knowledge import load

    fams = load().models
    assert (M.family_of("lmms-lab/LLaVA-Video-7B-Qwen2", fams) or {}).get("id") != "qwen2"
    assert (M.family_of("llava-hf/llava-v1.6-mistral-7b-hf", fams) or {}).get("id") != "mistral"
    assert (M.family_of("mistralai/Mixtral-8x7B-Instruct-v0.1", fams) or {}).get("id") == "mixtral"
    assert (M.family_of("Qwen/Qwen2.5-7B-Instruct", fams) or {}).get("id", "").startswith("qwen2")


@pytest.mark.parametrize("version", [None, "0.4.1", "0.11.0", "0.34.0"])
def test_a_catalogued_rope_scaling_stretches_the_derived_length(version):
    # deepseek-coder's config.json: 16384 positions, linear ×4 — vLLM's default max_model_len is 65536
    # (config.py _get_and_verify_max_len), as a checkpoint folder with the same config gives
    f = models.model_facts("deepseek-ai/deepseek-coder-33b-instruct", KB.models, MARKERS, version=version)
    cfg = {"max_position_embeddings": 16384, "rope_scaling": {"type": "linear", "factor": 4.0}, "model_type": "llama"}
    assert f["max_context"] == 65536 == models.derived_max_len(cfg, None, version)[0]
    assert "rope_scaling" not in f and f["max_position_embeddings"] == 16384
    assert "max_context" not in facts("deepseek-ai/deepseek-llm-7b-chat") or facts("deepseek-ai/deepseek-llm-7b-chat")["max_context"] == 4096
