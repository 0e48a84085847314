"""engine/kb/yamlio.py `load_cached`: a knowledge file read back from the cache gives the same
data and the same lines as parsing it, and its lines come back even when their file is gone or
damaged."""
from __future__ import annotations

import pytest

from vllm_kb.engine.kb import resources, yamlio


@pytest.fixture()
def text(tmp_path, monkeypatch):
    monkeypatch.setenv("VLLM_KB_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.delenv("VLLM_KB_NO_CACHE", raising=False)
    return resources.read_text("knowledge", "gpus.yaml")


@pytest.mark.parametrize("damage", [None, "missing", "garbage"])
def test_cached_document_equals_the_parsed_one(text, tmp_path, damage):
    fresh = yamlio.load(text)
    first = yamlio.load_cached(text)  # parses and writes the cache
    lines_files = list((tmp_path / "c" / "knowledge").glob("*.lines.json"))
    assert len(lines_files) == 1
    if damage == "missing":
        lines_files[0].unlink()
    elif damage == "garbage":
        lines_files[0].write_text('[["x"]]')
    cached = yamlio.load_cached(text)
    assert cached.data == fresh.data == first.data
    assert dict(cached.lines.items()) == fresh.lines
    some = next(iter(fresh.lines))
    assert cached.line_of(some) == fresh.line_of(some)


@pytest.mark.parametrize("source", ["vllm/attn_selector.yaml", None])
def test_mappings_with_other_keys_are_cached_too(text, tmp_path, source):
    """knowledge/vllm/attn_selector.yaml keys its candidates by GPU major version (7:, 8:): JSON
    keeps only string keys, so the file was parsed as YAML on every cold start (a fifth of it)."""
    text = resources.read_text("knowledge", source) if source else \
        'a:\n  7: [x, {9: 1.5}]\n  "7": y\n  true: 3\n"\\0pairs": [[1, 2]]\n'
    fresh = yamlio.load(text)
    yamlio.load_cached(text)  # parses and writes the cache
    assert len(list((tmp_path / "c" / "knowledge").glob("*.lines.json"))) == 1
    cached = yamlio.load_cached(text)
    assert repr(cached.data) == repr(fresh.data)
    assert dict(cached.lines.items()) == fresh.lines
