"""`vllm-kb audit`: the main job, shaped like the linters it runs beside (ruff, Semgrep).

    vllm-kb audit [PATH ...] [--format text|markdown|json|sarif|github|gitlab|json-lines|concise|summary]
                  [--statistics] [-o FILE]
                  [--fail-on P0|P1|P2|never] [--exit-zero] [--config FILE | --isolated]
                  [--select IDS] [--ignore IDS] [--exclude GLOB] [--baseline FILE [--update-baseline]]
                  [--diff | --fix [--unsafe-fixes] [--fixable IDS] [--unfixable IDS]] [-q]

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it (with --diff: there is
something to fix), 2 usage, configuration or knowledge error, 3 internal error. The report goes
to stdout (or -o); the summary and notes go to stderr, so machine formats stay parseable.
Flags win over `[tool.vllm-kb]` / `.vllm-kb.toml` (engine/check/config.py)."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from vllm_kb.engine.check.config import FAIL_ON, FORMATS, LANGS
from vllm_kb.cli.progress import Progress
from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS, UsageError

PRIORITY_RANK = {"P0": 0, "P1": 1, "P2": 2}


def add_arguments(a) -> None:
    a.add_argument("paths", nargs="*", metavar="PATH",
                   help="project folder or single file (default: .); several paths audit the project around them "
                        "and report only what touches them")
    t = a.add_argument_group("target")
    t.add_argument("--gpu", help='"H100-80GB x8", "H100-80GB x8, host 1TiB, cpus 64" (a node\'s RAM and cores too), "24GiB cc8.9 x2" (a GPU outside the table), "RTX-5070-Ti + RTX-5090" (different cards, in device order), "g5.12xlarge" (a cloud machine type), "none", or auto (probe this machine with NVML and /proc/meminfo; the default)')
    t.add_argument("--vllm-version", help="evaluate as this vLLM release instead of the project's pin")
    o = a.add_argument_group("output")
    o.add_argument("--format", choices=FORMATS, help="report format (default text)")
    o.add_argument("--output", "-o", help="write the report to this file instead of stdout")
    o.add_argument("--lang", choices=LANGS, help="language of everything a person reads (default en)")
    o.add_argument("--statistics", action="store_true",
                   help="print how many findings each rule has instead of the findings (text, or json with --format json)")
    o.add_argument("--docs-url", metavar="URL",
                   help="base URL of the docs/ pages SARIF rules link to (or $VLLM_KB_DOCS_URL; default: this release's "
                        "pages in the vllm-kb repository)")
    o.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no summary on stderr")
    g = a.add_argument_group("exit status")
    g.add_argument("--fail-on", choices=FAIL_ON,
                   help="exit 1 when a recommendation or finding of this priority or higher exists (default P0)")
    g.add_argument("--exit-zero", action="store_true", help="exit 0 whatever is found (errors still exit 2 or 3)")
    c = a.add_argument_group("configuration")
    c.add_argument("--config", metavar="FILE", help="read this .vllm-kb.toml or pyproject.toml instead of searching")
    c.add_argument("--isolated", action="store_true", help="read no configuration file")
    c.add_argument("--select", metavar="IDS", help="comma-separated checks, categories or finding codes to report "
                                                   "(replaces the configuration's select)")
    c.add_argument("--ignore", metavar="IDS", help="comma-separated checks or finding codes not to report (added to the configuration's)")
    c.add_argument("--exclude", metavar="GLOB", action="append", default=[],
                   help="do not read files matching this glob (relative to the audited folder; repeatable)")
    b = a.add_argument_group("suppressions")
    b.add_argument("--baseline", metavar="FILE", help="hide the findings listed in FILE (a missing FILE is an error)")
    b.add_argument("--update-baseline", action="store_true",
                   help="write the --baseline FILE with the current findings (creates it)")
    f = a.add_argument_group("fixes")
    f.add_argument("--diff", action="store_true", help="print the fixes as unified diffs and change nothing (exit 1 when there are any)")
    f.add_argument("--fix", action="store_true", help="apply the safe fixes in place, then report what is left")
    f.add_argument("--unsafe-fixes", action="store_true", help="with --fix/--diff, also the fixes that depend on hardware, accuracy or the exact vLLM release")
    f.add_argument("--fixable", metavar="IDS", help="with --fix/--diff, apply only these checks' or findings' fixes "
                                                    "(replaces the configuration's fixable)")
    f.add_argument("--unfixable", metavar="IDS", help="with --fix/--diff, never apply these (added to the configuration's)")


def _target(paths: list[str], kb, lang: str) -> tuple[Path, set[str] | None]:
    for p in paths:
        if not Path(p).exists():
            raise UsageError(kb.t("config.no_such_path", lang, path=p))
    if len(paths) == 1:
        return Path(paths[0]), None
    cwd = Path.cwd().resolve()
    full = [Path(p).resolve() for p in paths]
    if all(x == cwd or cwd in x.parents for x in full):
        root = cwd
    else:
        root = Path(os.path.commonpath(full))
        root = root if root.is_dir() else root.parent
    return root, {x.relative_to(root).as_posix() for x in full}


def _touches(files: set[str], only: set[str]) -> bool:
    return any(f == o or o in ("", ".") or f.startswith(o + "/") for f in files for o in only)


def _site_files(sr) -> set[str]:
    s = sr.site
    return {s.file, *(x.file for x in list(s.settings.values()) + list(s.env.values()) + list(s.unknown.values()) if x.file),
            *([s.config_file] if s.config_file else [])}


def _ids(value: str, where: str, kb, lang: str) -> set[str]:
    from vllm_kb.engine.check.rules import rules

    out: set[str] = set()
    for name in (x.strip() for x in value.split(",")):
        if not name:
            continue
        hit = rules().expand(name)
        if hit is None:
            raise UsageError(f"{where}: " + kb.t("config.unknown_rule", lang, rule=name, hint=""))
        out |= {r.id for r in hit}
    return out


def run(ns) -> int:
    from vllm_kb.engine.fix import apply as apply_fixes
    from vllm_kb.engine.check import suppressions
    from vllm_kb.engine.check import baseline as baseline_mod
    from vllm_kb.engine.check import config as config_mod
    from vllm_kb.engine.audit import audit, replan
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.report import findings as flat
    from vllm_kb.engine.report import model
    from vllm_kb.engine.check.rules import SUPPRESSION_FINDINGS
    from vllm_kb.cli import audit_output as out

    kb = load()
    lang = ns.lang or "en"
    paths = ns.paths or ["."]
    target, only = _target(paths, kb, lang)
    cfg = config_mod.resolve(target, ns.config, ns.isolated, lang)
    lang = ns.lang or cfg.lang or "en"
    gpu = ns.gpu or cfg.gpu or "auto"
    vllm_version = ns.vllm_version or cfg.vllm_version
    fmt = ns.format or cfg.format or "text"
    fail_on = ns.fail_on or cfg.fail_on or "P0"
    docs_url = ns.docs_url or os.environ.get("VLLM_KB_DOCS_URL") or cfg.docs_url
    unsafe = bool(ns.unsafe_fixes or cfg.unsafe_fixes)
    if ns.select:
        cfg.select = _ids(ns.select, "--select", kb, lang)
    if ns.ignore:
        cfg.ignore = cfg.ignore | _ids(ns.ignore, "--ignore", kb, lang)
    if getattr(ns, "fixable", None):
        cfg.fixable = _ids(ns.fixable, "--fixable", kb, lang)
    if getattr(ns, "unfixable", None):
        cfg.unfixable = cfg.unfixable | _ids(ns.unfixable, "--unfixable", kb, lang)
    if ns.diff and ns.fix:
        ns.fix = False  # --diff shows what --fix would do and writes nothing
    scan_root = target if target.is_dir() else target.parent
    exclude = _excluder(cfg, scan_root, ns.exclude)

    bl_path = ns.baseline or (str(cfg.base / cfg.baseline) if cfg.baseline else None)
    if ns.update_baseline and not bl_path:
        raise UsageError(kb.t("suppress.update_needs_baseline", lang))
    bl = None
    writing = bool(bl_path and ns.update_baseline)
    if bl_path:  # a missing file is an error unless --update-baseline asks to create it
        bl = baseline_mod.empty(bl_path) if writing else baseline_mod.read(bl_path, lang)
    notes: list[str] = []
    progress = Progress(not ns.quiet and sys.stderr.isatty(), lang)

    def one(overlay=None, show=None):
        rep = audit(target, gpu=gpu, vllm_version=vllm_version, exclude=exclude, overlay=overlay, progress=show)
        outcome = suppressions.apply(rep, cfg, replan)
        if only is not None:
            rep.sites = [sr for sr in rep.sites if _touches(_site_files(sr), only)]
            rep.findings = [f for f in rep.findings if _touches({f.file}, only)]
        if bl is not None and not writing:
            outcome.baseline_hidden = suppressions.apply_baseline(rep, bl, replan)
        return rep, outcome

    if fmt == "json" and not (ns.fix or ns.diff or ns.statistics) and bl is None and only is None and (ns.output or not progress.enabled):
        try:
            streamed = _stream(target, gpu, vllm_version, exclude, cfg, lang, ns.output, progress)
        finally:
            progress.close()
        if isinstance(streamed[0], dict):
            head, worst, outcome = streamed
            if not ns.quiet:
                _summary(head, fmt, ns.output, kb, lang, outcome, bl, notes)
            if ns.exit_zero or fail_on == "never":
                return EXIT_CLEAN
            return EXIT_FINDINGS if worst is not None and PRIORITY_RANK[worst] <= PRIORITY_RANK[fail_on] else EXIT_CLEAN
    else:
        streamed = None
    try:
        rep, outcome = one(show=progress) if streamed is None else streamed
    except BaseException:
        progress.close()
        raise

    if writing and bl_path:
        data = model.build(rep, lang)
        entries = [{"fingerprint": e["fingerprint"], "rule": e["rule"], "file": e["file"], "line": e["line"],
                    "message": e["message"]} for e in flat.entries(data) if e["fingerprint"] and e["rule"] not in SUPPRESSION_FINDINGS]
        n = baseline_mod.write(bl_path, entries)
        notes.append(kb.t("suppress.baseline_written", lang, file=bl_path, n=n))
        bl = baseline_mod.Baseline(Path(bl_path), {e["fingerprint"] for e in entries}, existed=True)
        writing = False
        outcome.baseline_hidden = suppressions.apply_baseline(rep, bl, replan)

    if ns.fix or ns.diff:
        selection = apply_fixes.Selection(unsafe, frozenset(cfg.fixable) if cfg.fixable is not None else None,
                                          frozenset(cfg.unfixable))
        res = apply_fixes.run(lambda overlay: one(overlay)[0], unsafe=selection)
        if ns.diff:
            from vllm_kb.engine.kb.redact import redact_text

            text = redact_text(res.diff())  # shown, not applied: secrets stay *** (engine/kb/redact.py)
            out.write(text, ns.output)
            if not ns.quiet:
                _fix_notes(res, kb, lang, would=True)
                for f, lines in res.withheld().items():
                    print(_say(kb.t("fix.withheld", lang, file=f, lines=", ".join(map(str, lines)))), file=sys.stderr)
            return EXIT_FINDINGS if text and not ns.exit_zero else EXIT_CLEAN
        try:
            written = apply_fixes.write(scan_root, res)
        except apply_fixes.WriteError as e:
            raise UsageError(kb.t("fix.refused", lang, error=e)) from None
        if not ns.quiet:
            _fix_notes(res, kb, lang, would=False, written=written)
        elif written or res.unsafe_left:
            # a write to the user's files is always said, even with -q: which files, and what --unsafe-fixes holds back
            print(_say(kb.t("fix.quiet_summary", lang, n=len(res.applied), files=len(written or []),
                            names=", ".join(written or []) or "—", unsafe=res.unsafe_left)), file=sys.stderr)
        if written:
            rep, outcome = one()

    try:
        data = model.build(rep, lang, progress=progress)
        # the terminal report prints itself, after the bar is gone; every other is rendered here
        printed = fmt == "text" and not ns.output and not ns.statistics
        rendered = None if printed else out.render(data, fmt, ns.output, docs_url, ns.statistics)
    finally:
        progress.close()  # gone before the report and the summary are written
    if printed:
        rendered = out.render(data, fmt, ns.output, docs_url)
    if rendered is not None:
        out.write(rendered, ns.output)
    if not ns.quiet:
        # --statistics replaces the report, and with it the summary line the text report ends with
        _summary(data, "statistics" if ns.statistics else fmt, ns.output, kb, lang, outcome, bl, notes)
    if ns.exit_zero or fail_on == "never":
        return EXIT_CLEAN
    worst = flat.worst(data)
    return EXIT_FINDINGS if worst is not None and PRIORITY_RANK[worst] <= PRIORITY_RANK[fail_on] else EXIT_CLEAN


def _stream(target, gpu, vllm_version, exclude, cfg, lang: str, output: str | None, progress):
    """The JSON report written site by site (engine/report/stream.py), so that memory does not grow
    with the number of sites: (the report without its sites, the worst priority, the suppression
    outcome). When the project has suppression comments, what they hide is only known once every
    site is checked: (the audit with every site, the suppression outcome), to be built whole."""
    import tempfile

    from vllm_kb.engine.audit import audit_lazily, replan
    from vllm_kb.engine.check import suppressions
    from vllm_kb.engine.report import stream

    rep, sites, reports = audit_lazily(target, gpu=gpu, vllm_version=vllm_version, exclude=exclude, progress=progress)
    if suppressions.collect(rep):
        rep.sites = list(reports)
        return rep, suppressions.apply(rep, cfg, replan)
    outcome = suppressions.Outcome()

    def each(sr) -> None:  # the configuration's filter, as suppressions.apply does it
        suppressions.apply_site(rep, sr, sr.key, cfg, [], replan, outcome)

    from vllm_kb.engine.scan import parallel

    # the site entries are made in this process unless VLLM_KB_WORKERS asks for workers: forked
    # after every site's facts are built, each worker came to own the facts and memos it touched
    # (10,000 files with 5,000 sites: 462 MiB of PSS in all with two, 206 in one process)
    workers = parallel.forced() or 1
    kw: dict[str, Any] = {"workers": workers, "tally": outcome, "fields": ("by_config", "suppressed")}
    if output is None:
        res = stream.write(rep, reports, lang, sys.stdout, each, progress, len(sites), **kw)
        return res.head, res.worst, outcome
    folder = Path(output).resolve().parent
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, prefix=".vllm-kb-", delete=False) as f:
            tmp = f.name
            res = stream.write(rep, reports, lang, f, each, progress, len(sites), **kw)
        os.replace(tmp, output)
    except OSError as e:
        raise UsageError(f"cannot write {output}: {e.strerror or e}") from None
    finally:
        if os.path.exists(locals().get("tmp", "")):
            os.unlink(tmp)
    return res.head, res.worst, outcome


def _excluder(cfg, root: Path, cli_globs: list[str]):
    from vllm_kb.engine.check.config import glob_match

    if not cfg.exclude and not cli_globs:
        return None

    def excluded(rel: str) -> bool:
        return cfg.excluded(root, rel) or any(glob_match(g, rel) for g in cli_globs)

    return excluded


def _say(text: str) -> str:
    """A note on stderr: project text in it (file names, flags) with secrets hidden and control
    characters escaped, like every report format."""
    from vllm_kb.engine.kb.redact import redact_text
    from vllm_kb.engine.kb.safe_text import escape, paths

    return escape(redact_text(paths(text)))


def _fix_notes(res, kb, lang: str, would: bool, written: list[str] | None = None) -> None:
    err = sys.stderr
    files = res.changed_files if would else (written or [])
    n = len(res.applied)
    if n:
        print(kb.t("fix.would_apply" if would else "fix.applied", lang, n=n, files=len(files)), file=err)
        for a in res.applied:
            where = f"{a.file}:{a.line}" if a.line else a.file
            print(_say(f"  {where}: {_what(a, kb, lang)} ({', '.join(a.checks)})"), file=err)
    else:
        print(kb.t("fix.nothing", lang), file=err)
    for r in getattr(res, "rebased", ()):
        key = "fix.rebased" if r.instead is None else "fix.rebased_instead"
        c = r.change
        print(_say(kb.t(key, lang, where=f"{c.file}:{c.line}" if c.line else c.file, what=_what(c, kb, lang),
                        checks=", ".join(c.checks), was=r.was, now=r.now,
                        instead=_what(r.instead, kb, lang) if r.instead is not None else "")), file=err)
    if res.unsafe_left:
        print(kb.t("fix.unsafe_hidden", lang, n=res.unsafe_left), file=err)
    for why in ("unfixable", "not_fixable", "coupled"):
        if res.skipped.get(why):
            print(_say(kb.t(f"fix.skipped_{why}", lang, ids=", ".join(sorted(res.skipped[why])))), file=err)
    if res.manual:
        print(kb.t("fix.manual", lang, n=res.manual), file=err)
    for line in refusal_lines(res, kb, lang):
        print(_say(line), file=err)
    if not res.converged:
        print(kb.t("fix.not_converged", lang, passes=res.passes), file=err)


def _what(a, kb, lang: str) -> str:
    """A change as a person reads it: rename, write or remove."""
    if a.op == "rename":
        return kb.t("fix.rename", lang, before=a.before, after=a.after)
    return kb.t("fix.write", lang, what=a.after) if a.after else kb.t("fix.remove", lang, what=f"`{a.before}`")


def refusal_lines(res, kb, lang: str) -> list[str]:
    """What the guard of --fix kept out (engine/fix/guard.py), one line each."""
    out: list[str] = []
    for r in getattr(res, "refused", ()):
        key = "fix.refused_undo" if r.target else f"fix.refused_{r.why}"
        line = kb.t(key, lang, file=f"{r.file}:{r.line}" if r.line else r.file, checks=", ".join(r.checks),
                    conflicts=", ".join(r.conflicts), site=r.site or r.file, target=r.target)
        if line not in out:  # one line for the same refusal at two sites of a file
            out.append(line)
    return out


def _summary(data: dict, fmt: str, output: str | None, kb, lang: str, outcome, bl, notes: list[str]) -> None:
    s = data["summary"]
    err = sys.stderr
    if fmt != "text" or output:
        line = kb.t("report.summary", lang, sites=s["sites"], p0=s["recommendations"]["P0"], p1=s["recommendations"]["P1"],
                    p2=s["recommendations"]["P2"], unknown=s["unknown"])
        skipped = data["project"]["skipped"]
        if skipped:
            line += " " + kb.t("report.skipped_n", lang, n=len(skipped))
        print(line, file=err)
    for note in notes:
        print(_say(note), file=err)
    if outcome.suppressed:
        print(kb.t("suppress.summary", lang, n=outcome.suppressed), file=err)
    hidden = getattr(outcome, "baseline_hidden", 0)
    if bl is not None and (hidden or bl.stale):
        print(_say(kb.t("suppress.baseline_summary", lang, file=bl.path, n=hidden, stale=bl.stale)), file=err)
