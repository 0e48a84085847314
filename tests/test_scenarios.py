"""Scenario templates: every scenario's own cases (knowledge/scenarios.yaml › cases) through one
generic runner; the registry; the best match on the fixture projects; and rendered configs fed
back through the project's own scanners (the settings come back, and the audit of the rendered
config asks to change none of them)."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
from vllm_kb.engine import validate
from vllm_kb.engine.advise import scenarios
from vllm_kb.engine.advise.scenarios import lint as scenario_lint
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.errors import KnowledgeError, UsageError
from vllm_kb.engine.report import markdown, model

ROOT = Path(__file__).parent.parent
CASES = [(s.id, c) for s in scenarios.load() for c in s.cases]


@pytest.mark.parametrize("sid, case", CASES, ids=[f"{sid}-{c['name']}" for sid, c in CASES])
def test_scenario_case(sid, case):
    assert scenario_lint.run_case(scenarios.load().get(sid), case) == []


def test_every_scenario_of_the_seed_is_there_with_cases():
    scns = scenarios.load()
    assert [s.id for s in scns] == [f"S{i}" for i in range(1, 9)]
    for s in scns:
        assert s.seed.startswith(f"场景 {s.id[1:]}") and s.cases and s.corrections and s.sources
        assert any(c.get("expect") == s.id or c.get("applies") for c in s.cases), s.id
    assert scns.get("dp-tp-replicas") is scns.get("s3")
    with pytest.raises(UsageError, match="no such scenario"):
        scns.get("S99")


def _raw() -> dict:
    return copy.deepcopy(yamlio.load(resources.read_text("knowledge", "scenarios.yaml")).data)


def test_duplicate_ids_fail_loudly():
    data = _raw()
    data["scenarios"][1]["id"] = "S1"
    with pytest.raises(KnowledgeError, match="duplicate id or name 'S1'"):
        scenarios.parse(data)


class _Doc:
    def __init__(self, data):
        self.data = data


def _lint(data) -> list[str]:
    v = validate.Validator()
    v.load = lambda parts: _Doc(data)
    scenario_lint.lint(v)
    return [str(p) for p in v.problems]


def test_lint_catches_flags_values_and_names_outside_the_claimed_releases():
    data = _raw()
    s1, s7 = data["scenarios"][0], data["scenarios"][6]
    s7["vllm"] = ">=0.7.0"  # enable_expert_parallel arrived in 0.8.0
    s1["args"].append({"arg": "swap_space", "value": 4})  # gone from 0.18
    s1["args"].append({"arg": "kv_cache_dtype", "value": "fp9"})
    s1["env"] = [{"env": "VLLM_ATTENTION_BACKEND", "value": "FLASHINFER"}]  # gone after 0.14
    s1["requires"].append({"when": "plan.bogus > 1 && gpu.colour == 'red'", "why": {"en": "x {plan.nope}", "zh": "x"}})
    s1["render"] = {"cli": ["no_such_template"]}
    problems = "\n".join(_lint(data))
    assert "argument 'enable_expert_parallel' is rendered for vLLM 0.7.0 … 0.7.3 but does not exist there" in problems
    assert "argument 'swap_space' is rendered for vLLM 0.18.0 … 0.34.0" in problems
    assert "'fp9' is not an allowed kv_cache_dtype" in problems
    assert "env var 'VLLM_ATTENTION_BACKEND' is rendered for vLLM 0.15.0 … 0.34.0" in problems
    assert "unknown plan field 'plan.bogus'" in problems and "unknown fact 'gpu.colour'" in problems
    assert "placeholder {plan.nope}" in problems and "no template 'no_such_template'" in problems


def test_the_knowledge_lints_clean():
    assert _lint(_raw()) == []


# --- the fixture projects ----------------------------------------------------------------------

def _report(path, gpu: str, lang: str = "en") -> dict:
    return model.build(audit(path, gpu=gpu), lang)


def _site(rep: dict, sid: str) -> dict:
    return next(s for s in rep["sites"] if s["id"] == sid)


def test_quickstart_70b_on_8_h100_is_dp_tp_replicas():
    rep = _report(ROOT / "examples" / "quickstart", "H100-80GB x8")
    sc = _site(rep, "deploy/serve.sh:10")["scenario"]
    # the layout is the one the site's own check (C5) proposes: one report, one layout
    assert sc["id"] == "S3" and sc["plan"]["tp"] == 4 and sc["plan"]["dp"] == 2
    (block,) = sc["blocks"]
    assert block["text"].startswith("vllm serve meta-llama/Llama-3.3-70B-Instruct \\")
    assert "--quantization fp8_per_block" in block["text"] and "-O2" not in block["text"]
    diff = {d["name"]: (d["current"], d["scenario"]) for d in sc["differences"]}
    assert diff["tensor_parallel_size"] == (8, 4) and diff["data_parallel_size"] == (1, 2)
    batch = _site(rep, "batch/score.py:17")["scenario"]
    assert batch["id"] == "S1" and batch["target"] == "python" and "llm = LLM(" in batch["blocks"][0]["text"]


def test_rl_trl_sites(fixtures_dir):
    rep = _report("rl-trl", "H100-80GB x4")
    colo = _site(rep, "train_colocate.py:14")
    assert colo["scenario"]["id"] == "S4" and colo["scenario"]["target"] == "trainer"
    assert "vllm_enable_sleep_mode=True" in colo["scenario"]["blocks"][0]["text"]
    assert [t["id"] for t in colo["tables"]] == ["rlhf-memory-split"]
    server = _site(rep, "scripts/grpo_server_mode.sh:8")["scenario"]
    assert server["id"] == "S5" and [b["lang"] for b in server["blocks"]] == ["bash", "python"]
    assert server["blocks"][0]["text"].startswith("trl vllm-serve --model Qwen/Qwen2.5-7B-Instruct")
    client = _site(rep, "scripts/grpo_server_mode.sh:19")["scenario"]
    # the trainer client writes no engine arguments, only how it reaches the server
    assert "--vllm_mode server" in client["blocks"][1]["text"] and "gpu_memory" not in client["blocks"][1]["text"]
    legacy = _site(rep, "legacy/train_grpo.py:12")["scenario"]
    assert "vllm_mode" not in legacy["blocks"][1]["text"]  # TRL 0.17 has no vllm_mode


def test_config_yaml_site_renders_its_own_config_file(fixtures_dir):
    sc = _site(_report("config-yaml", "H100-80GB x4"), "deploy/start.sh:2")["scenario"]
    assert sc["id"] == "S7" and [b["label"] for b in sc["blocks"]] == ["deploy/serve.yaml", "Launch command"]
    assert "enable-expert-parallel: true" in sc["blocks"][0]["text"]
    assert sc["blocks"][1]["text"].endswith("--config deploy/serve.yaml")


def test_pooling_and_framework_integrated_sites_get_no_scenario(fixtures_dir):
    rep = _report("deploy-compose", "H100-80GB x4")
    assert _site(rep, "docker-compose.yml:34")["scenario"] is None  # bge-m3: embeddings
    rep = _report("rl-llamafactory", "H100-80GB x4")
    assert _site(rep, "scripts/serve_api.sh:6")["scenario"] is None


def test_markdown_shows_the_scenario_in_both_languages():
    for lang, heading in (("en", "### Closest scenario: S3 `dp-tp-replicas`"), ("zh", "### 最接近的场景：S3 `dp-tp-replicas`")):
        text = markdown.render(_report(ROOT / "examples" / "quickstart", "H100-80GB x8", lang))
        assert heading in text


# --- round trip: a rendered config read back by the scanners --------------------------------

ROUND_TRIP = [
    # (case, file the rendered block goes in)
    ("S1", dict(model="meta-llama/Llama-3.1-8B-Instruct", gpu="A100-80GB", mode="standalone_serve", vllm_version="0.33.0")),
    ("S2", dict(model="meta-llama/Llama-3.3-70B-Instruct", gpu="A100-80GB x4", mode="standalone_serve", vllm_version="0.33.0")),
    ("S3", dict(model="meta-llama/Llama-3.3-70B-Instruct", gpu="H100-80GB x8", mode="standalone_serve", vllm_version="0.33.0")),
    ("S3", dict(model="meta-llama/Llama-3.3-70B-Instruct", gpu="H100-80GB x8", mode="standalone_serve", vllm_version="0.12.0")),
    ("S6", dict(model="meta-llama/Llama-3.1-8B-Instruct", gpu="RTX-4090", mode="standalone_offline", vllm_version="0.33.0")),
    ("S7", dict(model="deepseek-ai/DeepSeek-V3", gpu="H200 x8", mode="standalone_serve", vllm_version="0.33.0")),
    ("S7", dict(model="Qwen/Qwen3-30B-A3B", gpu="H100 x4", mode="standalone_serve", vllm_version="0.31.0", syntax="yaml-config")),
    ("S8", dict(model="meta-llama/Llama-3.1-8B-Instruct", gpu="H100", mode="standalone_serve", vllm_version="0.33.0")),
    ("S5", dict(model="Qwen/Qwen2.5-7B-Instruct", gpu="H100 x4", mode="rlhf_server", vllm_version="0.33.0")),
]


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def _write(tmp: Path, blocks, version: str) -> None:
    (tmp / "requirements.txt").write_text(f"vllm=={version}\n")
    for b in blocks:
        if b.lang == "python":
            (tmp / "run.py").write_text(b.text + "\n")
        elif b.lang == "yaml":
            (tmp / b.label).write_text(b.text + "\n")
        else:
            (tmp / "serve.sh").write_text("#!/bin/bash\n" + b.text + "\n")


@pytest.mark.parametrize("sid, kw", ROUND_TRIP, ids=[f"{s}-{k['vllm_version']}-{k.get('syntax', k['mode'])}" for s, k in ROUND_TRIP])
def test_rendered_config_reads_back_and_needs_no_change(tmp_path, sid, kw):
    ctx = scenarios.context_for(**kw)
    m = next(x for x in scenarios.match(ctx) if x.scenario.id == sid)
    blocks = scenarios.render(m, ctx).blocks
    _write(tmp_path, blocks, kw["vllm_version"])
    rep = model.build(audit(tmp_path, gpu=kw["gpu"]), "en")
    (site,) = rep["sites"]
    got = {s["name"]: s["value"] for s in site["settings"]}
    assert site["model"]["name"] == kw["model"]
    for name, value in m.args:
        assert name in got and _same(got[name], value), (name, got.get(name), value)
    assert {e["name"]: e["value"] for e in site["env"]} == dict(m.env)
    assert not [s for s in site["settings"] if not s["known"]], "a rendered flag is unknown to this release"
    # the audit of the rendered config wants to change none of the settings the scenario made
    touched = {c["target"] for r in site["recommendations"] for c in r["changes"] if r["priority"] in ("P0", "P1")}
    assert not touched & {n for n, _ in m.args}, [r["check"] for r in site["recommendations"]]
    assert not [r for r in site["recommendations"] if r["priority"] == "P0"]
    # and where it was the best match, the audit picks it again and needs no further change
    if scenarios.match(ctx)[0] is not None and scenarios.match(ctx)[0].scenario.id == sid and site["mode"] == kw["mode"]:
        assert site["scenario"]["id"] == sid and site["scenario"]["differences"] == []


def test_trl_colocate_config_reads_back(tmp_path):
    ctx = scenarios.context_for(model="Qwen/Qwen2.5-7B-Instruct", gpu="H100 x8", mode="rlhf_colocate", framework="trl",
                                vllm_version="0.33.0")
    m = scenarios.match(ctx)[0]
    (block,) = scenarios.render(m, ctx).blocks
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\ntrl==1.16.0\n")
    (tmp_path / "train.py").write_text(block.text.replace(
        "training_args = GRPOConfig(", 'training_args = GRPOConfig(\n    model_name_or_path="Qwen/Qwen2.5-7B-Instruct",') + "\n")
    (site,) = model.build(audit(tmp_path, gpu="H100 x8"), "en")["sites"]
    assert site["mode"] == "rlhf_colocate" and site["framework"] == "trl"
    got = {s["name"]: s["value"] for s in site["settings"]}
    assert got["gpu_memory_utilization"] == 0.4 and got["enable_sleep_mode"] is True
    # nothing left at P0/P1 that TRL would let you write (an FP8 KV cache, B3, is not exposed by TRL);
    # the pins themselves (TRL 1.16 declares vllm<=0.31.0) are L43's to judge, not the scenario's
    writable = [r["check"] for r in site["recommendations"] if r["priority"] in ("P0", "P1")
                and any(not c["blocked"] for c in r["changes"]) and r["check"] != "L43"]
    assert writable == []
    assert site["scenario"]["id"] == "S4" and site["scenario"]["differences"] == []


def test_scenario_rendering_follows_the_release():
    def text(version, **kw):
        ctx = scenarios.context_for(model="meta-llama/Llama-3.3-70B-Instruct", gpu="H100-80GB x8", mode="standalone_serve",
                                    vllm_version=version, **kw)
        return "\n".join(b.text for b in scenarios.render(scenarios.match(ctx)[0], ctx).blocks)

    assert "--quantization fp8_per_block" in text("0.33.0") and "--quantization fp8 " in text("0.19.0")
    assert "--api-server-count 4" in text("0.14.0") and "--api-server-count" not in text("0.15.0")
    assert "--gpu-memory-utilization 0.9 " in text("0.19.0") and "--gpu-memory-utilization" not in text("0.34.0")


def test_a_described_launch_gets_the_kind_its_scanner_gives():
    # vLLM's own, and each framework's usual entry point in its own syntax (knowledge/frameworks `described_kind`)
    from vllm_kb.engine.advise.scenarios.matching import described_kind

    assert [described_kind("none", s) for s in ("cli", "yaml-config", "python-call")] == ["vllm serve", "vllm serve", "LLM()"]
    assert described_kind("verl", "hydra-override") == "verl main_ppo"
    assert described_kind("trl", "python-call") == "GRPOConfig()" and described_kind("trl", "cli") == "trl vllm-serve"
    assert described_kind("openrlhf", "cli") == "openrlhf train_ppo_ray" and described_kind("roll", "framework-config") == "roll framework-config"
