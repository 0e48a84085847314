"""The scan across processes (engine/scan/parallel.py) gives the same report, byte for byte, as
one process, whatever the number of workers."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.report import model

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import gen_repo  # noqa: E402

ROOT = Path(__file__).parent


def _report(path: Path) -> str:
    return json.dumps(model.build(audit(path, gpu="H100-80GB x8"), "en"), ensure_ascii=False, indent=2)


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tree") / "repo"
    gen_repo.generate(root, files=400, sites=60, seed=5)
    # what the scan records on the way must merge in order too: a config a command reads, files it skips
    (root / "conf").mkdir()
    (root / "conf" / "serve.yaml").write_text("max-model-len: 8192\nenforce-eager: true\n")
    (root / "launch.sh").write_text("#!/bin/bash\nvllm serve m --config conf/serve.yaml\n")
    (root / "broken.py").write_text("from vllm import LLM\nLLM(model='m'\n")
    (root / "bad.yaml").write_text("vllm: [unclosed\n")
    return root


@pytest.mark.parametrize("workers", ["2", "3", "5"])
def test_workers_give_the_same_report(tree, workers, monkeypatch):
    monkeypatch.setenv("VLLM_KB_WORKERS", "1")
    one = _report(tree)
    monkeypatch.setenv("VLLM_KB_WORKERS", workers)
    assert _report(tree) == one
    assert '"code": "python-syntax"' in one and '"code": "yaml-error"' in one


@pytest.mark.parametrize("project", ["stale-serve", "config-yaml", "rl-verl", "deploy-helm"])
def test_fixtures_with_workers(project, monkeypatch):
    monkeypatch.setenv("VLLM_KB_WORKERS", "1")
    one = _report(ROOT / "fixtures" / project)
    monkeypatch.setenv("VLLM_KB_WORKERS", "2")
    assert _report(ROOT / "fixtures" / project) == one


@pytest.mark.parametrize("probe", [0.0, 1e9])
def test_the_scan_that_forks_once_it_knows_the_pace_gives_the_same_report(tree, probe, monkeypatch):
    from vllm_kb.engine.scan import parallel

    monkeypatch.setenv("VLLM_KB_WORKERS", "1")
    one = _report(tree)
    monkeypatch.delenv("VLLM_KB_WORKERS")
    monkeypatch.setattr(parallel, "MIN_FILES", 1)
    monkeypatch.setattr(parallel, "PROBE_S", probe)  # 0: fork after the first file; 1e9: never
    monkeypatch.setattr(parallel, "MIN_LEFT_S", 0.0)
    monkeypatch.setattr(parallel, "workers", lambda n_files: 2)
    forks: list[int] = []
    real = parallel.scan

    def scan(ctx, files, scan_one, n):
        forks.append(len(files))
        yield from real(ctx, files, scan_one, n)
    monkeypatch.setattr(parallel, "scan", scan)
    assert _report(tree) == one
    # 0: this process scanned the first file, the workers every other; 1e9: no worker started
    assert forks == ([forks[0]] if probe == 0.0 else []) and (not forks or forks[0] > 100)
