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
