"""The project's own try/except that imports a moved vLLM module from its new place
(engine/scan/import_fallbacks.py): L139 proposes that path for another import of the old one, not a
pin of an older vLLM (eval111: PipelineRL's plugin beside vllm1.py:35-38, pyproject torch~=2.10.0)."""
from __future__ import annotations

import textwrap

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan.import_fallbacks import fallbacks

_GUARDED = """
try:
    from vllm.entrypoints.openai.tool_parsers import ToolParserManager
except ModuleNotFoundError:
    from vllm.tool_parsers import ToolParserManager
"""
_PLUGIN = """
from vllm import LLM
from vllm.entrypoints.openai.tool_parsers.abstract_tool_parser import ToolParser

llm = LLM(model="Qwen/Qwen2.5-0.5B-Instruct")
"""


def _read(files):
    return lambda rel: files.get(rel)


def test_pairs_found_and_mapped():
    (fb,) = fallbacks(["a.py"], _read({"a.py": textwrap.dedent(_GUARDED)}))
    assert (fb.old, fb.new, fb.line) == ("vllm.entrypoints.openai.tool_parsers", "vllm.tool_parsers", 5)
    assert fb.moved("vllm.entrypoints.openai.tool_parsers.abstract_tool_parser") == "vllm.tool_parsers.abstract_tool_parser"
    assert fb.moved("vllm.entrypoints.openai.protocol") is None


def test_other_handlers_are_no_fallback():
    text = _GUARDED.replace("except ModuleNotFoundError:", "except KeyError:")
    assert fallbacks(["a.py"], _read({"a.py": textwrap.dedent(text)})) == []


def _l139(tmp_path, with_fallback: bool):
    (tmp_path / "plugin.py").write_text(textwrap.dedent(_PLUGIN))
    if with_fallback:
        (tmp_path / "server.py").write_text(textwrap.dedent(_GUARDED))
    (tmp_path / "requirements.txt").write_text("vllm==0.18.1\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    return next(r for r in sr.results if r.check.id == "L139")


def test_fallback_path_proposed_without_a_pin(tmp_path):
    r = _l139(tmp_path, True)
    assert r.status == "recommended" and r.priority == "P0"
    text = r.reason_text("en")
    assert "server.py:5" in text and "from vllm.tool_parsers.abstract_tool_parser import ToolParser" in text
    assert not any(op.kind == "pin" for op, _ in r.fix)


def test_without_a_fallback_the_pin_stays(tmp_path):
    r = _l139(tmp_path, False)
    assert r.status == "recommended" and r.priority == "P0" and "server.py" not in r.reason_text("en")
    assert any(op.kind == "pin" for op, _ in r.fix)
