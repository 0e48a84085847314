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
