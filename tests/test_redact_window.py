"""A site's diff masks the file after its edit from the masks of the file before it
(engine/kb/redact_window.py): the window of changed lines, widened to the blocks that links join,
is masked on its own. It must give exactly the lines the whole-text mask gives, for edits of any
shape among the lines that span secrets over line breaks (tests/test_redact_regions.py's LINES),
and hand back None where it cannot tell."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_redact_regions import LINES

from vllm_kb.engine.fix.edits import _masked_lines
from vllm_kb.engine.kb import redact
from vllm_kb.engine.kb.redact_window import masked_after_edit
from vllm_kb.engine.kb.safe_text import escape

FILLER = [f"value_{i} = compute({i})" for i in range(220)]  # long enough for the region path
PLAIN = st.sampled_from([x for x in LINES if "\r" not in x])  # a lone CR is another line break: the whole way


def hide(text: str) -> str:
    return escape(redact.redact_text(text))


def _both(old: str, new: str) -> tuple[list[str] | None, list[str]]:
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    return masked_after_edit(old, new, a, b, _masked_lines(a, hide)), _masked_lines(b, hide)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PLAIN, max_size=12), st.lists(PLAIN, max_size=12), st.lists(PLAIN, max_size=6), st.lists(PLAIN, max_size=6),
       st.integers(0, 220), st.booleans())
def test_the_window_gives_what_the_whole_text_gives(top, bottom, cut, put, at, final_newline):
    body = FILLER[:at] + top + cut + bottom + FILLER[at:]
    after = FILLER[:at] + top + put + bottom + FILLER[at:]
    end = "\n" if final_newline else ""
    got, want = _both("\n".join(body) + end, "\n".join(after) + end)
    assert got == want


def test_a_secret_joined_to_the_edit_by_a_link_is_masked_as_a_whole():
    old = "\n".join(FILLER + ["--api-key \\", "  sk-abcdefghijklmnopqrstuvwxyz12"] + FILLER) + "\n"
    new = old.replace("--api-key \\\n", "--api-key \\\n--max-model-len 4096 \\\n")
    got, want = _both(old, new)
    assert got is not None and got == want and "sk-abcdefghijklmnopqrstuvwxyz12" not in "".join(got)


def test_what_the_argument_does_not_cover_is_left_to_the_whole_text():
    long = "\n".join(FILLER) + "\n"
    assert _both("x = 1\n", "x = 2\n")[0] is None  # short: not the region path
    assert _both(long + "a = '${X:-y}'\n", long + "a = 2\n")[0] is None
    assert _both(long + "a = 1\r\n", long + "a = 2\r\n")[0] is None
