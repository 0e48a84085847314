"""The JSON report written site by site: each site's entry is built, cleaned as the whole report
is (model.clean: secrets hidden, file names displayable), encoded (json_text: control characters
escaped) and spooled to a temporary file, then forgotten; the document around the sites (with the
summary the sites added up) is written last around the spool. Memory stays that of one site
whatever their number, and the text is the same, byte for byte, as `json_text.dumps(model.build(…))`
(tests/test_stream.py). With many sites the entries are made by forked workers, each for a run
of consecutive sites, and spooled in order: the same text whatever the number of workers."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from typing import IO, Any, Callable, Iterable

from vllm_kb.engine.report import catalogue, json_text, model
from vllm_kb.engine.report.results import AuditReport, SiteReport

_HOLE = "\x00sites\x00"  # where the sites go in the document around them
_ORDER = {"P0": 0, "P1": 1, "P2": 2}
MIN_SITES = 200  # below this, forking workers costs more than it saves
_CHUNK = 16
_job: dict[str, Any] = {}  # what a forked worker inherited


class Streamed:
    """What the caller still needs once the sites are gone: the document without them (summary,
    project, skipped files) and the highest priority found."""

    def __init__(self, head: dict[str, Any], worst: str | None):
        self.head = head
        self.worst = worst


def _worse(a: str | None, b: str | None) -> str | None:
    if b not in _ORDER:
        return a
    return b if a is None or _ORDER[b] < _ORDER[a] else a


def _entry(rep: AuditReport, sr: SiteReport, lang: str, each) -> tuple[str, dict, str | None, list]:
    """One site: its text at the depth of the sites array (with a hole for its `not_applicable`,
    which only the writer can number: `_numbered`), what it adds to the summary, its worst
    priority, and its not-applicable [id, reason] pairs."""
    if each is not None:
        each(sr)
    raw = model._site(sr, rep, lang)
    checks = raw["checks"]
    raw["checks"] = _CHECKS_HOLE
    entry = model.clean(raw)  # as model.build: secrets hidden, names displayable
    na = entry["not_applicable"]
    entry["not_applicable"] = _NA_HOLE
    cleaned, texts = _checks(checks)
    entry["checks"] = cleaned
    counts = model.Counts()
    counts.add(entry)
    worst = None
    for p in [r["priority"] for r in entry["recommendations"]] + [f["priority"] for f in entry["findings"]]:
        worst = _worse(worst, p)
    if texts is None:
        return json_text.dumps_at(entry, 2), counts.n, worst, na
    entry["checks"] = _CHECKS_HOLE
    head, tail = json_text.dumps_at(entry, 2).split(_CHECKS_AT, 1)
    inner = "\n" + "  " * (_CHECKS_LEVEL + 1)  # as json_text lays out a list at its depth (texts: escaped already)
    body = "[" + inner + ("," + inner).join(texts) + "\n" + "  " * _CHECKS_LEVEL + "]" if texts else "[]"
    return head + '"checks": ' + body + tail, counts.n, worst, na


def _numbered(text: str, na: list, reasons: catalogue.Reasons) -> str:
    """The site's text with its `not_applicable` numbered against the report's catalogue, in the
    order sites are written (model.build numbers them alike)."""
    return text.replace(_NA_AT, '"not_applicable": ' + json_text.dumps_at(reasons.number(na), _CHECKS_LEVEL), 1)


# A site's `checks` entries (a hundred per site) repeat from site to site: vLLM's own tree has
# 64,000 of them and 2,000 different ones, more than half of its report. Each different entry
# is cleaned and encoded once (per state of the redaction: engine/kb/redact.py known_secrets) and
# its text put in place of a hole the rest of the site's entry is encoded around — the same text,
# byte for byte (tests/test_stream.py). An entry whose values are not plain JSON goes the whole way.
_CHECKS_HOLE = f"\x00checks-{os.getpid()}-{id(model)}\x00"
_CHECKS_AT = '"checks": ' + json_text.dumps(_CHECKS_HOLE)
_CHECKS_LEVEL = 3  # a site entry at 2, its keys at 3
_NA_HOLE = f"\x00not-applicable-{os.getpid()}-{id(model)}\x00"
_NA_AT = '"not_applicable": ' + json_text.dumps(_NA_HOLE)
_MEMO: dict[str, tuple[dict, str]] = {}
_MEMO_STATE: list = [None]
_SCALAR = frozenset({str, int, float, bool, type(None)})


def _plain(v: Any) -> bool:
    t = type(v)
    if t in _SCALAR:
        return t is not float or v == v and v not in (float("inf"), float("-inf"))
    if t is list:
        return all(_plain(x) for x in v)
    if t is dict:
        return all(type(k) is str and _plain(x) for k, x in v.items())
    return False


def _checks(checks: list) -> tuple[list, list[str] | None]:
    """The cleaned `checks` entries and their texts at their depth (None: encode them with the rest)."""
    from vllm_kb.engine.kb import redact

    state = redact._KNOWN.pattern if redact._KNOWN is not None else None
    if _MEMO_STATE[0] != state or len(_MEMO) > 20_000:
        _MEMO.clear()
        _MEMO_STATE[0] = state
    cleaned, texts = [], []
    for c in checks:
        key = repr(c)
        hit = _MEMO.get(key)
        if hit is None:
            if type(c) is not dict or not _plain(c):
                return model.clean(checks), None
            done = model.clean(c)
            hit = _MEMO[key] = (done, json_text.dumps_at(done, _CHECKS_LEVEL + 1))
        cleaned.append(hit[0])
        texts.append(hit[1])
    return cleaned, texts


def _keys(reports) -> list[str]:
    """The site keys (engine/check/baseline.py site_keys) of every prepared site, in order."""
    seen: Counter = Counter()
    out = []
    for item in reports.prepared:
        site = item[0]
        out.append(f"{site.file}|{site.kind}|{seen[(site.file, site.kind)]}")
        seen[(site.file, site.kind)] += 1
    return out


def _work(span: tuple[int, int]) -> list[tuple | None]:
    j = _job
    reports, rep, ctx, tally = j["reports"], j["rep"], j["rep"].ctx, j["tally"]
    out: list[tuple | None] = []
    for i in range(*span):
        n_skipped = len(ctx.skipped) if ctx is not None else 0
        before = tuple(getattr(tally, f) for f in j["fields"]) if tally is not None else ()
        sr = reports.make(i)
        if sr is None:
            return [None]  # a site failed: keys after it shift, so the caller starts over in order
        sr.key = sr.key or j["keys"][i]
        text, counts, worst, na = _entry(rep, sr, j["lang"], j["each"])
        after = tuple(getattr(tally, f) for f in j["fields"]) if tally is not None else ()
        skips = [(s.file, s.code, s.line, s.detail) for s in ctx.skipped[n_skipped:]] if ctx is not None else []
        out.append((text, na, counts, worst, skips, tuple(a - b for a, b in zip(after, before))))
    return out


def _parallel(rep, reports, lang, each, tally, fields, workers: int):
    """The entries made by forked workers, a run of sites at a time in order; a run that is None
    means a site failed (the caller starts over in order)."""
    import multiprocessing

    _job.update(reports=reports, rep=rep, lang=lang, each=each, tally=tally, fields=fields, keys=_keys(reports))
    spans = [(a, min(a + _CHUNK, len(reports))) for a in range(0, len(reports), _CHUNK)]
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for part in pool.imap(_work, spans):
                if part and part[0] is None:
                    yield None
                    return
                yield part
    finally:
        _job.clear()


def _put(spool: IO[str], text: str, n: dict, w: str | None, counts: Any, worst: str | None, first: bool,
         progress: Callable[[str, int], None] | None, total: int) -> tuple[str | None, bool]:
    """One site's JSON into the spool, its counts added: (the worst priority so far, first=False)."""
    for key, v in n.items():
        counts.n[key] += v
    spool.write(("\n    " if first else ",\n    ") + text)
    if progress is not None:
        progress("render", total)
    return _worse(worst, w), False


def write(rep: AuditReport, reports: Iterable[SiteReport], lang: str, out: IO[str],
          each: Callable[[SiteReport], None] | None = None, progress: Callable[[str, int], None] | None = None,
          total: int = 0, workers: int = 1, tally: Any = None, fields: tuple[str, ...] = ()) -> Streamed:
    """Write the JSON report of `reports` (in order) to `out`; `each(sr)` runs on every site report,
    its key set, before it is written (the configuration's filter; what it counts on `tally`'s
    `fields` is added up across workers). `workers` > 1 forks for a long SiteReports."""
    counts = model.Counts()
    reasons = catalogue.Reasons()
    worst = None
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        first = True
        lazy = hasattr(reports, "make") and len(reports) >= MIN_SITES  # type: ignore[arg-type]  # SiteReports: sized
        parallel = workers > 1 and lazy and hasattr(os, "fork")
        if parallel:
            applied = [0] * len(fields)
            for part in _parallel(rep, reports, lang, each, tally, fields, workers):
                if part is None:  # start over in one process: what was spooled and added goes
                    for f, d in zip(fields, applied):
                        setattr(tally, f, getattr(tally, f) - d)
                    spool.seek(0)
                    spool.truncate()
                    counts, worst, first, parallel = model.Counts(), None, True, False
                    reasons = catalogue.Reasons()
                    break
                for text, na, n, w, skips, deltas in part:
                    for file, code, line, detail in skips:
                        rep.ctx.skip(file, code, line, detail)
                    for k, (f, d) in enumerate(zip(fields, deltas)):
                        setattr(tally, f, getattr(tally, f) + d)
                        applied[k] += d
                    worst, first = _put(spool, _numbered(text, na, reasons), n, w, counts, worst, first, progress, total)
        if not parallel:
            seen: Counter = Counter()  # the site keys fingerprints are made of (engine/check/baseline.py site_keys)
            for sr in reports:
                at = (sr.site.file, sr.site.kind)
                sr.key = sr.key or f"{sr.site.file}|{sr.site.kind}|{seen[at]}"
                seen[at] += 1
                text, n, w, na = _entry(rep, sr, lang, each)
                worst, first = _put(spool, _numbered(text, na, reasons), n, w, counts, worst, first, progress, total)
        head = model.clean(model.document(rep, lang, _HOLE, model.summary([], counts.n), []))
        head["catalogue"] = catalogue.cleaned(rep.kb, lang, reasons)
        for f in head.get("findings", []):
            worst = _worse(worst, f["priority"])
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
