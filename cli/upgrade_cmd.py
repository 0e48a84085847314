"""`vllm-kb upgrade [PATH] --to VERSION`: what moving each launch site from the vLLM release it
runs to VERSION changes — what breaks (removed options, values, variables), what is renamed,
which defaults change under it (old → new), which engine or feature changes, which framework
releases go with it. `--diff` shows and `--fix` writes the mechanical part (removals and renames,
plus the vLLM pins and image tags with `--bump-pins`); every other setting stays as written.

Exit codes: 0 nothing breaks at VERSION (after --fix: nothing left that --fix cannot write),
1 something does (or, with --diff, there is something to write), 2 usage or knowledge error,
3 internal error."""
from __future__ import annotations

import sys

from vllm_kb.engine.kb.errors import EXIT_CLEAN, EXIT_FINDINGS


def add_parser(sub) -> None:
    u = sub.add_parser("upgrade", help="plan (and apply the mechanical part of) a vLLM upgrade",
                       description=__doc__.split("\n\n")[0])
    u.add_argument("path", nargs="?", default=".", help="project folder or single file (default: .)")
    u.add_argument("--to", dest="target", help="the vLLM release to move to (default: the newest the catalog holds)")
    u.add_argument("--gpu", help='"H100-80GB x8", "none", or auto (probe this machine with NVML; the default)')
    u.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    u.add_argument("--lang", choices=("en", "zh"), default="en")
    g = u.add_mutually_exclusive_group()
    g.add_argument("--diff", action="store_true", help="print the mechanical changes as unified diffs and change nothing")
    g.add_argument("--fix", action="store_true", help="write the mechanical changes (removals, renames) in place")
    u.add_argument("--bump-pins", action="store_true", help="with --fix/--diff, also set the vLLM pins and image tags to the target")
    u.add_argument("-o", "--output", help="write the report to this file instead of stdout")
    u.set_defaults(func=run)


def run(ns) -> int:
    from vllm_kb.engine.fix import apply as apply_fixes
    from vllm_kb.engine.kb.errors import UsageError
    from vllm_kb.engine.kb.safe_text import paths, shown
    from vllm_kb.engine.report import json_text
    from vllm_kb.engine.report import upgrade as report
    from vllm_kb.engine.upgrade import fix, upgrade

    if ns.bump_pins and not (ns.fix or ns.diff):
        raise UsageError("--bump-pins goes with --fix or --diff")
    fixed = None
    if ns.fix or ns.diff:
        fixed = fix(ns.path, ns.target, gpu=ns.gpu, bump_pins=ns.bump_pins)
        if ns.fix and fixed.changed_files:
            try:
                apply_fixes.write(upgrade(ns.path, ns.target, gpu=ns.gpu).now.root, fixed)
            except apply_fixes.WriteError as e:
                raise UsageError(f"refusing to write: {e}") from None
    res = upgrade(ns.path, ns.target, gpu=ns.gpu)
    data = report.record(res, ns.lang, fixed if ns.diff else None)
    if ns.format == "json":
        text = json_text.dumps(paths(data)) + "\n"
    else:  # what a person reads: secrets hidden, control characters escaped (engine/kb/safe_text.py)
        text = (report.markdown if ns.format == "markdown" else report.text)(shown(data), res.kb, ns.lang)
    if ns.fix and fixed is not None:
        kb = res.kb
        written = kb.t("upgrade.fix_written", ns.lang)
        text += "\n" + kb.t("upgrade.fix_done", ns.lang, n=len(fixed.applied), files=len(fixed.changed_files), written=written) + "\n"
        from vllm_kb.cli.audit_cmd import refusal_lines

        text += "".join(shown(line) + "\n" for line in refusal_lines(fixed, kb, ns.lang))
    if ns.output:
        with open(ns.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    if ns.diff:
        return EXIT_FINDINGS if fixed and fixed.changed_files else EXIT_CLEAN
    left = [i for p in res.plans for i in p.items
            if (i.kind in ("breaks", "renamed") and i.priority == "P0") or (i.kind == "frameworks" and i.priority == "P0")]
    return EXIT_FINDINGS if left else EXIT_CLEAN
