"""engine/kb/safe_text.py `clean` walks a report part once where `paths(redact(…))` walked it
twice (secrets hidden, then file names made displayable): it must return exactly what the two
walks return, for any JSON-like structure — secret names as keys and as records' names, values
that are secrets, lists, tuples, non-UTF-8 file names (lone surrogates), the marks around text
that is unknown until run time, non-string keys — and for a whole report."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vllm_kb.engine.kb import redact
from vllm_kb.engine.kb.safe_text import HOLE_CLOSE, HOLE_OPEN, clean, paths

TEXTS = st.sampled_from([
    "", "plain", "HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz12", "--api-key sk-abcdefghijklmnop1234",
    "https://user:pa55word@host/x?token=abcdef123456", "$HF_TOKEN", "naïve ſecret", "bad\udcffname.py",
    f"model {HOLE_OPEN}$M{HOLE_CLOSE}", "Bearer abcdefghijklmnopqrstuvwx", "***", "max_num_batched_tokens",
]) | st.text(max_size=20)
KEYS = st.sampled_from(["name", "target", "key", "value", "raw", "default", "op", "api_key", "HF_TOKEN",
                        "max_token", "file", "bad\udcffkey", "subject"]) | st.text(max_size=8)
LEAVES = TEXTS | st.integers() | st.floats(allow_nan=False) | st.booleans() | st.none()
TREES = st.recursive(
    LEAVES,
    lambda kids: st.lists(kids, max_size=4) | st.tuples(kids, kids)
    | st.dictionaries(KEYS | st.integers(0, 3), kids, max_size=5)
    | st.fixed_dictionaries({"name": KEYS, "value": kids}, optional={"op": st.sampled_from(["rename", "set"])}),
    max_leaves=30)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TREES)
def test_one_walk_gives_what_the_two_walks_give(obj):
    assert clean(obj) == paths(redact.redact(obj))


def test_a_whole_report_is_the_same():
    from vllm_kb.engine.audit import audit
    from vllm_kb.engine.report import model

    rep = audit(Path(__file__).resolve().parent.parent / "examples" / "quickstart", gpu="H100-80GB x8")
    raw = [model._site(s, rep, "en") for s in rep.sites]
    assert raw and [clean(x) for x in raw] == [paths(redact.redact(x)) for x in raw]
