"""Replays tests/realcases/<case>/ (a public launch report written as the smallest project that
reproduces it) through the audit and scores it: a failure must get a P0 from the check or finding
that names its cause, a control (vLLM started) no P0 at all; and whether the change the reporter
used is among the changes proposed. `python tests/realcases_score.py` prints the table."""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet

HERE = Path(__file__).resolve().parent / "realcases"


@dataclass
class Outcome:
    name: str
    kind: str
    cls: str  # the report's class (its folder prefix)
    expect: str | None
    predicted: bool  # failure: P0 from the expected rule; control: no P0 at all
    p0: list[str] = field(default_factory=list)  # rules that gave a P0
    fix: bool | None = None  # the reporter's change is proposed (None: no fix_used)
    error: str | None = None
    diag: bool | None = None  # `diagnose --error` on the error line names the rule among its best three
    conflicts: list[str] = field(default_factory=list)  # proposed changes at one site that contradict


def cases(root: Path = HERE) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / "case.yaml").is_file())


def load(folder: Path) -> dict:
    # libyaml where built (as engine/kb/yamlio.py reads): tests/test_fix_idempotent.py reads every
    # case.yaml at collection, in each pytest-xdist worker
    return yaml.load((folder / "case.yaml").read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def expected(case: dict) -> list[str]:
    """The IDs that name the case's cause: `expect.check` (or `finding`) may be one ID or name, or a
    list of them when the cause is reported equally rightly under more than one (a check and a
    catalog finding); any one counts. Names resolve to their rule's ID."""
    from vllm_kb.engine.check.rules import rules

    want = (case.get("expect") or {}).get("check") or (case.get("expect") or {}).get("finding")
    out: list[str] = []
    for w in want if isinstance(want, list) else [want] if want else []:
        rule = rules().find(str(w))
        out += [str(w)] + ([rule.id] if rule and rule.id != w else [])
    return out


def _audit(folder: Path, case: dict):
    from vllm_kb.engine.audit import audit

    return audit(folder, gpu=case["gpu"], exclude=lambda rel: rel == "case.yaml")


def _flagged(rep, priority: str = "P0") -> list[tuple[object, str]]:
    """(site report, rule id) of every recommendation of that priority the audit gives."""
    out = []
    for sr in rep.sites:
        for r in sr.results:
            if r.status == "recommended" and r.priority == priority:
                out.append((sr, r.check.id))
        for f in sr.remarks:
            if f.priority == priority:
                out.append((sr, f.code))
    return out


def _number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    m = re.search(r"-?\d+(\.\d+)?", str(v or ""))
    return float(m.group(0)) if m and isinstance(v, str) and re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", v) else None


def _version(v) -> tuple | None:
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", str(v or ""))
    return tuple(int(x or 0) for x in m.groups()) if m else None


# names vLLM's --dtype parser maps to one torch dtype (STR_DTYPE_TO_TORCH_DTYPE / _STR_DTYPE_TO_TORCH_DTYPE):
# a reporter's `float16` and a proposed `half` are the same change
_DTYPE_ALIASES = {"half": "float16", "fp16": "float16", "bf16": "bfloat16", "float": "float32", "fp32": "float32"}


def _json(v):
    """A JSON object or array written as a string (a case's `'{"image": 5}'`, a flag's value) as
    what it parses to; anything else as it is."""
    if isinstance(v, str) and v.strip()[:1] in ("{", "["):
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def _same(a, b) -> bool:
    a, b = _json(a), _json(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return all(k in b and _same(v, b[k]) for k, v in a.items())
    na, nb = _number(a), _number(b)
    if na is not None and nb is not None:
        return abs(na - nb) < 1e-9
    sa, sb = str(a).strip().lower(), str(b).strip().lower()
    return _DTYPE_ALIASES.get(sa, sa) == _DTYPE_ALIASES.get(sb, sb)


def fix_proposed(rep, fix: dict) -> bool:
    """The reporter's change is among the changes proposed: same target, and the same value or a
    change in the same direction from what the site runs with."""
    # a setting named as its flag (`max-model-len`, `--max-model-len`) is the engine argument it sets
    fix = {k: (v.lstrip("-").replace("-", "_") if k in ("set", "unset") and isinstance(v, str) else v) for k, v in fix.items()}
    for sr in rep.sites:
        fix = _as_engine_arg(fix, sr.site)
        for ch in sr.changes:
            if "unset" in fix and ch.op == "unset" and ch.target == fix["unset"]:
                return True
            if "unset" in fix and ch.op == "set" and ch.target == fix["unset"] and _toward_default(sr, fix["unset"], ch.value):
                return True
            if "set" in fix and ch.op == "unset" and ch.target == fix["set"] and _is_default(sr, fix["set"], fix.get("value")):
                return True  # removing a setting runs the release's default, the value the reporter set (`--dtype auto`)
            if "env" in fix and ch.op in ("env", "unset_env") and ch.target == fix["env"]:
                if fix.get("value") is None or ch.op == "unset_env" or _same(fix["value"], ch.value):
                    return True
            if "pin" in fix and ch.op == "pin" and _pkg(ch.target) == _pkg(fix["pin"]):  # huggingface_hub is huggingface-hub
                want, got = _version(fix.get("value")), _version(ch.value)
                # transformers: the exact pin the site runs with, where the audit read one (launch.tf_pin)
                tf_now = str((sr.facts.get("launch") or {}).get("tf_pin") or "")
                now = _version(sr.version.version if fix["pin"] == "vllm" else
                               tf_now if fix["pin"] == "transformers" and re.fullmatch(r"transformers==[\d.]+", tf_now) else None)
                if want is None or got == want or (now and got and want and (got > now) == (want > now)):
                    return True
                if _holds(ch.value, fix.get("value")):  # a proposed bound the reporter's release meets (<5.15 for 5.14.1)
                    return True
            if "set" in fix and ch.op == "rename" and ch.value == fix["set"] and (
                    fix.get("value") in (None, True) or (ch.setting is not None and _same(fix["value"], ch.setting.value))):
                # `-language-model-only` renamed to the flag the reporter set; a renamed key keeps its
                # value, so the project then sets what the reporter set (xinference's dashed keyword)
                return True
            if "set" in fix and ch.op == "set" and ch.target == fix["set"]:
                want = fix.get("value")
                # a framework's passthrough mapping (LLaMA-Factory's vllm_config) carries the value inside
                got_value = ch.value[fix["set"]] if isinstance(ch.value, dict) and fix["set"] in ch.value else ch.value
                if want is None or _same(want, got_value):
                    return True
                before = (sr.facts.get("engine") or {}).get(fix["set"])
                if before is None and fix["set"] == "max_model_len":  # unset: the length vLLM derives
                    before = (sr.facts.get("startup") or {}).get("max_len")
                nb, nw, ng = _number(before), _number(want), _number(got_value)
                if None not in (nb, nw, ng) and nw != nb and (nw > nb) == (ng > nb):
                    return True
    return False


def _toward_default(sr, name: str, got) -> bool:
    """Removing a number the site sets is setting it to the release's default (`gpu_memory_utilization 0.1`
    left out runs at 0.9): a proposed value that moves it the same way from where it is is the same change."""
    from vllm_kb.engine.kb.catalog import load as catalog

    before = _number((sr.facts.get("engine") or {}).get(name))
    default, ng = _number(catalog().defaults(sr.version.version).get(name)), _number(got)
    return None not in (before, default, ng) and default != before and ng != before and (default > before) == (ng > before)


def _is_default(sr, name: str, value) -> bool:
    """Whether `value` is the release's default of engine argument `name` (a removed setting runs at it)."""
    from vllm_kb.engine.kb.catalog import load as catalog

    default = catalog().defaults(sr.version.version).get(name)
    return value is not None and default is not None and _same(value, default)


def _pkg(name) -> str:
    """A package name as pip compares them (PEP 503: `_`, `.` and `-` alike, case folded)."""
    return re.sub(r"[-_.]+", "-", str(name)).lower()


def _holds(proposed, value) -> bool:
    """Whether an exact version the reporter installed meets a proposed upper bound (`<5.15`, `<=0.9.2`)."""
    if not isinstance(proposed, str) or not proposed.startswith("<") or not re.fullmatch(r"=*\d+(\.\d+)*", str(value or "")):
        return False
    try:
        return SpecifierSet(proposed).contains(str(value).lstrip("="))
    except InvalidSpecifier:
        return False


def _as_engine_arg(fix: dict, site) -> dict:
    """A reporter's change written as the framework's own key (verl's
    `actor_rollout_ref.rollout.tensor_model_parallel_size`) is the engine argument that key sets."""
    name = fix.get("set") or fix.get("unset")
    if not isinstance(name, str) or "." not in name or not getattr(site, "framework", None) or site.framework == "none":
        return fix
    from vllm_kb.engine.kb import frameworks

    try:
        key = frameworks.get(site.framework).key(name)
    except (KeyError, ValueError):
        return fix
    if key is None or not key.arg:
        return fix
    return {k: (key.arg if k in ("set", "unset") else v) for k, v in fix.items()}


def contradictions(rep) -> list[str]:
    """Changes proposed at one site that undo each other: a setting or variable both written and
    removed, or written with two values — `--fix` could apply only one of them, or flip-flop."""
    out = []
    for sr in rep.sites:
        seen: dict[tuple[str, str], list] = {}
        for ch in sr.changes:
            kind = "env" if ch.op in ("env", "unset_env") else "arg" if ch.op in ("set", "unset") else None
            if kind:
                seen.setdefault((kind, ch.target), []).append(ch)
        for (_kind, target), chs in seen.items():
            ops = {c.op for c in chs}
            values = {json.dumps(c.value, sort_keys=True, default=str) for c in chs if c.op in ("set", "env")}
            if len(ops) > 1 or len(values) > 1:
                out.append(f"{getattr(sr.site, 'file', '')} {target}: " + ", ".join(
                    f"{c.op} {c.value!r} ({'/'.join(c.checks)})" for c in chs))
    return out


def run(folder: Path) -> Outcome:
    case = load(folder)
    want = expected(case)
    expect = "|".join(w for w in want if not rules_name(w)) or None
    cls = folder.name.split("--")[0]
    try:
        rep = _audit(folder, case)
    except Exception as e:  # noqa: BLE001 — a crash is a result to report, not a reason to stop the table
        return Outcome(folder.name, case["kind"], cls, expect, False, error=f"{type(e).__name__}: {e}")
    p0 = _flagged(rep)
    ids = [rid for _, rid in p0]
    if case["kind"] == "failure":
        priority = (case.get("expect") or {}).get("priority", "P0")
        predicted = bool(set(want) & {rid for _, rid in _flagged(rep, priority)})
    else:
        # a control: no P0 at all, and none of the rules it names gives a P1 either
        banned = set(expected({"expect": {"check": case["not_flagged"]}})) if case.get("not_flagged") else set()
        predicted = not p0 and not banned & {rid for _, rid in _flagged(rep, "P1")}
    fix = fix_proposed(rep, case["fix_used"]) if case.get("fix_used") and case["kind"] == "failure" else None
    diag = diagnosed(case, want) if case["kind"] == "failure" and case.get("error") and want else None
    return Outcome(folder.name, case["kind"], cls, expect, predicted, sorted(set(ids)), fix, diag=diag,
                   conflicts=contradictions(rep))


def rules_name(w: str) -> bool:
    """True for a rule's name (its ID is listed beside it in expected())."""
    from vllm_kb.engine.check.rules import rules

    rule = rules().find(w)
    return bool(rule and rule.id != w)


def diagnosed(case: dict, want: list[str]) -> bool:
    """`diagnose --error` on the case's error line names one of the expected IDs (or a rule of its
    family) among its best three."""
    from vllm_kb.engine.advise.diagnose import launch
    from vllm_kb.engine.kb.knowledge import load as knowledge

    family = set(want).union(*(launch.FAMILIES.get(w, ()) for w in want))
    got = [h.id for h in launch.recognise(knowledge(), case.get("traceback") or case["error"])][:3]
    return bool(family & set(got)) or any(set(want) & set(launch.FAMILIES.get(g, ())) for g in got)


def table(outcomes: list[Outcome]) -> str:
    lines = [f"{'case':58} {'kind':8} {'expect':24} {'ok':3} {'fix':4} P0s"]
    for o in outcomes:
        fix = "-" if o.fix is None else ("yes" if o.fix else "no")
        lines.append(f"{o.name[:58]:58} {o.kind:8} {str(o.expect or ''):24} {'yes' if o.predicted else 'NO':3} {fix:4} "
                     f"{', '.join(o.p0)}{'  ' + o.error if o.error else ''}")
    fails = [o for o in outcomes if o.kind == "failure"]
    ctrls = [o for o in outcomes if o.kind == "control"]
    fixes = [o for o in fails if o.fix is not None]
    lines.append("")
    lines.append(f"failures predicted with the right cause: {sum(o.predicted for o in fails)}/{len(fails)}")
    lines.append(f"reporter's fix proposed: {sum(bool(o.fix) for o in fixes)}/{len(fixes)}")
    lines.append(f"controls without a false P0: {sum(o.predicted for o in ctrls)}/{len(ctrls)}")
    diags = [o for o in fails if o.diag is not None]
    lines.append(f"error line diagnosed: {sum(bool(o.diag) for o in diags)}/{len(diags)}")
    return "\n".join(lines)


if __name__ == "__main__":
    # --dir DIR scores a set kept outside the repository (a held-out set) in the same format
    args = sys.argv[1:]
    root = HERE
    if "--dir" in args:
        i = args.index("--dir")
        root = Path(args[i + 1]).resolve()
        del args[i:i + 2]
    names = [a for a in args if not a.startswith("--")]
    picked = [p for p in cases(root) if not names or any(a in p.name for a in names)]
    outs = [run(p) for p in picked]
    print(table(outs))
    if "--json" in sys.argv:
        print(json.dumps([o.__dict__ for o in outs], indent=1))
