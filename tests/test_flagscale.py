"""FlagScale serve configs (engine/scan/deploy/flagscale.py): the `engine_args` of an `engine: vllm`
entry become `vllm serve <model> --key value` (flagscale/serve/run_inference_engine.py and
flagscale/utils.py flatten_dict_to_args, FlagOpen/FlagScale da4935e)."""
from __future__ import annotations

import json

from vllm_kb.engine.audit import audit

SERVE = """- serve_id: vllm_model
  engine: vllm
  engine_args:
    model: Qwen/Qwen2.5-VL-7B-Instruct
    tensor_parallel_size: 2
    max_model_len: 16384
    limit_mm_per_prompt: image=4
    enable_prefix_caching: false
    enforce_eager: false
    compilation_config: {level: 3}
  engine_args_specific:
    vllm:
      max_num_seqs: 8
      tensor_parallel_size: 4
- serve_id: sglang_model
  engine: sglang
  engine_args:
    model: Qwen/Qwen2.5-7B-Instruct
"""


def _site(tmp_path, text, pin="vllm==0.10.1\n"):
    (tmp_path / "conf" / "serve").mkdir(parents=True)
    (tmp_path / "conf" / "serve" / "7b.yaml").write_text(text)
    (tmp_path / "requirements.txt").write_text(pin)
    rep = audit(tmp_path, gpu="H100-80GB x2")
    return rep, [sr for sr in rep.sites if sr.site.file == "conf/serve/7b.yaml"]


def test_vllm_entries_are_serve_sites_with_engine_args_as_flags(tmp_path):
    _, (sr,) = _site(tmp_path, SERVE)  # the sglang entry is not vLLM's
    s = sr.site
    assert s.kind == "vllm serve" and s.tool == "flagscale" and s.model.value == "Qwen/Qwen2.5-VL-7B-Instruct"
    # engine_args wins over engine_args_specific.vllm; both reach the command line
    assert s.settings["tensor_parallel_size"].value == 2 and s.settings["max_num_seqs"].value == 8
    assert s.gpu_request is None and s.settings["max_model_len"].line == 6
    # false is left out (vLLM's default applies, true for prefix caching in V1); a store_true's false is false
    assert not s.settings["enable_prefix_caching"].resolved and s.settings["enforce_eager"].value is False
    # a mapping is flattened into flags of its keys: not this argument
    assert not s.settings["compilation_config"].resolved and s.opaque


def test_the_old_mm_limit_form_is_a_p0_fixed_in_place_as_a_json_string(tmp_path):
    rep, (sr,) = _site(tmp_path, SERVE)
    assert any(r.check.name == "mm-limit-form" and r.priority == "P0" and r.status == "recommended" for r in sr.results)
    after = json.dumps(sr.after)
    assert json.dumps('+    limit_mm_per_prompt: "{\\"image\\": 4}"')[1:-1] in after


def test_a_task_config_with_an_inline_serve_list_and_a_hydra_root_without_one(tmp_path):
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "serve.yaml").write_text("defaults:\n  - _self_\n  - serve: 7b\nexperiment:\n  task:\n    type: serve\n")
    (tmp_path / "conf" / "inline.yaml").write_text("experiment:\n  task: {type: serve}\nserve:\n" + "".join("  " + ln + "\n" for ln in SERVE.splitlines()))
    rep = audit(tmp_path, gpu="H100-80GB x2")
    files = sorted(sr.site.file for sr in rep.sites)
    assert files == ["conf/inline.yaml"]


def test_use_fs_serve_picks_ray_serve_keywords_or_vllm_serve_flags(tmp_path):
    (tmp_path / "conf" / "serve").mkdir(parents=True)
    (tmp_path / "conf" / "serve" / "a.yaml").write_text(SERVE)
    (tmp_path / "conf" / "serve" / "b.yaml").write_text(SERVE)
    task = "defaults:\n  - _self_\n  - serve: {name}\nexperiment:\n  task: {{type: serve}}\n  runner:\n    deploy: {{use_fs_serve: {fs}}}\n"
    (tmp_path / "conf" / "ray.yaml").write_text(task.format(name="a", fs="true"))
    (tmp_path / "conf" / "cli.yaml").write_text(task.format(name="b", fs="false"))
    (tmp_path / "requirements.txt").write_text("vllm==0.10.1\n")
    rep = audit(tmp_path, gpu="H100-80GB x2")
    by = {sr.site.file: sr for sr in rep.sites}
    a, b = by["conf/serve/a.yaml"], by["conf/serve/b.yaml"]
    # run_fs_serve_vllm.py: engine_args (not engine_args_specific) as EngineArgs keywords
    assert a.site.syntax == "kwargs-yaml" and a.site.settings["tensor_parallel_size"].value == 2
    assert "max_num_seqs" not in a.site.settings and a.site.model.value == "Qwen/Qwen2.5-VL-7B-Instruct"
    assert not any(r.check.name == "mm-limit-form" and r.priority == "P0" for r in a.results)
    assert b.site.syntax == "yaml-config" and any(r.check.name == "mm-limit-form" and r.priority == "P0" for r in b.results)
