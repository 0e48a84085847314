"""L52 transformers-model-type: a transformers pin whose every allowed release is older than the
first one that maps the checkpoint's model_type stops vLLM in AutoConfig; no pin, a pin that allows
a newer release, or a model type the vLLM release reads with its own config class says nothing."""
from types import SimpleNamespace

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.transformers_fit import transformers_fit
from vllm_kb.engine.kb.knowledge import load

_TABLE = {"transformers_first": {"qwen2_5_vl": "4.49.0", "qwen3": "4.51.0", "x": "4.50.0"},
          "vllm_own": {"x": [["0.6.0", "0.9.0"]]}}


def _pin(spec: str):
    return SimpleNamespace(spec=spec, text=f"transformers{spec}", file="requirements.txt", line=2)


def _fit(spec: str, model_type: str = "qwen2_5_vl", release: str = "0.7.2"):
    facts = {"model": {"model_type": model_type}, "vllm": {"version": release}}
    return transformers_fit(facts, _pin(spec), _TABLE).get("tf_too_old", False)


def test_pins_older_than_the_model_type():
    assert _fit("==4.48.3")
    assert _fit(">=4.40,<4.49")
    assert _fit("~=4.48.0")
    assert _fit("==4.48.*")


def test_pins_that_allow_a_release_that_maps_it():
    assert not _fit(">=4.45")
    assert not _fit("==4.49.0")
    assert not _fit("==4.52.4")  # a patch release after the minor that added it
    assert not _fit(">=4.48,!=4.49.0")
    assert not _fit("<4.50")
    assert not _fit("")  # no specifier: any release
    assert not _fit("not a spec")


def test_development_and_pre_release_pins_are_judged_whole():
    # QwenLM/Qwen3-VL#1057: Qwen2.5-VL (qwen2_5_vl from 4.49.0) ran under transformers==4.50.0.dev0 on 0.8.2
    assert not _fit("==4.50.0.dev0")
    assert not _fit("==4.49.0.dev0")  # a build of the release that added the type may already map it
    assert not _fit("==4.49.0rc1")
    assert _fit("==4.48.0.dev0")


def test_vllm_own_config_class_and_unknown_types():
    assert not _fit("==4.45.0", model_type="x", release="0.7.0")  # vLLM 0.7.0 reads type x itself
    assert _fit("==4.45.0", model_type="x", release="0.10.0")
    assert not _fit("==4.30.0", model_type="llama")  # known to every scanned release


def test_the_table_knows_the_releases_that_added_common_types():
    first = load().doc("vllm", "model_types.yaml").data["transformers_first"]
    assert (first["qwen2"], first["gemma2"], first["qwen2_5_vl"], first["gemma3"], first["qwen3"]) == \
        ("4.37.0", "4.42.0", "4.49.0", "4.50.0", "4.51.0")
    assert "llama" not in first  # in the oldest release read


def _audit(tmp_path, req: str, cmd: str):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "requirements.txt").write_text(req)
    (tmp_path / "serve.sh").write_text(cmd)
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    return next(r for r in sr.results if r.check.id == "L52"), sr


def test_audit_gives_a_p0_and_the_pin_change(tmp_path):
    r, sr = _audit(tmp_path, "vllm==0.7.2\ntransformers==4.48.3\n", "vllm serve Qwen/Qwen2.5-VL-7B-Instruct --max-model-len 8192\n")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert any(c.target == "transformers" and c.value == ">=4.49.0" and c.file == "requirements.txt" for c in sr.changes)


def test_trust_remote_code_is_a_p1_and_no_pin_is_nothing(tmp_path):
    r, _ = _audit(tmp_path / "a", "vllm==0.8.5\ntransformers==4.50.3\n", "vllm serve Qwen/Qwen3-8B --trust-remote-code\n")
    assert (r.status, r.priority) == ("recommended", "P1")
    r, _ = _audit(tmp_path / "b", "vllm==0.8.5\n", "vllm serve Qwen/Qwen3-8B\n")
    assert r.status == "not_applicable"


def test_trust_remote_code_does_not_help_where_vllm_imports_the_model_module(tmp_path):
    # xinference#4561's class: vLLM 0.13.0 has no config class for qwen3_vl and its model module imports
    # transformers.models.qwen3_vl (models/qwen3_vl.py:41), which transformers 4.56.2 lacks: P0 even with the flag
    r, sr = _audit(tmp_path / "vl", "vllm==0.13.0\ntransformers==4.56.2\n",
                   "vllm serve Qwen/Qwen3-VL-8B-Instruct --trust-remote-code --max-model-len 8192\n")
    assert (r.status, r.priority) == ("recommended", "P0")
    assert "transformers.models.qwen3_vl" in r.reason_text("en") and "qwen3_vl.py:41" in r.reason_text("en")
    assert any(c.target == "transformers" and c.value == ">=4.57.0" for c in sr.changes)
    assert not any(x.check.id == "L125" and x.status == "recommended" for x in sr.results)  # one cause, one finding


def test_a_post_release_image_is_read_like_its_base(tmp_path):
    # vllm/vllm-openai:v0.6.3.post1 was built 2024-10-17; transformers first maps qwen2_5_vl in 4.49.0 (2025-02)
    (tmp_path / "compose.yaml").write_text("services:\n  vllm:\n    image: vllm/vllm-openai:v0.6.3.post1\n"
                                           '    command: ["--model", "Qwen/Qwen2.5-VL-7B-Instruct"]\n')
    (sr,) = audit(tmp_path, gpu="A100-80GB").sites
    r = next(r for r in sr.results if r.check.id == "L52")
    assert (r.status, r.priority) == ("recommended", "P0") and "v0.6.3.post1" in r.reason_text("en")


def _pip(model_type: str, release: str, pinned: bool = True):
    facts = {"model": {"model_type": model_type}, "vllm": {"version": release, "pinned": pinned}}
    return transformers_fit(facts, None, load().doc("vllm", "model_types.yaml").data)


def test_a_pip_installation_is_held_to_the_release_requirement():
    # vLLM 0.15.0-0.19.0 require transformers<5; GLM-4.7-Flash's glm4_moe_lite is mapped from 5.0.0
    got = _pip("glm4_moe_lite", "0.16.0")
    assert got["tf_too_old"] and got["tf_requires"] == ">=4.56.0,<5" and got["tf_vllm_fix"] == ">=0.19.1"
    assert _pip("glm4_moe_lite", "0.15.0")["tf_requires"]  # a wheel-only release, from its Requires-Dist
    # a requirement that allows a release that maps the type: pip installs the newest allowed
    assert _pip("glm4_moe_lite", "0.19.1") == {} and _pip("qwen2_5_vl", "0.7.2") == {}
    # the release's own config class; a release that is only guessed
    assert _pip("qwen3_5", "0.17.0") == {} and _pip("glm4_moe_lite", "0.16.0", pinned=False) == {}
    # the first release that reads it itself comes before the one whose requirement allows it
    assert _pip("qwen3_5", "0.16.0")["tf_vllm_first"] == "0.17.0"


def test_transformers_from_its_repository_claims_nothing(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM python:3.12\nRUN pip install vllm==0.16.0\n"
                                         "RUN pip install --no-deps git+https://github.com/huggingface/transformers.git@main\n")
    (tmp_path / "serve.sh").write_text("vllm serve zai-org/GLM-4.7-Flash\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB").sites
    assert next(r for r in sr.results if r.check.id == "L52").status == "not_applicable"
    r, _ = _audit(tmp_path / "pip", "vllm==0.16.0\n", "vllm serve zai-org/GLM-4.7-Flash\n")
    assert (r.status, r.priority) == ("recommended", "P0") and "0.19.1" in r.reason_text("en")


def _l52_in_image(tmp_path, requirements: str) -> str | None:
    # vllm-gb10 #105: the image's runtime lock (vllm==0.28.0, transformers==5.8.1) beside a docker run of
    # its v0.28.0 image; gemma4_unified is mapped from transformers 5.10 and 0.28.0 has no config class for it
    (tmp_path / "requirements.txt").write_text(requirements, encoding="utf-8")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ndocker run --gpus all ghcr.io/timothystewart6/vllm-gb10:v0.28.0-gb10.0 \\\n"
                                     "  vllm serve unsloth/gemma-4-12b-it-NVFP4 --max-model-len 32768\n", encoding="utf-8")
    rep = audit(tmp_path, gpu="GB10")
    return next((r.priority for s in rep.sites for r in s.results if r.check.id == "L52" and r.status == "recommended"), None)


def test_a_file_that_pins_the_images_release_exactly_describes_the_image(tmp_path):
    assert _l52_in_image(tmp_path, "vllm==0.28.0\ntransformers==5.8.1\n") == "P0"
    for i, other in enumerate(["vllm==0.27.1\ntransformers==5.8.1\n",  # another release: another install
                               "vllm==0.28.0\ntransformers>=5.5,<5.9\n",  # a range says nothing of the image
                               "transformers==5.8.1\n"]):  # no vLLM pin beside it
        (tmp_path / str(i)).mkdir()
        assert _l52_in_image(tmp_path / str(i), other) is None, other


def test_a_pin_the_release_requirement_keeps_old_moves_with_vllm(tmp_path):
    # zai-org/GLM-OCR#56: glm_ocr is mapped from transformers 5.1.0, vLLM 0.15.1 requires transformers<5 — raising
    # the pin alone is a resolver conflict: the vLLM release that admits one, and the pin inside its requirement
    r, sr = _audit(tmp_path, "vllm==0.15.1\ntransformers==4.57.6\n", "vllm serve zai-org/GLM-OCR\n")
    assert (r.status, r.priority) == ("recommended", "P0") and "<5" in r.reason_text("en")
    got = {c.target: c.value for c in sr.changes if c.target in ("vllm", "transformers")}
    assert got["vllm"] == ">=0.19.1" and got["transformers"].startswith(">=5.")


def test_the_raise_never_falls_below_the_releases_own_floor():
    # SPPO#5's pins (transformers==4.36.2 beside vLLM 0.5.0.post1, which asks for >=4.40.0) with a Qwen2 model:
    # qwen2 maps from 4.37.0, but 4.37 cannot install beside that release; the change is its own floor
    table = {**_TABLE, "transformers_first": {"qwen2": "4.37.0"}, "vllm_requires": {"0.5.0.post1": ">=4.40.0"}}
    facts = {"model": {"model_type": "qwen2"}, "vllm": {"version": "0.5.0.post1"}}
    assert transformers_fit(facts, _pin("==4.36.2"), table)["tf_fix"] == ">=4.40.0"
    table["vllm_requires"] = {"0.5.0.post1": ">=4.30.0"}
    assert transformers_fit(facts, _pin("==4.36.2"), table)["tf_fix"] == ">=4.37.0"


_NEMOTRON = ("vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tensor-parallel-size 1 "
             "--max-model-len 65536{trust}\n")


def _l52(write_project, trust: str):
    # basetenlabs/truss-examples nemotron/Nemotron-3-Nano (eval117) runs vLLM 0.12.0 (transformers<5),
    # whose transformers maps nemotron_h only from 5.3.0
    root = write_project({"requirements.txt": "vllm==0.12.0\n", "serve.sh": _NEMOTRON.format(trust=trust)})
    (sr,) = audit(root, gpu="H100-80GB").sites
    return next(r for r in sr.results if r.check.id == "L52")


def test_a_catalogued_config_class_answers_l52_under_trust_remote_code(write_project):
    """Nemotron-H uploads name AutoConfig in their auto_map (models.yaml config_code): with
    --trust-remote-code AutoConfig reads nemotron_h through the repository's class (truss-examples'
    published Nemotron-3-Nano launch on v0.12.0 drew a false P1, eval117)."""
    assert _l52(write_project, " --trust-remote-code").status == "not_applicable"


def test_without_trust_remote_code_the_old_transformers_still_stops_it(write_project):
    r = _l52(write_project, "")
    assert r.status == "recommended" and r.priority == "P0"
