"""L125's transformers changes never fall below the model type's own floor (L52's table,
knowledge/vllm/model_types.yaml transformers_first): Gemma 4's gemma4 needs transformers 5.5.0, vLLM 0.19.0
requires <5, so moving transformers back into 0.19.0's range (==4.57.6) trades one refusal for another
(eval84: the aitherium and kenrollins Gemma 4 posts). A pin inside both ranges is proposed where one
exists; otherwise the change is the first vLLM release whose requirement admits the model's transformers."""
from __future__ import annotations

import yaml

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.transformers_floor import floor_clash
from vllm_kb.engine.kb import resources

MODEL = "google/gemma-4-E4B-it"


def _result(write_project, files: dict[str, str], check: str = "L125"):
    rep = audit(write_project(files), gpu="L40S")
    (sr,) = rep.sites
    (r,) = [r for r in sr.results if r.check.id == check]
    fixes = {(op.target, str(v)) for op, v in r.fix}
    return (r.status, r.priority if r.status == "recommended" else None), fixes, sr.facts["launch"]


def test_installed_over_the_image_offers_a_vllm_release_not_an_older_transformers(write_project):
    docker = (f"FROM vllm/vllm-openai:v0.19.0\nRUN pip install 'transformers>=5.5.0'\n"
              f"ENTRYPOINT [\"vllm\", \"serve\", \"{MODEL}\"]\n")
    verdict, fixes, launch = _result(write_project, {"Dockerfile": docker})
    assert verdict == ("recommended", "P1")
    assert "tf_range_fix" not in launch and launch["tf_floor_since"] == "5.5.0"
    assert fixes == {("vllm", ">=0.19.1")}


def test_the_same_install_stays_p0_with_the_vllm_release_as_its_change(write_project):
    verdict, fixes, _ = _result(write_project, {"serve.sh": f"vllm serve {MODEL}\n",
                                                "requirements.txt": "vllm==0.19.0\ntransformers==5.5.0\n"})
    assert verdict == ("recommended", "P0")
    assert fixes == {("vllm", ">=0.19.1")}


def test_a_pin_inside_both_ranges_is_proposed_where_one_exists(write_project):
    # 0.19.1 excludes 5.5.0 itself; 5.5.4 is past Gemma 4's floor and inside the requirement
    verdict, fixes, launch = _result(write_project, {"serve.sh": f"vllm serve {MODEL}\n",
                                                     "requirements.txt": "vllm==0.19.1\ntransformers==5.5.0\n"})
    assert verdict == ("recommended", "P0") and launch["tf_range_fix"] == "==5.5.4"
    assert fixes == {("transformers", "==5.5.4")}


def test_a_model_without_a_floor_keeps_the_newest_of_the_range(write_project):
    _, _, launch = _result(write_project, {"serve.sh": "vllm serve Qwen/Qwen2.5-7B-Instruct\n",
                                           "requirements.txt": "vllm==0.19.0\ntransformers==5.5.0\n"})
    assert launch["tf_range_fix"] == "==4.57.6" and "tf_floor_since" not in launch


def test_l52_raising_transformers_past_the_requirement_names_the_vllm_release_too(write_project):
    verdict, fixes, launch = _result(write_project, {"serve.sh": f"vllm serve {MODEL}\n",
                                                     "requirements.txt": "vllm==0.19.0\ntransformers==4.57.6\n"}, "L52")
    assert verdict == ("recommended", "P0")
    assert ("transformers", ">=5.5.0") in fixes and ("vllm", ">=0.19.1") in fixes and launch["tf_vllm_first"] == "0.19.1"


def _table() -> dict:
    return yaml.safe_load(resources.read_text("knowledge", "vllm", "model_types.yaml"))


def test_a_gone_name_below_the_floor_drops_the_transformers_change():
    # vLLM 0.11.0 reads all_special_tokens_extended, gone in transformers 5.0: <5 is below gemma4's 5.5.0
    facts = {"vllm": {"version": "0.11.0"}, "model": {"model_type": "gemma4"}}
    out = floor_clash(facts, {"tf_gone": "tokenizer.all_special_tokens_extended", "tf_gone_fix": "<5"}, _table(), [])
    assert out["tf_gone_fix"] is None and out["tf_floor_type"] == "gemma4" and out["tf_floor_vllm_fix"] == ">=0.19.1"
    assert floor_clash({**facts, "model": {"model_type": "qwen2"}}, {"tf_gone_fix": "<5"}, _table(), []) == {}


def test_the_per_layer_cap_stays_above_every_floor_it_concerns():
    # L125's tf_layer_fix keeps transformers below the release that makes head_dim per-layer; each such type
    # must be mapped before that release, or the cap would fall below its floor (then floor_clash must judge it)
    first = _table()["transformers_first"]
    per_layer = yaml.safe_load(resources.read_text("knowledge", "vllm", "transformers_per_layer.yaml"))["per_layer_head_dim"]
    from vllm_kb.engine.kb.versions import parse
    for model_type, since in per_layer.items():
        if model_type in first:
            assert parse(first[model_type]) < parse(".".join(since.split(".")[:2])), model_type
