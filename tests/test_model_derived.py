"""Model facts for names the catalog does not list as such: a checkpoint derived from a catalogued
one (its shapes, with `dims_from` saying they are inferred, and its context only a default), a
repository republished with other widths (`upload_revisions`: each evaluated, P0 only when every
one fails), and the families added in session 9 (their heads, and nothing the catalog cannot
source)."""
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import candidates
from vllm_kb.engine.kb.knowledge import load

KB = load()
MARKERS = KB.doc("models.yaml").data.get("quantized_markers", [])


def _facts(name: str, version: str = "0.10.0") -> dict:
    return candidates.model_of(name, KB, MARKERS, version)


def test_a_fine_tune_takes_its_base_shapes_and_says_so():
    mf = _facts("someorg/xyz-Qwen2.5-7B-finetune")
    assert (mf["num_attention_heads"], mf["num_key_value_heads"]) == (28, 4)
    assert mf["dims_from"] == "Qwen/Qwen2.5-7B-Instruct"
    assert mf["max_context_family"] is True  # a fine-tune may ship another position table


def test_format_and_quantization_words_keep_the_checkpoint_exact():
    for name in ("Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct-AWQ", "unsloth/Qwen2.5-7B-Instruct-bnb-4bit",
                 "Qwen/Qwen3-30B-A3B-Instruct-2507-FP8", "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4"):
        mf = _facts(name)
        assert "dims_from" not in mf and not mf.get("max_context_family"), name


def test_families_added_carry_their_heads():
    heads = {
        "CohereForAI/c4ai-command-r-v01": (64, 64), "CohereLabs/c4ai-command-a-03-2025": (96, 8),
        "MiniMaxAI/MiniMax-M2": (48, 8), "MiniMaxAI/MiniMax-M1-80k": (64, 8),
        "Qwen/Qwen3-Next-80B-A3B-Instruct": (16, 2), "google/gemma-3n-E4B-it": (8, 2),
        "mistralai/Devstral-Small-2505": (32, 8), "allenai/OLMo-2-0325-32B-Instruct": (40, 8),
    }
    for name, (h, kv) in heads.items():
        mf = _facts(name)
        assert (mf.get("num_attention_heads"), mf.get("num_key_value_heads")) == (h, kv), name
        assert not mf.get("dims_family"), name
    # linear-attention hybrids: Qwen3-Next's layers are sized by engine/check/memory/ssm.py (its layout is
    # catalogued); MiniMax's lightning-attention layers are not, so it gets no layer count to size from
    assert _facts("Qwen/Qwen3-Next-80B-A3B-Instruct").get("num_hidden_layers") == 48
    assert "num_hidden_layers" not in _facts("MiniMaxAI/MiniMax-M1-80k")
    # Command R's context depends on the release (model_max_length vs max_position_embeddings)
    assert "max_context" not in _facts("CohereForAI/c4ai-command-r-v01")


def _serve(tmp_path, line: str, version: str, gpu: str):
    (tmp_path / "requirements.txt").write_text(f"vllm=={version}\n")
    (tmp_path / "serve.sh").write_text(f"#!/bin/sh\n{line}\n")
    (sr,) = audit(tmp_path, gpu=gpu).sites
    return {r.check.id: r for r in sr.results}, sr


def test_qwen_vl_72b_awq_by_name_is_p1_across_its_revisions(tmp_path):
    res, sr = _serve(tmp_path, "vllm serve Qwen/Qwen2.5-VL-72B-Instruct-AWQ --tensor-parallel-size 4 --max-model-len 32768",
                     "0.7.3", "4xA100-80GB")
    assert sr.facts["model"]["revisions"][1].startswith("intermediate_size 29568")
    r = res["L75"]
    assert (r.status, r.priority) == ("recommended", "P1")  # the first upload fails, the re-quantized one starts
    assert "published with different shapes" in r.reason.en


def test_qwen15_14b_gptq_int4_is_p1_across_its_revisions(tmp_path):
    # QwenLM/Qwen3#106 (0.3.2, TP 2): the first upload's 13696 gives 6848 per rank, 53.5 groups of 128;
    # the re-published upload (14336, QwenLM/Qwen3#258) splits whole groups
    res, sr = _serve(tmp_path, "python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen1.5-14B-Chat-GPTQ-Int4 "
                     "--tensor-parallel-size 2", "0.3.2", "2xA100-80GB")
    assert sr.facts["model"]["revisions"][1].startswith("intermediate_size 13696")
    r = res["L75"]
    assert (r.status, r.priority) == ("recommended", "P1")
    res, _ = _serve(tmp_path, "vllm serve Qwen/Qwen1.5-14B-Chat-GPTQ-Int4 --tensor-parallel-size 1", "0.4.0", "2xA100-80GB")
    assert res["L75"].status != "recommended"


def test_qwen25_72b_awq_by_name_splits_whole_groups_at_tp8(tmp_path):
    res, _ = _serve(tmp_path, "vllm serve Qwen/Qwen2.5-72B-Instruct-AWQ --tensor-parallel-size 8", "0.8.5", "8xA100-80GB")
    assert res["L75"].priority != "P0"


def test_minimax_m2_fp8_experts_at_tp8(tmp_path):
    res, _ = _serve(tmp_path, "vllm serve MiniMaxAI/MiniMax-M2 --tensor-parallel-size 8 --trust-remote-code",
                    "0.11.0", "8xH100")
    assert res["L75"].priority == "P0"  # 1536 / 8 = 192 per rank, not a multiple of block_n 128
    res, _ = _serve(tmp_path, "vllm serve MiniMaxAI/MiniMax-M2 --tensor-parallel-size 8 --enable-expert-parallel "
                    "--trust-remote-code", "0.11.0", "8xH100")
    assert res["L75"].priority != "P0"


def test_every_catalogued_checkpoint_is_its_own_not_derived():
    from vllm_kb.engine.kb import model_resolve
    for repo in model_resolve.catalog_repos(KB.models):
        assert "dims_from" not in _facts(repo), repo


def test_expert_counts_and_generations_keep_the_entry_exact():
    assert "dims_from" not in _facts("meta-llama/Llama-4-Maverick-17B-128E-Instruct")
    mf = _facts("mistralai/Mistral-Small-3.2-24B-Instruct-2506")
    assert not mf.get("dims_family") and mf["num_attention_heads"] == 32


def test_ernie_21b_heads_refuse_tp8(tmp_path):
    res, _ = _serve(tmp_path, "vllm serve baidu/ERNIE-4.5-21B-A3B-PT --tensor-parallel-size 8", "0.10.2", "8xH100")
    assert res["L1"].priority == "P0"  # 20 query heads
    res, _ = _serve(tmp_path, "vllm serve baidu/ERNIE-4.5-21B-A3B-PT --tensor-parallel-size 4", "0.10.2", "8xH100")
    assert res["L1"].priority != "P0"


def test_minimax_m2_point_releases_keep_m2_shapes():
    for name in ("MiniMaxAI/MiniMax-M2.1", "MiniMaxAI/MiniMax-M2.5", "MiniMaxAI/MiniMax-M2.7"):
        mf = _facts(name)
        assert not mf.get("dims_family") and mf["moe_intermediate_size"] == 1536 and mf["quant_block"] == [128, 128], name
    m3 = _facts("MiniMaxAI/MiniMax-M3")  # another generation with its own entry (catalog4): not M2's shapes
    assert m3["architecture"] != "MiniMaxM2ForCausalLM" and m3.get("moe_intermediate_size") is None and not m3.get("quant_block")


def test_unsloth_bnb_uploads_keep_the_base_dtype_other_quantized_uploads_do_not():
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.kb.models import model_facts

    kb = load()
    doc = kb.doc("models.yaml").data
    markers = doc.get("quantized_markers", [])

    def dtype(name):
        return model_facts(name, kb.models, markers, publishers=doc.get("publishers"), identity=doc).get("torch_dtype")

    assert dtype("unsloth/gemma-2b-bnb-4bit") == dtype("google/gemma-2b") == "bfloat16"
    assert dtype("someone/gemma-2b-bnb-4bit") is None  # another uploader: saved in any dtype
    assert dtype("unsloth/gemma-2b-it-GPTQ") is None  # not a method Unsloth's uploads keep it for
