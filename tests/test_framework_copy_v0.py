"""eval113 RAGEN (https://github.com/ZihanWang314/RAGEN, 997f31ea): a vendored verl 0.1 installed as
`setup(name='verl-core', packages=find_packages(include=['verl']))` is verl at its verl/version/version, and
its gate (verl/third_party/vllm/__init__.py: 0.3.1-0.6.3, ValueError for any other) takes no V1 release, so
A4's V1 advice is a framework migration: P2 that says so, not a low-risk P1."""
from __future__ import annotations

import shutil
from pathlib import Path

from vllm_kb.engine.audit import audit

CASE = Path(__file__).parent / "realcases" / "v1-engine-framework-gate--ragen-997f31ea-control"


def _audit(tmp_path, gate: str | None = None):
    root = tmp_path / "p"
    shutil.copytree(CASE, root, ignore=shutil.ignore_patterns("case.yaml"))
    if gate is not None:
        (root / "verl/third_party/vllm/__init__.py").write_text(gate)
    (sr,) = audit(root, gpu="H100-80GB x8").sites
    return sr


def _a4(sr):
    return next(r for r in sr.results if r.check.id == "A4")


def test_the_vendored_copy_is_verl_at_its_version_file(tmp_path):
    sr = _audit(tmp_path)
    assert sr.site.framework == "verl" and sr.site.framework_version == "0.1"


def test_v1_behind_a_gate_that_takes_no_v1_release_is_a_p2_that_names_the_gate(tmp_path):
    r = _a4(_audit(tmp_path))
    assert r.status == "recommended" and r.priority == "P2"
    assert "{launch.framework_vllm_gate}" in r.reason.en and "{launch.framework_vllm_gate}" in r.reason.zh
    assert r.values["launch.framework_vllm_newest"] == "0.6.3"
    assert r.values["launch.framework_vllm_gate"].startswith("verl/third_party/vllm/__init__.py:")


def test_a_gate_that_takes_a_v1_release_leaves_the_project_pin_rule(tmp_path):
    """With a gate that admits 0.8.2 the framework no longer blocks V1; the case's own vllm==0.6.3 pin
    still makes A4 an upgrade path (P2, db34168c), worded for the pin, not for the gate."""
    gate = ("from importlib.metadata import version\n\npackage_version = version('vllm')\n"
            "if package_version == '0.6.3':\n    from .vllm_v_0_6_3.llm import LLM\n"
            "elif package_version == '0.8.2':\n    from .vllm_v_0_8_2.llm import LLM\n"
            "else:\n    raise ValueError(f'vllm version {package_version} not supported')\n")
    r = _a4(_audit(tmp_path, gate))
    assert r.priority == "P2" and "own requirement" in r.reason_text("en") and "gate" not in r.reason_text("en")
