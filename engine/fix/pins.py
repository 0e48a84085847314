"""A vLLM version bump written where the project states it: the specifier of a dependency pin
(requirements, pyproject, setup, conda; lock files are the resolver's and are left alone), a
vLLM image tag (`vllm/vllm-openai:v0.10.2` in a Dockerfile, compose file or manifest) and a
build's `pip install vllm==X`. Only the version's own characters change."""
from __future__ import annotations

import re

from vllm_kb.engine.fix.edits import TextEdit
from vllm_kb.engine.scan.pins import Pin
from vllm_kb.engine.scan.site import Site

_TAG = re.compile(r"(vllm/vllm-openai(?:-[a-z0-9]+)?:)(v?)(\d+(?:\.\d+)+(?:\.post\d+)?)([A-Za-z0-9_.-]*)")
_INSTALL = re.compile(r"(vllm(?:\[[^\]]*\])?\s*==\s*)(\d+(?:\.\d+)+(?:\.post\d+)?)")


def _line_span(text: str, line: int) -> tuple[int, int] | None:
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    if not 1 <= line <= len(starts):
        return None
    start = starts[line - 1]
    end = text.find("\n", start)
    return start, len(text) if end < 0 else end


def pin_edits(pins: list[Pin], target: str, read) -> dict[str, list[TextEdit]]:
    """`vllm==0.9.2` → `vllm==T`, a range → `==T`, each on its own line."""
    out: dict[str, list[TextEdit]] = {}
    for p in pins:
        if p.package != "vllm" or p.kind == "lock" or p.extras:
            continue
        text = read(p.file)
        span = _line_span(text, p.line) if text is not None else None
        if span is None or not p.spec:
            continue
        line = text[span[0]:span[1]]
        at = line.find(p.text)
        if at < 0:
            continue
        inner = p.text.rfind(p.spec) if p.spec in p.text else -1
        if inner < 0 or p.spec.strip() == f"=={target}":
            continue
        start = span[0] + at + inner
        out.setdefault(p.file, []).append(TextEdit(start, start + len(p.spec), f"=={target}"))
    return out


def image_edits(sites: list[Site], target: str, read) -> dict[str, list[TextEdit]]:
    """Image tags and `pip install vllm==X` in the files of the sites that run them."""
    out: dict[str, list[TextEdit]] = {}
    files = {s.file for s in sites if s.image} | {s.installed[1].rpartition(":")[0] for s in sites if s.installed}
    for f in sorted(files):
        text = read(f)
        if text is None:
            continue
        edits = []
        for m in _TAG.finditer(text):
            if m.group(3) != target:
                edits.append(TextEdit(m.start(3), m.end(3), target))
        if not edits:  # Helm values: `repository: vllm/vllm-openai` and `tag: v0.10.2` apart
            for s in sites:
                m = _TAG.match(s.image or "") if s.file == f else None
                if m and m.group(3) != target and "vllm/vllm-openai" in text:
                    for t in re.finditer(rf"^\s*tag:\s*[\"']?v?({re.escape(m.group(3))})\b", text, re.M):
                        edits.append(TextEdit(t.start(1), t.end(1), target))
        for s in sites:
            if s.installed and s.installed[1].rpartition(":")[0] == f:
                span = _line_span(text, int(s.installed[1].rpartition(":")[2]))
                m = _INSTALL.search(text[span[0]:span[1]]) if span else None
                if m and m.group(2) != target:
                    edits.append(TextEdit(span[0] + m.start(2), span[0] + m.end(2), target))
        if edits:
            out[f] = sorted(set(edits), key=lambda e: e.start)
    return out
