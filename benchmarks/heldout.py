"""The held-out sets, scored together: how the audit does on public launch reports it was not
built from.

    python benchmarks/heldout.py                 # one line per set, now and when it was blind
    python benchmarks/heldout.py heldout33 -v    # one set, case by case

Each folder under benchmarks/heldout/ is one set an independent evaluator wrote in a session
(cases in the format of tests/realcases/, docs/realcases.md) and scored once, blind, against main
as it was then; `set.yaml` keeps who wrote it, from which trackers, and that first score. Every
later score is informed: the set has been read. The sets live here rather than in
tests/realcases/ because their labels are the evaluator's, unreviewed, and a miss is a
measurement, not a test to keep green; CI does not run this.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent / "heldout"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import realcases_score as rs  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import estimator_accuracy as ea  # noqa: E402


def score(folder: Path) -> tuple[list[rs.Outcome], dict[str, str]]:
    outs = [rs.run(p) for p in rs.cases(folder)]
    fails = [o for o in outs if o.kind == "failure"]
    fixes = [o for o in fails if o.fix is not None]
    ctrls = [o for o in outs if o.kind == "control"]
    return outs, {
        "failures": f"{sum(o.predicted for o in fails)}/{len(fails)}",
        "fixes": f"{sum(bool(o.fix) for o in fixes)}/{len(fixes)}",
        "controls": f"{sum(o.predicted for o in ctrls)}/{len(ctrls)}",
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("sets", nargs="*", help="set names (default: all)")
    p.add_argument("-v", "--verbose", action="store_true", help="the case-by-case table of each set")
    ns = p.parse_args(argv)
    folders = sorted(f for f in ROOT.iterdir() if (f / "set.yaml").is_file())
    if ns.sets:
        folders = [f for f in folders if f.name in ns.sets]
    print(f"{'set':12} {'failures':>9} {'fixes':>7} {'controls':>9}   blind (commit): failures · fixes · controls")
    for f in folders:
        meta = yaml.safe_load((f / "set.yaml").read_text(encoding="utf-8")) or {}
        blind = meta.get("blind") or {}
        if (f / "rows.yaml").is_file():  # start-up logs: the estimator's errors, not verdicts
            rows = ea.load_rows(f / "rows.yaml")
            for row in rows:
                row.setdefault("asserted", list(row.get("logged") or {}))
            got = ea.summary(ea.table(rows))
            print(f"{f.name:12} " + "; ".join(
                f"{m} median {v['median'] * 100:.1f} % worst {v['worst'] * 100:.1f} %" for m, v in got.items()
                if m in ("kv_tokens", "weights_gib")) + f"   blind ({blind.get('commit', '?')}): "
                  f"kv {blind.get('kv_tokens', '?')}; weights {blind.get('weights_gib', '?')}")
            continue
        outs, now = score(f)
        print(f"{f.name:12} {now['failures']:>9} {now['fixes']:>7} {now['controls']:>9}   "
              f"{blind.get('failures', '?')} · {blind.get('fixes', '?')} · {blind.get('controls', '?')} "
              f"({blind.get('commit', '?')})")
        if ns.verbose:
            print(rs.table(outs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
