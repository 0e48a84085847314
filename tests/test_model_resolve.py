"""A model known only by the names around it (engine/kb/model_resolve.py, engine/check/candidates.py):
a Hugging Face cache folder, what a deployment mounts at the path, the catalog's derivatives, the
name's words and size matched against the catalog's checkpoints — and, when several fit, every one
evaluated: "will not start" only when it holds for all of them. Quantization words in the name
keep their meaning whichever model the path turns out to hold."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import candidates
from vllm_kb.engine.kb import knowledge, model_resolve

KB = knowledge.load()
MARKERS = KB.doc("models.yaml").data["quantized_markers"]


def resolved(name: str, mounts: dict | None = None, version: str = "0.10.1") -> list[dict]:
    own = candidates.model_of(name, KB, MARKERS, version)
    return candidates.resolve(name, own, mounts, KB, lambda n: candidates.model_of(n, KB, MARKERS, version))


def test_hf_cache_folder_names_its_repository():
    got = resolved("/root/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B-Instruct/snapshots/0123456789abcdef01")
    assert [(g["identity"], g["resolved_as"], g["num_attention_heads"]) for g in got] == \
        [("hf-cache", "Qwen/Qwen2.5-7B-Instruct", 28)]


@pytest.mark.parametrize("path,part", [("/mnt/models/", None), ("/data/llm/weights/Qwen3-8B/checkpoint-500", "Qwen3-8B"),
                                       ("./MiniMax-M1-80k", "MiniMax-M1-80k"), ("~/models/snapshots/main", None)])
def test_generic_path_parts_name_nothing(path, part):
    assert model_resolve.own_part(path) == part


def test_a_mounted_volume_names_the_model_at_its_mount_point():
    got = resolved("/mnt/models/", {"/mnt/models": ["model", "nv-embed-v1"]})
    assert [(g["identity"], g["architecture"]) for g in got] == [("mount", "NVEmbedModel")]
    # a folder below the mount names itself, not the volume
    assert model_resolve.mounted("/mnt/models/Qwen3-8B", {"/mnt/models": ["nv-embed-v1"]}) == []


def test_a_derivative_takes_its_base_models_shapes():
    got = resolved("models/merlinite-7b-lab")
    assert [(g["identity"], g["architecture"], g["num_attention_heads"]) for g in got] == \
        [("derivative", "MistralForCausalLM", 32)]
    assert "torch_dtype" not in got[0]  # a fine-tune may be saved in any dtype


def test_family_words_and_size_give_every_catalogued_candidate():
    got = resolved("/llm/models/Gemma-27B")
    assert sorted(g["model_type"] for g in got) == ["gemma2", "gemma3"]
    assert all(g["candidates"] == got[0]["candidates"] for g in got)


@pytest.mark.parametrize("name", ["/data/models/my-model-7b", "/models/7b", "/models/gemma", "someorg/Gemma-27B"])
def test_a_name_without_a_family_word_and_a_size_stays_unknown(name):
    assert resolved(name) == []


def test_quantization_words_of_the_path_survive_the_resolution():
    got = resolved("/models/Gemma-27B-AWQ")
    assert got and all(g["quant_method"] == "awq" and g["quantized"] for g in got)


@pytest.mark.parametrize("name,method,scheme", [
    ("/mnt/llms/models/bullerwins/MiniMax-M3-4bit-W4A16/", "compressed-tensors", "wna16"),  # not bitsandbytes
    ("org/Llama-3.1-8B-Instruct-W8A8", "compressed-tensors", "w8a8_int8"),
    ("/workspace/models/Qwen-72B-Chat-Int4", "gptq", None),  # Qwen's own Int4 uploads are AutoGPTQ
    ("~/.cache/huggingface/qwen3.6-27b-autoround-int4", "int4", None),  # another tool's int4: not gptq
])
def test_quantization_markers(name, method, scheme):
    f = candidates.model_of(name, KB, MARKERS, "0.10.1")
    assert (f.get("quant_method"), f.get("quant_scheme")) == (method, scheme)


def _project(tmp_path: Path, script: str, pin: str) -> Path:
    (tmp_path / "serve.sh").write_text("#!/bin/bash\n" + textwrap.dedent(script))
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    return tmp_path


def _priorities(rep, check: str) -> list:
    return [r.priority for sr in rep.sites for r in sr.results if r.check.id == check and r.status == "recommended"]


def test_p0_when_every_candidate_fails(tmp_path):
    # Gemma 2 and Gemma 3 27B both refuse float16 (0.9.1+)
    rep = audit(_project(tmp_path, "vllm serve /llm/models/Gemma-27B --dtype float16\n", "0.10.1"), gpu="A100-80GB")
    assert _priorities(rep, "L5") == ["P0"]


def test_p1_naming_the_ambiguity_when_only_some_candidates_fail(tmp_path):
    # 100k tokens: beyond Llama 2 70B's and Llama 3 70B's context, within Llama 3.3 70B's
    rep = audit(_project(tmp_path, "vllm serve /data/models/Llama-70B --max-model-len 100000 -tp 8\n", "0.10.1"),
                gpu="H100-SXM-80GB x8")
    got = [r for sr in rep.sites for r in sr.results if r.check.id == "L14" and r.status == "recommended"]
    assert [r.priority for r in got] == ["P1"]
    assert "meta-llama/Llama-3.3-70B-Instruct" in got[0].reason_text("en")


def test_pipeline_parallelism_on_an_unknown_architecture_is_unknown(tmp_path):
    rep = audit(_project(tmp_path, "vllm serve /models/some-new-model --pipeline-parallel-size 4\n", "0.10.1"),
                gpu="RTX-3090 x4")
    assert [r.status for sr in rep.sites for r in sr.results if r.check.id == "L3"] == ["unknown"]


def test_the_launchs_other_names_identify_an_opaque_path():
    own = candidates.model_of("/mnt/models/", KB, MARKERS, "0.10.1")
    got = candidates.resolve("/mnt/models/", own, None, KB, lambda n: candidates.model_of(n, KB, MARKERS, "0.10.1"),
                             candidates.hints({"served_model_name": ["Qwen2.5-7B-Instruct"]}))
    assert [(g["identity"], g["num_attention_heads"]) for g in got] == [("hint", 28)]


@pytest.mark.parametrize("pin, flag, expected", [
    ("0.5.1", "--max-model-len 8192", ["P0"]),   # the window is the limit: "… (sliding_window=4096 …)"
    ("0.6.4", "--max-model-len 8192", ["P0"]),
    ("0.6.5", "--max-model-len 8192", []),       # the window runs: 8192 positions again
    ("0.6.3", "--max-model-len 4096", []),
])
def test_gemma2s_context_is_its_window_where_v0_cannot_run_it(tmp_path, pin, flag, expected):
    rep = audit(_project(tmp_path, f"vllm serve google/gemma-2-9b-it {flag}\n", pin), gpu="A100-80GB")
    assert _priorities(rep, "L14") == expected
    if expected:
        (sr,) = rep.sites
        assert sr.facts["model"]["max_context"] == 4096 and sr.facts["model"]["max_len_key"] == "sliding_window"


def test_gemma2s_default_context_is_sized_at_its_window_before_065(tmp_path):
    rep = audit(_project(tmp_path, "vllm serve google/gemma-2-9b-it\n", "0.6.2"), gpu="A100-80GB")
    (sr,) = rep.sites
    assert sr.facts["memory"]["max_model_len"] == 4096
    rep = audit(_project(tmp_path, "vllm serve google/gemma-2-9b-it\n", "0.6.6"), gpu="A100-80GB")
    assert rep.sites[0].facts["memory"]["max_model_len"] == 8192


def test_a_local_copys_unread_context_is_a_guess(tmp_path):
    # a local folder named after Qwen2.5-7B-Instruct with no config.json in the project: the upload
    # says 32768, but local copies are where users add rope_scaling (Qwen's own long-context advice)
    rep = audit(_project(tmp_path, "vllm serve /data/models/Qwen2.5-7B-Instruct --max-model-len 64000\n", "0.8.5"),
                gpu="A100-80GB")
    assert _priorities(rep, "L14") == ["P1"]
    rep = audit(_project(tmp_path, "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 64000\n", "0.8.5"), gpu="A100-80GB")
    assert _priorities(rep, "L14") == ["P0"]


def _facts(name: str, version: str = "0.8.5") -> dict:
    return candidates.model_of(name, KB, MARKERS, version)


def test_a_folder_named_after_a_hub_id_with_its_slash_replaced_is_that_id():
    # `local_dir=repo_id.replace("/", "_")`: the publisher's own FP8 upload, as `…/Qwen/Qwen3-30B-A3B-FP8` is
    for name in ("Qwen_Qwen3-30B-A3B-FP8/", "/data/Qwen--Qwen3-30B-A3B-FP8", "/models/Qwen/Qwen3-30B-A3B-FP8"):
        m = _facts(name)
        assert (m["family"], m["quant_method"], m["quant_source"], m.get("quant_block")) == ("qwen3-moe", "fp8", "catalog", [128, 128])
    # an unknown organisation, or a rest that names no family by itself, is only the name's guess
    assert _facts("someone_Qwen3-30B-A3B-FP8")["quant_source"] == "name"
    assert _facts("/models/qwen_7b").get("family") != "qwen3-moe"


def test_olmo_names_and_their_gguf_architecture(tmp_path):
    assert _facts("allenai/Molmo2-8B").get("family") != "olmo2"  # Molmo 2 is not OLMo 2
    m = _facts("./Olmo-3-32B-Think-Q8_0.gguf", "0.12.0")
    assert (m["family"], m["architecture"], m["model_type"]) == ("olmo3", "Olmo3ForCausalLM", "olmo3")
    # llama.cpp writes OLMo 3 files as olmo2, which no transformers release reads
    (tmp_path / "requirements.txt").write_text("vllm==0.12.0\n")
    (tmp_path / "serve.sh").write_text("#!/bin/sh\nvllm serve ./Olmo-3-7B-Instruct-Q4_K_M.gguf\n")
    (site,) = audit(tmp_path, gpu="H100-80GB").sites
    assert site.facts["launch"]["gguf_arch"] == "olmo2"
    assert {r.check.name: r.priority for r in site.results if r.status == "recommended"}.get("gguf-architecture") == "P0"
    # the same model served from its safetensors starts
    (tmp_path / "serve.sh").write_text("#!/bin/sh\nvllm serve /models/Olmo-3-7B-Instruct\n")
    (site,) = audit(tmp_path, gpu="H100-80GB").sites
    assert not [r for r in site.results if r.status == "recommended" and r.priority == "P0"]
