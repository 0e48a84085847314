from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


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
