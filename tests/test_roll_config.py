"""ROLL (alibaba/ROLL, https://github.com/alibaba/ROLL, eval85) pipeline YAML: each worker role whose
`strategy_args.strategy_name` is `vllm` is an engine whose `strategy_config` becomes AsyncEngineArgs
keywords (roll/distributed/strategy/vllm_strategy.py); actor_infer takes the top-level `pretrain` when its
own model is empty. The project keeps one requirements file per backend (vllm==0.8.4, vllm==0.10.2, a bare
nightly vllm): a site is judged over those alternatives, so an option only some of them lack is a P1."""
from __future__ import annotations

from vllm_kb.engine.audit import audit

PIPELINE = """\
pretrain: Qwen/Qwen2.5-7B-Instruct
response_length: 2048
actor_infer:
  model_args:
    dtype: bf16
  strategy_args:
    strategy_name: vllm
    strategy_config:
      gpu_memory_utilization: 0.6
      block_size: 16
      max_model_len: ${response_length}
      sleep_level: 2
{extra}
  num_gpus_per_worker: 1
rewards:
  llm_judge:
    model_args:
      model_name_or_path: ${pretrain}
    strategy_args:
      strategy_name: hf_infer
"""


def _sites(tmp_path, extra: str = "", reqs: dict | None = None):
    (tmp_path / "rlvr.yaml").write_text(PIPELINE.replace("{extra}", extra))
    for name, text in (reqs or {"requirements_torch280_vllm.txt": "vllm==0.10.2\n"}).items():
        (tmp_path / name).write_text(text)
    return audit(tmp_path, gpu="H100-80GB x8").sites


def test_a_vllm_role_is_a_site_with_its_strategy_config(tmp_path):
    (sr,) = _sites(tmp_path)
    s = sr.site
    assert s.framework == "roll" and s.line == 7 and s.model.value == "Qwen/Qwen2.5-7B-Instruct"
    assert s.settings["gpu_memory_utilization"].value == 0.6 and s.settings["block_size"].value == 16
    assert s.settings["max_model_len"].value == 2048  # ${response_length}
    assert s.settings["dtype"].value == "bfloat16" and "sleep_level" not in s.settings
    assert s.framework_defaults.get("load_format") == "dummy"


def test_another_role_with_vllm_is_a_site_of_its_own(tmp_path):
    (tmp_path / "rlvr.yaml").write_text(PIPELINE.replace("{extra}", "").replace("strategy_name: hf_infer", "strategy_name: vllm"))
    sites = audit(tmp_path, gpu="H100-80GB x8").sites
    assert sorted(s.site.kind for s in sites) == ["ROLL config (actor_infer)", "ROLL config (rewards.llm_judge)"]


def test_an_option_only_some_alternatives_lack_is_no_p0(tmp_path):
    reqs = {"requirements_torch260_vllm.txt": "vllm==0.8.4\n", "requirements_torch2100_vllm.txt": "vllm\n"}
    (sr,) = _sites(tmp_path, "      optimization_level: 2\n      disable_mm_preprocessor_cache: true", reqs)
    assert sr.site.framework == "roll" and sr.version.basis == "range"
    assert not [f for f in sr.remarks if f.priority == "P0"]
    # gone from the nightly, still in 0.8.4: said, not a refusal
    assert [f.priority for f in sr.remarks if f.subject == "disable_mm_preprocessor_cache"] == ["P1"]
    # the one file of 0.8.4 alone: that release refuses optimization_level
    (tmp_path / "requirements_torch2100_vllm.txt").unlink()
    (sr,) = audit(tmp_path, gpu="H100-80GB x8").sites
    assert any(f.subject == "optimization_level" and f.priority == "P0" for f in sr.remarks)


def test_a_change_to_a_key_not_written_goes_under_the_role(tmp_path):
    # B3's kv_cache_dtype: P2 for a rollout since e8d5bd5e, so not in sr.after; the same writer places it
    from vllm_kb.engine.fix.text_edits import diffs
    (tmp_path / "rlvr.yaml").write_text(PIPELINE.replace("{extra}", ""))
    (tmp_path / "requirements_torch280_vllm.txt").write_text("vllm==0.10.2\n")
    rep = audit(tmp_path, gpu="H100-80GB x8")
    (sr,) = rep.sites
    kv = [c for c in sr.changes if c.target == "kv_cache_dtype"]
    (diff,) = [a["text"] for a in diffs(sr.site, kv, rep.ctx.read) if a["file"] == "rlvr.yaml"]
    added = [ln for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert added and all(ln.startswith("+      ") for ln in added)  # inside actor_infer.strategy_args.strategy_config


def test_a_model_that_is_not_a_name_costs_no_site(tmp_path):
    # review7: `pretrain: [a, b]` reached the checkpoint reader as a list (TypeError: the site was
    # lost as a scanner-error); a model that is no string names no checkpoint, the site stands
    (tmp_path / "rlvr.yaml").write_text(PIPELINE.replace("{extra}", "").replace(
        "pretrain: Qwen/Qwen2.5-7B-Instruct", "pretrain: [Qwen/Qwen2.5-7B-Instruct, Qwen/Qwen3-8B]"))
    rep = audit(tmp_path, gpu="H100-80GB x8")
    assert len(rep.sites) == 1 and not [s for s in rep.skipped if "scanner-error" in str(s)]


def test_a_range_file_is_its_releases_and_a_pin_change_is_named(tmp_path):
    # review8: requirements_torch260_vllm.txt with `vllm>=0.8,<0.9` was left out of the alternatives; it
    # gives each release it allows beside its torch==2.6.0 (0.8.x), so the site spans 0.8.0 … nightly
    from vllm_kb.engine.scan import pin_alternatives
    from vllm_kb.engine.scan.project import scan_project

    reqs = {"requirements_torch260_vllm.txt": "torch==2.6.0\nvllm>=0.8,<0.9\n", "requirements_torch2100_vllm.txt": "vllm\n"}
    (sr,) = _sites(tmp_path, "", reqs)
    assert sr.version.basis == "range" and sr.version.among[:6] == ("0.8.0", "0.8.1", "0.8.2", "0.8.3", "0.8.4", "0.8.5")
    assert sr.version.among[-1] == "0.34.0" and "0.9.0" not in sr.version.among
    # a pin change over files that are alternatives is named, never written into one of them
    ctx = scan_project(tmp_path).ctx
    alts = pin_alternatives.releases(ctx, ["requirements_torch260_vllm.txt", "requirements_torch2100_vllm.txt"])
    assert {v for v, _ in alts} >= {"0.8.0", "0.8.5"} and "0.9.0" not in {v for v, _ in alts}
    from vllm_kb.engine.fix.pins import _pin_change

    ch = _pin_change(sr.site, "vllm", "==0.10.2", [], sr.version)
    assert ch.before is None and ch.line is None and ch.after == "vllm==0.10.2"
