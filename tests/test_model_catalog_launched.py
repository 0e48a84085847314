"""Models public launch reports name that the catalog did not know (benchmarks/model_dims.py
measures the class): a family's own shapes (GLM-4.7 and GLM-4.7-Flash, Mistral Small 4, Devstral Small 2,
Llama 3.2 Vision, MiniMax-M2's context), a wrapper's language model (InternVL2), a fine-tune read
as its base (the reasoning fine-tunes RL reports launch; a fine-tune's own version before the
base's word) and a folder that writes Qwen's version without its dot. Each must turn the checks
that read those shapes from "unknown" into a verdict, and never claim another size's shapes."""
from __future__ import annotations

from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import candidates
from vllm_kb.engine.kb import knowledge, models
from vllm_kb.engine.report import consistency
from vllm_kb.engine.report import model as report_model

KB = knowledge.load()
DATA = KB.doc("models.yaml").data


def facts(name: str) -> dict:
    return models.model_facts(name, KB.models, DATA["quantized_markers"], publishers=DATA["publishers"], identity=DATA)


@pytest.mark.parametrize("name,total,active,heads", [
    ("zai-org/GLM-4.7-Flash", 29.9, 3.9, 20),
    ("mistralai/Mistral-Small-4-119B-2603", 119, 6.6, 32),
    ("MiniMaxAI/MiniMax-M2.5", 229, 10, 48),
])
def test_moe_shapes_add_up_to_the_stated_size(name, total, active, heads):
    f = facts(name)
    assert (f["num_attention_heads"], f.get("dims_family")) == (heads, None)
    computed, computed_active = models.params_from_arch(f)
    assert computed == pytest.approx(total, rel=0.03)
    assert computed_active == pytest.approx(active, rel=0.15)


def test_mla_kv_width_is_the_latent_plus_the_rope_part():
    # Mistral Small 4: 36 layers x (256 + 64) x 2 bytes = 23040 bytes a token, the 22.5 GiB a
    # 1048576-token request needs (kaito-project/kaito#2132)
    f = facts("mistralai/Mistral-Small-4-119B-2603")
    assert f["mla"] and f["max_context"] == 1048576
    assert f["num_hidden_layers"] * (f["kv_lora_rank"] + f["qk_rope_head_dim"]) * 2 * 1048576 / 2**30 == pytest.approx(22.5)


def test_minimax_m2_generations_share_the_196608_context():
    for name in ("MiniMaxAI/MiniMax-M2", "MiniMaxAI/MiniMax-M2.1", "/models/MiniMax-M2.7"):
        assert facts(name)["max_context"] == 196608


def test_a_reap_upload_keeps_the_family_but_not_its_size():
    f = facts("./models/GLM-4.7-Flash-REAP-23B-A3B-NVFP4")
    assert f["architecture"] == "Glm4MoeLiteForCausalLM" and f["dims_family"]
    assert f["params_b"] == 23 and "num_attention_heads" not in f


@pytest.mark.parametrize("name,heads,kv_heads", [
    ("OpenGVLab/InternVL2-1B", 14, 2), ("OpenGVLab/InternVL2-2B", 16, 8), ("OpenGVLab/InternVL2-4B", 32, 32),
    ("OpenGVLab/InternVL2-8B", 32, 8), ("/models/internvl2-8b", 32, 8), ("OpenGVLab/InternVL2-26B", 48, 8),
    ("OpenGVLab/InternVL2-40B", 56, 8), ("OpenGVLab/InternVL2-Llama3-76B-AWQ", 64, 8),
    ("OpenGVLab/InternVL2_5-8B", 32, 8),
])
def test_internvl2_sizes_take_their_language_models_heads(name, heads, kv_heads):
    f = facts(name)
    assert (f["num_attention_heads"], f["num_key_value_heads"]) == (heads, kv_heads)
    assert "max_context" not in f  # a wrapper's own config.json says its context


def test_llama_3_2_vision_sizes_have_their_text_shapes():
    assert [(facts(n)["num_hidden_layers"], facts(n)["num_attention_heads"]) for n in
            ("meta-llama/Llama-3.2-11B-Vision-Instruct", "unsloth/Llama-3.2-90B-Vision-Instruct-bnb-4bit")] == [(40, 32), (100, 64)]


@pytest.mark.parametrize("name,family,heads,params", [
    ("../models/qwen25_32b_instruct_HF", "qwen2.5", 40, 32.76),
    ("/root/autodl-tmp/Qwen15_14B_Chat_sft", "qwen1.5", 40, 14.17),
    ("Qwen/Qwen-14B-Chat", "qwen1", 40, 14.17),  # a size after Qwen is no version
])
def test_qwen_versions_written_without_their_dot(name, family, heads, params):
    f = facts(name)
    assert (f["family"], f["num_attention_heads"], f["params_b"]) == (family, heads, params)


def test_a_fine_tunes_own_version_before_the_base_word_is_not_a_generation():
    f = facts("cognitivecomputations/dolphin-2.9-llama3-8b")
    assert not f.get("dims_family") and f["num_attention_heads"] == 32
    assert f["max_context_family"]  # a fine-tune's context is the base's only as a default
    # a generation written after the family's word still is one
    assert facts("Qwen/Qwen3.9-35B-A3B").get("dims_family")
    assert facts("mistralai/Mistral-7B-Instruct-v0.4").get("dims_family")


@pytest.mark.parametrize("name,heads", [("/models/OpenThinker-32B", 40), ("agentica-org/DeepScaleR-1.5B-Preview", 12),
                                         ("/data/Sky-T1-32B-Preview", 40), ("AIDC-AI/Marco-o1", 28)])
def test_reasoning_fine_tunes_are_read_as_their_bases(name, heads):
    own = candidates.model_of(name, KB, DATA["quantized_markers"], "0.10.1")
    got = candidates.resolve(name, own, None, KB, lambda n: candidates.model_of(n, KB, DATA["quantized_markers"], "0.10.1"))
    assert [(g["identity"], g["num_attention_heads"]) for g in got] == [("derivative", heads)]


def _recommended(rep, check: str) -> list:
    """The priorities of the changes the audit recommends for `check`."""
    return [r.priority for sr in rep.sites for r in sr.results if r.check.id == check and r.status == "recommended"]


def _launch(write_project, command: str, pin: str) -> Path:
    return write_project({"serve.sh": f"#!/bin/bash\n{command}\n", "requirements.txt": f"vllm=={pin}\n"})


def test_twenty_heads_refuse_tp_8_and_take_tp_4(tmp_path, write_project):
    rep = audit(_launch(write_project, "vllm serve zai-org/GLM-4.7-Flash --tensor-parallel-size 8", "0.20.0"),
                gpu="H100-SXM-80GB x8")
    assert _recommended(rep, "L1") == ["P0"]
    (tmp_path / "serve.sh").write_text("#!/bin/bash\nvllm serve zai-org/GLM-4.7-Flash --tensor-parallel-size 4\n")
    rep = audit(tmp_path, gpu="H100-SXM-80GB x4")
    assert not [r for sr in rep.sites for r in sr.results if r.priority == "P0"]


def test_a_length_past_minimax_m2s_positions_is_refused(write_project):
    rep = audit(_launch(write_project, "vllm serve MiniMaxAI/MiniMax-M2.5 -tp 8 --max-model-len 204800", "0.15.1"),
                gpu="H200 x8")
    assert _recommended(rep, "L14") == ["P0"]


@pytest.mark.parametrize("name", ["zai-org/GLM-4.7", "zai-org/GLM-4.7-FP8", "/models/glm-4.7", "QuantTrio/GLM-4.7-AWQ"])
def test_glm_4_7_is_glm_4_6s_shape_and_flash_stays_its_own(name):
    f = facts(name)
    assert (f["num_attention_heads"], f["num_key_value_heads"], f["vocab_size"], f["max_context"]) == (96, 8, 151552, 202752)
    assert f["params_b"] == 355 and f["architecture"] == "Glm4MoeForCausalLM"
    assert facts("zai-org/GLM-4.7-Flash")["num_attention_heads"] == 20


def test_glm_4_7s_vocabulary_refuses_tp_6(write_project):
    # vllm-project/vllm#31474: 96 heads divide by 6, the 151552 vocabulary rows (and 8 KV heads) do not
    rep = audit(_launch(write_project, "vllm serve zai-org/GLM-4.7-FP8 --tensor-parallel-size 6", "0.13.0"),
                gpu="H20-96GB x6")
    assert _recommended(rep, "L67") == ["P0"] and _recommended(rep, "L1") == []


def test_the_vocabulary_fit_goes_up_to_the_gpus_the_site_has_as_the_head_fit_does(write_project):
    # TP 6 on eight GPUs: L2 proposes TP 8 (the KV heads' fit above), so L67 must not propose TP 4
    rep = audit(_launch(write_project, "vllm serve zai-org/GLM-4.7-FP8 --tensor-parallel-size 6", "0.13.0"),
                gpu="H100-80GB x8")
    assert _recommended(rep, "L67") == ["P0"] and consistency.check(report_model.build(rep, "en")) == []
