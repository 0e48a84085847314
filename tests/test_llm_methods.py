"""L287: a method of vLLM's LLM class the project calls on its own engine object where the release no
longer defines it (eval113 bigcodebench provider/vllm.py:45 `self.llm.set_tokenizer(...)`: defined
0.1.2-0.12.0, deprecated 0.11.1 llm.py:362, gone from 0.13.0)."""
from __future__ import annotations

import ast
import shutil
from pathlib import Path

from vllm_kb.engine.audit import audit
from vllm_kb.engine.scan import llm_method_calls

CASE = Path(__file__).parent / "realcases" / "llm-method-removed--bigcodebench-47eff25a"
SRC = "/work/sdists/src"


def _l287(root: Path):
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    return next(r for r in sr.results if r.check.id == "L287")


def _copy(tmp_path, pin: str | None = None) -> Path:
    root = tmp_path / "p"
    shutil.copytree(CASE, root, ignore=shutil.ignore_patterns("case.yaml"))
    if pin:
        (root / "requirements.txt").write_text(pin + "\n")
    return root


def test_a_release_without_the_method_is_a_p1_at_the_call(tmp_path):
    r = _l287(_copy(tmp_path, "vllm==0.13.0"))
    assert r.status == "recommended" and r.priority == "P1"
    assert r.values["launch.llm_method_gone"] == "`self.llm.set_tokenizer(…)` (bigcodebench/provider/vllm.py:9)"


def test_a_release_with_the_method_says_nothing(tmp_path):
    assert _l287(_copy(tmp_path, "vllm==0.12.0")).status == "not_applicable"


def test_only_the_object_the_llm_call_is_assigned_to_is_read():
    tree = ast.parse("llm = LLM(model='m')\nother.set_tokenizer(t)\nllm.set_tokenizer(t)\n")
    got = llm_method_calls.calls(tree, 1, frozenset({"set_tokenizer"}))
    assert [(c.receiver, c.line) for c in got] == [("llm", 3)]
    assert llm_method_calls.calls(tree, 2, frozenset({"set_tokenizer"})) == []


def test_the_table_agrees_with_the_sources():
    """set_tokenizer is a method of class LLM in 0.12.0 and not in 0.13.0 (where the sdists are unpacked)."""
    for release, has in (("0.1.2", True), ("0.12.0", True), ("0.13.0", False), ("0.34.0", False)):
        path = Path(SRC) / release / "vllm/entrypoints/llm.py"
        if not path.exists():
            return
        cls = next(n for n in ast.parse(path.read_text()).body if isinstance(n, ast.ClassDef) and n.name == "LLM")
        names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
        assert ("set_tokenizer" in names) is has and "__getattr__" not in names
