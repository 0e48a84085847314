"""One cause, one owner (engine/check/owners.py, the checks' `owned_by:`): where the owner reports
the cause the yielding check is a note one priority below it (or not applicable), alone it keeps its
own verdict; kb validate rejects an unknown id, a check owned by itself and a cycle."""
from __future__ import annotations

from types import SimpleNamespace

from vllm_kb.engine.audit import audit
from vllm_kb.engine.check import owners
from vllm_kb.engine.check.evaluate import evaluate
from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.knowledge import load

KB = load()
BNB = {"site": {"mode": "standalone_serve"}, "vllm": {"version": "0.33.0"}, "engine": {"quantization": "bitsandbytes"},
       "startup": {"quant_method": "bitsandbytes", "quant_from": "argument", "quant_known": False,
                   "quant_known_first": "0.5.0", "quant_known_last": "0.27.1", "quant_known_pin": "<0.28.0"}}


def _results(facts, *ids):
    return [evaluate(next(c for c in KB.checks if c.id == i), facts, cel.Activation(facts), {}, KB) for i in ids]


def test_the_owner_keeps_its_p0_and_the_other_is_a_note_below_it():
    d4, l10 = _results(BNB, "D4", "L10")
    assert (d4.priority, l10.priority) == ("P0", "P0")
    owners.settle_owners([d4, l10], [], BNB, KB)
    assert (d4.status, d4.priority, l10.priority) == ("recommended", "P1", "P0")
    assert "L10" in d4.reason_text("en") and "L10" in d4.reason_text("zh") and d4.fix  # its change still offered
    d4, l10 = _results(BNB, "D4", "L10")
    l10.priority = "P1"  # a range of releases settled it (settle_priorities): the note goes below that
    owners.settle_owners([d4, l10], [], BNB, KB)
    assert d4.priority == "P2"


def test_alone_the_yielding_check_keeps_its_verdict():
    (d4,) = _results(BNB, "D4")
    owners.settle_owners([d4], [], BNB, KB)
    assert (d4.status, d4.priority) == ("recommended", "P0")


def test_an_owner_with_where_takes_the_cause_at_its_sites_even_when_silent():
    facts = {"site": {"mode": "framework_integrated", "kind": "xinference launch"}, "vllm": {"version": "0.8.5"},
             "engine": {"tensor_parallel_size": 2, "pipeline_parallel_size": 1, "data_parallel_size": 1},
             "launch": {"gpus_needed": 2, "visible_gpus": 1, "multi_node": False, "fit": {"tensor_parallel_size": 1}}}
    (l34,) = _results(facts, "L34")
    owners.settle_owners([l34], [], facts, KB)
    assert l34.status == "not_applicable" and "n_gpu" in l34.reason_text("en") and not l34.fix
    serve = {**facts, "site": {"mode": "standalone_serve"}}
    (l34,) = _results(serve, "L34")
    owners.settle_owners([l34], [], serve, KB)
    assert (l34.status, l34.priority) == ("recommended", "P0")


def test_an_audit_gives_one_p0_for_bitsandbytes_on_a_release_without_it(tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.33.0\n")
    (tmp_path / "serve.sh").write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --quantization bitsandbytes\n")
    (sr,) = audit(tmp_path, gpu="H100-80GB x1").sites
    got = {r.check.id: r.priority for r in sr.results if r.needs_change and r.check.id in ("D4", "L10")}
    assert got == {"L10": "P0", "D4": "P1"}, got


class _KB:  # what lint and table read of the knowledge
    def __init__(self, owned: dict):
        self.checks = [SimpleNamespace(id=i, keys=(i, i.lower() + "-name"), file=f"{i}.yaml", raw={"owned_by": o})
                       for i, o in owned.items()]


def _lint(owned: dict, findings=frozenset({"xinference-n-gpu"})) -> list[str]:
    got: list[str] = []
    v = SimpleNamespace(add=lambda file, id_, where, msg: got.append(f"{id_} {where}: {msg}"))
    owners.lint(v, _KB(owned), set(findings))
    return got


def test_kb_validate_rejects_an_unknown_id_a_self_owner_and_a_cycle():
    assert _lint({"A1": ["B1"], "B1": [{"id": "xinference-n-gpu", "as": "drop"}]}) == []
    assert _lint({"A1": ["b1-name"], "B1": []}) == []  # any key of the owner
    assert any("unknown rule id 'Z9'" in p for p in _lint({"A1": ["Z9"]}))
    assert any("owned by itself" in p for p in _lint({"A1": ["a1-name"]}))
    cyc = _lint({"A1": ["B1"], "B1": ["C1"], "C1": ["A1"]})
    assert len(cyc) == 1 and "A1 -> B1 -> C1 -> A1" in cyc[0]
    assert any("does not compile" in p for p in _lint({"A1": [{"id": "B1", "where": "site.mode =="}], "B1": []}))


def test_the_real_knowledge_lints_clean_and_yielders_follow_their_owners():
    got: list[str] = []
    from vllm_kb.engine.check.rules import rules

    owners.lint(SimpleNamespace(add=lambda *a: got.append(a)), KB, {r.id for r in rules(KB) if r.kind != "check"})
    assert got == []
    assert {"D4", "L34"} <= {c.id for c, _ in owners.table(KB)}
    chain = _KB({"A1": ["B1"], "B1": ["C1"], "C1": []})  # A1 yields to B1, which yields to C1: B1 is settled first
    assert [c.id for c, _ in owners.table(chain)] == ["B1", "A1"]
