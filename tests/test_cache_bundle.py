"""engine/kb/cache.py `Bundle`: many small cache entries (one per CEL predicate) in one file, read
once and written back when something was added; a damaged or foreign file is never trusted."""
from __future__ import annotations

import os

import pytest

from vllm_kb.engine.kb import cache


@pytest.fixture()
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("VLLM_KB_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.delenv("VLLM_KB_NO_CACHE", raising=False)
    return tmp_path / "c"


def test_entries_written_once_come_back_in_a_new_process_view(cache_dir):
    b = cache.Bundle("t", "b.json")
    assert b.get("x") is None
    b.put("x", {"code": "1"})
    b.put("y", [1, 2])
    b.flush()
    again = cache.Bundle("t", "b.json")
    assert again.get("x") == {"code": "1"} and again.get("y") == [1, 2]
    assert not os.stat(cache_dir / "t" / "b.json").st_mode & 0o077


def test_past_the_limit_only_what_this_process_used_is_kept(cache_dir):
    b = cache.Bundle("t", "b.json", limit=3)
    for k in "abcd":
        b.put(k, k)
    b.flush()
    fresh = cache.Bundle("t", "b.json", limit=3)
    assert fresh.get("a") == "a"
    fresh.put("e", "e")
    fresh.flush()
    last = cache.Bundle("t", "b.json", limit=3)
    assert [k for k in "abcde" if last.get(k) is not None] == ["a", "e"]


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX ownership")
@pytest.mark.parametrize("damage", ["garbage", "not-a-mapping", "writable-by-others"])
def test_a_damaged_or_open_file_is_read_as_empty(cache_dir, damage):
    b = cache.Bundle("t", "b.json")
    b.put("x", 1)
    b.flush()
    path = cache_dir / "t" / "b.json"
    if damage == "garbage":
        path.write_text("{not json")
    elif damage == "not-a-mapping":
        path.write_text("[1, 2]")
    else:
        os.chmod(path, 0o666)
    assert cache.Bundle("t", "b.json").get("x") is None


def test_no_cache_means_nothing_is_written(cache_dir, monkeypatch):
    monkeypatch.setenv("VLLM_KB_NO_CACHE", "1")
    b = cache.Bundle("t", "b.json")
    b.put("x", 1)
    b.flush()
    assert not cache_dir.exists()
    assert b.get("x") == 1  # still remembered within the process
