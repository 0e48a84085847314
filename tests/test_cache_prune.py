"""engine/kb/cache.py pruning: the cache folders stay bounded. Each entry is keyed by what it was
derived from, so every edit of a knowledge file and every new code version used to leave its
entries behind for good (a day of work left 522 knowledge entries, 134 MB)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vllm_kb.engine.kb import cache, yamlio

OLD = time.time() - 10 * cache.DAY


def _entries(d: Path, n: int, suffixes=(".marshal", ".lines.json"), age: float = OLD) -> list[str]:
    names = []
    for i in range(n):
        name = f"{i:040x}"
        for s in suffixes:
            (d / (name + s)).write_text("x")
            os.utime(d / (name + s), (age + i, age + i))  # entry i was used after entry i - 1
        names.append(name)
    return names


def _left(d: Path) -> set[str]:
    return {cache._entry(p.name) for p in d.iterdir() if not p.name.startswith(".")}


def test_the_most_recently_used_entries_are_kept_with_all_their_files(tmp_path):
    names = _entries(tmp_path, 10)
    cache.prune(tmp_path, 4)
    assert _left(tmp_path) == set(names[-4:])
    assert len(list(tmp_path.iterdir())) == 8  # data and lines files of each


def test_what_this_process_used_is_kept_and_counts_towards_the_bound(tmp_path):
    names = _entries(tmp_path, 10)
    cache.prune(tmp_path, 4, frozenset({names[0], names[1]}))
    assert _left(tmp_path) == {names[0], names[1], names[8], names[9]}


def test_versions_with_dots_in_their_names_are_entries_of_their_own(tmp_path):
    for i, name in enumerate(["cel-grammar-lark1.3.1-py310.cache", "cel-grammar-lark1.3.1-py311.cache",
                              "cel-grammar-lark1.2.2-py311.cache"]):
        (tmp_path / name).write_text("x")
        os.utime(tmp_path / name, (OLD + i, OLD + i))
    cache.prune(tmp_path, 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cel-grammar-lark1.2.2-py311.cache",
                                                          "cel-grammar-lark1.3.1-py311.cache"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="links")
def test_temporary_files_go_only_when_old_and_links_and_folders_stay(tmp_path):
    old_tmp, young_tmp = tmp_path / ".a.marshal.12.tmp", tmp_path / ".b.marshal.13.tmp"
    for p in (old_tmp, young_tmp):
        p.write_text("x")
    os.utime(old_tmp, (OLD, OLD))
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "sub", tmp_path / "link.marshal")
    cache.prune(tmp_path, 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".b.marshal.13.tmp", "link.marshal", "sub"]


def test_a_read_refreshes_an_entry_older_than_a_day_only(tmp_path):
    old, recent = tmp_path / "old.marshal", tmp_path / "recent.marshal"
    for p in (old, recent):
        p.write_text("x")
    hour_ago = time.time() - 3600
    os.utime(old, (OLD, OLD))
    os.utime(recent, (hour_ago, hour_ago))
    cache.used(old)
    cache.used(recent)
    assert old.stat().st_mtime > time.time() - 60  # refreshed: the next pruning keeps it
    assert recent.stat().st_mtime == pytest.approx(hour_ago)  # one utime a day at most


def test_a_missing_folder_is_no_error(tmp_path):
    cache.prune(tmp_path / "gone", 1)


def _run(code: str, cache_dir: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "VLLM_KB_NO_CACHE"}
    subprocess.run([sys.executable, "-c", code], env={**env, "VLLM_KB_CACHE_DIR": str(cache_dir)}, check=True)


def test_a_run_that_writes_a_knowledge_entry_prunes_the_folder_at_exit(tmp_path):
    knowledge = tmp_path / "c" / "knowledge"
    knowledge.mkdir(parents=True, mode=0o700)
    os.chmod(tmp_path / "c", 0o700)
    stale = _entries(knowledge, yamlio.KEEP + 20)
    _run("from vllm_kb.engine.kb import resources, yamlio\n"
         "yamlio.load_cached(resources.read_text('knowledge', 'gpus.yaml'))", tmp_path / "c")
    left = _left(knowledge)
    assert len(left) == yamlio.KEEP
    assert stale[-1] in left and stale[20] not in left  # the oldest went
    assert len(left - set(stale)) == 1  # the entry just written stays


def test_a_run_that_only_reads_never_lists_the_folder(tmp_path):
    code = ("from vllm_kb.engine.kb import resources, yamlio\n"
            "yamlio.load_cached(resources.read_text('knowledge', 'gpus.yaml'))")
    _run(code, tmp_path / "c")
    knowledge = tmp_path / "c" / "knowledge"
    stale = _entries(knowledge, yamlio.KEEP + 5)
    _run(code, tmp_path / "c")  # a hit: nothing written, so nothing pruned
    assert set(stale) <= _left(knowledge)


def test_a_bundle_written_prunes_the_other_bundles_of_its_folder(tmp_path):
    folder = tmp_path / "c" / "t"
    folder.mkdir(parents=True, mode=0o700)
    os.chmod(tmp_path / "c", 0o700)
    for i in range(20):
        p = folder / f"translations-v1-{i:04d}-py311.json"
        p.write_text("{}")
        os.utime(p, (OLD + i, OLD + i))
    _run("from vllm_kb.engine.kb import cache\n"
         "b = cache.Bundle('t', 'translations-v2-new-py311.json', files=4)\n"
         "b.put('k', 1)", tmp_path / "c")
    assert sorted(p.name for p in folder.iterdir()) == [
        "translations-v1-0017-py311.json", "translations-v1-0018-py311.json", "translations-v1-0019-py311.json",
        "translations-v2-new-py311.json"]
