"""How close engine/check/memory/ comes to what real vLLM start-ups logged.

    python benchmarks/estimator_accuracy.py              # the table, one line per logged number
    python benchmarks/estimator_accuracy.py --json       # the same rows as JSON
    python benchmarks/estimator_accuracy.py --markdown   # the table docs/estimator.md embeds
    python benchmarks/estimator_accuracy.py --rows benchmarks/heldout/heldout36/rows.yaml
    python benchmarks/estimator_accuracy.py --bands      # the pool's error per band of L15's P0

The rows live in tests/data/kv_startup_logs.yaml (sources and assumptions there);
tests/test_memory.py loads this module to assert the same comparisons."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from vllm_kb.engine.kb import hardware, knowledge, models
from vllm_kb.engine.check import memory

ROWS = Path(__file__).resolve().parent.parent / "tests" / "data" / "kv_startup_logs.yaml"
# How close a checked number must come: KV tokens within 10% on every row (and 5% at the
# median), weights within 3%, the other pool figures within 10%.
TOLERANCE = {"kv_tokens": 0.10, "weights_gib": 0.03, "max_concurrency": 0.10, "kv_cache_gib": 0.10}
MEDIAN_KV_TOKENS = 0.05
# logged field → estimate field
METRICS = {
    "kv_tokens": "kv_tokens",
    "max_concurrency": "max_concurrency",
    "kv_cache_gib": "kv_cache_gib",
    "weights_gib": "weights_per_gpu_gib",
}


def load_rows(path: Path = ROWS) -> list[dict[str, Any]]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["rows"]


def model_facts(row: dict) -> dict[str, Any]:
    kb = knowledge.load()
    markers = kb.doc("models.yaml").data.get("quantized_markers", [])
    return models.model_facts(row["model"], kb.models, markers)


def gpu_facts(row: dict) -> dict[str, Any]:
    """The row's GPU: a --gpu spec from the catalog, or the facts written in the row. A total
    that vLLM printed replaces the catalog's (the estimator takes the driver reserve off)."""
    spec = row["gpu"]
    gpu = dict(spec) if isinstance(spec, dict) else dict(hardware.parse_spec(spec, knowledge.load().gpus).gpu)
    if row.get("gpu_total_gib"):
        gpu["memory_gib"] = float(row["gpu_total_gib"]) + float(gpu.get("driver_reserved_gib") or memory.DRIVER_RESERVED_GIB)
    return gpu


def release_defaults(row: dict) -> dict[str, Any]:
    """What `vllm-kb estimate` and an audit fill in where the command says nothing: the release's
    declared defaults, then those vLLM picks at start-up for this GPU and entry point (`vllm serve`,
    or `LLM()` for a row with `entry: offline`)."""
    from vllm_kb.engine.check.engine_defaults import effective_defaults
    from vllm_kb.engine.kb import catalog

    kb, cat = knowledge.load(), catalog.load()
    version = str(row["vllm"])
    lookup = cat.resolve(version).version
    out = {k: v for k, v in cat.defaults(lookup).items() if v is not None}
    offline = row.get("entry") == "offline"
    site = {"mode": "standalone_offline" if offline else "standalone_serve", "kind": "LLM()" if offline else "vllm serve",
            "serves_http": not offline}
    out.update(effective_defaults(kb, {"site": site, "gpu": gpu_facts(row), "model": model_facts(row),
                                                 "vllm": {"version": version, "pinned": True}}, lookup))
    return out


def engine_args(row: dict) -> dict[str, Any]:
    engine = {**release_defaults(row), **(row.get("engine") or {})}
    engine["tensor_parallel_size"] = int(row.get("tp") or 1)
    engine["pipeline_parallel_size"] = int(row.get("pp") or 1)
    return engine


def estimate_row(row: dict) -> dict[str, Any]:
    return memory.estimate(model_facts(row), gpu_facts(row), engine_args(row), vllm_version=str(row["vllm"]),
                           env=row.get("env"))


def comparisons(row: dict, est: dict | None = None) -> list[dict[str, Any]]:
    """One entry per logged number the estimate also gives: logged, estimated, relative error,
    and whether the row asserts it."""
    est = est if est is not None else estimate_row(row)
    out = []
    for field, logged in (row.get("logged") or {}).items():
        key = METRICS.get(field)
        if key is None or est.get(key) is None:
            continue
        estimated = est[key]
        error = (estimated - logged) / abs(logged) if logged else None
        out.append({"row": row["id"], "metric": field, "logged": logged, "estimated": estimated,
                    "error": error, "asserted": field in (row.get("asserted") or [])})
    return out


def layout_check(row: dict) -> dict[str, Any]:
    """For a `kind: layout` row: derive the block count from the logged token count and see
    whether the estimator's grouping gives the concurrency and padding vLLM logged."""
    mf = model_facts(row)
    engine = engine_args(row)
    rt = memory.runtime(str(row["vllm"]))
    layout = memory.kv_layout(mf, engine, engine["tensor_parallel_size"], mf["num_hidden_layers"], rt)
    full_groups, sliding_groups = layout.groups
    groups = full_groups + sliding_groups + layout.ssm_groups  # Mamba / linear-attention state groups
    blocks = row["logged"]["kv_tokens"] // layout.block * groups
    per_request = layout.blocks_per_request(engine["max_model_len"], memory.batched_tokens(engine, engine["max_model_len"], rt, mf))
    padding = sliding_groups * layout.group_size - layout.sliding if layout.hybrid else 0
    # the logged tokens are blocks // groups x block: the pool may hold up to groups - 1 more
    return {"concurrency": round(blocks / per_request, 2), "padding_layers": padding, "groups": groups,
            "concurrency_high": round((blocks + groups - 1) / per_request, 2)}


def table(rows: list[dict]) -> list[dict[str, Any]]:
    lines = []
    for row in rows:
        if row.get("kind") == "layout":
            got = layout_check(row)
            logged = row["logged"]["max_concurrency"]
            lines.append({"row": row["id"], "metric": "max_concurrency (layout)", "logged": logged,
                          "estimated": got["concurrency"], "error": (got["concurrency"] - logged) / logged,
                          "asserted": True})
            continue
        est = estimate_row(row)
        lines.extend(comparisons(row, est))
        for field, want in (row.get("expect") or {}).items():
            lines.append({"row": row["id"], "metric": field, "logged": want, "estimated": est.get(field),
                          "error": None, "asserted": True})
    return lines


def summary(lines: list[dict]) -> dict[str, Any]:
    """Worst and median checked errors per metric."""
    import statistics

    out: dict[str, Any] = {}
    for metric in TOLERANCE:
        errs = [abs(x["error"]) for x in lines if x["metric"] == metric and x["asserted"] and x["error"] is not None]
        if errs:
            out[metric] = {"rows": len(errs), "worst": max(errs), "median": statistics.median(errs)}
    return out


def pool_errors(rows: list[dict]) -> list[dict[str, Any]]:
    """Per row with a positive logged pool, the estimate's error on it as a share of the requested
    budget, and the share the estimator allows that error where it calls one request short
    (memory.shortfall_share: None where it does not decide on the numbers)."""
    out = []
    for row in rows:
        if row.get("kind") == "layout" or row.get("excluded"):
            continue
        est = estimate_row(row)
        logged = row.get("logged") or {}
        pool = logged.get("kv_cache_gib")
        per_token = est.get("kv_bytes_per_token_per_gpu")
        if pool is None and logged.get("kv_tokens") and per_token and not est.get("hybrid_kv_cache"):
            pool = logged["kv_tokens"] * per_token / memory.GIB
        if pool is None or pool <= 0 or not est.get("requested_per_gpu_gib"):
            continue
        # the shortfall is judged against the lighter sampler where the installation picks it (0.8-0.11)
        judged = max(est["kv_cache_gib"], est.get("kv_cache_alt_gib") or est["kv_cache_gib"])
        share = memory.shortfall_share(model_facts(row), gpu_facts(row), engine_args(row), str(row["vllm"]), row.get("env"))
        out.append({"row": row["id"], "vllm": str(row["vllm"]), "share": share,
                    "error": (est["kv_cache_gib"] - pool) / est["requested_per_gpu_gib"],
                    "judged_error": (judged - pool) / est["requested_per_gpu_gib"]})
    return out


def bands(errors: list[dict]) -> str:
    """Per allowed share: how many rows, the median error, the pessimistic (negative) worst of what
    the shortfall is judged against, and the optimistic worst."""
    import statistics

    out = []
    for share in sorted({e["share"] for e in errors}, key=lambda s: (s is None, s or 0)):
        errs = [e["error"] for e in errors if e["share"] == share]
        low = min(e["judged_error"] for e in errors if e["share"] == share)
        label = "no P0 on the numbers" if share is None else f"allowed {share * 100:.1f}%"
        out.append(f"{label:22} rows {len(errs):3}  median |error| {statistics.median(map(abs, errs)) * 100:.2f}%  "
                   f"pessimistic worst {low * 100:+.2f}%  optimistic worst {max(errs) * 100:+.2f}% of the budget")
    return "\n".join(out)


_LABEL = {"kv_tokens": "KV tokens", "max_concurrency": "concurrency", "kv_cache_gib": "KV GiB", "weights_gib": "weights GiB",
          "fits_max_model_len": "one request fits", "max_concurrency (layout)": "concurrency (layout)"}


def markdown(rows: list[dict], lines: list[dict]) -> str:
    """The accuracy table of docs/estimator.md (a test keeps the committed copy fresh)."""
    by_row = {r["id"]: r for r in rows}
    out = ["| row | model | GPU | vLLM | TP×PP | metric | logged | estimated | error | checked |",
           "|---|---|---|---|---|---|---:|---:|---:|---|"]
    seen = set()
    for x in lines:
        r = by_row[x["row"]]
        first = x["row"] not in seen
        seen.add(x["row"])
        gpu = r["gpu"] if isinstance(r["gpu"], str) else r["gpu"].get("name", "?")
        head = (f"[{r['id']}]({r['source']}) | {r['model']} | {gpu} | {r['vllm']} | {r.get('tp', 1)}×{r.get('pp', 1)}"
                if first else " | | | | ")
        err = "—" if x["error"] is None else f"{x['error'] * 100:+.1f}%"
        out.append(f"| {head} | {_LABEL.get(x['metric'], x['metric'])} | {_fmt(x['logged'])} | {_fmt(x['estimated'])} | {err} | "
                   f"{'yes' if x['asserted'] else 'no'} |")
    s = summary(lines)
    out.append("")
    for metric, v in s.items():
        out.append(f"- {_LABEL[metric]}: {v['rows']} checked values, worst {v['worst'] * 100:.1f}%, median "
                   f"{v['median'] * 100:.1f}% (limit {TOLERANCE[metric] * 100:.0f}% each)")
    excluded = [r for r in rows if r.get("excluded")]
    if excluded:
        out.append("")
        out.append("Rows whose pool is not checked, and why:")
        out.append("")
        for r in excluded:
            out.append(f"- [{r['id']}]({r['source']}): {' '.join(str(r['excluded']).split())}")
    return "\n".join(out) + "\n"


def _fmt(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, float):
        return f"{v:,.2f}"
    return f"{v:,}" if isinstance(v, int) else str(v)


def render(lines: list[dict]) -> str:
    head = f"{'row':34} {'metric':26} {'logged':>12} {'estimated':>12} {'error':>8}  checked"
    out = [head, "-" * len(head)]
    for x in lines:
        err = "" if x["error"] is None else f"{x['error'] * 100:+.1f}%"
        out.append(f"{x['row']:34} {x['metric']:26} {_fmt(x['logged']):>12} {_fmt(x['estimated']):>12} {err:>8}  "
                   f"{'yes' if x['asserted'] else 'no'}")
    for metric, v in summary(lines).items():
        out.append(f"{metric}: worst checked error {v['worst'] * 100:.1f}%, median {v['median'] * 100:.1f}% "
                   f"(tolerance {TOLERANCE[metric] * 100:.0f}%)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument("--markdown", action="store_true", help="print the table docs/estimator.md embeds")
    p.add_argument("--bands", action="store_true", help="the pool's error per band L15 allows it (share of the budget)")
    p.add_argument("--rows", type=Path, default=ROWS,
                   help="score another table of the same format (a held-out set of start-up logs)")
    ns = p.parse_args(argv)
    rows = load_rows(ns.rows)
    if ns.rows != ROWS:  # a held-out table names no asserted fields: every logged number is compared
        for row in rows:
            row.setdefault("asserted", list(row.get("logged") or {}))
    if ns.bands:
        print(bands(pool_errors(rows)))
        return 0
    lines = table(rows)
    if ns.markdown:
        print(markdown(rows, lines), end="")
        return 0
    print(json.dumps(lines, indent=2) if ns.json else render(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
