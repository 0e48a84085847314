"""Audits of the fixture projects: what a vLLM engineer would check by reading them, then the
whole reports as snapshots (Markdown en/zh, JSON against schema/report.schema.json)."""
from __future__ import annotations

import pytest
from syrupy.extensions.json import JSONSnapshotExtension
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import schemas
from vllm_kb.engine.report import markdown, model

GPU = "H100-80GB x4"
PROJECTS = ["stale-serve", "offline-batch", "config-yaml", "no-vllm"]
# One per RL framework and deployment syntax, plus the negative corpus (tests/test_frameworks.py
# holds their asserted site facts); their whole reports are snapshots too.
SYNTAX_PROJECTS = ["rl-trl", "rl-verl", "rl-openrlhf", "rl-llamafactory", "rl-msswift", "deploy-docker",
                   "deploy-compose", "deploy-k8s", "deploy-helm", "neg-mentions", "neg-sglang"]


def report(name: str, lang: str = "en") -> dict:
    return model.build(audit(name, gpu=GPU), lang)


def recs(site: dict, priority: str) -> set[str]:
    return {r["check"] for r in site["recommendations"] if r["priority"] == priority}


def setting(site: dict, name: str) -> dict:
    return next(s for s in site["settings"] if s["name"] == name)


def test_stale_serve_script(fixtures_dir):
    r = report("stale-serve")
    (site,) = r["sites"]
    assert site["kind"] == "api_server" and site["mode"] == "standalone_serve"
    assert site["vllm"]["version"] == "0.33.0" and site["vllm"]["pinned"]
    assert site["model"]["name"] == "meta-llama/Llama-3.1-70B-Instruct"
    assert setting(site, "tensor_parallel_size")["value"] == 4  # "$TP" from TP=${TP:-4}
    assert setting(site, "swap_space")["line"] == 18 and not setting(site, "swap_space")["known"]
    p0 = recs(site, "P0")
    assert {"B3", "B4"} <= p0  # --calculate-kv-scales and --swap-space break the launch
    stale = {"not-in-version:num_scheduler_steps", "not-in-version:use_v2_block_manager",
             "not-in-version:max_seq_len_to_capture", "not-in-version:disable_log_requests"}
    assert stale <= p0
    assert {"A2", "F2"} <= recs(site, "P1")
    (diff,) = site["after"]
    removed = [line for line in diff["text"].splitlines() if line.startswith("-    --")]
    assert {line.split()[1] for line in removed} >= {"--swap-space", "--num-scheduler-steps", "--use-v2-block-manager",
                                                     "--max-seq-len-to-capture", "--disable-log-requests", "--enforce-eager",
                                                     "--calculate-kv-scales"}
    assert "+    --attention-backend FLASHINFER \\" in diff["text"]


def test_offline_batch_job_with_dict_kwargs(fixtures_dir):
    r = report("offline-batch")
    (site,) = r["sites"]
    assert site["kind"] == "LLM()" and site["mode"] == "standalone_offline"
    assert not site["vllm"]["pinned"] and site["vllm"]["version"] == "0.11.2"  # vllm>=0.10,<0.12
    assert setting(site, "gpu_memory_utilization")["line"] == 15
    assert setting(site, "max_model_len")["value"] == 32768  # MAX_LEN constant
    seed = setting(site, "seed")  # int(os.environ.get("SEED", "0")): the code's default, said to be one
    assert seed["value"] == 0 and seed["note"] == "default of os.environ.get('SEED')"
    assert {"B1", "B3", "E4"} <= recs(site, "P1")
    b1 = next(c for c in site["changes"] if c["target"] == "gpu_memory_utilization")
    assert b1["line"] == 15 and b1["after"] == "gpu_memory_utilization=0.9"  # the 0.11 default, not 0.92


def test_config_yaml_deployment(fixtures_dir):
    r = report("config-yaml")
    (site,) = r["sites"]
    assert site["config_file"] == "deploy/serve.yaml"
    assert site["model"]["name"] == "Qwen/Qwen3-30B-A3B" and site["model"]["moe"]
    assert setting(site, "max_num_seqs")["file"] == "deploy/serve.yaml" and setting(site, "max_num_seqs")["line"] == 8
    assert setting(site, "api_key")["value"] is None and not setting(site, "api_key")["resolved"]
    e4 = next(c for c in site["changes"] if c["target"] == "enable_prefix_caching")
    assert e4["file"] == "deploy/serve.yaml" and e4["op"] == "unset"
    assert {"C4", "E4"} <= recs(site, "P1")
    assert "C3" in recs(site, "P2")  # idle GPUs counted only from --gpu's machine, not from the project (3d658eb3)
    # new keys go into the config file, in its own key style
    assert any(c["after"] == "kv-cache-dtype: fp8" and c["file"] == "deploy/serve.yaml" for c in site["changes"])


def test_project_without_vllm(fixtures_dir):
    r = report("no-vllm")
    # its transformers pin is read (it would judge a checkpoint's model type) but names no vLLM
    assert r["sites"] == [] and [p["package"] for p in r["project"]["pins"]] == ["transformers"]
    assert r["summary"]["recommendations"] == {"P0": 0, "P1": 0, "P2": 0}


@pytest.mark.parametrize("name", PROJECTS + SYNTAX_PROJECTS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_markdown_report(fixtures_dir, name, lang, snapshot):
    assert markdown.render(report(name, lang)) == snapshot


@pytest.mark.parametrize("name", PROJECTS)
def test_json_report(fixtures_dir, name, snapshot):
    data = report(name)
    assert schemas.errors("report", data) == []
    assert data == snapshot(extension_class=JSONSnapshotExtension)


@pytest.mark.parametrize("name", SYNTAX_PROJECTS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_json_report_is_valid(fixtures_dir, name, lang):
    assert schemas.errors("report", report(name, lang)) == []
