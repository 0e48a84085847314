"""Every rule id a report can carry: the 55 checks (B3 / kv-cache-fp8 / aliases) and the findings
that are not checks — an option the site's vLLM does not have (`not-in-version`), a framework's
own pitfalls (`trl-legacy-key`), a suppression comment without a reason … Config files,
suppression comments, SARIF rules and the docs all name rules through this one registry, so
an id that works in one place works in all of them and a typo fails loudly."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vllm_kb.engine.check import catalog_findings
from vllm_kb.engine.kb.errors import KnowledgeError, Problem
from vllm_kb.engine.kb.knowledge import Check, Knowledge, Text, load
from vllm_kb.engine.scan.site import SCAN_FINDINGS

# Findings the engine itself raises, with a default priority: each stage declares its own codes
# (engine/scan/site.py, engine/check/catalog_findings.py). A new Finding code must be declared
# there and get `sarif.rule.<code>` in knowledge/i18n.yaml (tests/test_formats.py greps the
# engine for Finding("…") and fails otherwise).
_FINDING_SOURCES = (("engine/check/catalog_findings.py", catalog_findings.CODES), ("engine/scan/site.py", SCAN_FINDINGS))


def _engine_findings() -> tuple[dict[str, str], dict[str, str]]:
    out: dict[str, str] = {}
    origin: dict[str, str] = {}
    for where, codes in _FINDING_SOURCES:
        for code, prio in codes.items():
            if code in out:
                raise KnowledgeError([Problem(where, code, "", f"finding code also declared in {origin[code]}")])
            out[code], origin[code] = prio, where
    return out, origin


ENGINE_FINDINGS, _ORIGIN = _engine_findings()
# Findings about vllm-kb's own suppressions (engine/check/suppressions.py).
SUPPRESSION_FINDINGS = {
    "suppression-no-reason": "P2",
    "suppression-unknown-rule": "P1",
    "suppression-unused": "P2",
}


# The names people give a finding's cause (the held-out sets' labels, `checks show`), as the checks'
# `aliases:` do for theirs
FINDING_ALIASES = {"unknown-option": ("unknown-cli-flag", "unknown-engine-arg")}


@dataclass(frozen=True)
class Rule:
    id: str  # B3, not-in-version, trl-legacy-key
    name: str  # kv-cache-fp8; a finding's name is its id
    kind: str  # check | finding | framework | suppression
    priority: str
    short: Text
    full: Text
    category: str | None = None
    check: Check | None = None
    origin: str = ""  # where it is defined: a knowledge file or the engine module that raises it

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.id, self.name, *(self.check.aliases if self.check else FINDING_ALIASES.get(self.id, ())))


class Rules:
    def __init__(self, kb: Knowledge):
        self.kb = kb
        self._rules: list[Rule] = []
        for c in kb.checks:
            self._rules.append(Rule(c.id, c.name, "check", c.priority, c.title, _join(c.rationale, c.advice), c.category, c,
                                    c.file))
        for code, prio in {**ENGINE_FINDINGS, **SUPPRESSION_FINDINGS}.items():
            text = _text(kb, f"sarif.rule.{code}")
            kind = "suppression" if code in SUPPRESSION_FINDINGS else "finding"
            origin = _ORIGIN.get(code, "engine/check/suppressions.py")
            self._rules.append(Rule(code, code, kind, prio, text, text, origin=origin))
        for fid, name, f in _framework_findings():
            short = Text(en=kb.t("sarif.rule.framework", "en", framework=name, code=f["code"]),
                         zh=kb.t("sarif.rule.framework", "zh", framework=name, code=f["code"]))
            full = Text.of({k: v.replace("{vllm_version}", "X") for k, v in f["text"].items()})
            self._rules.append(Rule(f"{fid}-{f['code']}", f"{fid}-{f['code']}", "framework", f["priority"], short, full,
                                    origin=f"knowledge/frameworks/{fid}.yaml"))
        self._by_key: dict[str, Rule] = {}
        for r in self._rules:
            for k in r.keys:
                other = self._by_key.get(k.lower())
                if other is not None and other.id != r.id:  # one name, two rules: `checks show`, select/ignore would guess
                    raise KnowledgeError([Problem(r.origin, r.id, "aliases", f"the name {k!r} is also {other.id}'s")])
                self._by_key[k.lower()] = r  # a framework code declared for several keys is one rule
        self._categories = {c["id"] for c in kb.categories}

    def __iter__(self):
        return iter(self._rules)

    def find(self, key: str) -> Rule | None:
        return self._by_key.get(key.strip().lower())

    def expand(self, key: str) -> list[Rule] | None:
        """What a name in `select`/`ignore` stands for: one rule, or every check of a category
        (`B`); None when it names nothing."""
        k = key.strip()
        if k.upper() in self._categories and len(k) == 1:
            return [r for r in self._rules if r.category == k.upper()]
        r = self.find(k)
        return [r] if r else None

    def for_code(self, code: str) -> Rule:
        """The rule of a report entry's id (`B3`, `not-in-version`); an unregistered code gets
        a generic description rather than failing a report."""
        r = self.find(code)
        if r is not None:
            return r
        text = _text(self.kb, "sarif.rule.other")
        return Rule(code, code, "finding", "P2", text, text)


def _join(a: Text, b: Text) -> Text:
    return Text(en=f"{a.en} {b.en}".strip(), zh=f"{a.zh}{b.zh}".strip())


def _text(kb: Knowledge, key: str) -> Text:
    return Text(en=kb.t(key, "en"), zh=kb.t(key, "zh"))


def _framework_findings():
    from vllm_kb.engine.kb import frameworks

    for fid in frameworks.FRAMEWORK_IDS:
        fw = frameworks.get(fid)
        for f in fw.raw.get("findings", []):
            yield fid, fw.name, f


@lru_cache(maxsize=1)
def _default() -> Rules:
    return Rules(load())


def rules(kb: Knowledge | None = None) -> Rules:
    return _default() if kb is None or kb is load() else Rules(kb)


def pascal(name: str) -> str:
    """kv-cache-fp8 → KvCacheFp8 (SARIF's convention for a rule's friendly name)."""
    return "".join(p[:1].upper() + p[1:] for p in name.replace("_", "-").split("-") if p)
