"""A report's diff of a Python call shows code that parses (engine/fix/edits.py): two keywords added
after a last argument without a trailing comma were `x=1,,` then two lines without a comma between
them, and removing that last argument moved the comma it lacked to the start of a line. Lines added
together are joined by commas, the missing comma is written once, and a change whose edit would
leave the file unparsable waits for --fix's next pass (and stays out of the single-pass diff)."""
from __future__ import annotations

import ast
import itertools
import re

import pytest

from vllm_kb.engine.audit import audit

M = 'model="meta-llama/Llama-3.1-8B-Instruct"'
OTHERS = ["swap_space=4", "disable_log_requests=True", "seed=0"]  # two removed on 0.33, one kept


def _layouts(items: list[str]) -> dict[str, str]:
    return {"inline": "LLM(" + ", ".join(items) + ")",
            "lines": "LLM(\n" + ",\n".join("    " + i for i in items) + "\n)",
            "lines-trailing": "LLM(\n" + "".join(f"    {i},\n" for i in items) + ")",
            "lines-comment": "LLM(\n" + ",\n".join(f"    {i}  # c" for i in items).replace("  # c,", ",  # c") + "\n)"}


def _patched(old: str, diff: str) -> str:
    """The new text of a one-file unified diff applied to `old`."""
    a, out, i = old.splitlines(keepends=True), [], 0
    lines = diff.splitlines(keepends=True)
    for n, ln in enumerate(lines):
        m = re.match(r"@@ -(\d+)(?:,(\d+))? ", ln)
        if not m:
            continue
        start = int(m.group(1)) - (0 if m.group(2) == "0" else 1)
        out += a[i:start]
        i = start
        for body in itertools.takewhile(lambda x: not x.startswith("@@"), lines[n + 1:]):
            if body.startswith(("+", " ")):
                out.append(body[1:] if body.endswith("\n") else body[1:] + "\n")
            if body.startswith(("-", " ")):
                i += 1
    return "".join(out + a[i:])


CASES = [(layout, combo) for k in (1, 2) for combo in itertools.permutations(OTHERS, k) for layout in _layouts([M])]


@pytest.mark.parametrize("layout,combo", CASES, ids=[f"{l}-{'+'.join(c)}" for l, c in CASES])
def test_the_shown_diff_of_a_call_parses(tmp_path, layout, combo):
    src = "from vllm import LLM\n\nllm = " + _layouts([M, *combo])[layout] + "\n"
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    (tmp_path / "run.py").write_text(src)
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    for block in sr.after:
        ast.parse(_patched(src, block["text"] + "\n"))


def test_two_lines_added_after_a_last_argument_keep_the_calls_layout(tmp_path):
    # a V0 release, where B2's max_model_len is a P1 beside B3 (on V1 it is a P2 guard, not shown in `after`)
    src = f"from vllm import LLM\n\nllm = LLM(\n    {M},\n    tensor_parallel_size=1\n)\n"
    (tmp_path / "requirements.txt").write_text("vllm==0.6.3\n")
    (tmp_path / "run.py").write_text(src)
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    (block,) = sr.after
    assert _patched(src, block["text"] + "\n").endswith(
        '    tensor_parallel_size=1,\n    max_model_len=16384,\n    kv_cache_dtype="fp8"\n)\n')
