from __future__ import annotations

import gc
import json
import os
from pathlib import Path

import pytest

# A test process audits hundreds of small projects, each allocating many short-lived objects:
# with the young generation collected every 700 allocations, the collector took a sixth of the
# CPU of tests/test_consistency.py's audits (vllm-kb itself runs without it: cli/main.py
# _one_shot_gc). Collected every 10,000, it takes 2 %; cycles are still collected.
gc.set_threshold(10_000, *gc.get_threshold()[1:])

FIXTURES = Path(__file__).parent / "fixtures"

# The audited projects are data, never tests to collect: a realcase may carry a framework's own
# test files (the vendored verl of vendored-framework--tfgame-verl-spmd-gated-control), which import vLLM.
collect_ignore_glob = ["realcases/*", "realworld/*", "fixtures/*", "data/*"]


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch):
    # An audit must not depend on the machine running the tests.
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    # nor on the models this machine happens to have in its Hugging Face cache
    monkeypatch.setenv("VLLM_KB_HF_CACHE", "0")


@pytest.fixture
def fixtures_dir(monkeypatch) -> Path:
    """Work from tests/fixtures so reports name projects by their relative path."""
    monkeypatch.chdir(FIXTURES)
    return FIXTURES


@pytest.fixture
def cli(capsys):
    from vllm_kb.cli.main import main

    def run(*argv: str):
        code = main(list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def json_site(cli):
    """The one site of a project audited as `vllm-kb audit ROOT --format json` (isolated from the
    user's configuration), as the report's JSON gives it, every check's verdict in its `checks`
    (engine/report/catalogue.py `named`: the plain not-applicable ones included)."""
    import json

    from vllm_kb.engine.report import catalogue

    def run(root: Path, gpu: str = "H100-80GB") -> dict:
        code, out, err = cli("audit", str(root), "--gpu", gpu, "--isolated", "-q", "--format", "json")
        assert code in (0, 1), err
        report = json.loads(out)
        (site,) = report["sites"]
        return catalogue.named(report, site)
    return run


@pytest.fixture
def p0s():
    """The checks a site of the JSON report raises at P0."""
    return lambda site: [r["check"] for r in site["recommendations"] if r["priority"] == "P0"]


@pytest.fixture
def write_project(tmp_path):
    """Writes {relative path: text} under tmp_path (a small project) and returns its root."""
    def write(files: dict[str, str], root: Path | None = None) -> Path:
        root = root or tmp_path
        for name, text in files.items():
            p = root / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        return root
    return write


@pytest.fixture
def scanned(write_project):
    """The sites of a small project, in file and line order."""
    from vllm_kb.engine.scan.project import scan_project

    def scan(files: dict[str, str], root: Path | None = None):
        return sorted(scan_project(write_project(files, root)).sites, key=lambda s: (s.file, s.line))
    return scan


class RealcaseOutcomes:
    """realcases_score.run of each public report once per test session: tests/test_realcases.py
    judges every case one by one, then scores their totals and the error lines' diagnoses from the
    same outcomes, which used to be the 758 audits over again. Under pytest-xdist an outcome is
    shared through the session's common temporary folder (written whole, then renamed into place),
    so a worker reads what the other one already ran."""

    def __init__(self, folder: Path):
        self.dir = folder
        self.dir.mkdir(parents=True, exist_ok=True)
        self.mem: dict[str, object] = {}

    def peek(self, case: Path):
        """The outcome if this session already has it, else None."""
        import realcases_score as score

        got = self.mem.get(case.name)
        if got is None:
            try:
                got = score.Outcome(**json.loads((self.dir / f"{case.name}.json").read_text(encoding="utf-8")))
            except FileNotFoundError:
                return None
            self.mem[case.name] = got
        return got

    def get(self, case: Path):
        import dataclasses

        import realcases_score as score

        got = self.peek(case)
        if got is None:
            got = self.mem[case.name] = score.run(case)
            tmp = self.dir / f".{case.name}.{os.getpid()}"
            tmp.write_text(json.dumps(dataclasses.asdict(got)), encoding="utf-8")
            os.replace(tmp, self.dir / f"{case.name}.json")
        return got


@pytest.fixture(scope="session")
def realcase_outcomes(tmp_path_factory) -> RealcaseOutcomes:
    base = tmp_path_factory.getbasetemp()
    # an xdist worker's folder sits in the session's (pytest-xdist's documented way to share data)
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return RealcaseOutcomes(shared / "realcase-outcomes")
