"""A model given as a local path is the catalogued model its path names, and the report says
which part of the path named it (engine/check/candidates.py path_basis); a part that names no
catalogued family says nothing."""
from __future__ import annotations

import pytest

from vllm_kb.engine.audit import audit


def _model(write_project, files: dict[str, str], gpu: str = "A100-80GB"):
    rep = audit(write_project(files), gpu=gpu)
    (sr,) = rep.sites
    return sr


# https://github.com/vllm-project/vllm/issues/5244 — a local copy of Phi-3-small-128k-instruct on 0.4.3
# without --trust-remote-code: transformers has no class for its config (model_type phi3small)
def test_a_local_phi3_small_needs_remote_code(write_project):
    sr = _model(write_project, {
        "requirements.txt": "vllm==0.4.3\n",
        "serve.sh": "python -m vllm.entrypoints.openai.api_server --model /models/huggingface/Phi-3-small-128k-instruct/\n"})
    m = sr.facts["model"]
    assert (m["architecture"], m["identity"], m["resolved_as"]) == ("Phi3SmallForCausalLM", "path-last", "Phi-3-small-128k-instruct")
    (l50,) = [r for r in sr.results if r.check.id == "L50"]
    assert (l50.status, l50.priority) == ("recommended", "P0")


# https://jishuzhan.net/article/2002605617710694401 — Qwen3-VL from the ModelScope cache
@pytest.mark.parametrize("path,identity,part", [
    ("/home/user/.cache/modelscope/hub/models/Qwen/Qwen3-VL-8B-Instruct", "path-last", "Qwen3-VL-8B-Instruct"),
    ("/root/.cache/modelscope/hub/Qwen/Qwen3-VL-8B-Instruct", "path-last", "Qwen3-VL-8B-Instruct"),
    ("/data/llm/Qwen2.5-7B-Instruct/checkpoint-500", "path", "Qwen2.5-7B-Instruct"),
    ("/root/.cache/huggingface/hub/models--Qwen--Qwen3-VL-8B-Instruct/snapshots/0123456789abcdef", "hf-cache",
     "Qwen/Qwen3-VL-8B-Instruct"),
])
def test_the_report_says_which_part_of_the_path_named_the_model(write_project, path, identity, part):
    sr = _model(write_project, {"run.py": f'from vllm import LLM\nllm = LLM(model="{path}")\n'})
    m = sr.facts["model"]
    assert (m.get("identity"), m.get("resolved_as")) == (identity, part)
    assert m.get("family")


@pytest.mark.parametrize("path", ["/models/model", "/mnt/models/7b", "/data/llm/my-bot-v2", "Qwen/Qwen2.5-7B-Instruct",
                                  "Qwen2.5-7B-Instruct"])
def test_no_basis_is_claimed_where_the_path_names_nothing_or_is_a_hub_id(write_project, path):
    sr = _model(write_project, {"run.py": f'from vllm import LLM\nllm = LLM(model="{path}")\n'})
    m = sr.facts.get("model") or {}
    assert m.get("identity") is None and m.get("resolved_as") is None


def test_the_basis_reads_in_both_languages():
    from vllm_kb.engine.kb.knowledge import load

    kb = load()
    assert kb.t("report.identity.path-last", "en") == "the path's last component"
    assert "路径" in kb.t("report.identity.path-last", "zh")


# https://jishuzhan.net/article/2002605617710694401 — Qwen3-VL-4B-Instruct from the ModelScope cache on
# vLLM 0.11.0 with its full 262144-token context: "36.00 GiB KV cache is needed", far above what is left
def test_a_cached_qwen3_vl_4b_is_sized_and_its_full_context_refused(write_project):
    sr = _model(write_project, {
        "requirements.txt": "vllm==0.11.0\n",
        "infer.py": 'from vllm import LLM\n'
                    'llm = LLM(model="/home/user/.cache/modelscope/hub/models/Qwen/Qwen3-VL-4B-Instruct", '
                    'mm_encoder_tp_mode="data")\n'}, gpu="RTX-4090")
    m = sr.facts["model"]
    assert (m["num_hidden_layers"], m["num_key_value_heads"], m["head_dim"]) == (36, 8, 128)
    (l15,) = [r for r in sr.results if r.check.id == "L15"]
    assert (l15.status, l15.priority) == ("recommended", "P0")
