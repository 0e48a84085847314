"""The JSON report written site by site: each site's entry is built, its secrets hidden, encoded
and spooled to a temporary file, then forgotten; the document around the sites (with the summary
the sites added up) is written last around the spool. Memory stays that of one site whatever
their number, and the text is the same, byte for byte, as `json_text.dumps(model.build(…))`
(tests/test_stream.py)."""
from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from typing import IO, Any, Callable, Iterable

from vllm_kb.engine.kb import redact as redact_mod
from vllm_kb.engine.report import json_text, model
from vllm_kb.engine.report.results import AuditReport, SiteReport

_HOLE = "\x00sites\x00"  # where the sites go in the document around them
_ORDER = {"P0": 0, "P1": 1, "P2": 2}


class Streamed:
    """What the caller still needs once the sites are gone: the document without them (summary,
    project, skipped files) and the highest priority found."""

    def __init__(self, head: dict[str, Any], worst: str | None):
        self.head = head
        self.worst = worst


def write(rep: AuditReport, reports: Iterable[SiteReport], lang: str, out: IO[str],
          each: Callable[[SiteReport], None] | None = None, progress: Callable[[str, int], None] | None = None,
          total: int = 0) -> Streamed:
    """Write the JSON report of `reports` (in order) to `out`; `each(sr)` runs on every site report,
    its key set, before it is written (the configuration's filter)."""
    counts = model.Counts()
    worst = None
    seen: Counter = Counter()  # the site keys fingerprints are made of (engine/check/baseline.py site_keys)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        first = True
        for sr in reports:
            k = (sr.site.file, sr.site.kind)
            sr.key = sr.key or f"{sr.site.file}|{sr.site.kind}|{seen[k]}"
            seen[k] += 1
            if each is not None:
                each(sr)
            entry = redact_mod.redact(model._site(sr, rep, lang))
            counts.add(entry)
            for p in [r["priority"] for r in entry["recommendations"]] + [f["priority"] for f in entry["findings"]]:
                if p in _ORDER and (worst is None or _ORDER[p] < _ORDER[worst]):
                    worst = p
            spool.write(("\n    " if first else ",\n    ") + json_text.dumps_at(entry, 2))
            first = False
            if progress is not None:
                progress("render", total)
        head = redact_mod.redact(model.document(rep, lang, _HOLE, model.summary([], counts.n)))
        for f in head.get("findings", []):
            if f["priority"] in _ORDER and (worst is None or _ORDER[f["priority"]] < _ORDER[worst]):
                worst = f["priority"]
        text = json_text.dumps(head)
        hole = '"sites": ' + json_text.dumps(_HOLE)
        before, after = text.split(hole, 1)
        out.write(before + '"sites": [')
        if first:
            out.write("]")
        else:
            spool.seek(0)
            shutil.copyfileobj(spool, out, 1 << 20)
            out.write("\n  ]")
        out.write(after + "\n")
    return Streamed(head, worst)
