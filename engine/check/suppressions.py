"""What an audit reports after the project's own choices: the configuration's select/ignore and
per-file-ignores, suppression comments where the setting is written, and a baseline.

A suppression is a comment in a Python, shell, YAML, TOML or Dockerfile line:

    --swap-space 16   # vllm-kb: ignore[B4] -- we pin 0.17 until the cluster image moves
    # vllm-kb: ignore[B2, kv-cache-fp8] -- long-context eval box, accuracy-sensitive
    vllm serve …

It covers findings on its own line and on the line below it, and a comment on (or just above)
a launch command or call covers that whole site — the only place a shell command spanning
continuation lines can carry one. The reason after `--` is required: without it the comment
suppresses nothing and is itself reported, as are names that are no rule and comments that
suppress nothing."""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from typing import Any, Callable

from vllm_kb.engine.check.baseline import Baseline, fingerprint, site_keys
from vllm_kb.engine.check.config import Config
from vllm_kb.engine.check.rules import rules
from vllm_kb.engine.scan.context import COMMENT_MARKER
from vllm_kb.engine.scan.site import Finding

# Plans a site's changes again once its results were filtered (engine/audit.py `replan`).
Replan = Callable[[Any, Any], None]
MARKER = COMMENT_MARKER.decode()
_COMMENT = re.compile(r"(?:^|[\s;])#\s*vllm-kb:\s*ignore(?P<bracket>\[(?P<ids>[^\]]*)\])?(?P<rest>.*)$")
_REASON = re.compile(r"^\s*--\s*(?P<reason>.*?)\s*$")
_COMMENT_SUFFIXES = {".py", ".pyi", ".yaml", ".yml", ".toml", ".env", ".sh", ".bash", ".zsh", ".ksh", ".slurm",
                     ".sbatch", ".pbs", ".bsub"}
MAX_BYTES = 2 * 1024 * 1024


@dataclass
class Comment:
    file: str
    line: int
    names: list[str]  # as written
    ids: set[str]  # the rule ids they name
    unknown: list[str]
    reason: str
    bare: bool = False  # `# vllm-kb: ignore` naming no rule
    used: bool = False
    below: int = 0  # a comment on a line of its own: the line it stands above (across a block of comments)

    @property
    def active(self) -> bool:
        return bool(self.ids) and bool(self.reason)


@dataclass
class Suppressed:
    rule: str
    priority: str | None
    message: dict[str, str]  # en / zh
    file: str
    line: int
    site: str
    fingerprint: str
    kind: str  # comment | baseline
    reason: str
    where: str | None = None  # the comment's file:line

    def to_json(self, lang: str) -> dict[str, Any]:
        return {"rule": self.rule, "priority": self.priority, "message": self.message[lang], "file": self.file,
                "line": self.line, "site": self.site, "fingerprint": self.fingerprint, "kind": self.kind,
                "reason": self.reason, "where": self.where}


def parse(rel: str, text: str) -> list[Comment]:
    """The suppression comments of one file."""
    if MARKER not in text:
        return []
    reg = rules()
    out = []
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if MARKER not in line:
            continue
        m = _COMMENT.search(line)
        if m is None:
            continue
        below = 0
        if line.lstrip().startswith("#"):
            below = n + 1
            while below <= len(lines) and lines[below - 1].lstrip().startswith("#"):
                below += 1
        names = [x.strip() for x in (m.group("ids") or "").split(",") if x.strip()]
        ids: set[str] = set()
        unknown = []
        for name in names:
            hit = reg.expand(name)
            if hit is None:
                unknown.append(name)
            else:
                ids |= {r.id for r in hit}
        r = _REASON.match(m.group("rest") or "")
        out.append(Comment(rel, n, names, ids, unknown, r.group("reason") if r else "", bare=not names, below=below))
    return out


def _comment_file(rel: str) -> bool:
    from vllm_kb.engine.scan.deploy import is_dockerfile

    name = rel.rpartition("/")[2]
    dot = name.rfind(".")
    suffix = name[dot:].lower() if dot > 0 else ""
    return suffix in _COMMENT_SUFFIXES or is_dockerfile(rel) or name == ".env"


def collect(rep) -> dict[str, list[Comment]]:
    """Every suppression comment in the audited files, by file."""
    ctx = getattr(rep, "ctx", None)
    cache = getattr(ctx, "_cache", {}) if ctx is not None else {}
    out: dict[str, list[Comment]] = {}
    root = os.path.realpath(rep.root)
    inside: dict[str, bool] = {}  # a folder's realpath, once per folder
    unmarked = getattr(ctx, "unmarked", None) or ()  # read whole by the scan, without the marker
    for rel in getattr(rep, "files", ()) or ():
        if rel in cache:
            text = cache[rel]
        elif rel in unmarked:
            continue
        elif _comment_file(rel) or "." not in rel.rpartition("/")[2]:
            text = _read(root, rel, inside)
        else:
            continue
        if text and MARKER in text:
            found = parse(rel, text)
            if found:
                out[rel] = found
    return out


def _read(root: str, rel: str, inside: dict[str, bool] | None = None) -> str | None:
    # the scan's texts are let go before the report (ScanContext.release): on the 5,000-file tree
    # this reads 2,700 files again, a tenth of the audit when each path was resolved in full
    # (a stat per folder of it) and each read sized for 2 MiB
    prefix = root.rstrip(os.sep) + os.sep
    full = os.path.join(root, rel)
    size = None  # the file's own size: the read is sized by it
    if inside is not None and _plain(rel):
        try:
            st = os.lstat(full)
        except OSError:
            return None
        if not stat.S_ISLNK(st.st_mode):  # not a link: it resolves inside the root where its folder does
            size = st.st_size
    if size is None:
        full = os.path.realpath(full)
        ok = full.startswith(prefix)
    else:
        folder = os.path.dirname(full)
        dirs = inside if inside is not None else {}
        held = dirs.get(folder)
        if held is None:
            held = dirs[folder] = (os.path.realpath(folder) + os.sep).startswith(prefix)
        ok = held
    if not ok:
        return None
    try:
        with open(full, "rb") as f:
            if size is None:
                data = f.read(MAX_BYTES + 1)
            else:
                data = f.read(min(size, MAX_BYTES) + 1)
                if len(data) > size:  # grew since the stat
                    data += f.read(MAX_BYTES + 1 - len(data))
    except OSError:
        return None
    if len(data) > MAX_BYTES or MARKER.encode() not in data or b"\x00" in data[:8192]:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _plain(rel: str) -> bool:
    """A relative path of plain names (no empty, `.` or `..` part), which realpath would not read lexically."""
    padded = f"/{rel}/"
    return not rel.startswith("/") and "//" not in padded and "/./" not in padded and "/../" not in padded


# --- where a finding is ---------------------------------------------------------------------

def _setting(site, op):
    if op.is_env:
        return site.env.get(op.target)
    return site.settings.get(op.target) or site.unknown.get(op.target)


def locate(site, fix: list) -> tuple[str, int]:
    """A check result's place: the first setting its fix changes that is written, else the site."""
    for op, _ in fix:
        s = _setting(site, op)
        if s is not None and s.file and s.line:
            return s.file, s.line
    return site.file, site.line


def _places(site, fix: list, extra: tuple[str, int] | None = None) -> list[tuple[str, int]]:
    out = [(s.file, s.line) for s in (_setting(site, op) for op, _ in fix) if s is not None and s.file and s.line]
    if extra:
        out.append(extra)
    return out


def _covers(c: Comment, places: list[tuple[str, int]], site) -> bool:
    """On the finding's line or above it; on the site's lines or above them (the whole site)."""
    for f, line in places:
        if c.file == f and line in (c.line, c.below):
            return True
    end = max(site.end_line or site.line, site.line)
    return c.file == site.file and (site.line <= c.line <= end or c.below == site.line)


# --- the policy -----------------------------------------------------------------------------

@dataclass
class Outcome:
    suppressed: int = 0  # by comments
    by_config: int = 0  # results dropped by select/ignore/per-file-ignores
    baseline_hidden: int = 0
    comments: list[Comment] = field(default_factory=list)


def apply(rep, cfg: Config | None, replan: Replan) -> Outcome:
    """Filter the audit in place by the configuration and the suppression comments (results,
    findings, then the planned changes, through `replan`) and add the findings about the
    comments."""
    cfg = cfg or Config()
    kb = rep.kb
    comments = collect(rep)
    out = Outcome(comments=[c for cs in comments.values() for c in cs])
    live = [c for cs in comments.values() for c in cs if c.active]
    for sr, key in zip(rep.sites, site_keys(rep.sites)):
        apply_site(rep, sr, key, cfg, live, replan, out)
    _comment_findings(rep, out.comments, cfg, kb, replan)
    return out


def apply_site(rep, sr, key: str, cfg: Config, live: list[Comment], replan: Replan, out: Outcome) -> None:
    """`apply` for one site: what the configuration and the live comments hide of it."""
    root = rep.root
    sr.key = key
    site = sr.site
    results = []
    for r in sr.results:
        rid = r.check.id
        file, line = locate(site, r.fix)
        if not cfg.enabled(rid, root, file):
            out.by_config += 1
            continue
        if r.status == "recommended":
            fp = fingerprint(rid, key)
            msg = {lang: f"{r.check.title(lang)} — {r.reason_text(lang)}" for lang in ("en", "zh")}
            if _suppress(sr, live, rid, _places(site, r.fix), r.priority, msg, file, line, fp):
                out.suppressed += 1
                continue
        results.append(r)
    remarks = []
    for f in sr.remarks:
        if not cfg.enabled(f.code, root, f.file):
            out.by_config += 1
            continue
        fp = fingerprint(f.code, key, f.subject)
        if _suppress(sr, live, f.code, [(f.file, f.line)], f.priority, f.message, f.file, f.line, fp):
            out.suppressed += 1
            continue
        remarks.append(f)
    changed = len(results) != len(sr.results) or len(remarks) != len(sr.remarks)
    sr.results, sr.remarks = results, remarks
    if changed:
        replan(rep, sr)


def _suppress(sr, live, rid, places, priority, message, file, line, fp) -> bool:
    site = sr.site
    for c in live:
        if rid in c.ids and _covers(c, places, site):
            c.used = True
            sr.suppressed.append(Suppressed(rid, priority, message, file, line, site.id, fp, "comment", c.reason, f"{c.file}:{c.line}"))
            return True
    return False


def apply_baseline(rep, baseline: Baseline, replan: Replan) -> int:
    """Hide what the baseline lists (after `apply`, which gives every site its key). Findings
    about suppression comments are never baselined: fix the comment instead."""
    from vllm_kb.engine.check.rules import SUPPRESSION_FINDINGS

    hidden = 0
    for sr, key in zip(rep.sites, site_keys(rep.sites)):
        site = sr.site
        sr.key = key = sr.key or key
        results = []
        for r in sr.results:
            fp = fingerprint(r.check.id, key)
            if r.status == "recommended" and baseline.hides(fp):
                file, line = locate(site, r.fix)
                msg = {lang: f"{r.check.title(lang)} — {r.reason_text(lang)}" for lang in ("en", "zh")}
                sr.suppressed.append(Suppressed(r.check.id, r.priority, msg, file, line, site.id, fp, "baseline", str(baseline.path)))
                continue
            results.append(r)
        remarks = []
        for f in sr.remarks:
            fp = fingerprint(f.code, key, f.subject)
            if f.code not in SUPPRESSION_FINDINGS and baseline.hides(fp):
                sr.suppressed.append(Suppressed(f.code, f.priority, f.message, f.file, f.line, site.id, fp, "baseline", str(baseline.path)))
                continue
            remarks.append(f)
        if len(results) != len(sr.results) or len(remarks) != len(sr.remarks):
            hidden += len(sr.results) - len(results) + len(sr.remarks) - len(remarks)
            sr.results, sr.remarks = results, remarks
            replan(rep, sr)
    return hidden


def _comment_findings(rep, comments: list[Comment], cfg: Config, kb, replan: Replan) -> None:
    """Suppression comments that are wrong or do nothing become findings of their own."""
    touched = set()
    for c in comments:
        found: list[tuple[str, str, dict, str]] = []
        text = f"# vllm-kb: ignore[{', '.join(c.names)}]"
        if c.bare:
            found.append(("suppression-unknown-rule", "suppress.bare", {}, ""))
        for name in c.unknown:
            found.append(("suppression-unknown-rule", "suppress.unknown_rule", {"rule": name}, name))
        if c.names and not c.reason:
            found.append(("suppression-no-reason", "suppress.no_reason", {"comment": text}, ",".join(c.names)))
        elif c.active and not c.used:
            found.append(("suppression-unused", "suppress.unused", {"comment": text}, ",".join(c.names)))
        for code, key, kw, subject in found:
            if not cfg.enabled(code, rep.root, c.file):
                continue
            from vllm_kb.engine.check.rules import SUPPRESSION_FINDINGS

            message = {lang: kb.t(key, lang, **kw) for lang in ("en", "zh")}
            f = Finding(code, message, c.file, c.line, SUPPRESSION_FINDINGS[code], subject=f"{subject}@{c.line}")
            sr = _home(rep, c.file)
            if sr is None:
                rep.findings.append(f)
            else:
                sr.remarks.append(f)
                touched.add(id(sr))
    for sr in rep.sites:
        if id(sr) in touched:
            replan(rep, sr)


def _home(rep, file: str):
    """The site a comment belongs to: one in its file, one that reads a setting from it, else the first."""
    for sr in rep.sites:
        if sr.site.file == file:
            return sr
    for sr in rep.sites:
        if any(s.file == file for s in list(sr.site.settings.values()) + list(sr.site.env.values())):
            return sr
    return rep.sites[0] if rep.sites else None
