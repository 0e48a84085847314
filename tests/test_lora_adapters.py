"""The rank of the LoRA adapters a launch names, read from adapter_config.json inside the project
(engine/check/lora_adapters.py), and L62 on a served adapter above max_lora_rank."""
from __future__ import annotations

import json
from pathlib import Path

from vllm_kb.engine.check.lora_adapters import lora_facts


def _adapter(folder: Path, **cfg) -> None:
    folder.mkdir(parents=True)
    (folder / "adapter_config.json").write_text(json.dumps({"peft_type": "LORA", **cfg}), encoding="utf-8")


def test_the_largest_rank_of_the_adapters_inside_the_project(tmp_path):
    _adapter(tmp_path / "adapters" / "a", r=16)
    _adapter(tmp_path / "deploy" / "b", r=64)
    args = {"lora_modules": ["a=./adapters/a", '{"name": "b", "path": "b"}', "c=/elsewhere/c", "d=$ADAPTER"]}
    assert lora_facts(args, {}, tmp_path, tmp_path / "deploy") == {"lora_rank": 64, "lora_adapter": "b"}


def test_a_framework_adapter_and_nothing_outside_the_project(tmp_path):
    _adapter(tmp_path / "saves" / "lora", r=32)
    assert lora_facts({}, {"adapter_name_or_path": "saves/lora"}, tmp_path, tmp_path) == {"lora_rank": 32, "lora_adapter": "saves/lora"}
    outside = tmp_path.parent / (tmp_path.name + "-outside")
    _adapter(outside, r=128)
    assert lora_facts({"lora_modules": [f"x={outside}"]}, {}, tmp_path, tmp_path) == {}
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "adapter_config.json").write_text("{not json", encoding="utf-8")
    assert lora_facts({"lora_modules": ["x=bad"]}, {}, tmp_path, tmp_path) == {}


def _l62(tmp_path, extra: str) -> dict:
    from vllm_kb.engine.audit import audit

    _adapter(tmp_path / "output" / "ckpt", r=32)
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\nms-swift==3.4.1\n")
    (tmp_path / "infer.sh").write_text(f"swift infer --adapters output/ckpt --infer_backend vllm{extra}\n")
    rep = audit(tmp_path, gpu="A100-80GB")
    return {r.check.id: r for s in rep.sites for r in s.results if r.check.id == "L62"}


def test_swift_infer_adapters_turn_lora_on_and_the_first_request_fails(tmp_path):
    # ms-swift 3.x get_vllm_engine_kwargs: enable_lora when --adapters is given, max_lora_rank 16 by default
    got = _l62(tmp_path, "")["L62"]
    assert got.status == "recommended" and got.priority == "P0", got


def test_swift_infer_control_with_the_rank_raised(tmp_path):
    got = _l62(tmp_path, " --vllm_max_lora_rank 32")["L62"]
    assert got.status == "enabled", got


def test_modules_to_save_and_dora_are_the_refused_features(tmp_path):
    # vllm/lora/peft_helper.py _validate_features: any modules_to_save before 0.31.0, only a
    # classifier/score head from 0.31.0; use_dora always
    _adapter(tmp_path / "a", r=8, modules_to_save=["embed_tokens", "lm_head"])
    _adapter(tmp_path / "b", r=8, modules_to_save=["score"])
    _adapter(tmp_path / "c", r=8, use_dora=True)
    _adapter(tmp_path / "d", r=8, modules_to_save=None, use_dora=False)
    got = lora_facts({"lora_modules": ["a=a"]}, {}, tmp_path, tmp_path)
    assert got["lora_refused"] == got["lora_refused_031"] == "a (modules_to_save: embed_tokens, lm_head)"
    got = lora_facts({"lora_modules": ["b=b"]}, {}, tmp_path, tmp_path)
    assert got["lora_refused"] == "b (modules_to_save: score)" and "lora_refused_031" not in got
    assert lora_facts({"lora_modules": ["c=c"]}, {}, tmp_path, tmp_path)["lora_refused_031"] == "c (use_dora)"
    assert lora_facts({"lora_modules": ["d=d"]}, {}, tmp_path, tmp_path) == {"lora_rank": 8, "lora_adapter": "d"}


def _l284(tmp_path, pin: str, saves: list[str]) -> object:
    from vllm_kb.engine.audit import audit

    _adapter(tmp_path / "lora", r=8, target_modules=["q_proj", "v_proj"], modules_to_save=saves)
    (tmp_path / "requirements.txt").write_text(f"vllm=={pin}\n")
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen2.5-1.5B-Instruct --enable-lora --lora-modules x=./lora\n")
    rep = audit(tmp_path, gpu="A100-80GB")
    return next(r for s in rep.sites for r in s.results if r.check.id == "L284")


def test_a_served_adapter_with_modules_to_save_stops_the_server(tmp_path):
    got = _l284(tmp_path, "0.10.0", ["embed_tokens", "lm_head"])
    assert got.status == "recommended" and got.priority == "P0", got


def test_a_classifier_head_passes_from_031(tmp_path):
    assert _l284(tmp_path, "0.31.0", ["score"]).status == "not_applicable"
