"""`vllm-kb kb validate`, end to end: the knowledge linted as a whole — engine/kb/validate.py's
checks (every file against its schema, every CEL predicate compiled, every fact, flag and env
var checked against the facts schema and the vLLM catalog for the releases it claims, ids
unique) plus what needs the later stages to run: every check's cases (check), the decision
tree (advise/diagnose/lint.py), the scenarios and the tables (advise)."""
from __future__ import annotations

from vllm_kb.engine.advise import tables
from vllm_kb.engine.advise.scenarios import lint as scenario_lint
from vllm_kb.engine.advise.diagnose import lint as tree_lint
from vllm_kb.engine.check import owners, rules
from vllm_kb.engine.check.evaluate import evaluate
from vllm_kb.engine.kb import cel, schemas
from vllm_kb.engine.kb import validate as kb_validate
from vllm_kb.engine.kb.errors import Problem
from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.validate import FACT_GROUPS_FREE


class Validator(kb_validate.Validator):
    def cases(self, c) -> None:
        kb = load()
        for i, case in enumerate(c.cases):
            self.n_cases += 1
            where = f"cases[{i}]"
            facts = case.get("facts") or {}
            for path, msg in schemas.errors("facts", facts):
                self.add(c.file, c.id, f"{where}.facts" + ("." + schemas.json_path(path) if path else ""), msg)
            for group in FACT_GROUPS_FREE:
                for name in (facts.get(group) or {}):
                    err = self.fact_name((group, name))
                    if err:
                        self.add(c.file, c.id, f"{where}.facts.{group}.{name}", err)
            res = evaluate(c, facts, cel.Activation(facts), {}, kb)
            owners.settle_owners([res], [], facts, kb)  # an owner that takes the cause at the case's site (`where:`)
            if res.status != case["expect"]:
                self.add(c.file, c.id, where, f"case {case['name']!r}: expected {case['expect']}, got {res.status} ({res.reason_text('en')})")
            elif case.get("priority") and res.priority != case["priority"]:
                self.add(c.file, c.id, where, f"case {case['name']!r}: expected priority {case['priority']}, got {res.priority}")

    def stages(self) -> dict[str, int]:
        self.decision_tree()
        self.owners()
        return {"scenarios": scenario_lint.lint(self), "tables": tables.lint(self)}

    def owners(self) -> None:
        """The checks' `owned_by:` (engine/check/owners.py): known ids, no check its own owner, no cycle."""
        kb = load()
        owners.lint(self, kb, {r.id for r in rules.rules(kb) if r.kind != "check"})

    def decision_tree(self) -> None:
        """knowledge/decision_tree.yaml beyond its schema: engine/advise/diagnose/lint.py lints it."""
        doc = self.load(("decision_tree.yaml",))
        if doc is not None and not schemas.errors("decision_tree", doc.data):
            tree_lint.lint(self, doc.data)


def validate_all() -> tuple[list[Problem], str]:
    return Validator().run()
