"""Reference tables (knowledge/tables.yaml): the seed's performance figures as data, picked per
site by CEL, each row beside an estimate vllm-kb computes for a representative model."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import cel, resources, yamlio
from vllm_kb.engine.check import memory
from vllm_kb.engine.kb.errors import KnowledgeError, Problem
from vllm_kb.engine.kb.knowledge import Knowledge, Text

FILE = "knowledge/tables.yaml"


@dataclass(frozen=True)
class Table:
    id: str
    title: Text
    kind: str
    note: Text
    source: dict
    when: str
    columns: list[tuple[str, Text]]
    rows: list[dict]
    gpu: str | None = None
    seed: str = ""


def _text(cell: Any) -> Text:
    return Text.of(cell) if isinstance(cell, dict) else Text(str(cell), str(cell))


def parse(data: dict) -> list[Table]:
    out, seen = [], set()
    for raw in data["tables"]:
        if raw["id"] in seen:
            raise KnowledgeError([Problem(FILE, raw["id"], "", "duplicate table id")])
        seen.add(raw["id"])
        out.append(Table(raw["id"], Text.of(raw["title"]), raw["kind"], Text.of(raw["note"]), raw["source"], raw["when"],
                         [(c["key"], Text.of(c["title"])) for c in raw["columns"]], list(raw["rows"]), raw.get("gpu"),
                         raw.get("seed", "")))
    return out


@lru_cache(maxsize=1)
def load() -> list[Table]:
    try:
        return parse(yamlio.load_cached(resources.read_text("knowledge", "tables.yaml")).data)
    except yamlio.YamlError as e:
        raise KnowledgeError([Problem(f"{FILE}:{e.line}" if e.line else FILE, "", "", str(e))]) from None


@lru_cache(maxsize=64)
def estimate(model: str, gpu: str, args_items: tuple, version: str) -> dict[str, Any]:
    """The memory estimate of a row's representative model on the table's GPU, in one release."""
    from vllm_kb.engine.kb.machine import resolve as resolve_hardware
    from vllm_kb.engine.check.engine_defaults import effective_defaults
    from vllm_kb.engine.kb.knowledge import load as load_kb
    from vllm_kb.engine.kb.models import model_facts

    kb, cat = load_kb(), catalog_mod.load()
    mf = model_facts(model, kb.models, kb.doc("models.yaml").data.get("quantized_markers", []),
                     identity=kb.doc("models.yaml").data)
    g = resolve_hardware(kb.gpus, gpu).facts().get("gpu") or {}
    facts = {"site": {"mode": "standalone_serve", "kind": "vllm serve", "serves_http": True}, "gpu": g, "model": mf}
    engine = {k: v for k, v in cat.defaults(version).items() if v is not None}
    engine.update(effective_defaults(kb, facts, version))
    engine.update(dict(args_items))
    est = memory.estimate(mf, g, engine, vllm_version=version)
    return {k: est.get(k) for k in ("fits", "min_tp", "kv_tokens", "max_concurrency", "max_model_len", "weights_per_gpu_gib")}


def estimate_text(kb: Knowledge, est: dict, lang: str) -> str:
    from vllm_kb.engine.kb.messages import num

    if not est or est.get("fits") is None:
        return "—"
    if not est["fits"]:
        return kb.t("scenario.table_no_fit", lang, min_tp=est.get("min_tp") or "?")
    return kb.t("scenario.table_estimate", lang, tokens=num(est.get("kv_tokens")), conc=num(est.get("max_concurrency")),
                mml=num(est.get("max_model_len")))


def for_facts(facts: dict, kb: Knowledge, lang: str, version: str, all_rows: bool = False) -> list[dict]:
    """The tables that apply to these facts, with the rows that apply (every row with all_rows)."""
    act = cel.Activation(facts)
    out = []
    for t in load():
        if not all_rows and cel.compile(t.when).evaluate(act).value is not True:
            continue
        rows = []
        for r in t.rows:
            if not all_rows and cel.compile(r["when"]).evaluate(act).value is not True:
                continue
            row = {"id": r["id"], "cells": [_text(r["cells"].get(k, "—"))(lang) for k, _ in t.columns],
                   "note": Text.of(r["note"])(lang) if r.get("note") else None,
                   "source": r.get("source") or t.source, "estimate": None, "site_value": None}
            if r.get("estimate") and t.gpu:
                e = r["estimate"]
                row["estimate"] = estimate_text(kb, estimate(e["model"], t.gpu, tuple(sorted((e.get("args") or {}).items())), version), lang)
                row["estimate_model"] = e["model"]
            gmu = facts.get("engine", {}).get("gpu_memory_utilization")
            if t.id == "rlhf-memory-split" and gmu is not None and _is_number(gmu):  # a site may write anything there
                rng = r.get("range")
                if rng:
                    lo, hi = rng
                    key = "scenario.table_in_range" if lo <= float(gmu) <= hi else "scenario.table_out_of_range"
                else:
                    lo = hi = None
                    key = "scenario.table_site_value"
                row["site_value"] = kb.t(key, lang, value=gmu, lo=lo, hi=hi)
            rows.append(row)
        if not rows:
            continue
        cols = [c(lang) for _, c in t.columns]
        if any(r["estimate"] for r in rows):
            cols.append(kb.t("scenario.table_estimate_column", lang, gpu=t.gpu, version=version))
        out.append({"id": t.id, "title": t.title(lang), "kind": t.kind, "note": t.note(lang), "source": t.source,
                    "columns": cols, "rows": rows})
    return out


def _is_number(v) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def for_site(sr, kb: Knowledge, lang: str) -> list[dict]:
    facts = sr.facts
    if sr.site.engine_elsewhere:  # a trainer client: the engine's memory share is the server's
        facts = dict(facts, engine={})
    return for_facts(facts, kb, lang, sr.lookup_version)


def lint(v) -> int:
    """Problems of knowledge/tables.yaml for a validate.Validator; returns the number of tables."""
    from vllm_kb.engine.kb.knowledge import load as load_kb
    from vllm_kb.engine.kb.models import model_facts

    doc = v.load(("tables.yaml",))
    if doc is None:
        return 0
    data = doc.data or {}

    def id_for(path):
        if len(path) >= 2 and path[0] == "tables" and isinstance(path[1], int):
            items = data.get("tables") or []
            tid = items[path[1]].get("id") if path[1] < len(items) and isinstance(items[path[1]], dict) else None
            return tid or f"tables[{path[1]}]", path[2:]
        return "", path

    if not v.schema(FILE, "tables", data, id_for):
        return 0
    try:
        tables = parse(data)
    except KnowledgeError as err:
        v.problems += err.problems
        return 0
    kb = load_kb()
    for t in tables:
        v.predicate(FILE, t.id, "when", t.when)
        keys = {k for k, _ in t.columns}
        if t.gpu:
            from vllm_kb.engine.kb.hardware import find_gpu

            if find_gpu(t.gpu, kb.gpus) is None:
                v.add(FILE, t.id, "gpu", f"unknown GPU {t.gpu!r} (knowledge/gpus.yaml)")
        for i, r in enumerate(t.rows):
            v.predicate(FILE, t.id, f"rows[{i}].when", r["when"])
            for k in set(r["cells"]) - keys:
                v.add(FILE, t.id, f"rows[{i}].cells.{k}", f"no column {k!r} (columns: {', '.join(sorted(keys))})")
            e = r.get("estimate")
            if e:
                if not t.gpu:
                    v.add(FILE, t.id, f"rows[{i}].estimate", "an estimate needs the table's `gpu`")
                if not model_facts(e["model"], kb.models, []).get("params_b"):
                    v.add(FILE, t.id, f"rows[{i}].estimate.model", f"{e['model']!r} has no known size (knowledge/models.yaml)")
                for name in (e.get("args") or {}):
                    if v.cat.arg(name) is None:
                        v.add(FILE, t.id, f"rows[{i}].estimate.args.{name}", "no such vLLM argument in any catalog release")
    return len(tables)
