"""Reference tables (knowledge/tables.yaml): the seed's figures as data, picked per site, with
vllm-kb's own estimate beside them; the lint of the file."""
from __future__ import annotations

import copy

import pytest
from vllm_kb.engine import validate
from vllm_kb.engine.advise import scenarios, tables
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.errors import KnowledgeError
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.report import markdown, model


def _facts(**kw) -> dict:
    return scenarios.context_for(**kw).facts


def test_both_seed_tables_are_labelled_as_reference_figures():
    ts = {t.id: t for t in tables.load()}
    assert set(ts) == {"a100-capacity", "rlhf-memory-split"}
    for t in ts.values():
        assert t.kind == "seed_reference" and "not measurements" in t.note.en and "并非实测" in t.note.zh
        assert t.source["url"].startswith("seed:")


def test_a100_rows_for_an_8b_model_with_estimates():
    kb = load()
    facts = _facts(model="meta-llama/Llama-3.1-8B-Instruct", gpu="A100-80GB", mode="standalone_serve", vllm_version="0.33.0")
    (t,) = tables.for_facts(facts, kb, "en", "0.33.0")
    assert t["id"] == "a100-capacity" and [r["id"] for r in t["rows"]] == ["8b-bf16", "8b-fp8"]
    assert t["rows"][0]["cells"] == ["7–8B", "BF16", "32K", "~256"]
    assert t["columns"][-1] == "Estimate (A100-80GB, vLLM 0.33.0)"
    # the seed's "~256 concurrent" counts short requests; full 32K requests are far fewer (estimate)
    bf16 = tables.estimate("meta-llama/Llama-3.1-8B-Instruct", "A100-80GB", (("max_model_len", 32768),), "0.33.0")
    fp8 = tables.estimate("meta-llama/Llama-3.1-8B-Instruct", "A100-80GB",
                          (("kv_cache_dtype", "fp8"), ("max_model_len", 32768), ("quantization", "fp8")), "0.33.0")
    assert 5 < bf16["max_concurrency"] < 64 and fp8["kv_tokens"] > 1.8 * bf16["kv_tokens"]
    assert "requests of 32,768 at once" in t["rows"][0]["estimate"]


def test_a100_table_is_not_shown_on_other_gpus_and_70b_does_not_fit_one():
    kb = load()
    h100 = _facts(model="meta-llama/Llama-3.1-8B-Instruct", gpu="H100", mode="standalone_serve", vllm_version="0.33.0")
    assert tables.for_facts(h100, kb, "en", "0.33.0") == []
    big = _facts(model="meta-llama/Llama-3.3-70B-Instruct", gpu="A100-80GB x4", mode="standalone_serve", vllm_version="0.33.0")
    (t,) = tables.for_facts(big, kb, "zh", "0.33.0")
    assert [r["id"] for r in t["rows"]] == ["70b"] and "单卡放不下" in t["rows"][0]["estimate"]


def test_rlhf_rows_follow_the_mode_and_sleep_mode():
    kb = load()
    colo = _facts(model="Qwen/Qwen2.5-7B-Instruct", gpu="H100 x8", mode="rlhf_colocate", framework="trl",
                  vllm_version="0.33.0", args={"gpu_memory_utilization": 0.45, "enable_sleep_mode": True})
    (t,) = tables.for_facts(colo, kb, "en", "0.33.0")
    (row,) = t["rows"]
    assert row["id"] == "colocate-alternating" and row["site_value"].endswith("0.45, within 0.4–0.5")
    awake = _facts(model="Qwen/Qwen2.5-7B-Instruct", gpu="H100 x8", mode="rlhf_colocate", framework="trl", vllm_version="0.33.0")
    (row,) = tables.for_facts(awake, kb, "en", "0.33.0")[0]["rows"]
    assert row["id"] == "colocate-concurrent" and "outside" not in row["site_value"]  # TRL's default 0.3
    server = _facts(model="Qwen/Qwen2.5-7B-Instruct", gpu="H100 x4", mode="rlhf_server", vllm_version="0.33.0")
    (row,) = tables.for_facts(server, kb, "en", "0.33.0")[0]["rows"]
    assert row["id"] == "server" and "0.92 in 0.20–0.33" in row["cells"][1]


def test_tables_in_the_report(fixtures_dir):
    rep = model.build(audit("rl-trl", gpu="H100-80GB x4"), "en")
    site = next(s for s in rep["sites"] if s["id"] == "train_colocate.py:14")
    assert [t["id"] for t in site["tables"]] == ["rlhf-memory-split"]
    text = markdown.render(rep)
    assert "### Reference figures" in text and "| Colocate, alternating | 0.4–0.5 |" in text
    client = next(s for s in rep["sites"] if s["id"] == "legacy/train_grpo.py:12")
    assert all(r["site_value"] is None for t in client["tables"] for r in t["rows"])  # the server's share, not the trainer's


def _lint(data) -> list[str]:
    class Doc:
        pass

    doc = Doc()
    doc.data = data
    v = validate.Validator()
    v.load = lambda parts: doc
    tables.lint(v)
    return [str(p) for p in v.problems]


def test_lint():
    data = yamlio.load(resources.read_text("knowledge", "tables.yaml")).data
    assert _lint(data) == []
    bad = copy.deepcopy(data)
    bad["tables"][0]["rows"][0]["cells"]["colour"] = "red"
    bad["tables"][0]["rows"][1]["when"] = "model.weight > 3"
    bad["tables"][0]["rows"][2]["estimate"]["model"] = "acme/mystery"
    bad["tables"][0]["gpu"] = "Z9000"
    problems = "\n".join(_lint(bad))
    assert "no column 'colour'" in problems and "unknown fact 'model.weight'" in problems
    assert "'acme/mystery' has no known size" in problems and "unknown GPU 'Z9000'" in problems
    dup = copy.deepcopy(data)
    dup["tables"][1]["id"] = dup["tables"][0]["id"]
    with pytest.raises(KnowledgeError, match="duplicate table id"):
        tables.parse(dup)
