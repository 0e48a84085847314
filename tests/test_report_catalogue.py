"""The report of schema_version 2 writes what every site shares once (engine/report/catalogue.py)
and loses nothing: read back, each site's `checks` are the entries schema_version 1 wrote, built
here as it built them. tests/test_consistency.py holds every fixture, example and real case to
this on six machines (`assert_reads_back`); benchmarks/same_reports.py --expand compares whole
reports with those of a build of version 1, byte for byte."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from vllm_kb.engine.audit import audit
from vllm_kb.engine.kb import redact, schemas
from vllm_kb.engine.report import catalogue, json_text, model, stream, summary
from vllm_kb.engine.report.results import AuditReport

ROOT = Path(__file__).parent.parent
GPU = "H100-80GB x8"


# A cleaned entry (engine/kb/safe_text.py) is a function of its fields and of the secrets the audit
# learnt (redact.known_secrets): the same entry with no fix, at every site and on every machine, is
# cleaned once — cleaning each again was ~13 % of tests/test_consistency.py's loop
_CLEANED: dict[tuple, dict] = {}


def _clean_entry(e: dict) -> dict:
    if e["fix"]:
        return model.clean(e)
    known = getattr(redact, "_KNOWN", None)
    key = (known.pattern if known is not None else None, e["id"], e["name"], e["category"], e["title"], e["status"],
           e["priority"], e["reason"], tuple(e["missing"]), e["safe"], e["action"])
    hit = _CLEANED.get(key)
    if hit is None:
        if len(_CLEANED) >= 100_000:
            _CLEANED.clear()
        hit = _CLEANED[key] = model.clean(e)
    return hit


def schema1_checks(rep: AuditReport, lang: str) -> list[list[dict]]:
    """Each site's `checks` as schema_version 1 wrote them (engine/report/model.py before it),
    cleaned entry by entry as `model.clean` cleans a list."""
    out = []
    for sr in rep.sites:
        entries = []
        for r in sr.results:
            fix = [{"op": op.kind, "target": op.target, "value": v, "enables": model._enables(op.kind, op.target, v, sr.site)}
                   for op, v in r.fix]
            entries.append({
                "id": r.check.id, "name": r.check.name, "category": r.check.category, "title": r.check.title(lang),
                "status": r.status, "priority": r.priority if r.status == "recommended" else None,
                "reason": r.reason_text(lang), "missing": list(r.missing), "fix": fix, "safe": r.safe,
                "action": model._action(fix) if r.status == "recommended" else None,
            })
        out.append([_clean_entry(e) for e in entries])
    return out


def assert_reads_back(rep: AuditReport, data: dict, lang: str = "en") -> None:
    old = catalogue.expand(data)
    assert old["schema_version"] == 1 and "catalogue" not in old
    assert [s["checks"] for s in old["sites"]] == schema1_checks(rep, lang)
    for new, back in zip(data["sites"], old["sites"]):  # the rest of a site as it was
        assert {k: v for k, v in new.items() if k not in ("checks", "not_applicable")} == \
            {k: v for k, v in back.items() if k != "checks"}
        assert "not_applicable" not in back
        assert all(c["status"] != "not_applicable" or c["reason"] for c in back["checks"])


SMALL = sorted([p for p in (ROOT / "examples").iterdir() if p.is_dir()]
               + [p for p in (ROOT / "tests" / "fixtures").iterdir() if p.is_dir()])


@pytest.mark.parametrize("tree", SMALL, ids=lambda p: p.name)
def test_chinese_reports_read_back(tree):
    rep = audit(tree, gpu=GPU)
    data = model.build(rep, "zh")
    assert_reads_back(rep, data, "zh")
    assert schemas.errors("report", data) == []


def test_what_every_site_shares_is_written_once():
    rep = audit(ROOT / "examples" / "quickstart", gpu=GPU)
    data = model.build(rep, "en")
    assert data["schema_version"] == 2 and [c["id"] for c in data["catalogue"]] == [c.id for c in rep.kb.checks]
    for s in data["sites"]:
        assert all(set(c) == {"id", "status", "priority", "reason", "missing", "fix", "safe", "action"} for c in s["checks"])
        assert all(c["status"] != "not_applicable" for c in s["checks"])
        assert s["not_applicable"] and all(type(i) is int for i in s["not_applicable"].values())
        # every check of the knowledge is in one of the two, once
        ids = [c["id"] for c in s["checks"]] + list(s["not_applicable"])
        assert sorted(ids) == sorted(c["id"] for c in data["catalogue"])
    # the same words at two sites are one entry of the catalogue
    reasons = [r for c in data["catalogue"] for r in c.get("not_applicable", [])]
    assert len(reasons) < sum(len(s["not_applicable"]) for s in data["sites"])
    old = json_text.dumps(catalogue.expand(data))
    assert len(json_text.dumps(data)) < len(old) * 0.75  # two sites; vLLM's own tree (601): 47 MB → 17 MB


def test_a_not_applicable_verdict_that_says_more_stays_whole():
    class C:
        id, name, category = "X1", "x", "A"

    class R:
        check, status, missing, safe = C, "not_applicable", ("gpu.name",), False

        def reason_text(self, lang):
            return "why"

    kind, e = catalogue.entry(R(), [], None, "en")
    assert kind == "check" and e["missing"] == ["gpu.name"] and e["status"] == "not_applicable"
    R.missing = ()
    assert catalogue.entry(R(), [], None, "en") == ("na", ("X1", "why"))


def test_reasons_are_numbered_per_check_in_the_order_sites_give_them():
    r = catalogue.Reasons()
    assert r.number([["A1", "a"], ["B1", "b"]]) == {"A1": 0, "B1": 0}
    assert r.number([["A1", "c"], ["B1", "b"]]) == {"A1": 1, "B1": 0}
    assert r.by_check == {"A1": {"a": 0, "c": 1}, "B1": {"b": 0}}


def test_a_streamed_report_numbers_them_as_a_built_one(tmp_path):
    # sites whose not-applicable reasons differ (different releases): the numbers depend on the order
    for i, (ver, line) in enumerate([("0.6.0", "vllm serve m --swap-space 4"), ("0.20.0", "vllm serve m"),
                                     ("0.10.0", "vllm serve Qwen/Qwen2.5-7B-Instruct --enforce-eager")]):
        d = tmp_path / f"s{i}"
        d.mkdir()
        (d / "run.sh").write_text(line + "\n")
        (d / "requirements.txt").write_text(f"vllm=={ver}\n")
    rep = audit(tmp_path, gpu=GPU)
    assert len(rep.sites) == 3
    import io

    out = io.StringIO()
    stream.write(rep, rep.sites, "en", out)
    built = model.build(audit(tmp_path, gpu=GPU), "en")
    assert out.getvalue() == json_text.dumps(built) + "\n"
    assert any(len(c.get("not_applicable", [])) > 1 for c in built["catalogue"])


def test_the_summary_counts_every_verdict():
    data = model.build(audit(ROOT / "examples" / "quickstart", gpu=GPU), "en")
    got = summary.summary(data, lambda key, **kw: key, "next")["verdicts"]
    want: dict[str, int] = {}
    for s in catalogue.expand(data)["sites"]:
        for c in s["checks"]:
            want[c["status"]] = want.get(c["status"], 0) + 1
    assert got == dict(sorted(want.items()))


def test_a_report_of_version_1_reads_as_it_is():
    data = {"schema_version": 1, "sites": [{"checks": [{"id": "A1"}]}]}
    assert catalogue.expand(json.loads(json.dumps(data))) == data


def test_the_held_catalogue_is_the_cleaned_one():
    """catalogue.cleaned holds each check's own part cleaned once: it gives what cleaning the whole
    catalogue gives, in both languages, again on a second report, and where a reason holds a secret."""
    from vllm_kb.engine.kb import safe_text

    rep = audit(ROOT / "examples" / "quickstart", gpu=GPU)
    for lang in ("en", "zh", "en"):
        reasons = catalogue.Reasons()
        for s in model.build(rep, lang)["sites"]:
            reasons.number([(cid, f"reason {n}") for cid, n in s["not_applicable"].items()])
        reasons.number([(next(iter(rep.kb.checks)).id, "HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz12")])
        assert catalogue.cleaned(rep.kb, lang, reasons) == safe_text.clean(catalogue.catalogue(rep.kb, lang, reasons))
