"""A framework installed with vLLM as its own requirement (`trl[vllm]==0.18.0`, a release whose
wheel requires vLLM outright) decides which vLLM pip installs when the project pins none: the
range that framework release declares (knowledge/frameworks/compat.yaml `declared`, read from each
release's wheel METADATA). Without it the audit judged the newest vLLM as if it were pinned."""
from __future__ import annotations

from vllm_kb.engine.kb import compat, frameworks
from vllm_kb.engine.scan.pins import Pin, package_name


def vllm_ranges(pins: list[Pin]) -> list[Pin]:
    """A vLLM pin (the declared range) for each exactly pinned framework in a folder with no vLLM pin."""
    by_package = {package_name(fw.package): fw.id for fw in frameworks.load_all().values()}
    pinned = {p.folder for p in pins if p.package == "vllm"}
    out = []
    for p in pins:
        fid = by_package.get(p.package)
        if fid is None or p.folder in pinned or not p.exact or p.own:
            continue
        rows = [r for r in compat.rows() if r.framework == fid and r.kind == "declared" and r.vllm and r.covers(p.exact)
                and ("vllm" in p.extras or 'extra == "' not in str(r.raw.get("where", "")))]
        if len(rows) != 1:
            continue
        out.append(Pin(p.file, p.line, f"{p.text} (declares vllm{rows[0].vllm})", rows[0].vllm, p.kind, None, "vllm",
                       above=p.above))
    return out
