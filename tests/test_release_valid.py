"""Every change a check proposes must itself start in the release it is proposed for
(engine/fix/release_valid.py): written on a `vllm serve` command line in each catalogued release
its rule holds in, no literal `set:` of any check names an option the release lacks, a value
outside its `choices=`, or a mapping in a form its argparse cannot parse."""
from __future__ import annotations

import pytest

from vllm_kb.engine.fix.changes import Fixable, plan
from vllm_kb.engine.fix.release_valid import problem
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb.knowledge import FixOp, load
from vllm_kb.engine.scan.site import Site, Setting

SERVE_MODES = {"standalone_serve", "rlhf_server"}


_MM_LIMIT = FixOp("set", "limit_mm_per_prompt", {"image": 4})


def _site(settings: dict | None = None) -> Site:
    return Site(file="serve.sh", line=1, syntax="cli", kind="vllm serve", mode="standalone_serve",
                mode_evidence="serve.sh:1", settings=settings or {})


def _proposals():
    cat = catalog_mod.load()
    for check in load().checks:
        if not SERVE_MODES & set(check.modes):
            continue
        for rule in check.rules:
            ops = [op for op in rule.fix if op.kind == "set" and op.value_from is None and op.value is not None]
            if rule.status != "recommended" or not ops or any(op.kind == "pin" for op in rule.fix):
                continue
            for v in cat.versions:
                version = str(v)
                if (check.vllm and version not in check.vllm) or (rule.vllm and version not in rule.vllm):
                    continue
                yield check, rule, ops, version


def test_every_literal_proposal_starts_in_its_release():
    cat = catalog_mod.load()
    bad = []
    n = 0
    for check, rule, ops, version in _proposals():
        item = Fixable(check.id, rule.priority or check.priority, rule.safe, [(op, op.value) for op in ops])
        for ch in plan(_site(), [item], cat, version):
            n += 1
            if ch.blocked == "not_in_release":
                why = problem(ch.target, ch.value, "cli", "vllm serve", cat, version, ch.after)
                bad.append(f"{check.id} rule {rule.index} on {version}: {ch.after} ({why})")
    assert n > 500  # the walk reaches the checks' proposals
    assert not bad, "\n".join(sorted(set(bad))[:40])


@pytest.mark.parametrize("version,written", [("0.6.1", "--limit-mm-per-prompt image=4"),
                                             ("0.8.4", "--limit-mm-per-prompt image=4"),
                                             ("0.8.5", "--limit-mm-per-prompt '{\"image\": 4}'"),
                                             ("0.34.0", "--limit-mm-per-prompt '{\"image\": 4}'")])
def test_mm_limit_written_in_the_release_form(version, written):
    # I5 proposes no count any more (a per-prompt count frees no memory on V1, and V0's default of one is
    # the smallest): the planner still writes a limit in the form each release parses
    ops = [(_MM_LIMIT, _MM_LIMIT.value)]
    (ch,) = plan(_site(), [Fixable("I5", "P1", False, ops)], catalog_mod.load(), version)
    assert ch.after == written and ch.blocked is None


def test_mm_limit_merges_the_written_keys_in_kv_form():
    existing = Setting(name="limit_mm_per_prompt", value={"video": 1}, raw="video=1", key="--limit-mm-per-prompt",
                       file="serve.sh", line=1, syntax="cli")
    op = _MM_LIMIT
    (ch,) = plan(_site({"limit_mm_per_prompt": existing}), [Fixable("X", "P1", False, [(op, {"image": 4})])],
                 catalog_mod.load(), "0.6.1")
    assert ch.after == "--limit-mm-per-prompt video=1,image=4"


@pytest.mark.parametrize("target,value,version,why", [
    ("enable_prefix_caching", True, "0.3.0", "absent"),           # no such flag before 0.4
    ("block_size", 64, "0.6.0", "choice"),                         # 0.6.0 takes 8, 16, 32
    ("limit_mm_per_prompt", {"image": {"count": 2}}, "0.6.1", "form"),
    ("block_size", 32, "0.6.0", None),
])
def test_problem(target, value, version, why):
    assert problem(target, value, "cli", "vllm serve", catalog_mod.load(), version) == why


def test_python_call_is_not_judged():
    assert problem("limit_mm_per_prompt", {"image": 4}, "python-call", "LLM()", catalog_mod.load(), "0.6.1") is None


def test_realcase_control_gets_the_release_form():
    import realcases_score as score

    folder = score.HERE / "mm-limit-form--vllm-11006-qwen2vl-063-control"
    rep = score._audit(folder, score.load(folder))
    # 0.6.3's default is one image per prompt: nothing to propose (the reporter's question was sending more)
    assert not [ch for sr in rep.sites for ch in sr.changes if ch.target == "limit_mm_per_prompt"]
    (sr,) = rep.sites
    (ch,) = plan(sr.site, [Fixable("I5", "P2", False, [(_MM_LIMIT, _MM_LIMIT.value)])], catalog_mod.load(), sr.lookup_version)
    assert ch.after == "--limit-mm-per-prompt image=4"
