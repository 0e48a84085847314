"""Every versioned claim in the knowledge, read from the raw YAML: a check's release gate and
each rule's, a decision-tree fix item's, a scenario's and each of its settings', an effective
default's, and version literals inside CEL (`version_ge(vllm.version, "0.20.0")`). A claim
carries the facts it reads (witnesses: fix targets and values, the arguments, fields and env
vars its predicates name, the literal values they compare with, the defaults of `engine.X`),
the facts it states (`evidence:`), and, when the catalog cannot decide it, `source:` with a
link and the reason it is kept by hand."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from vllm_kb.engine.kb import cel
from vllm_kb.engine.kb.claims.facts import Fact, FactSyntaxError, parse

_VERSION_LIT = re.compile(r"version_(?:ge|gt|lt|le)\(\s*vllm\.version\s*,\s*\"([^\"]+)\"\s*\)")
_EQ_LIT = re.compile(r"\b(?:args|engine)\.([a-z_][a-z0-9_]*)(?:\.([a-z_][a-z0-9_]*))?\s*(?:==|!=)\s*\"([^\"]+)\"")
_IN_LIT = re.compile(r"\b(?:args|engine)\.([a-z_][a-z0-9_]*)(?:\.([a-z_][a-z0-9_]*))?\s+in\s+\[([^\]]*)\]")


@dataclass
class Claim:
    file: str
    id: str
    path: str
    specs: list[str]  # the releases the claim covers: all must hold
    own: list[str] = field(default_factory=list)  # specs whose bounds this claim must explain
    inner: list[str] = field(default_factory=list)  # version literals inside CEL
    witnesses: list[Fact] = field(default_factory=list)
    evidence: list[Fact] = field(default_factory=list)
    required: list[Fact] = field(default_factory=list)  # must hold in every covered release
    source: dict | None = None
    group: str = ""
    shadow: list = field(default_factory=list)  # (specs, when) of earlier rules in the same check
    cited: set = field(default_factory=set)  # releases whose sources a rule cites (source: [{release, file, line}])
    errors: list[str] = field(default_factory=list)  # evidence that does not parse


def cel_facts(src: str | None) -> tuple[list[Fact], list[str]]:
    """The facts a CEL expression reads, and the version literals it compares vllm.version with."""
    if not src:
        return [], []
    out: list[Fact] = []
    try:
        paths = cel.compile(src).paths
    except cel.CelSyntaxError:
        return [], []
    for p in paths:
        if p[0] in ("args", "passed", "engine") and len(p) >= 2:
            out.append(Fact("arg", p[1]))
            if p[0] == "engine":
                out.append(Fact("defaultof", p[1]))
            if len(p) >= 3:
                out.append(Fact("field", f"{p[1]}.{p[2]}"))
        elif p[0] == "env" and len(p) >= 2:
            out.append(Fact("env", p[1]))
    for m in _EQ_LIT.finditer(src):
        out.append(Fact("value", m[1] + (f".{m[2]}" if m[2] else ""), value=m[3]))
    for m in _IN_LIT.finditer(src):
        for v in re.findall(r"\"([^\"]+)\"", m[3]):
            out.append(Fact("value", m[1] + (f".{m[2]}" if m[2] else ""), value=v))
    return out, _VERSION_LIT.findall(src)


def fix_facts(op: dict) -> list[Fact]:
    """What a fix op names: its target, and each literal value it writes."""
    if "set" in op:
        name, value = op["set"], op.get("value")
        out = [Fact("arg", name), Fact("defaultof", name)]
        if isinstance(value, dict):
            for k, v in value.items():
                out.append(Fact("field", f"{name}.{k}"))
                if isinstance(v, (str, int)) and not isinstance(v, bool):
                    out.append(Fact("value", f"{name}.{k}", value=v))
        elif isinstance(value, (str, int)) and not isinstance(value, bool):
            out.append(Fact("value", name, value=value))
        return out + cel_facts(op.get("value_from"))[0]
    if "unset" in op:
        return [Fact("arg", op["unset"])]
    if "container" in op:
        return []  # an option of `docker run`, not vLLM's
    return [Fact("env", op.get("env") or op.get("unset_env") or "")]


def _stated(raw: dict, claim: Claim) -> Claim:
    for text in raw.get("evidence") or []:
        try:
            claim.evidence.append(parse(text))
        except FactSyntaxError as e:
            claim.errors.append(str(e))
    src = raw.get("source")
    # a rule's `source` is a list of citations (docs: the raising line); one with a `reason` keeps it by hand
    items = [x for x in (src if isinstance(src, list) else [src]) if isinstance(x, dict)]
    kept = [x for x in items if x.get("reason")]
    claim.source = kept[0] if kept else None
    claim.cited = {str(x["release"]) for x in items if x.get("release") and x.get("file")}
    return claim


def checks(docs: dict[str, Any]) -> Iterator[Claim]:
    for file, data in docs.items():
        for c in (data or {}).get("checks") or []:
            cid, gate = c.get("id", "?"), (c.get("applies_to") or {})
            check_specs = [gate["vllm"]] if gate.get("vllm") else []
            group = f"{file}#{cid}"
            rule_claims = []
            for i, r in enumerate(c.get("rules") or []):
                wit, inner = cel_facts(r.get("when"))
                # `enabled` for a value vLLM no longer accepts is wrong there, unless an earlier rule
                # that names the same value takes those releases (D4: removed → P0 first)
                req = [Fact("value", f.name, value=f.value) for f in wit if f.kind == "value"] if r.get("status") == "enabled" else []
                shadow = [(check_specs + ([e["vllm"]] if e.get("vllm") else []), e.get("when") or "") for e in (c.get("rules") or [])[:i]]
                for op in r.get("fix") or []:
                    wit += fix_facts(op)
                    inner += cel_facts(op.get("value_from"))[1]
                own = [r["vllm"]] if r.get("vllm") else []
                claim = _stated(r, Claim(file, cid, f"rules[{i}]", check_specs + own, own, inner, wit, required=req, group=group))
                claim.shadow = shadow
                rule_claims.append(claim)
            yield from rule_claims
            if check_specs:
                wit = [w for rc in rule_claims for w in rc.witnesses]
                yield _stated(gate, Claim(file, cid, "applies_to.vllm", check_specs, check_specs, [], wit, group=group))


def effective_defaults(file: str, data: dict) -> Iterator[Claim]:
    for i, d in enumerate((data or {}).get("defaults") or []):
        if not isinstance(d, dict) or "arg" not in d:
            continue
        wit, inner = cel_facts(d.get("when"))
        own = [d["vllm"]] if d.get("vllm") else []
        c = Claim(file, d["arg"], f"defaults[{i}]", own, own, inner, wit + [Fact("defaultof", d["arg"])],
                  group=f"{file}#{d['arg']}")
        c.required.append(Fact("default", d["arg"], "=", d.get("value")))  # checked where the catalog states one
        yield _stated(d, c)


def scenarios(file: str, data: dict) -> Iterator[Claim]:
    for s in (data or {}).get("scenarios") or []:
        sid, group = s.get("id", "?"), f"{file}#{s.get('id')}"
        base = [s["vllm"]] if s.get("vllm") else []
        items = []
        for kind in ("args", "env"):
            for i, a in enumerate(s.get(kind) or []):
                wit: list[Fact] = []
                inner: list[str] = []
                for src in (a.get("when"), a.get("value_from")):
                    w, n = cel_facts(src)
                    wit, inner = wit + w, inner + n
                if kind == "args":
                    wit += fix_facts({"set": a.get("arg"), "value": a.get("value")})
                else:
                    wit.append(Fact("env", a.get("name")))
                own = [a["vllm"]] if a.get("vllm") else []
                items.append(_stated(a, Claim(file, sid, f"{kind}[{i}]", base + own, own, inner, wit, group=group)))
        for i, n in enumerate(s.get("notes") or []):
            wit, inner = cel_facts(n.get("when"))
            if inner:
                items.append(_stated(n, Claim(file, sid, f"notes[{i}]", base, [], inner, wit, group=group)))
        yield from items
        if base:
            wit = [w for it in items for w in it.witnesses]
            yield _stated(s, Claim(file, sid, "vllm", base, base, [], wit, group=group))


def decision_tree(file: str, data: dict) -> Iterator[Claim]:
    def walk(node, path):
        if isinstance(node, dict):
            if isinstance(node.get("fix"), list) and node.get("id"):
                nid, group = node["id"], f"{file}#{node['id']}"
                leaf_wit, leaf_inner = cel_facts(node.get("when"))
                for i, op in enumerate(node["fix"]):
                    wit, inner = cel_facts(op.get("when"))
                    wit += fix_facts(op) + leaf_wit
                    own = [op["vllm"]] if op.get("vllm") else []
                    if own or inner or leaf_inner:
                        yield _stated(op, Claim(file, nid, f"fix[{i}]", own, own, inner + leaf_inner, wit, group=group))
            for k, v in node.items():
                yield from walk(v, f"{path}.{k}")
        elif isinstance(node, list):
            for i, x in enumerate(node):
                yield from walk(x, f"{path}[{i}]")

    yield from walk(data, "")
