"""One rule of a check in knowledge/checks/L.yaml, for the tools that `--check` a rule's releases
against what they read from vLLM's sources (tools/vllm_deepgemm_pins.py, tools/vllm_lora_towers.py)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def rule(check_id: str, marker: str) -> dict:
    """The first rule of `check_id` whose `when` contains `marker`."""
    checks = yaml.safe_load((ROOT / "knowledge" / "checks" / "L.yaml").read_text(encoding="utf-8"))
    check = next(c for c in checks["checks"] if c["id"] == check_id)
    return next(r for r in check["rules"] if marker in r.get("when", ""))


def contains(spec: str, release: str) -> bool:
    """Whether the rule's `vllm:` range holds the release, as the audit reads it."""
    sys.path.insert(0, str(ROOT.parent))
    from vllm_kb.engine.kb.versions import SpecifierSet  # noqa: PLC0415 (the package, for a maintainer's run)
    return SpecifierSet(spec).contains(release)


def arguments(flag: str, default: str, what: str, check: str) -> argparse.Namespace:
    """The command line of such a tool: where the releases are (`flag`), and `--check`."""
    ap = argparse.ArgumentParser()
    ap.add_argument(flag, default=default, type=Path, help=what)
    ap.add_argument("--check", action="store_true", help=f"exit 1 when {check} differs from the sources")
    return ap.parse_args()
