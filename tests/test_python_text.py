"""engine/scan/python_text.py over-approximates what `ast` reads, so that the opaque fallback's
prefilter (engine/scan/python_opaque.py `could_pick`) never drops a file the parse needs: held
against `ast` on every Python file of this repository and on written-out edge cases."""
from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from vllm_kb.engine.scan import python_text

ROOT = Path(__file__).resolve().parents[1]

EDGES = [
    "from unittest.mock import MagicMock as M, patch\nM(a=1)\n",
    "from a import (b,  # c)\n  d)\nd(x=1)\n",
    "try: import foo.bar as fb\nexcept ImportError: pass\nfb.x(k=1)\n",
    "x = 1; import q.r as s; s(k=2)\n",
    "from z \\\n  import w\nw(k=3)\n",
    "from a . b import c\n(c)(k=4)\n",
    "from.a import c\nc(k=5)\n",
    "import k, \\\n  l\n(l) . m \\\n .n(k=6)\n",
    "if True: from e import (f,\n g)\ng(f'{x}', k=7, s=\"(\")\n",
    "from e import g\ng(f\"{x:{w}}\", '''a ) \" ''', k=8)\n",
    "from e import g\ng(r'\\'', # )\n  k=9)\n",
    "from e import g\ng(x=[1, (2, {3: ')'})], k=10)\n",
    "from ｅ import ｇ\nｇ(ｋ=11)\n",
    "from e import cafe\u0301\ncaf\u00e9(k=12)\n",
    "from e import g\ng(\"\"\"x\"\"\"\"\", k=13)\n",
    "class C:\n    import h\n    def f(self):\n        return h.i(k=14)\n",
]


def _sources():
    files = sorted(p for d in ("engine", "tests", "tools", "benchmarks") for p in (ROOT / d).rglob("*.py"))
    for p in files:
        yield pytest.param(p.read_text(encoding="utf-8"), id=p.relative_to(ROOT).as_posix())
    for i, text in enumerate(EDGES):
        yield pytest.param(text, id=f"edge-{i}")


def _bound(tree: ast.Module) -> set[tuple[str, str]]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                out.add((a.asname or a.name, "." * node.level + (node.module or "")))
        elif isinstance(node, ast.Import):
            for a in node.names:
                out.add((a.asname or a.name.split(".")[0], a.name))
    return out


def _root(f: ast.expr) -> str | None:
    while isinstance(f, ast.Attribute):
        f = f.value
    return f.id if isinstance(f, ast.Name) else None


def _check(text: str) -> None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):  # test fixtures that are broken on purpose
        return
    reads = python_text.as_python_reads(text)
    got = python_text.imports(reads)
    if got is not None:
        read = {(name, module) for name, module in got}
        for name, module in _bound(tree):
            top = module.lstrip(".").split(".")[0]
            assert (name, module) in read or (name, "") in read or \
                any(n == name and m.split(".")[0] == top and m.startswith(".") == module.startswith(".") for n, m in read), \
                (name, module)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.keywords and (root := _root(node.func)):
            spans = list(python_text.call_spans(reads, root))
            for k in node.keywords:
                if k.arg:
                    assert any(end is None or k.arg in reads[start:end] for start, end in spans), (root, k.arg)


@pytest.mark.parametrize("text", list(_sources()))
def test_reads_every_import_and_call_that_ast_reads(text):
    _check(text)


_PIECES = st.sampled_from(["from m import a", "import b.c as d", "a(k=1", ")", "(", " ", "\n", "\\\n", "#", "'", '"',
                           '"""', "f'{", "}", ";", ":", ",", "x", "k=2", "ｋ", "[", "]", "d.e(", "if a: "])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=24).map("".join))
def test_holds_on_made_up_text_that_parses(text):
    _check(text)


def test_as_python_reads_changes_only_names():
    text = 'x = ＭagicMock(a="（＂）")  # ｍ…\nfrom m import cafe\u0301\n'
    assert python_text.as_python_reads(text) == 'x = MagicMock(a="（＂）")  # ｍ…\nfrom m import caf\u00e9\n'
    assert unicodedata.is_normalized("NFKC", "é → x") and python_text.as_python_reads("é → x") == "é → x"


# The str.find readers answer what the regexes they replaced answered (those were tried at
# every position of a text: seconds on vLLM's tree).
_CLASS_RX = re.compile(r"^[ \t]*class[ \t]+(\w+)[ \t]*\(([^)]*)\)", re.M)
_SAMPLES = st.lists(st.sampled_from(["class", " ", "\t", "\n", "\r", "A", "B_1", "(", ")", "x", ",", "sub", ".", "#", "as",
                                     "=", "==", "\\\n", "LLM", "max_model_len", "_", "é"]), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(_SAMPLES)
def test_class_heads_are_what_the_multiline_regex_finds(text):
    assert python_text.class_heads(text) == _CLASS_RX.findall(text)


@settings(max_examples=400, deadline=None)
@given(_SAMPLES, st.sampled_from(["LLM", "max_model_len", "B_1"]), st.booleans())
def test_word_with_is_the_lookbehind_search(text, word, after_dot):
    tail = re.compile(r"(?:[ \t\f\r\n\\]|#[^\n\r]*(?![^\n\r]))*=(?!=)")
    behind = r"(?<![\w])" if after_dot else r"(?<![\w.])"
    want = re.search(behind + re.escape(word) + tail.pattern, text) is not None
    assert python_text.word_with(text, word, tail, after_dot) is want


def test_class_heads_on_edges():
    text = "x class A(\nclass B(x)\n  class\tC (D) class E(F)\nsubclass G(H)\n\tclass I(LLM,\n J)\r\nclass K(L)"
    assert python_text.class_heads(text) == _CLASS_RX.findall(text)
    assert [n for n, _ in python_text.class_heads(text)] == ["B", "C", "I", "K"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["import", "imports", "x", ".", "_", " ", "\n", "é", "from", "(", "2"]), max_size=20).map("".join))
def test_import_words_are_where_the_lookbehind_pattern_matches(text):
    want = [m.start() for m in re.finditer(r"(?<![\w.])import(?!\w)", text)]
    assert list(python_text._import_words(text)) == want


@settings(max_examples=300, deadline=None)
@given(_SAMPLES, st.sampled_from(["x", "A", "re", "B_1", "aa"]))
def test_call_spans_start_where_the_name_is_called(text, root):
    want, i = [], text.find(root)  # every occurrence not after a name character or a dot, its tail matched
    while i >= 0:
        tail = python_text._CALL_TAIL.match(text, i + len(root))
        if tail and not (text[i - 1:i].isalnum() or text[i - 1:i] in ("_", ".")):
            want.append(tail.end())
        i = text.find(root, i + 1)
    assert [start for start, _ in python_text.call_spans(text, root)] == want


def test_comment_runs_take_linear_time():
    """A block of comments, each holding a second `#` (blackfish's option list,
    https://github.com/princeton-ddss/blackfish lib/src/blackfish/server/services/text_generation.py:
    `# dtype # {auto,half,...}`), once made each gap regex try every way of cutting each comment at a
    `#` or a blank: exponential in the lines, the audit never ended. A comment now runs to its line's end."""
    import time
    from vllm_kb.engine.scan import clients, lazy_config, python_opaque, python_prefilter
    lines = "".join(f"    # opt_{i} # {{auto,half,float16,bfloat16}} # more # words\n" for i in range(120))
    text = "from vllm import LLM\nmax_model_len\n" + lines + "tensor_parallel_size\n" + lines + "x\n"
    start = time.perf_counter()
    assert not python_text.word_with(text, "max_model_len", python_opaque._TO_EQUALS)
    assert python_opaque._KEYWORD.search(text) is None
    assert not python_text.word_with(text, "max_model_len", python_prefilter._AS)
    assert python_prefilter._spawn_attr(frozenset({"subprocess"})).search("subprocess\n" + lines) is None
    assert re.compile("tensor_parallel_size" + python_text._CALL_TAIL.pattern).search(text) is None
    assert clients._KEYWORD.search("tools\n" + lines) is None
    assert re.compile(f"type{lazy_config._GAP}=").search("type\n" + lines) is None
    assert time.perf_counter() - start < 0.5
    # a comment still stands between a keyword and its `=`, as Python allows
    assert python_text.word_with("max_model_len  # a # b\n  =4", "max_model_len", python_opaque._TO_EQUALS)
