"""Each claim checked against the catalog for every release it covers:

- what it states (`evidence:`) holds in each of those releases;
- each version bound it sets (its own `vllm:` and the version literals in its CEL) sits where
  something it reads or states changes: between the last release before the bound and the
  first after it, a witness or evidence fact of the claim (or of a sibling in the same check,
  scenario or tree leaf) takes a different value, or the rule (or a sibling) cites the source
  line that decides it (`source: [{release, file, line}]`) in one of those two releases. A bound nothing
  explains is either wrong or about behaviour the catalog does not hold; the latter needs
  `source: {url, reason}`;
- an effective default that the catalog does not declare (or declares otherwise) is kept by
  hand and needs `source:` too."""
from __future__ import annotations

import re
from collections import defaultdict

from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.claims.collect import Claim
from vllm_kb.engine.kb.claims.facts import Fact
from vllm_kb.engine.kb.versions import SpecifierSet, Version, parse

_CLAUSE = re.compile(r"^\s*(===|==|!=|~=|>=|<=|>|<)?\s*([^\s,;]+)\s*$")


def pairs(spec: str, versions: list[Version]) -> list[tuple[Version, Version]]:
    """The adjacent catalog releases (last outside, first inside) at each bound of a spec."""
    out = []
    for part in spec.split(","):
        m = _CLAUSE.match(part)
        if not m or not part.strip():
            continue
        op, v = m[1] or "==", parse(m[2])
        if op in (">=", "<"):
            cuts = [(lambda x: x < v)]
        elif op in (">", "<="):
            cuts = [(lambda x: x <= v)]
        elif op in ("==", "!=", "==="):
            cuts = [(lambda x: x < v), (lambda x: x <= v)]
        else:
            continue
        for below in cuts:
            lo = [x for x in versions if below(x)]
            hi = [x for x in versions if not below(x)]
            if lo and hi:
                out.append((lo[-1], hi[0]))
    return out


def releases(cat: Catalog, specs: list[str]) -> list[str]:
    sets = [SpecifierSet(s) for s in specs]
    return [str(v) for v in cat.versions if all(s.contains(v) for s in sets)]


def _span(vs: list[str]) -> str:
    return vs[0] if len(vs) == 1 else f"{vs[0]} … {vs[-1]}"


def flips(cat: Catalog, fact: Fact) -> list[str]:
    """The releases at which a fact takes a new value (for hints)."""
    out, prev = [], None
    for v in cat.versions:
        cur = fact.value_at(cat, str(v))
        if prev is not None and cur is not None and cur != prev:
            out.append(str(v))
        if cur is not None:
            prev = cur
    return out


def verify(claims: list[Claim], cat: Catalog) -> list[tuple[Claim, str, str]]:
    """Problems as (claim, path suffix, message)."""
    pool: dict[str, list[Fact]] = defaultdict(list)
    cited: dict[str, set] = defaultdict(set)
    for c in claims:
        pool[c.group] += c.witnesses + c.evidence
        cited[c.group] |= c.cited
    out = []
    for c in claims:
        for err in c.errors:
            out.append((c, ".evidence", err))
        covered = releases(cat, c.specs)
        for f in c.evidence:
            bad = [v for v in covered if f.value_at(cat, v) is not True]
            if bad:
                out.append((c, ".evidence", f"`{f}` does not hold in vLLM {cat.release_runs(bad)}"))
        decided = True
        for f in c.required:
            if f.kind == "value":
                bad = _removed(cat, f, covered, c.shadow)
                if bad:
                    out.append((c, "", f"`{f.name}` {f.value!r} is no longer a value vLLM accepts in {cat.release_runs(bad)}, yet the "
                                "rule calls it enabled there: narrow the rule's `vllm` or the value list"))
            if f.kind == "default":
                declared = [v for v in covered if f.value_at(cat, v) is not True]
                decided = decided and not declared
        if not decided and c.source is None:
            out.append((c, "", "vLLM does not declare this default in every release it covers "
                        f"({_span(covered) if covered else 'none'}): add `source:` with a link and the reason it is kept by hand"))
        if c.source is not None:
            continue
        facts = c.witnesses + c.evidence + pool[c.group]
        for spec, label in [(s, f"vllm {s}") for s in c.own] + [(f">={v}", f"version literal {v!r}") for v in c.inner]:
            for lo, hi in pairs(spec, cat.versions):
                if any(_differs(f, cat, str(lo), str(hi)) for f in facts):
                    continue
                if {str(lo), str(hi)} & cited[c.group]:
                    continue  # the check cites the line that decides it in the release at the bound
                out.append((c, "", f"{label}: nothing the claim reads or states changes between vLLM {lo} and {hi}"
                            f"{_hint(cat, c.witnesses + c.evidence, str(hi))}; move the bound, or state the catalog fact it rests on "
                            "(`evidence:`), or keep it by hand with `source: {url, reason}`"))
    return out


def _removed(cat: Catalog, f: Fact, covered: list[str], shadow: list) -> list[str]:
    """Covered releases where the value was accepted before and is not any more, except those
    an earlier rule naming the same value takes first."""
    out, seen = [], False
    for v in (str(x) for x in cat.versions):
        ok = f.value_at(cat, v)
        seen = seen or ok is True
        if ok is False and seen and v in covered:
            taken = any(f'"{f.value}"' in when and v in releases(cat, specs) for specs, when in shadow)
            if not taken:
                out.append(v)
    return out


def _differs(f: Fact, cat: Catalog, lo: str, hi: str) -> bool:
    a, b = f.value_at(cat, lo), f.value_at(cat, hi)
    return a is not None and b is not None and a != b


def _hint(cat: Catalog, facts: list[Fact], at: str) -> str:
    near = []
    for f in {str(f): f for f in facts if f.kind != "defaultof"}.values():
        fl = flips(cat, f)
        if fl:
            near.append((min(abs(cat.versions.index(parse(x)) - cat.versions.index(parse(at))) for x in fl), f"{f} changes at {', '.join(fl[:3])}"))
    near.sort()
    return f" ({'; '.join(t for _, t in near[:2])})" if near else ""
