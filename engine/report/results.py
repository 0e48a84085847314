"""What an audit hands to every renderer: one `SiteReport` per site (its facts, check results,
findings and planned changes) inside an `AuditReport` for the project. engine/audit.py fills
them; the renderers, suppressions and baselines only read or filter them."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vllm_kb.engine.check.evaluate import Result
from vllm_kb.engine.fix.changes import Change
from vllm_kb.engine.kb import hardware as hw
from vllm_kb.engine.kb.knowledge import Knowledge
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan.context import ScanContext, Skipped
from vllm_kb.engine.scan.site import Finding, Site


@dataclass
class SiteReport:
    site: Site
    facts: dict[str, Any]
    results: list[Result]
    changes: list[Change]
    after: list[dict]
    version: pins_mod.VersionChoice
    lookup_version: str
    lookup_note: str | None
    remarks: list[Finding] = field(default_factory=list)
    key: str = ""  # file|kind|n, what fingerprints are made of (engine/check/baseline.py)
    suppressed: list = field(default_factory=list)  # engine/check/suppressions.Suppressed


@dataclass
class AuditReport:
    root: Path
    sites: list[SiteReport]
    skipped: list[Skipped]
    hardware: hw.Hardware
    files_scanned: int
    pins: list[pins_mod.Pin]
    default_version: pins_mod.VersionChoice
    kb: Knowledge
    ctx: ScanContext  # the scan's reads: what --fix and replan edit, with the overlay
    files: list[str] = field(default_factory=list)  # what was read, relative to root
    findings: list[Finding] = field(default_factory=list)  # about no site (engine/check/suppressions.py)
