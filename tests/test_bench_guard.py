"""benchmarks/guard.py, the per-commit guard on the audit's work: what it holds against its
baseline and what only says where a change came from. The counting itself runs two audits under
a profiler (about half a minute): it is run by hand before a commit, not here."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import guard  # noqa: E402

BASE = {"audit-5000": {"calls": 1000, "parses": 30}, "cold-20": {"calls": 500}}


def test_a_count_within_the_tolerance_passes_and_one_above_it_fails():
    lines, failed = guard.compare({"audit-5000": {"calls": 1015, "parses": 30}, "cold-20": {"calls": 500}}, BASE, 2.0)
    assert not failed
    assert "audit-5000 calls: 1,000 → 1,015 (+1.50 %)" in lines
    _, failed = guard.compare({"audit-5000": {"calls": 1021, "parses": 30}, "cold-20": {"calls": 500}}, BASE, 2.0)
    assert failed


def test_only_the_held_counts_fail_and_a_gain_asks_for_an_update():
    # parses say where a change came from; they never fail the guard by themselves
    lines, failed = guard.compare({"audit-5000": {"calls": 1000, "parses": 60}, "cold-20": {"calls": 400}}, BASE, 2.0)
    assert not failed
    assert any("cold-20 calls" in line and "--update" in line for line in lines)
    lines, failed = guard.compare({"audit-5000": {"calls": 1000, "instructions_perf": 9}}, BASE, 2.0)
    assert not failed and "audit-5000 instructions_perf: 9 (no baseline)" in lines


def test_the_baseline_holds_every_tree_for_the_python_it_was_counted_with():
    data = json.loads(guard.BASELINE.read_text(encoding="utf-8"))
    for counts in data.values():
        assert set(counts) == {name for name, *_ in guard.TREES}
        assert all(c["calls"] > 0 for c in counts.values())
