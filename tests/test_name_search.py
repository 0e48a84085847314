"""engine/scan/name_search.py gives the answer of the plain search (every file's text, in order)
and reads the files in the same order and at the same moments."""
from __future__ import annotations

import random

from vllm_kb.engine.scan import name_search

WORDS = ["import", "os", "run", "run_model", "_run", "Runner", "LLM", "make_llm", "x", "généré", "ＬＬＭ", "a.b", "1", ""]


class Ctx:
    def __init__(self, texts: dict[str, str | None]):
        self.files = list(texts)
        self.texts = texts
        self.reads: list[str] = []

    def read(self, rel: str):
        self.reads.append(rel)
        return self.texts[rel]


def plain(ctx: Ctx, name: str, skip: str, limit: int, held: dict) -> list[str]:
    """The search name_search replaces (python_callers before it): the files that import
    something, read as far as a search has needed and kept, each text searched."""
    pairs = held.setdefault("pairs", [])
    out = []
    i = 0
    while True:
        if i == len(pairs):
            pos = held.get("pos", 0)
            if pos >= len(ctx.files):
                return out
            held["pos"] = pos + 1
            rel = ctx.files[pos]
            if rel.endswith(".py"):
                text = ctx.read(rel)
                if text and "import" in text:
                    pairs.append((rel, text))
            continue
        rel, text = pairs[i]
        i += 1
        if rel != skip and name in text:
            out.append(rel)
            if len(out) >= limit:
                return out


def _tree(r: random.Random, n: int) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for i in range(n):
        rel = f"m{i}.py" if r.random() < 0.9 else f"d{i}.txt"
        if r.random() < 0.05:
            out[rel] = None  # unreadable
            continue
        seps = [" ", "\n", "(", ".", ",", "\t", "=", ""]
        out[rel] = "".join(r.choice(WORDS) + r.choice(seps) for _ in range(r.randint(0, 12)))
    return out


def test_same_files_and_reads_as_the_plain_search(monkeypatch):
    monkeypatch.setattr(name_search, "BLOCK", 4)
    r = random.Random(7)
    names = ["run", "run_model", "Runner", "LLM", "make_llm", "généré", "ＬＬＭ", "a.b", "os", "x", "nowhere", "", "un"]
    for _ in range(40):
        texts = _tree(r, r.randint(0, 60))
        fast, slow = Ctx(texts), Ctx(texts)
        held: dict = {}
        for _ in range(15):
            name = r.choice(names)
            skip = r.choice(fast.files) if fast.files and r.random() < 0.7 else ""
            limit = r.randint(1, 9)
            assert name_search.files_naming(fast, name, skip, limit) == plain(slow, name, skip, limit, held)
            assert fast.reads == slow.reads


def test_a_name_inside_a_longer_word_counts_as_the_text_search_does():
    texts = {f"m{i}.py": "import os\nfrom pkg import build_engine_v2\n" for i in range(200)}
    texts["m150.py"] = "import os\nrebuild_enginex = 1\n"
    got = name_search.files_naming(Ctx(texts), "build_engine", "m0.py", 300)
    assert got == [f"m{i}.py" for i in range(1, 200)]
    assert name_search.files_naming(Ctx(texts), "uild_enginex", "", 5) == ["m150.py"]
