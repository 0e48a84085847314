"""L125, the other side: the architecture's own vLLM module imports a transformers name that the
transformers in use does not have yet (knowledge/vllm/transformers_since.yaml,
tools/vllm_transformers_since.py). vLLM 0.7.2's Qwen2.5-VL module imports Qwen2_5_VLImageProcessor,
which no transformers release ever had (4.49.0, the first with Qwen2.5-VL, shipped without it): P0
with any transformers release, and 0.7.3 — which stopped importing it — is the proposed vLLM. The
same transformers with 0.7.3, or with a text-only model, says nothing; a transformers installed from
its repository says nothing."""
from __future__ import annotations

from pathlib import Path

import yaml

from vllm_kb.engine.audit import audit

ROOT = Path(__file__).resolve().parents[1]
OFFLINE = 'from vllm import LLM\n\nllm = LLM(model="{model}")\n'


def _l125(write_project, model: str, requirements: str):
    rep = audit(write_project({"infer.py": OFFLINE.format(model=model), "requirements.txt": requirements}), gpu="H100-80GB")
    (sr,) = rep.sites
    (r,) = [r for r in sr.results if r.check.id == "L125"]
    return (r.status, r.priority if r.status == "recommended" else None), sr


def test_the_table_holds_qwen25vl_in_072_only():
    data = yaml.safe_load((ROOT / "knowledge" / "vllm" / "transformers_since.yaml").read_text("utf-8"))
    rows = [r for r in data["models"] if r["import"].endswith(".Qwen2_5_VLImageProcessor")
            and "Qwen2_5_VLForConditionalGeneration" in r["architectures"]]
    assert rows and all(r["has"] == [] for r in rows)
    assert all(["0.7.2", "0.7.2"] in r["vllm"] for r in rows)
    assert not any(a <= "0.7.3" <= b for r in rows for a, b in r["vllm"] if a.count(".") == b.count("."))


def test_a_name_no_release_has_is_p0_and_the_fix_is_the_next_vllm(write_project):
    verdict, sr = _l125(write_project, "Qwen/Qwen2.5-VL-7B-Instruct", "vllm==0.7.2\ntransformers==4.49.0\n")
    assert verdict == ("recommended", "P0")
    launch = sr.facts["launch"]
    assert launch["tf_yet"].endswith("Qwen2_5_VLImageProcessor") and launch["tf_yet_never"]
    assert launch["tf_yet_vllm_first"] == "0.7.3"
    assert any(c.op == "pin" and c.target == "vllm" for c in sr.changes)


def test_the_fixed_release_a_text_model_or_a_source_build_say_nothing(write_project):
    assert _l125(write_project, "Qwen/Qwen2.5-VL-7B-Instruct", "vllm==0.7.3\ntransformers==4.49.0\n")[0][1] != "P0"
    assert _l125(write_project, "Qwen/Qwen2.5-7B-Instruct", "vllm==0.7.2\ntransformers==4.49.0\n")[0][1] != "P0"
    git = "vllm==0.7.2\ntransformers @ git+https://github.com/huggingface/transformers.git@336dc69d63d56f232a183a3e7f52790429b871ef\n"
    assert _l125(write_project, "Qwen/Qwen2.5-VL-7B-Instruct", git)[0][1] != "P0"
