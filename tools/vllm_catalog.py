#!/usr/bin/env python3
"""Build knowledge/vllm/catalog.json: which EngineArgs fields, CLI flags, env vars and enum values
(quantization methods, attention backends, KV-cache dtypes, speculative methods, KV connectors,
tool-call and reasoning parsers, compilation levels/modes) exist in which vLLM release, their
types, defaults and allowed values; the keys of JSON config arguments; the defaults vLLM sets at
start-up by usage context and GPU, and what performance modes do to them; engine and feature
facts (V0/V1, what sends V1 back to V0, V1 speculative methods, spawn). Merged into compact
spans; the format is described in docs/catalog-crosscheck.md.

Inputs (never committed, never downloaded by tests):
  --source DIR      unpacked releases, DIR/<version>/vllm/*.py, read with ast (tools/vllm_catalog_extract.py)
  --reference DIR   per-version extractions (args-<version>.json, the shared reference format);
                    with --source it only fills the versions that are not unpacked

  --releases FILE   PyPI's JSON (or simple-API JSON) for vllm: every release, for resolving pins

Getting the sources (sdists, or the wheel where a release has none), e.g. for 0.33.0:
  pip download vllm==0.33.0 --no-deps --no-binary :all: -d /tmp/wheels/sdist   # then unpack vllm/**/*.py

Usage:
  python tools/vllm_catalog.py --source /tmp/wheels/src --reference ../shared/reference/vllm-args \
      --releases vllm.json -o knowledge/vllm/catalog.json [--versions 0.4.0,0.6.3]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

# tools/ is not a package: make the sibling package importable however this script was reached.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from catalog_extract.types import arg_type  # noqa: E402

FORMAT = 2
SECTIONS = ("engine_args", "frontend_args", "cli_flags", "env_vars", "enums", "config_fields",
            "context_defaults", "performance_modes", "features")
VERSION_DIR = re.compile(r"\d+(\.\d+)+(\.post\d+)?")  # 0.10.1.1 is a release too


def vkey(v: str) -> tuple:
    return tuple(int(x) for x in re.findall(r"\d+", v))


def clean_default(value, typ: str):
    if isinstance(value, str):
        if re.fullmatch(r"[A-Za-z_]+Config\(\)|[A-Za-z]+Options\(\)", value) or value == "dict()":
            return {}
        m = re.fullmatch(r"OptimizationLevel\.O(\d)", value)
        if m:
            return int(m.group(1))
        m = re.fullmatch(r"[A-Z][A-Za-z]+\.([A-Z0-9_]+)", value)
        if m and typ == "str":
            return m.group(1).lower()
        if value.startswith("<"):
            return None
    return value


def snapshot_from_reference(doc: dict) -> dict:
    engine = {}
    for name, e in doc["engine_args"].items():
        choices = e.get("choices") or {}
        lit = choices.get("literal") or [m for en in choices.get("enums", []) for m in en.get("members", [])]
        typ = arg_type(e.get("annotation"), e.get("default"), lit)
        if e.get("enum") and name == "optimization_level":
            typ = "int"
        rec = {"type": typ, "default": clean_default(e.get("default"), typ)}
        if lit:
            rec["choices"] = lit
        engine[name] = rec
    flags = {}
    frontend = {}
    for e in doc["cli_flags"]:
        dest = e["dest"]
        action = (e.get("action") or "").strip("\"'")
        ea = doc["engine_args"].get(dest)
        typ = arg_type(ea.get("annotation") if ea else e.get("type"), e.get("default"))
        if "store_true" in action:
            kind = "switch"
        elif "BooleanOptionalAction" in action or (typ == "bool" and e.get("from_config_field") and not action):
            kind = "negatable"
        elif typ == "bool" and not action and ea is None:
            kind = "switch"
        elif e.get("nargs") in ("+", "*") or typ == "list":
            kind = "values"
        else:
            kind = "value"
        for fl in e["flags"]:
            flags[fl] = {"dest": dest, "kind": kind}
        if dest not in engine and dest not in frontend:
            frontend[dest] = {"type": "bool" if kind in ("switch", "negatable") else typ,
                              "default": clean_default(e.get("default"), typ)}
    env = {}
    for name, e in doc["env_vars"].items():
        default = e.get("declared_default", e.get("raw_default"))
        env[name] = {"type": arg_type(e.get("type"), default), "default": default}
    return {"engine_args": engine, "frontend_args": frontend, "cli_flags": flags, "env_vars": env}


def merge(snapshots: dict[str, dict], sections: tuple[str, ...] = SECTIONS) -> dict:
    versions = sorted(snapshots, key=vkey)
    out = {"format": FORMAT, "versions": versions}
    for section in sections:
        # A release whose input has no such section at all (the reference format has no enums)
        # says nothing about it: spans then bridge that release rather than break around it.
        stated = [v for v in versions if section in snapshots[v]]
        if not stated:
            continue
        names = sorted({n for v in stated for n in snapshots[v][section]})
        merged = {}
        for n in names:
            spans, fields = [], {}
            run_start = prev = None
            keys = sorted({k for v in stated if n in snapshots[v][section] for k in snapshots[v][section][n]})
            for v in stated:
                rec = snapshots[v][section].get(n)
                if rec is None:
                    if run_start is not None:
                        spans.append([run_start, prev])
                        run_start = None
                    continue
                if run_start is None:
                    run_start = v
                prev = v
                for k in keys:
                    val = rec.get(k)  # a field a release does not state is None there
                    hist = fields.setdefault(k, [])
                    if not hist or hist[-1][1] != val:
                        hist.append([v, val])
            if run_start is not None:
                spans.append([run_start, prev])
            entry = {"in": spans}
            for k, hist in fields.items():
                # A field constant over the whole life of the name is stored flat.
                if len(hist) > 1:
                    entry[k] = {"changes": hist}
                elif hist[0][1] is not None or k == "default":
                    entry[k] = hist[0][1]
            merged[n] = entry
        out[section] = merged
    return out


def pypi_releases(doc: dict) -> set[str]:
    """Final releases with files, from PyPI's JSON API (`releases`) or its simple API (`files`)."""
    final = re.compile(r"\d+\.\d+\.\d+(\.\d+)?(\.post\d+)?")
    if "releases" in doc:
        return {v for v, files in doc["releases"].items() if files and final.fullmatch(v)}
    out = set()
    for f in doc.get("files", []):
        m = re.match(r"vllm-([^-]+?)(?:\.tar\.gz|-)", f.get("filename", ""))
        if m and final.fullmatch(m.group(1)) and not f.get("yanked"):
            out.add(m.group(1))
    return out


def source_versions(root: Path) -> list[str]:
    return sorted((d.name for d in root.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / "vllm").is_dir()),
                  key=vkey)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, help="folder of unpacked releases, <version>/vllm/")
    ap.add_argument("--reference", type=Path, help="folder of args-<version>.json files")
    ap.add_argument("--versions", help="comma-separated versions to include (default: all found)")
    ap.add_argument("--releases", type=Path, help="PyPI JSON of the vllm project (pypi.org/pypi/vllm/json): every final "
                    "release, so pins to versions not unpacked still resolve")
    ap.add_argument("-o", "--output", type=Path, required=True)
    ns = ap.parse_args(argv)
    wanted = set(ns.versions.split(",")) if ns.versions else None
    snapshots, sources, releases = {}, {}, set()
    if ns.source:
        from vllm_catalog_extract import snapshot_from_source

        for v in source_versions(ns.source):
            releases.add(v)
            if wanted is None or v in wanted:
                snapshots[v] = snapshot_from_source(ns.source / v, v)
                sources[v] = f"vllm {v} sources (AST)"
    if ns.reference:
        for f in sorted(ns.reference.glob("args-*.json"), key=lambda p: vkey(p.stem)):
            doc = json.loads(f.read_text())
            v = doc["version"]
            releases.add(v)  # each reference file was extracted from a published release too
            if v not in snapshots and (wanted is None or v in wanted):
                snapshots[v] = snapshot_from_reference(doc)
                sources[v] = f"reference extraction {f.name}"
    if ns.releases:
        releases |= pypi_releases(json.loads(ns.releases.read_text()))
    if not snapshots:
        ap.error("no input versions")
    cat = merge(snapshots)
    cat["sources"] = sources
    if ns.source or ns.releases:
        cat["releases"] = sorted(releases, key=vkey)
    ns.output.parent.mkdir(parents=True, exist_ok=True)
    ns.output.write_text(json.dumps(cat, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
    print(f"{ns.output}: {len(cat['versions'])} versions, {len(cat['engine_args'])} engine args, "
          f"{len(cat['cli_flags'])} flags, {len(cat['env_vars'])} env vars", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
