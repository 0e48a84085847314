"""A JSON run record's `"vllm_version"` (engine/scan/run_records.py): the build the launches in its
folder ran, instead of the newest release (eval68 vllm-ds4-sm120-harness: a benchmark harness keeps
each baseline's manifest.json with the vLLM it ran on)."""
from __future__ import annotations

import json

from vllm_kb.engine.scan import run_records

# a baseline folder as a benchmark harness leaves it: the serve script and the record of the run
SERVE = ("#!/usr/bin/env bash\nvllm serve deepseek-ai/DeepSeek-V2-Lite --trust-remote-code --max-model-len 8192 "
         "--attention-config.use_fp4_indexer_cache=True\n")


def _record(version: str) -> str:
    return json.dumps({"label": "b200_tp2", "environment": {"python": "3.12.3", "vllm_version": version,
                                                            "vllm_git_sha": "5737770c6"}}, indent=2)


def test_the_recorded_build_is_the_release_of_its_folder(write_project, json_site):
    root = write_project({"baselines/b200/serve.sh": SERVE, "baselines/b200/manifest.json": _record("0.20.1rc1.dev144+g5737770c6")})
    site = json_site(root)
    v = site["vllm"]
    assert v["version"] == "0.20.1" and "baselines/b200/manifest.json" in v["source"], v
    # the option the run used is there in that build; the newest release dropped it (a P0 only there)
    assert not [r for r in site["recommendations"] if r["priority"] == "P0"], site["recommendations"]


def test_without_the_record_the_newest_release_judges_it(write_project, json_site):
    site = json_site(write_project({"baselines/b200/serve.sh": SERVE}))
    assert site["vllm"]["basis"] == "none"
    assert [r for r in site["recommendations"] if r["priority"] == "P0"], site["recommendations"]


def test_a_record_names_one_build_or_none():
    assert [p.exact for p in run_records.pins("m.json", _record("0.10.1.1"))] == ["0.10.1.1"]
    two = '{"a": {"vllm_version": "0.10.1.1"}, "b": {"vllm_version": "0.11.0"}}'
    assert run_records.pins("m.json", two) == []
    # a checkout built without its tags: setuptools-scm's placeholder names no release
    assert run_records.pins("m.json", _record("0.1.dev16678+gd99ffa034")) == []
    assert run_records.pins("m.json", _record("unknown")) == []


def test_a_project_that_pins_vllm_is_judged_at_its_pin_not_a_record(write_project, json_site):
    root = write_project({"requirements.txt": "vllm==0.34.0\n", "baselines/b200/serve.sh": SERVE,
                          "baselines/b200/manifest.json": _record("0.20.1rc1.dev144+g5737770c6")})
    assert json_site(root)["vllm"]["version"] == "0.34.0"
