"""engine/kb/yamlio.py `load_cached`: a knowledge file read back from the cache gives the same
data and the same lines as parsing it, and its lines come back even when their file is gone or
damaged."""
from __future__ import annotations

import marshal

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


def test_an_entry_written_by_other_code_is_never_read(text, tmp_path, monkeypatch):
    # two copies of vllm-kb share ~/.cache/vllm-kb (an upgrade, a checkout beside an install): one
    # that stores a mapping differently wrote attn_selector.yaml's entry, and the other read it back
    # as its own — every launch then got "No valid attention backend" (check L71) as a P0
    from vllm_kb.engine.kb import cache

    yamlio.load_cached(text)
    (entry,) = (tmp_path / "c" / "knowledge").glob("*.marshal")
    entry.write_bytes(marshal.dumps(({"planted": True}, 1)))
    assert yamlio.load_cached(text).data == {"planted": True}  # the same code reads what it wrote
    assert cache.code_tag(yamlio.__file__) != cache.code_tag(yamlio.__file__, cache.__file__)  # the source counts
    monkeypatch.setattr(cache, "code_tag", lambda *files: "other-code")
    assert yamlio.load_cached(text).data == yamlio.load(text).data  # another tag: the planted entry is not its


def test_data_marshal_cannot_hold_is_parsed_every_time(text, tmp_path):
    dated = "released: 2024-01-02\n"  # the safe loader gives a date
    assert yamlio.load_cached(dated).data == yamlio.load(dated).data
    assert not list((tmp_path / "c" / "knowledge").glob("*.marshal"))


def test_a_damaged_entry_is_parsed_again(text, tmp_path):
    yamlio.load_cached(text)
    (entry,) = (tmp_path / "c" / "knowledge").glob("*.marshal")
    entry.write_bytes(b"\xff garbage")
    assert yamlio.load_cached(text).data == yamlio.load(text).data
