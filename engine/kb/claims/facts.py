"""Catalog facts a versioned claim rests on, each decidable per release from
knowledge/vllm/catalog.json. The knowledge states them as `evidence:` strings:

    [not] arg NAME                  an EngineArgs field or serve option exists
    [not] flag --NAME               a `vllm serve` flag exists
    [not] env NAME                  vllm/envs.py reads the variable
    [not] field ARG.KEY             a key of a JSON config argument exists
    [not] value PATH VALUE          VALUE is allowed for PATH (arg or ARG.KEY)
    [not] enum NAME VALUE           VALUE is a member of a catalog enum
    [not] default PATH = JSON       the declared default of PATH (arg, ARG.KEY or env)
    [not] feature NAME = JSON       an engine/feature fact (engine.default, multiproc.cli_spawn, …)
    [not] feature NAME has VALUE    a list feature contains VALUE (for engine.v1_fallbacks: an
                                    entry whose feature or arguments name it)

Witness facts (`defaultof PATH`) are not written by hand: a claim that reads `engine.X` may
have its version bound explained by X's default changing there."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from vllm_kb.engine.kb.catalog import Catalog

KINDS = ("arg", "flag", "env", "field", "value", "enum", "default", "feature", "defaultof")
_SYNTAX = re.compile(r"^(?P<neg>not )?(?P<kind>arg|flag|env|field|value|enum|default|feature) (?P<rest>\S.*)$")


class FactSyntaxError(ValueError):
    pass


@dataclass(frozen=True)
class Fact:
    kind: str
    name: str
    op: str = ""  # "=" or "has" for default/feature
    value: Any = None
    negated: bool = False

    def __str__(self) -> str:
        neg = "not " if self.negated else ""
        if self.kind in ("value", "enum"):
            return f"{neg}{self.kind} {self.name} {self.value}"
        if self.kind in ("default", "feature"):
            return f"{neg}{self.kind} {self.name} {self.op} {json.dumps(self.value) if self.op == '=' else self.value}"
        return f"{neg}{self.kind} {self.name}"

    # -- evaluation ------------------------------------------------------------------------

    def value_at(self, cat: Catalog, version: str) -> Any:
        """The fact in a release: True/False, or for a witness the value itself; None when the
        catalog cannot say (an argument whose values vLLM does not enumerate, a default of a
        name that does not exist there)."""
        got = self._raw(cat, version)
        if self.negated and isinstance(got, bool):
            return not got
        if self.negated and got is None and self.kind in ("default", "feature"):
            return True  # a name a release does not have has no such default or value there
        return got

    def _raw(self, cat: Catalog, version: str) -> Any:
        k = self.kind
        if k in ("arg", "flag", "env", "field"):
            e = {"arg": cat.arg, "flag": cat.flag, "env": cat.env, "field": cat.config_field}[k](self.name)
            return e is not None and e.exists(version)
        if k == "value":
            got = cat.allowed_values(tuple(self.name.split(".")), version)
            if got is None or not got[0]:
                return None
            return _norm(self.value) in {_norm(x) for x in got[0]}
        if k == "enum":
            e = cat.enum(self.name)
            if e is None:
                return None
            return e.exists(version) and _norm(self.value) in {_norm(x) for x in e.field("values", version) or []}
        if k in ("default", "defaultof"):
            e = _entry(cat, self.name)
            if e is None or not e.exists(version):
                return None
            d = e.field("default", version)
            return d if k == "defaultof" else _same(d, self.value)
        if k == "feature":
            got = cat.feature(self.name, version)
            if got is None:
                # a list fact a release does not have (no V1 oracle, no V1 runner) holds nothing
                return False if self.op == "has" and cat.feature_known(self.name) else None
            if self.op == "=":
                return _same(got, self.value)
            return any(_member(x, self.value) for x in got) if isinstance(got, list) else False
        raise ValueError(k)


def _entry(cat: Catalog, name: str):
    if "." in name:
        return cat.config_field(name)
    return cat.arg(name) or cat.env(name)


def _norm(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return float(a) == float(b)
    return a == b


def _member(item, value) -> bool:
    if isinstance(item, dict):  # engine.v1_fallbacks: {"feature": "--kv-cache-dtype", "args": [...]}
        return value in (item.get("args") or []) or item.get("feature") == value
    return _norm(item) == _norm(value)


def parse(text: str) -> Fact:
    """One `evidence:` string as a Fact (FactSyntaxError with the reason when it is not one)."""
    m = _SYNTAX.match(text.strip())
    if not m:
        raise FactSyntaxError(f"not a catalog fact: {text!r} (kinds: {', '.join(KINDS[:-1])})")
    kind, rest, neg = m["kind"], m["rest"].strip(), bool(m["neg"])
    if kind in ("arg", "flag", "env", "field"):
        if " " in rest:
            raise FactSyntaxError(f"{kind} takes one name: {text!r}")
        if kind == "field" and "." not in rest:
            raise FactSyntaxError(f"field names ARG.KEY: {text!r}")
        return Fact(kind, rest, negated=neg)
    if kind in ("value", "enum"):
        parts = rest.split(" ", 1)
        if len(parts) != 2:
            raise FactSyntaxError(f"{kind} needs a name and a value: {text!r}")
        return Fact(kind, parts[0], value=_literal(parts[1]), negated=neg)
    parts = rest.split(" ", 2)
    if len(parts) != 3 or parts[1] not in ("=", "has") or (kind == "default" and parts[1] != "="):
        raise FactSyntaxError(f"{kind} is written `{kind} NAME = JSON`" + (" or `feature NAME has VALUE`" if kind == "feature" else "") + f": {text!r}")
    value = _json(parts[2]) if parts[1] == "=" else _literal(parts[2])
    return Fact(kind, parts[0], parts[1], value, negated=neg)


def _json(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _literal(text: str):
    text = text.strip()
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text.strip("'\"")
