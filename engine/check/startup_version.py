"""Whether the release implements the checkpoint's version of a family whose vLLM class dispatches
on config.json's `version` (MiniCPMV 0.5.5+, MiniCPMO 0.16.0+), from knowledge/vllm/model_versions.yaml
(tools/vllm_model_versions.py reads each release's dispatch table). The class's `__new__` raises
"Currently, MiniCPMV only supports versions …" for any other version while the model is built on the
workers: MiniCPM-V 4.5 on 0.10.1.1 (vLLM #23955), whose table stops at 4.0."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_arch import _known
from vllm_kb.engine.kb.versions import Version, parse, try_parse


def version_facts(model: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`arch_version_ok` (and the versions the release implements, `arch_versions`; the first
    scanned release after `version` that implements it, `arch_version_since` / `_pin`) for a
    registered architecture that dispatches on the version in this release. Absent where the
    table, the version or the release cannot tell."""
    arch, said = model.get("architecture"), model.get("config_version")
    v = try_parse(version) if version else None
    row = (table.get("architectures") or {}).get(arch) if isinstance(arch, str) and table else None
    if row is None or v is None or not isinstance(said, str) or not said:
        return {}
    releases = [parse(r) for r in table["releases"]]
    if not _known(row["dispatch"], releases, v):
        return {}
    spans = row["versions"].get(said) or []
    got = _known(spans, releases, v) if spans else False
    if got is None:
        return {}
    out: dict[str, Any] = {"arch_version": said, "arch_version_ok": got}
    if got:
        return out
    out["arch_versions"] = ", ".join(x for x, s in row["versions"].items() if _known(s, releases, v))
    later = [Version(a) for a, _ in spans if Version(a) > v]
    if later:
        out["arch_version_since"] = str(min(later))
        out["arch_version_pin"] = ">=" + out["arch_version_since"]
    return out
