"""vLLM releases a project implies where it pins none, instead of the newest judged as if pinned:

- a framework installed with vLLM as its own requirement (`trl[vllm]==0.18.0`, a release whose
  wheel requires vLLM outright): the range that release declares (knowledge/frameworks/compat.yaml
  `declared`, read from each release's wheel METADATA);
- a tutorial whose instructions install one (`pip install vllm==0.4.0.post1` in a Markdown file
  beside the scripts): that release or a later one, a floor only, so it can demote a P0 that the
  newest release alone would give and never make one."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import compat, frameworks
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan.pins import Pin, package_name

_PIP = re.compile(r"^\s*(?:[$>]\s*)?(?:!|%)?(?:pip3?|uv\s+pip|python3?\s+-m\s+pip)\s+install\s.*\bvllm==", re.I)


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


def docs_floors(ctx, files: list[str], pins: list[Pin]) -> list[Pin]:
    """`pip install … vllm==X` lines of the project's Markdown files, as `vllm>=X` of their folder,
    when nothing else in the project pins vLLM."""
    if any(p.package == "vllm" for p in pins):
        return []
    out = []
    for rel in files:
        if not rel.lower().endswith(".md"):
            continue
        text = ctx.read(rel) or ""
        if "vllm==" not in text.lower():
            continue
        lines = ["RUN " + ln.strip().lstrip("$>!% ") if _PIP.match(ln) else "" for ln in text.splitlines()]
        for p in pins_mod.dockerfile_pins(rel, "\n".join(lines)):  # the pip lines read as a Dockerfile's
            if p.package == "vllm" and p.exact:
                out.append(Pin(rel, p.line, f"{p.text} ({rel})", f">={p.exact}", "docs", None, "vllm"))
    return out
