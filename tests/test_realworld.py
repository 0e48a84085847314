"""The real-world project shapes (tests/realworld/<project>/: a re-creation of files read in public
repositories, its SOURCE and an expected.yaml written before the tool ran) hold the targets:
site recall ≥ 0.97, precision 1.00, value accuracy ≥ 0.99, detect right on every project.
`python tests/realworld/score.py -v` prints the table and every miss."""
import importlib.util
import sys
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent / "realworld"
_spec = importlib.util.spec_from_file_location("realworld_score", HERE / "score.py")
score = importlib.util.module_from_spec(_spec)
sys.modules["realworld_score"] = score  # its dataclasses look their module up
_spec.loader.exec_module(score)

PROJECTS = score.projects()


def test_there_are_enough_shapes():
    assert len(PROJECTS) >= 30


@pytest.mark.parametrize("path", PROJECTS, ids=[p.name for p in PROJECTS])
def test_each_shape_says_where_it_comes_from(path):
    source = (path / "SOURCE").read_text(encoding="utf-8")
    assert source.startswith("SOURCE: ") and ("@" in source or "issue" in source or "PyPI" in source), source
    exp = yaml.safe_load((path / "expected.yaml").read_text(encoding="utf-8"))
    assert exp["project"] == path.name and exp["source"] and all(s.get("repo") for s in exp["source"])
    assert (path / "project").is_dir()


@pytest.fixture(scope="module")
def totals():
    total = score.Score()
    for p in PROJECTS:
        sc, _ = score.score_project(p, False)
        total.add(sc)
    return total


def test_targets(totals):
    assert totals.recall >= score.TARGETS["recall"], totals.misses
    assert totals.precision >= score.TARGETS["precision"], totals.misses
    assert totals.value_accuracy >= score.TARGETS["values"], totals.misses
    assert totals.detect_accuracy >= score.TARGETS["detect"], totals.misses
