"""A framework's version gate that runs only for some launches is no P0 for the others: ms-swift
2.2.0-2.2.5 call require_version('vllm>=0.5') only where MODEL_MAPPING[model_type] carries a vllm_config
(swift/llm/utils/vllm_utils.py get_vllm_engine, 2.2.0 :92-93, 2.2.5 :94-95; the LLaVA and Phi-3-vision
types), so `swift infer` of a text model with vLLM 0.4.3 passes it."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import framework_compat  # noqa: E402


def _l43(tmp_path, model_type: str, vllm: str = "0.4.3"):
    (tmp_path / "requirements.txt").write_text(f"ms-swift==2.2.0\nvllm=={vllm}\n")
    (tmp_path / "infer.sh").write_text(f"#!/bin/bash\nswift infer --model_type {model_type} --infer_backend vllm\n")
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    return next(r for r in sr.results if r.check.id == "L43")


@pytest.mark.parametrize("model_type,priority", [
    ("qwen1half-7b-chat", None),                 # no vllm_config: the gate is never called
    ("llava1_6-mistral-7b-instruct", "P0"),      # vllm_config: require_version raises on 0.4.3
    ("phi3-vision-128k-instruct", "P0"),
])
def test_ms_swift_22_gate_only_for_model_types_with_a_vllm_config(tmp_path, model_type, priority):
    assert _l43(tmp_path, model_type).priority == priority


def test_the_gate_passes_for_a_vision_type_on_vllm_05(tmp_path):
    assert _l43(tmp_path, "llava1_6-mistral-7b-instruct", "0.5.0").priority is None


def test_the_generator_writes_the_gate_with_its_condition():
    rel = {"release": "2.2.0", "vllm": "", "runtime_check": [
        {"file": "swift/llm/utils/vllm_utils.py", "line": 93, "kind": "require_version", "text": "vllm>=0.5"}]}
    (row,) = framework_compat.rows_for("ms-swift", [rel])
    assert row["scope"] == "feature" and "phi3-vision-128k-instruct" in row["when"]["model_type"]
    other = {**rel, "runtime_check": [{**rel["runtime_check"][0], "file": "swift/llm/infer.py"}]}
    (row,) = framework_compat.rows_for("ms-swift", [other])
    assert row["scope"] == "install" and "when" not in row
