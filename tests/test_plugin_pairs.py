"""vllm-omni ↔ vLLM pairs reported to fail (knowledge/frameworks/compat.yaml hand rows: the plugin's
wheel declares no vllm requirement): vllm-omni 0.14.0 with vLLM 0.15.0 stops at `--omni`
(vllm-omni #1364); the matching pair says nothing."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

SERVE = "vllm serve Qwen/Qwen2.5-Omni-7B --omni --port 8091\n"


def _l43(write_project, vllm: str, omni: str):
    root = write_project({"requirements.txt": f"vllm=={vllm}\nvllm-omni=={omni}\n", "serve.sh": SERVE})
    (sr,) = audit(root, gpu="H100-80GB").sites
    (r,) = [r for r in sr.results if r.check.id == "L43"]
    return r, sr


def test_omni_014_with_vllm_015_is_refused(write_project):
    r, sr = _l43(write_project, "0.15.0", "0.14.0")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert sr.facts["launch"]["plugin_fit_vllm"] == "==0.14.0"
    assert "unrecognized arguments: --omni" in sr.facts["launch"]["plugin_problem_text"]


def test_the_matching_pair_is_not(write_project):
    r, _ = _l43(write_project, "0.14.0", "0.14.0")
    assert not (r.status == "recommended" and r.priority == "P0")


def test_omni_024_with_vllm_0251_stops_in_the_plugin_cli(write_project):
    # vLLM 0.20.0+ hands `--omni` to vllm_omni.entrypoints.cli.main; 0.24.0's server module imports
    # vllm.entrypoints.serve.{disagg,render}.serving, gone in vLLM 0.25.0 (vllm-project/vllm-omni#4840)
    r, sr = _l43(write_project, "0.25.1", "0.24.0")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert sr.facts["launch"]["plugin_entry"] == "omni cli"
    assert sr.facts["launch"]["plugin_fit_vllm"] == "==0.24.0"
    assert "vllm.entrypoints.serve" in sr.facts["launch"]["plugin_problem_text"]
    assert "vllm serve --omni" in r.reason.en


def test_each_release_with_the_vllm_it_was_built_for_is_not(write_project):
    for v in ("0.20.0", "0.22.0", "0.24.0", "0.26.0", "0.28.0", "0.30.0"):
        r, _ = _l43(write_project, v, v)
        assert not (r.status == "recommended" and r.priority == "P0"), v
