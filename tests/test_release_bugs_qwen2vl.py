"""L133's Qwen2-VL row: 0.6.1-0.6.2 special-case rope_scaling type "mrope", which every released transformers
that reads Qwen2-VL (4.45.0+) rewrites to "default", so `assert "factor" in rope_scaling` stops ModelConfig
(vLLM #9236); 0.6.3 reads config.json with its own Qwen2VLConfig."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from release_tree import write_release  # noqa: E402
from vllm_release_bugs import build  # noqa: E402

from vllm_kb.engine.check.startup_release_bugs import model_bug_facts  # noqa: E402
from vllm_kb.engine.kb.knowledge import load  # noqa: E402

_ARCH = "Qwen2VLForConditionalGeneration"
_LEN = '''
    def _get_and_verify_max_len(hf_config, max_model_len):
        if rope_type not in ("su", "longrope", "llama3"):
            MRS
                assert "factor" in rope_scaling
'''
_MODEL = {"vllm/model_executor/models/qwen2_vl.py": "class Qwen2VLForConditionalGeneration:\n    pass\n"}
_OWN = {"vllm/transformers_utils/configs/qwen2vl.py": "class Qwen2VLConfig:\n    pass\n"}


@pytest.mark.parametrize("releases,expected", [
    ((("0.6.0", {"vllm/config.py": _LEN.replace("MRS", "if True:")}),  # no Qwen2-VL yet: L21's
      ("0.6.2", {"vllm/config.py": _LEN.replace("MRS", 'if rope_type == "mrope":\n                pass\n            else:'), **_MODEL}),
      ("0.6.3", {"vllm/config.py": _LEN.replace("MRS", 'if rope_type == "mrope":\n                pass\n            else:'), **_MODEL, **_OWN}),
      ("0.6.3.1", {"vllm/config.py": _LEN.replace("MRS", "if True:"), **_MODEL})),
     {"affected": [["0.6.2", "0.6.2"]], "fixed": "0.6.3"}),
])
def test_build_affected_and_fixed(tmp_path, releases, expected):
    for v, files in releases:
        write_release(tmp_path / "src" / v, files)
    row = next(b for b in build([tmp_path / "src"])["model_bugs"] if b["id"] == "qwen2-vl-mrope-default")
    assert {k: row[k] for k in expected} == expected


@pytest.mark.parametrize("arch,version,hit", [
    (_ARCH, "0.6.2", True), (_ARCH, "0.6.1.post2", True), (_ARCH, "0.6.1", True),
    (_ARCH, "0.6.3", False), (_ARCH, "0.6.3.post1", False), (_ARCH, "0.6.0", False),  # 0.6.0 has no Qwen2-VL (L21)
    ("Qwen2ForCausalLM", "0.6.2", False),
])
def test_rows_in_the_table(arch, version, hit):
    f = model_bug_facts(arch, {}, load().doc("vllm", "release_bugs.yaml").data, version, {"multimodal": True})
    assert (f.get("release_bug") == "qwen2-vl-mrope-default") == hit
    if hit:
        assert f["release_bug_fixed"] == "0.6.3" and "factor" in f["release_bug_words"]


def test_p0_only_where_the_transformers_is_a_release(tmp_path, write_project, json_site):
    # Qwen2-VL's own instructions for vLLM 0.6.1 installed transformers at a commit from before the rename;
    # a later commit fails the same way (QwenLM/Qwen3-VL #247): unpinned or from git is a P1, a release pin a P0
    serve = "vllm serve Qwen/Qwen2-VL-7B-Instruct --max-model-len 8192\n"
    git = "transformers @ git+https://github.com/huggingface/transformers@21fac7abba2a37fae86106f87fcf9974fd1e3830\n"
    for sub, tf, want in (("git", git, "P1"), ("unpinned", "", "P1"), ("pinned", "transformers==4.45.1\n", "P0")):
        root = write_project({"serve.sh": serve, "requirements.txt": "vllm==0.6.1\n" + tf}, tmp_path / sub)
        assert {r["check"]: r["priority"] for r in json_site(root, "A100-80GB")["recommendations"]}.get("L133") == want, sub


def test_a_config_that_writes_rope_type_alone_is_not_renamed():
    # transformers renames only the legacy `type` key (QwenLM/Qwen3-VL #497: writing `rope_type` gets past it)
    table = load().doc("vllm", "release_bugs.yaml").data
    assert model_bug_facts(_ARCH, {}, table, "0.6.1", {"rope_legacy_key": False}) == {}
    assert model_bug_facts(_ARCH, {}, table, "0.6.1", {"rope_legacy_key": True})["release_bug"] == "qwen2-vl-mrope-default"
