"""L125: a transformers pin past what the pinned vLLM release takes from transformers at start
(knowledge/vllm/transformers_imports.yaml, tools/vllm_transformers_imports.py): vLLM 0.9.0–0.9.2
register `aimv2` with AutoConfig, which transformers 4.54 maps itself; a pin of 4.54+ is P0, an
older pin or a later vLLM says nothing, no pin on a fresh install is P1, vLLM's own image is not
judged. Also L52's proposed vLLM release for an image too old for the model type."""
from __future__ import annotations

from pathlib import Path

import yaml

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.transformers_fit import first_image_release

ROOT = Path(__file__).resolve().parents[1]
SERVE = "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"


def _l125(write_project, files: dict[str, str]):
    rep = audit(write_project({"serve.sh": SERVE, **files}), gpu="A100-80GB")
    (sr,) = rep.sites
    (r,) = [r for r in sr.results if r.check.id == "L125"]
    return (r.status, r.priority if r.status == "recommended" else None), sr


def test_the_table_holds_the_aimv2_registration():
    data = yaml.safe_load((ROOT / "knowledge" / "vllm" / "transformers_imports.yaml").read_text("utf-8"))
    for release in ("0.9.0", "0.9.1", "0.9.2"):
        rows = [r for r in data["imports"][release] if r.get("register") == "aimv2"]
        assert rows and rows[0]["file"] == "vllm/transformers_utils/configs/ovis.py"
        assert rows[0]["removed"].startswith("4.54.")
    assert not any(r.get("register") == "aimv2" for r in data["imports"].get("0.10.0", []))


def test_a_pin_past_the_registration_is_p0(write_project):
    verdict, sr = _l125(write_project, {"requirements.txt": "vllm==0.9.2\ntransformers==4.56.2\n"})
    assert verdict == ("recommended", "P0")
    assert sr.facts["launch"]["tf_gone_fix"] == "<4.54"
    assert any(c.op == "pin" and c.target == "transformers" for c in sr.changes)


def test_an_older_pin_or_a_later_vllm_says_nothing(write_project):
    assert _l125(write_project, {"requirements.txt": "vllm==0.9.2\ntransformers==4.53.2\n"})[0] == ("not_applicable", None)
    assert _l125(write_project, {"requirements.txt": "vllm==0.9.2\ntransformers>=4.51\n"})[0] == ("not_applicable", None)
    assert _l125(write_project, {"requirements.txt": "vllm==0.10.0\ntransformers==4.56.2\n"})[0][1] != "P0"


def test_no_pin_is_a_fresh_install_p1_and_the_image_is_not_judged(write_project):
    assert _l125(write_project, {"requirements.txt": "vllm==0.9.2\n"})[0] == ("recommended", "P1")
    image = "docker run --gpus all vllm/vllm-openai:v0.9.2 --model Qwen/Qwen2.5-7B-Instruct\n"
    rep = audit(write_project({"run.sh": image}), gpu="A100-80GB")
    (r,) = [r for sr in rep.sites if sr.site.file.endswith("run.sh") for r in sr.results if r.check.id == "L125"]
    assert r.status == "not_applicable"


def test_l52_proposes_the_first_image_that_reads_the_type():
    kb = yaml.safe_load((ROOT / "knowledge" / "vllm" / "model_types.yaml").read_text("utf-8"))
    days = yaml.safe_load((ROOT / "knowledge" / "vllm" / "release_dates.yaml").read_text("utf-8"))["released"]
    assert first_image_release("qwen2_5_vl", "0.7.2", kb, days) == "0.7.3"
    assert first_image_release("cohere2", "0.6.4", kb, days) == "0.7.0"  # vLLM's own config class from 0.7.0
    assert first_image_release("qwen3", "0.8.3", kb, days) == "0.8.4"
