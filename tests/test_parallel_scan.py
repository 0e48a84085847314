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
