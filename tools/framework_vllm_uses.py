#!/usr/bin/env python3
"""Build knowledge/frameworks/vllm_uses.yaml: per framework release, what its vLLM adapter needs
from vLLM beyond the imports it runs on load (vllm_imports.yaml) — the `from vllm… import X` /
`import vllm.x` statements inside its functions — and the vLLM releases that have each, read with
`ast` from the released wheels and vLLM's sources (never imported).

Which functions: every function and method (nested ones too) of the modules loading an adapter's
entry module runs (framework_source.loaded: the entry, the package modules it imports at module
level, the `__init__` of each package on the way).

Which imports count: those nothing guards inside the function — not under `try` (the framework
falls back) and not under an `if`, except an `if` that is a test of the vLLM version alone
(`if VLLM_VERSION >= version.parse("0.6.3")`, evaluated per release as the framework's code does,
engine/check/framework_kwargs.gate_holds) or an `is_vllm_available()` test. An `if` that asks
anything else (hasattr, an argument, a platform) leaves the import out.

When it fails (`when`): a function-level import runs when the function is called, so the launch
starts and the first request, rollout or weight sync fails: `after_start` (a P1). It is `launch`
(a P0, like a module-level import) only where the static reading makes that certain: the import
sits in the body of the very function that builds vLLM's engine (a call of `LLM(…)`, `LLMEngine…` /
`AsyncLLMEngine…` / `AsyncLLM….from_engine_args(…)` or `…(engine_args…)` in the same function,
after the import), so the engine is never built without it.

An import resolves in a vLLM release as tools/framework_vllm_imports.py decides. Only imports that
fail in at least one release (the gate holding there) are kept. Consecutive releases whose adapter
needs the same failing names from the same files share one row.

Attributes (tools/framework_vllm_attrs.py): in the same functions, the attributes read on the vLLM
engine objects the adapter holds (`self.llm.collective_rpc(…)`, `engine.engine`), against the engine
classes of each release (`v0`: where V0's engine has it while both engines exist — a miss only under V1
holds only where the site runs V1). Always `after_start`: the engine has been built when it is read.

Calls (tools/framework_vllm_calls.py): in the same statements, the calls of vLLM's functions whose
keywords a release's signature refuses (`call`, `refused`: each problem with its releases).

Usage: python tools/framework_vllm_uses.py --wheels DIR [DIR …] [--vllm-src /work/sdists/src]
       [--only PACKAGE …] [-o knowledge/frameworks/vllm_uses.yaml]
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_engine_kwargs import DISTS, final_wheels  # noqa: E402
import framework_vllm_attrs as attrs  # noqa: E402
import framework_vllm_calls as sig  # noqa: E402
from framework_vllm_imports import _runs, read_wheel, release_rows, resolves  # noqa: E402
from vllm_catalog import vkey  # noqa: E402

from vllm_kb.engine.check.framework_kwargs import gate_holds  # noqa: E402
from vllm_kb.engine.scan.framework_source import ENTRIES, loaded  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# The functions each run of an adapter certainly calls, read from the framework's code: a function-level
# import counts only in them and in what they call unconditionally (not under an `if`, an `except`, an
# `and`/`or`), since most functions of an adapter serve a feature a run may not use (verl's fp8/nvfp4
# weight patches, ms-swift's memory-leak patch, NPU patches). (entry, file, function, when): `launch`
# for what runs before the engine serves (a miss refuses the launch), `after_start` for what the first
# request, rollout or weight sync runs.
SEEDS = {
    "trl": [
        # `trl vllm-serve` runs main() before it starts any engine: a miss there refuses the launch
        ("trl vllm-serve", "trl/scripts/vllm_serve.py", "main", "launch"),
        # the trainer's client posts /generate/ for every batch (VLLMClient.generate)
        ("trl vllm-serve", "trl/scripts/vllm_serve.py", "main.generate", "after_start"),
        # and sets up weight sync once the server is up (VLLMClient.init_communicator)
        ("trl vllm-serve", "trl/scripts/vllm_serve.py", "WeightSyncWorkerExtension.init_communicator", "after_start"),
        # the trainers' generation step with use_vllm (1.0.0 on)
        ("trainer", "trl/generation/vllm_generation.py", "VLLMGeneration.generate", "after_start")],
    "openrlhf": [
        # the engine actor: built at launch, then every rollout's prompts and every weight sync
        ("rollout", "openrlhf/trainer/ray/vllm_engine.py", "LLMRayActor.__init__", "launch"),
        ("rollout", "openrlhf/trainer/ray/vllm_engine.py", "LLMRayActor.add_requests", "after_start"),
        ("rollout", "openrlhf/trainer/ray/vllm_engine.py", "LLMRayActor.init_process_group", "after_start"),
        ("rollout", "openrlhf/trainer/ray/vllm_engine.py", "LLMRayActor.update_weight", "after_start")],
    "verl": [
        # rollout.mode async: each replica launches its server, then serves every rollout's requests
        ("async", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", "vLLMHttpServer.launch_server", "launch"),
        # launch_server's head node (node_rank 0, every single-node replica) builds the engine and the app in run_server
        *[("async", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", f"{c}.run_server", "launch")
          for c in ("vLLMHttpServer", "vLLMHttpServerBase")],
        ("async", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", "vLLMHttpServer.generate", "after_start")],
    "llamafactory": [
        ("rollout", "llamafactory/chat/vllm_engine.py", "VllmEngine.__init__", "launch"),
        ("rollout", "llamafactory/chat/vllm_engine.py", "VllmEngine._generate", "after_start")],
    "ms-swift": [
        ("rollout", "swift/llm/infer/infer_engine/vllm_engine.py", "VllmEngine.__init__", "launch"),
        ("rollout", "swift/llm/infer/infer_engine/vllm_engine.py", "VllmEngine._add_request", "after_start")],
    # Xinference's engine for a language model: loaded at `xinference launch`, then every generation request
    "xinference": [
        ("llm", "xinference/model/llm/vllm/core.py", "VLLMModel.load", "launch"),
        ("llm", "xinference/model/llm/vllm/core.py", "VLLMModel.async_generate", "after_start")],
}
# packages whose vLLM module no framework copy is searched for (engine/scan/framework_source.ENTRIES)
HOST_ENTRIES = {"xinference": [("xinference/model/llm/vllm/core.py", "llm")]} | {f: e for f, (_, e) in sig.WRAPPERS.items()}
PACKAGES = DISTS | {f: d for f, (d, _) in sig.WRAPPERS.items()}


# the walk of the adapter (framework_reach), used here and by framework_vllm_calls
from framework_reach import BUILDERS, _builds_engine, _calls, _Defs, _gated, _imported, _own_nodes, _parent_def, _version_test, functions, reached  # noqa: E402,F401


def function_imports(trees, seeds: dict[str, dict[str, str]]):
    """(file, line, function, module, name, gates, when) of each vLLM import inside a function each run calls."""
    for (path, qual), (seen, fn) in sorted(reached(trees, seeds).items()):
        built = _builds_engine(fn)
        for s, gates in _gated(fn.body):
            when = "launch" if any(line > s.lineno for line in built) else seen
            if isinstance(s, ast.ImportFrom) and not s.level and (s.module or "").split(".")[0] == "vllm":
                for a in s.names:
                    yield path, s.lineno, qual, s.module, a.name, gates, when
            elif isinstance(s, ast.Import):
                for a in s.names:
                    if a.name.startswith("vllm."):
                        yield path, s.lineno, qual, a.name, None, gates, when


def _ok(src: str, version: str, mod: str, name: str | None, gates) -> bool:
    """Whether the import runs and resolves in this release, or does not run there at all."""
    if not all(gate_holds(t, version) is want for t, want in gates):
        return True
    return resolves(src, mod, name)


def attribute_uses(trees, seeds: dict[str, dict[str, str]]):
    """(file, line, function, engine, hops, gates) of each attribute read on a vLLM engine object in
    the unguarded statements of the functions each run calls (tools/framework_vllm_attrs.py)."""
    for (path, qual), (_, fn) in sorted(reached(trees, seeds).items()):
        tree = trees[path]
        names = attrs.imported_engines(tree)
        if not names:
            continue
        cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == qual.split(".")[0]), None)
        bound = attrs.self_bindings(cls, names) if cls is not None else {}
        for s, gates in _gated(fn.body):
            for line, eng, hops in attrs.attr_uses(fn, [s], bound, names):
                yield path, line, qual, eng, hops, gates


def _attr_ok(src: str, version: str, eng: str, hops, gates) -> tuple[bool, bool]:
    """(under V1 or the only engine, under V0 while both exist): there, or not run, or not judged."""
    if not all(gate_holds(t, version) is want for t, want in gates):
        return True, True
    v1, v0 = attrs.present(src, eng, hops)
    return v1 is not False, (v0 if v0 is not None else v1) is not False


def uses(fid: str, trees, entries, vsrc: Path, versions: list[str]) -> list[dict]:
    got: dict[tuple, dict] = {}
    for entry_file, entry in entries:
        if entry_file not in trees:
            continue
        files = loaded(trees, entry_file)
        seeds: dict[str, dict[str, str]] = {}
        for who, path, qual, when in SEEDS.get(fid, []) + sig.SEEDS.get(fid, []):
            if who == entry and path in files:
                seeds.setdefault(path, {})[qual] = when
        for path, line, qual, mod, name, gates, when in function_imports(trees, seeds):
            ok = [_ok(str(vsrc / v), v, mod, name, gates) for v in versions]
            if all(ok) or not any(resolves(str(vsrc / v), mod, name) for v in versions):
                continue  # resolves wherever it runs, or nowhere (not a .py module: not judged)
            spelled = f"{mod}.{name}" if name else mod
            row = {"entry": entry, "import": spelled, "file": path, "line": line, "function": qual,
                   "when": when, "vllm": _runs(ok, versions)}
            got.setdefault((entry, spelled, path, qual), row)
        for path, line, qual, eng, hops, gates in attribute_uses(trees, seeds):
            both = [_attr_ok(str(vsrc / v), v, eng, hops, gates) for v in versions]
            ok, ok0 = [b[0] for b in both], [b[1] for b in both]
            # there wherever it runs, or in no release (a name the reading cannot see: not judged)
            if all(ok) and all(ok0) or not any(ok[i] and attrs.present(str(vsrc / v), eng, hops)[0] for i, v in enumerate(versions)):
                continue
            spelled = ".".join((eng,) + hops)
            row = {"entry": entry, "attribute": spelled, "file": path, "line": line, "function": qual,
                   "when": "after_start", "vllm": _runs(ok, versions)}
            if ok0 != ok:
                row["v0"] = _runs(ok0, versions)
            got.setdefault((entry, spelled, path, qual), row)
        for row in sig.call_uses(trees, seeds, vsrc, versions):
            got.setdefault(("call", entry, row["call"], row["file"], row["function"]), {"entry": entry, **row})
    return sorted(got.values(), key=lambda r: (r["entry"], r["file"], r["line"], _what(r)))


def _what(r: dict) -> str:
    return r.get("import") or r.get("attribute") or r["call"]


def _sig(rows: list[dict]):
    return [(r["entry"], _what(r), r["file"], r["function"], r["when"], r["vllm"], r.get("v0"), r.get("refused")) for r in rows]


def build(wheels: list[Path], vsrc: Path, only=None) -> dict:
    # the releases vllm_imports.yaml reads, so that the check reads both tables against one list
    done = yaml.safe_load((ROOT / "knowledge" / "frameworks" / "vllm_imports.yaml").read_text("utf-8"))
    versions = [str(v) for v in done["vllm_releases"] if (vsrc / str(v) / "vllm").is_dir()]
    rows = []
    for fid, dist in PACKAGES.items():
        entries = ENTRIES.get(fid) or HOST_ENTRIES.get(fid)
        if only and fid not in only or not entries:
            continue
        found = {v: w for d in wheels for v, w in final_wheels(d, dist).items()}
        rows += release_rows(fid, dist, [(version, uses(fid, read_wheel(found[version]), entries, vsrc, versions))
                                         for version in sorted(found, key=vkey)], "uses", _sig)
    return {"version": 1, "vllm_releases": versions, "rows": rows}


HEADER = """\
# What each framework release's vLLM adapter needs from vLLM after it loads: the `from vllm… import X`
# statements inside its functions (no try, no test but one of the vLLM version around them), with the
# vLLM releases in which each runs and resolves (`vllm`: one specifier per run of releases) and when a
# miss fails (`when`: `launch`, in the function that builds the engine; `after_start`, at the first
# request, rollout or weight sync); and the attributes they read on vLLM's engine objects (`attribute`,
# `v0`: where V0's engine has it while both engines exist), and the calls of vLLM functions a release's
# signature refuses (`call`, `refused`: "keyword x" / "missing x" with the releases). Read from the released wheels and vLLM's sdists by
# tools/framework_vllm_uses.py — do not edit by hand, re-run the tool. `source` names the row's first
# release; `file`/`line` are in it.
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", type=Path, nargs="+", required=True, help="folders of wheels")
    ap.add_argument("--vllm-src", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("--only", nargs="*", help="refresh only these packages' rows, keep the others in the output file")
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "knowledge" / "frameworks" / "vllm_uses.yaml")
    args = ap.parse_args(argv)
    data = build(args.wheels, args.vllm_src, args.only)
    if args.only and args.out.exists():
        kept = [r for r in (yaml.safe_load(args.out.read_text("utf-8")) or {}).get("rows", []) if r["framework"] not in args.only]
        data["rows"] = sorted(kept + data["rows"], key=lambda r: list(PACKAGES).index(r["framework"]))
    args.out.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None), encoding="utf-8")
    print(f"{len(data['rows'])} rows → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
