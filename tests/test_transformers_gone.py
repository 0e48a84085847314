"""L125: a transformers pin past what the pinned vLLM release takes from transformers at start
(knowledge/vllm/transformers_imports.yaml, tools/vllm_transformers_imports.py): vLLM 0.9.0–0.9.2
register `aimv2` with AutoConfig, which transformers 4.54 maps itself; a pin of 4.54+ is P0, an
older pin or a later vLLM says nothing, no pin on a fresh install is P1, vLLM's own image is not
judged. transformers 5 dropped the tokenizer attribute vLLM 0.4.0–0.11.x read while the engine
starts: a 5.x pin is P0, a bound open above is P1 — P0 where the project's own image build from a
bare base certainly resolves the newest. Also L52's proposed vLLM release for an image too old for the model type."""
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
    assert _l125(write_project, {"requirements.txt": "vllm==0.9.2\ntransformers>=4.51,<4.54\n"})[0] == ("not_applicable", None)
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


def test_the_table_holds_the_tokenizer_attribute_transformers_5_dropped():
    data = yaml.safe_load((ROOT / "knowledge" / "vllm" / "transformers_imports.yaml").read_text("utf-8"))
    for release in ("0.4.0", "0.6.3", "0.10.2", "0.11.0"):
        (row,) = [r for r in data["imports"][release] if r.get("attribute")]
        assert row["attribute"] == "tokenizer.all_special_tokens_extended" and row["removed"] == "5.0.0"
    assert data["imports"]["0.11.0"][-1]["line"] == 99  # the line vLLM 0.11.0's traceback names
    assert not any(r.get("attribute") for r in data["imports"].get("0.12.0", []))


def test_transformers_5_beside_vllm_011(write_project):
    verdict, sr = _l125(write_project, {"requirements.txt": "vllm==0.11.0\ntransformers==5.1.0\n"})
    assert verdict == ("recommended", "P0")
    assert sr.facts["launch"]["tf_gone_fix"] == "<5" and sr.facts["launch"]["tf_gone_attr"]
    # a floor only: likely the newest, said as P1 with the bound to add
    verdict, sr = _l125(write_project, {"requirements.txt": "vllm==0.11.0\ntransformers>=4.57.0\n"})
    assert verdict == ("recommended", "P1") and sr.facts["launch"]["tf_gone_fix"] == ">=4.57.0,<5"
    assert _l125(write_project, {"requirements.txt": "vllm==0.11.0\ntransformers>=4.57.0,<5\n"})[0] == ("not_applicable", None)
    # 0.12.0 no longer reads it (and bounds transformers below 5)
    assert _l125(write_project, {"requirements.txt": "vllm==0.12.0\ntransformers>=4.57.0\n"})[0] == ("not_applicable", None)
    # a source build on the way to 5.0.0 (vllm-project/vllm#27505): `<5`, the bound this proposes, excludes it as pip
    # reads a project's pin (PEP 440) — only there: the knowledge's release gates keep the plain order (test_versions)
    for pin in ("transformers==5.0.0.dev0", "transformers==5.0.0rc1"):
        verdict, sr = _l125(write_project, {"requirements.txt": f"vllm==0.11.0\n{pin}\n"})
        assert verdict == ("recommended", "P0") and sr.facts["launch"]["tf_gone_fix"] == "<5"
        assert sr.facts["launch"]["tf_gone_pre"]
    # a dev build of an earlier release is older, as before
    assert _l125(write_project, {"requirements.txt": "vllm==0.11.0\ntransformers==4.58.0.dev0\n"})[0] == ("not_applicable", None)


def test_an_image_build_from_a_bare_base_resolves_the_newest(write_project):
    docker = ("FROM nvidia/cuda:12.8.1-base-ubuntu22.04\nRUN apt-get update && apt-get install -y python3-pip\n"
              "COPY deps/requirements.txt /requirements.txt\nRUN pip install --upgrade -r /requirements.txt\n"
              "RUN pip install vllm==0.11.0\nCMD vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n")
    files = {"Dockerfile": docker, "deps/requirements.txt": "ray\nhuggingface-hub\ntransformers>=4.57.0\n"}
    rep = audit(write_project(files), gpu="A100-80GB")
    (r,) = [r for sr in rep.sites for r in sr.results if r.check.id == "L125"]
    assert (r.status, r.priority) == ("recommended", "P0")
    # something in the build that may cap transformers (a package built on it, a held-back tokenizers): P1 at most
    for extra in ("peft\n", "tokenizers==0.21.4\n"):
        rep = audit(write_project({**files, "deps/requirements.txt": files["deps/requirements.txt"] + extra}), gpu="A100-80GB")
        (r,) = [r for sr in rep.sites for r in sr.results if r.check.id == "L125"]
        assert r.priority != "P0" or r.status != "recommended"
    # a base that brings its own Python packages (or a Python below 3.10) is not a fresh resolution
    old = docker.replace("nvidia/cuda:12.8.1-base-ubuntu22.04", "nvidia/cuda:12.1.0-base-ubuntu20.04")
    rep = audit(write_project({**files, "Dockerfile": old}), gpu="A100-80GB")
    assert not any(r.status == "recommended" and r.priority == "P0" for sr in rep.sites for r in sr.results if r.check.id == "L125")


def test_a_git_pin_is_a_pin_of_no_known_release(write_project):
    # deep-diver/open-r1 setup.py: `transformers @ git+…@acdbe627…` (a 4.52 development commit) in
    # install_requires; it was read as no pin, and a fresh install's transformers 5 was held against it
    git = "transformers @ git+https://github.com/huggingface/transformers.git@acdbe627e323dbc822f21499fead789b439cf45b\n"
    assert _l125(write_project, {"requirements.txt": "vllm==0.9.2\n" + git})[0] == ("not_applicable", None)
