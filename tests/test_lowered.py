"""engine/check/lowered.py: one way to lower a verdict and append why, for a Result and a Finding."""
from __future__ import annotations

from types import SimpleNamespace

from vllm_kb.engine.check.evaluate import Result
from vllm_kb.engine.check.lowered import lower
from vllm_kb.engine.kb.knowledge import Text
from vllm_kb.engine.scan.site import Finding

WHY = Text(en=" (why)", zh="（原因）")


def _result(priority):
    return Result(SimpleNamespace(id="X1"), "recommended", Text(en="Set it.", zh="设置它。"), priority, safe=True)


def test_a_result_is_lowered_and_says_why():
    r = _result("P0")
    lower(r, "P1", WHY)
    assert (r.priority, r.safe, r.reason) == ("P1", False, Text(en="Set it. (why)", zh="设置它。（原因）"))


def test_never_raised_and_safety_kept_when_asked():
    r = _result("P2")
    lower(r, "P1", WHY, unsafe=False)
    assert (r.priority, r.safe, r.reason.en) == ("P2", True, "Set it. (why)")
    none = _result(None)
    lower(none, "P1")
    assert none.priority == "P1" and none.reason.en == "Set it."


def test_a_finding_message_gets_the_words():
    f = Finding("not-in-version", {"en": "Gone.", "zh": "已移除。"}, "a.sh", 3, "P0", safe=True)
    lower(f, "P1", WHY)
    assert (f.priority, f.safe, f.message) == ("P1", False, {"en": "Gone. (why)", "zh": "已移除。（原因）"})
