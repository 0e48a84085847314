"""Scores vllm-kb on the real-world project shapes in tests/realworld: site precision and recall,
value accuracy over the sites found, and detect accuracy. Prints one line per project and the
totals; `--check` exits 1 when a target is missed.

    python tests/realworld/score.py [--check] [--verbose] [PROJECT ...]
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
TARGETS = {"recall": 0.97, "precision": 1.0, "values": 0.99, "detect": 1.0}


@dataclass
class Score:
    expected: int = 0
    found: int = 0
    matched: int = 0
    values: int = 0
    values_ok: int = 0
    detect_ok: int = 0
    projects: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: "Score") -> None:
        for k in ("expected", "found", "matched", "values", "values_ok", "detect_ok", "projects"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.misses += other.misses

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def value_accuracy(self) -> float:
        return self.values_ok / self.values if self.values else 1.0

    @property
    def detect_accuracy(self) -> float:
        return self.detect_ok / self.projects if self.projects else 1.0


def projects(names: list[str] | None = None) -> list[Path]:
    out = sorted(p for p in HERE.iterdir() if (p / "expected.yaml").is_file())
    return [p for p in out if not names or p.name in names]


def _same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or a == b and type(a) is type(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _unresolved(want) -> bool:
    return isinstance(want, dict) and want.get("unresolved") is True and len(want) == 1


def _check_setting(got, want) -> bool:
    """`got` is a Setting (or None when absent)."""
    if got is None:
        return False
    if _unresolved(want):
        return not got.resolved
    return got.resolved and _same(got.value, want)


def _check_plain(got, want) -> bool:
    if _unresolved(want):
        return got is None
    return got is not None and _same(got, want)


def score_project(path: Path, verbose: bool = False) -> tuple[Score, list[str]]:
    from vllm_kb.engine.advise.detect import detect
    from vllm_kb.engine.audit import audit

    exp = yaml.safe_load((path / "expected.yaml").read_text(encoding="utf-8"))
    root = path / "project"
    rep = audit(root, gpu="none")
    det = detect(root)
    found = {r.site.id: r for r in rep.sites}
    want = {s["id"]: s for s in exp.get("sites") or []}
    sc = Score(expected=len(want), found=len(found), matched=len(set(want) & set(found)), projects=1,
               detect_ok=int(det.used is bool(exp.get("detect", True))))
    notes: list[str] = []
    for sid in sorted(set(want) - set(found)):
        notes.append(f"missed site {sid}")
    for sid in sorted(set(found) - set(want)):
        notes.append(f"extra site {sid} ({found[sid].site.kind})")
    if not sc.detect_ok:
        notes.append(f"detect said {det.used}")
    for sid in sorted(set(want) & set(found)):
        w, r = want[sid], found[sid]
        s = r.site
        checks: list[tuple[str, bool]] = []
        for key in ("mode", "framework"):
            if key in w:
                checks.append((key, getattr(s, key) == w[key]))
        if "tool" in w:
            checks.append(("tool", getattr(s, "tool", None) == w["tool"]))
        for key in ("framework_version", "config_file", "peer"):
            if key in w:
                checks.append((key, _same(getattr(s, key), w[key])))
        if "vllm_version" in w:
            checks.append(("vllm_version", str(w["vllm_version"]) in (r.version.version, r.lookup_version)))
        if "model" in w:
            checks.append(("model", _check_setting(s.model, w["model"])))
        for name, v in (w.get("engine") or {}).items():
            got = s.settings.get(name) or s.unknown.get(name)
            checks.append((f"engine.{name}", _check_setting(got, v)))
        for name in w.get("engine_absent") or []:
            checks.append((f"absent.{name}", name not in s.settings and name not in s.unknown))
        for name, v in (w.get("env") or {}).items():
            got = s.env.get(name)
            checks.append((f"env.{name}", got is not None and got.resolved and str(got.value) == str(v)))
        if "gpus" in w:
            checks.append(("gpus", _check_plain(s.gpu_request, w["gpus"])))
        if "image" in w:
            checks.append(("image", _check_plain(s.image, w["image"])))
        for name, v in (w.get("container") or {}).items():
            got = (getattr(s, "container", None) or {}).get(name)
            checks.append((f"container.{name}", _check_plain(got, v)))
        sc.values += len(checks)
        sc.values_ok += sum(ok for _, ok in checks)
        for what, ok in checks:
            if not ok:
                notes.append(f"{sid}: {what} wrong ({_actual(s, r, what)})")
    sc.misses += [f"{path.name}: {n}" for n in notes]
    return sc, notes


def _actual(s, r, what: str) -> str:
    head, _, name = what.partition(".")
    if head == "engine":
        got = s.settings.get(name) or s.unknown.get(name)
        return "absent" if got is None else f"{got.value!r}{'' if got.resolved else ' unresolved'}"
    if head == "env":
        got = s.env.get(name)
        return "absent" if got is None else repr(got.value)
    if head == "model":
        return "absent" if s.model is None else f"{s.model.value!r}{'' if s.model.resolved else ' unresolved'}"
    if head == "vllm_version":
        return r.version.version
    if head == "gpus":
        return repr(s.gpu_request)
    if head == "container":
        return repr((getattr(s, "container", None) or {}).get(name))
    if head == "absent":
        return "present"
    return repr(getattr(s, head, None))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("projects", nargs="*")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--verbose", "-v", action="store_true", help="list every miss")
    a = ap.parse_args(argv)
    total = Score()
    for p in projects(a.projects):
        sc, notes = score_project(p, a.verbose)
        total.add(sc)
        flag = "ok " if not notes else "   "
        print(f"{flag} {p.name:32} sites {sc.matched}/{sc.expected} found {sc.found}  values {sc.values_ok}/{sc.values}"
              f"  detect {'ok' if sc.detect_ok else 'WRONG'}")
        if a.verbose:
            for n in notes:
                print(f"      - {n}")
    print(f"\nprojects {total.projects}  site recall {total.recall:.3f}  precision {total.precision:.3f}  "
          f"value accuracy {total.value_accuracy:.3f} ({total.values_ok}/{total.values})  "
          f"detect {total.detect_accuracy:.3f}")
    missed = [k for k, v in (("recall", total.recall), ("precision", total.precision), ("values", total.value_accuracy),
                             ("detect", total.detect_accuracy)) if v < TARGETS[k]]
    if a.check and missed:
        print("below target: " + ", ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
