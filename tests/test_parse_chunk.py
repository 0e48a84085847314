"""engine/fix/parse_chunk.py: an edited Python file is checked on the lines of the statement the edit
changed (the statements' lines kept from the scan's tree, engine/scan/python_stmt_lines.py). It says
True only for a file ast.parse accepts; anything else goes to the whole-file check as before."""
from __future__ import annotations

import ast
import random

from vllm_kb.engine.fix import edits, parse_chunk
from vllm_kb.engine.scan import python_stmt_lines

FILLER = "".join(f"def helper_{i}(a, b=2):\n    '''text'''\n    return a + b * {i}\n\n\n" for i in range(40))
BODY = FILLER + '''class Runner:
    @staticmethod
    def make(model):
        llm = LLM(model=model,
                  tensor_parallel_size=2)  # a comment
        if llm:
            x = 1; y = 2
        elif model:
            pass
        return llm


def main():
    try:
        run(LLM(model="m",
            gpu_memory_utilization=0.9))
    except ValueError:
        pass
    s = """
text at the margin
"""
    return s
'''


def _known(text: str) -> str:
    python_stmt_lines.remember(text, ast.parse(text))
    return text


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def _edit(old: str, anchor: str, insert: str, after: bool = True) -> str:
    at = old.index(anchor) + (len(anchor) if after else 0)
    return old[:at] + insert + old[at:]


def test_an_edit_inside_a_statement_is_read_from_its_lines():
    old = _known(BODY)
    new = _edit(old, "tensor_parallel_size=2", ", max_model_len=4096")
    seen: list[str] = []
    assert parse_chunk.parses(old, new, lambda t: seen.append(t) or edits._parses(t))
    assert seen and len(seen[0]) < 200 and seen[0].startswith("if 1:\n")  # the statement's lines, not the file
    assert _parses(new)


def test_an_edit_that_breaks_the_statement_is_refused():
    old = _known(BODY)
    assert not parse_chunk.parses(old, _edit(old, "tensor_parallel_size=2", ", (("), edits._parses)
    assert not parse_chunk.parses(old, _edit(old, 'model="m",', ' """'), edits._parses)


def test_what_the_lines_alone_cannot_tell_goes_to_the_whole_file():
    old = _known(BODY)
    calls: list[str] = []
    check = lambda t: calls.append(t) or True  # noqa: E731 — would accept anything it were asked
    # a line that leaves the statement's level (here to the margin), an edit of its indentation,
    # an edit across two statements, a text the scan never parsed
    assert not parse_chunk.parses(old, _edit(old, "tensor_parallel_size=2)", "\nx = 1"), check)
    assert not parse_chunk.parses(old, _edit(old, "        llm = LLM(", "  ", after=False), check)
    assert not parse_chunk.parses(old, old.replace("return llm\n\n\ndef main():", "return llm\ndef main():"), check)
    assert not parse_chunk.parses(old + "\n", old + "\n# x\n", check)
    assert calls == []
    # `x = 1; y = 2` does not have its line to itself: the `if` around it is read instead
    seen: list[str] = []
    assert parse_chunk.parses(old, old.replace("x = 1; y = 2", "x = 3; y = 2"), lambda t: seen.append(t) or True)
    assert seen[0].startswith("if 1:\n        if llm:\n")


def test_never_accepts_a_file_that_does_not_parse():
    # random insertions of code fragments anywhere in the text: a True is always a file ast.parse accepts
    old = _known(BODY)
    rng = random.Random(7)
    bits = ["(", ")", ",", ":", "\n", "\n    ", "\n        ", "\n\t", " x", "'", '"""', "\\\n", "#", "else:", "  ",
            "= 1", "[", "]", "\n  pass", "\nreturn 2\n"]
    accepted = 0
    for _ in range(400):
        at = rng.randrange(len(FILLER), len(old))
        new = old[:at] + "".join(rng.choice(bits) for _ in range(rng.randint(1, 3))) + old[at:]
        if parse_chunk.parses(old, new, edits._parses):
            accepted += 1
            assert _parses(new), new[at - 80:at + 80]
    assert accepted >= 10  # 14 of the 47 that parse: the rest are read whole
