"""Fingerprints and baselines. A finding's fingerprint names what it is about — the rule, the
site (file, kind and its order among the file's sites of that kind) and the option it concerns —
never a line number, so it survives edits above it; SARIF's partialFingerprints and
`--baseline FILE` both use it. A baseline is a JSON list of fingerprints of findings accepted
for now: they are hidden until the finding changes or goes away."""
from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.knowledge import load

VERSION = 1
FINGERPRINT_KEY = "vllmKb/v1"  # the partialFingerprints key in SARIF


def site_keys(sites: Iterable) -> list[str]:
    """`file|kind|n` for each site (or SiteReport) in order: n counts earlier sites of the same
    kind in the same file, so the key does not move when lines do."""
    seen: Counter = Counter()
    out = []
    for s in sites:
        site = getattr(s, "site", s)
        k = (site.file, site.kind)
        out.append(f"{site.file}|{site.kind}|{seen[k]}")
        seen[k] += 1
    return out


def fingerprint(rule: str, site_key: str, subject: str = "") -> str:
    # surrogateescape: a file name that is not UTF-8 hashes by its bytes, never crashes
    return hashlib.sha256(f"{rule}\x00{site_key}\x00{subject}".encode("utf-8", "surrogateescape")).hexdigest()[:32]


class Baseline:
    def __init__(self, path: Path, fingerprints: set[str], existed: bool):
        self.path = path
        self.fingerprints = fingerprints
        self.existed = existed
        self.matched: set[str] = set()

    def hides(self, fp: str) -> bool:
        if fp in self.fingerprints:
            self.matched.add(fp)
            return True
        return False

    @property
    def stale(self) -> int:
        """Entries no finding matched any more (fixed since the baseline was written)."""
        return len(self.fingerprints - self.matched)


def read(path: str | Path, lang: str = "en") -> Baseline:
    """The baseline at `path`. A missing file is an error, never an empty baseline: a misspelt
    path in CI would otherwise write a new one that hides every finding. `--update-baseline`
    creates it (empty(), then write())."""
    p = Path(path)
    kb = load()
    if not p.exists():
        raise UsageError(kb.t("suppress.baseline_missing", lang, file=p))
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        entries = data["findings"]
        fps = {str(e["fingerprint"]) for e in entries}
        if data.get("version") != VERSION:
            raise ValueError(f"version {data.get('version')!r}")
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
        raise UsageError(kb.t("suppress.baseline_invalid", lang, file=p, error=e)) from None
    return Baseline(p, fps, existed=True)


def empty(path: str | Path) -> Baseline:
    """The baseline `--update-baseline` is about to (re)write: nothing hidden yet."""
    p = Path(path)
    return Baseline(p, set(), existed=p.exists())


def write(path: str | Path, entries: list[dict]) -> int:
    """Write the findings (dicts with fingerprint, rule, file, line, message) as a baseline."""
    p = Path(path)
    rows = sorted({e["fingerprint"]: e for e in entries}.values(), key=lambda e: (e["file"], e["line"] or 0, e["rule"], e["fingerprint"]))
    doc = {"version": VERSION, "tool": "vllm-kb",
           "findings": [{k: e.get(k) for k in ("fingerprint", "rule", "file", "line", "message")} for e in rows]}
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    try:
        if p.parent and not p.parent.exists():
            os.makedirs(p.parent, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot write {p}: {e.strerror or e}") from None
    return len(rows)
