"""A script's inline metadata (PEP 723, engine/scan/inline_script.py) as the vLLM release of that
script's sites: davanstrien/uv-scripts-for-ai #14, a `uv run` script whose top-level import of
GuidedDecodingParams fails on the vLLM its dependencies resolve to (L139)."""
import pytest

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.inline_script import dependencies

SCRIPT = '''# /// script
# requires-python = ">=3.10"
# dependencies = [
#     "{vllm}",
#     "datasets",
# ]
# ///
from vllm import LLM, SamplingParams
from vllm.sampling_params import GuidedDecodingParams

llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct")
print(llm, SamplingParams, GuidedDecodingParams)
'''


def _run(tmp_path, vllm: str, files: dict | None = None):
    (tmp_path / "ocr.py").write_text(SCRIPT.format(vllm=vllm))
    for name, text in (files or {}).items():
        (tmp_path / name).write_text(text)
    rep = audit(tmp_path, gpu="L4")
    sr = next(s for s in rep.sites if s.site.file == "ocr.py")
    return sr, next(r for r in sr.results if r.check.id == "L139")


def test_the_block_pins_the_scripts_release(tmp_path):
    sr, r = _run(tmp_path, "vllm==0.22.0")
    assert str(sr.version.version) == "0.22.0" and sr.version.where == "ocr.py:4"
    assert (r.status, r.priority) == ("recommended", "P0")


def test_a_range_in_the_block_is_a_range(tmp_path):
    sr, r = _run(tmp_path, "vllm==0.22.*")
    assert (r.status, r.priority) == ("recommended", "P0")  # every 0.22 release lacks it
    sr, r = _run(tmp_path, "vllm>=0.11,<0.13")
    assert r.status != "recommended" or r.priority != "P0"  # 0.11.x still has it


def test_a_release_that_has_the_name_is_quiet(tmp_path):
    sr, r = _run(tmp_path, "vllm==0.11.0")
    assert r.status == "not_applicable"


def test_a_bare_vllm_leaves_the_release_open(tmp_path):
    sr, r = _run(tmp_path, "vllm")
    assert r.priority == "P1"


def test_the_block_wins_over_the_folders_pin_for_its_script_only(tmp_path):
    other = "from vllm import LLM\nLLM(model='Qwen/Qwen2.5-0.5B-Instruct')\n"
    sr, r = _run(tmp_path, "vllm==0.22.0", {"requirements.txt": "vllm==0.10.1\n", "other.py": other})
    assert str(sr.version.version) == "0.22.0"
    rep = audit(tmp_path, gpu="L4")
    assert str(next(s for s in rep.sites if s.site.file == "other.py").version.version) == "0.10.1"


@pytest.mark.parametrize("text, want", [
    ("# /// script\n# dependencies = ['vllm==0.9.2']\n# ///\n", [(2, "vllm==0.9.2")]),
    ("print(1)\n", None),
    # two script blocks: PEP 723 says a tool must refuse the file
    ("# /// script\n# dependencies = ['vllm==0.9.2']\n# ///\n# /// script\n# dependencies = []\n# ///\n", None),
    ("# /// script\n# dependencies = [\n# ///\n", None),  # not TOML
    ("# /// pyproject\n# dependencies = ['vllm==0.9.2']\n# ///\n", None),  # another block type
])
def test_dependencies(text, want):
    assert dependencies(text) == want
