"""A model a framework names by its registry key (knowledge/frameworks/<id>.yaml › model_names):
ms-swift 2.x `--model_type qwen2-7b-instruct`, mapped to its Hugging Face id by the generated
knowledge/frameworks/swift_model_types.json (tools/swift_model_types.py)."""
from __future__ import annotations

import json

import pytest

from vllm_kb.engine.kb import frameworks, resources

INFER = """\
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 swift infer \\
    --model_type {mtype} {extra} \\
    --infer_backend vllm \\
    --tensor_parallel_size 8
"""


def test_the_table_is_generated_from_the_2x_releases():
    data = json.loads(resources.read_text("knowledge", "frameworks", "swift_model_types.json"))
    assert data["releases"][0] == "2.0.0" and data["releases"][-1].startswith("2.")
    row = data["model_types"]["qwen2-7b-instruct"]
    assert row["hf"] == "Qwen/Qwen2-7B-Instruct" and row["ms"] == "qwen/Qwen2-7B-Instruct"


@pytest.mark.parametrize("version, named", [("2.4.2", "Qwen/Qwen1.5-4B-Chat"), (None, "Qwen/Qwen1.5-4B-Chat"), ("3.4.1", None)])
def test_named_model_by_release(version, named):
    got = frameworks.get("ms-swift").named_model({"model_type": "qwen1half-4b-chat"}, version)
    assert (got[1] if got else None) == named
    # a 3.x model_type is an architecture family no 2.x key spells
    assert frameworks.get("ms-swift").named_model({"model_type": "qwen2_5"}, None) is None


def test_model_type_gives_the_model_facts(json_site, write_project):
    root = write_project({"infer.sh": INFER.format(mtype="qwen1half-4b-chat", extra=""),
                          "requirements.txt": "ms-swift==2.0.5\nvllm==0.3.3\n"})
    site = json_site(root, "A100-80GB x8")
    assert site["model"]["name"] == "Qwen/Qwen1.5-4B-Chat"
    assert "L1" in [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]  # 20 heads, TP 8


def test_model_id_or_path_wins(json_site, write_project):
    root = write_project({"infer.sh": INFER.format(mtype="qwen1half-4b-chat", extra="--model_id_or_path Qwen/Qwen1.5-7B-Chat"),
                          "requirements.txt": "ms-swift==2.0.5\nvllm==0.3.3\n"})
    site = json_site(root, "A100-80GB x8")
    assert site["model"]["name"] == "Qwen/Qwen1.5-7B-Chat"
