#!/usr/bin/env python3
"""Build knowledge/frameworks/vllm_imports.yaml: per framework release, the `from vllm… import X`
statements its vLLM adapter runs when it is loaded, and the vLLM releases in which each resolves —
read with `ast` from the released wheels and from vLLM's own sources (never imported).

What counts as run on load:
  - the adapter's entry modules (ENTRIES: the rollout / inference-engine / server module of each
    framework) and every module of the same package they import at module level, with the
    `__init__` of each package on the way (Python runs them first);
  - of those modules, the imports at module level that nothing guards: not under `try` (the
    framework falls back; a try whose every handler raises is no guard), not under `if TYPE_CHECKING`, not under any other `if` (a version or
    platform gate decides it) — except `if is_vllm_available()`-style tests, which hold wherever
    vLLM is installed.

An import resolves in a vLLM release when its module is a file or package of that release and the
name is bound at the module's top level (def, class, assignment, import; both branches of a
top-level `if`/`try`, never a `TYPE_CHECKING` body), is a submodule, or is spelled as a string in
a module with a lazy `__getattr__`. A module that is no .py in any release (compiled extensions)
is not judged. Only imports that fail in at least one release are kept.

Consecutive releases whose adapter makes the same failing imports share one row.

Plugins (PLUGINS: vllm-omni) are read the same way from their package's `__init__`, which vLLM
imports when it loads them; the serving and evaluation wrappers (framework_wrappers.WRAPPERS: Ray
Serve LLM, lm-eval, lighteval) from their vLLM backend's module.

Usage: python tools/framework_vllm_imports.py --wheels DIR [DIR …] [--vllm-src /work/sdists/src]
       [--only PACKAGE …] [-o knowledge/frameworks/vllm_imports.yaml]
       python tools/framework_vllm_imports.py --reread   (the committed rows over the releases the sources
       now hold, no wheels: see reread)
(DIR holds <dist>-<version>-*.whl as `pip download <dist>==<version> --no-deps` leaves them)
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from functools import lru_cache
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_engine_kwargs import DISTS, final_wheels  # noqa: E402
from framework_wrappers import WRAPPERS  # noqa: E402
from vllm_catalog import vkey  # noqa: E402

# the entry modules and what loading them runs are read as the audit reads a copy in a project's tree
from vllm_kb.engine.scan.framework_source import ENTRIES, loaded, vllm_imports  # noqa: E402,F401

ROOT = Path(__file__).resolve().parents[1]
# vLLM plugins whose own package imports vLLM when vLLM loads them (entry point vllm.general_plugins,
# or the plugin's CLI): a name missing there stops the plugin loading, and its options with it
# vllm-omni: `vllm serve --omni` imports the plugin's CLI (vllm/entrypoints/cli/main.py from 0.20.0 hands the
# whole command to vllm_omni.entrypoints.cli.main), which reaches its OpenAI server module — vllm-omni 0.24.0's
# imports vllm.entrypoints.serve.render.serving, gone in vLLM 0.25.0 (vllm-project/vllm-omni#4840)
PLUGINS = {"vllm-omni": ("vllm_omni", [("vllm_omni/__init__.py", "plugin"),
                                       ("vllm_omni/entrypoints/cli/main.py", "omni cli")]),
           # LMCache: vLLM's LMCacheConnectorV1 imports its adapter when the kv-transfer config names the connector
           "lmcache": ("lmcache", [("lmcache/integration/vllm/vllm_v1_adapter.py", "kv connector")])}


class _Lazy(dict):
    """path → ast, parsed on first use (a wheel holds far more modules than its vLLM path loads)."""

    def __init__(self, texts: dict[str, str]):
        super().__init__()
        self.texts = texts

    def __contains__(self, path) -> bool:
        return path in self.texts

    def __getitem__(self, path):
        if not dict.__contains__(self, path):
            try:
                dict.__setitem__(self, path, ast.parse(self.texts[path]))
            except SyntaxError:
                dict.__setitem__(self, path, ast.Module(body=[], type_ignores=[]))
        return dict.__getitem__(self, path)


def read_wheel(path: Path) -> _Lazy:
    texts = {}
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.endswith(".py") and ".dist-info" not in name:
                # binary wheels (OpenRLHF) keep the package under <dist>.data/purelib/
                texts[re.sub(r"^[^/]+\.data/(?:pure|plat)lib/", "", name)] = z.read(name).decode("utf-8", "replace")
    return _Lazy(texts)


# ---- vLLM's side -------------------------------------------------------------------------------

def _bound(body, out: set[str]) -> bool:
    """Names a module binds at top level; True when it has `from … import *` (then unknown)."""
    star = False
    for s in body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(s.name)
        elif isinstance(s, ast.Assign):
            out.update(n.id for t in s.targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(s, (ast.AnnAssign, ast.AugAssign)) and isinstance(s.target, ast.Name):
            out.add(s.target.id)
        elif isinstance(s, (ast.Import, ast.ImportFrom)):
            for a in s.names:
                star |= a.name == "*"
                out.add((a.asname or a.name).split(".")[0])
        elif isinstance(s, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(s.test):
                star |= _bound(s.body, out)
            star |= _bound(s.orelse, out)
        elif isinstance(s, ast.Try):
            for b in (s.body, s.orelse, s.finalbody, *[h.body for h in s.handlers]):
                star |= _bound(b, out)
        elif isinstance(s, (ast.With,)):
            star |= _bound(s.body, out)
    return star


@lru_cache(maxsize=None)
def _vllm_module(src: str, mod: str):
    """(kind, names, text) of a vLLM module in one release's source tree, or None when absent."""
    base = Path(src) / mod.replace(".", "/")
    for f in (base.with_suffix(".py"), base / "__init__.py"):
        if f.is_file():
            text = f.read_text("utf-8", "replace")
            names: set[str] = set()
            try:
                star = _bound(ast.parse(text).body, names)
            except SyntaxError:
                return ("unknown", names, text)
            return ("star" if star else "lazy" if "__getattr__" in names else "plain", names, text)
    if base.is_dir():  # a namespace package (no __init__.py)
        return ("plain", set(), "")
    return None


def resolves(src: str, mod: str, name: str | None) -> bool:
    parts = mod.split(".")
    for i in range(2, len(parts)):  # every package on the way must be there
        if _vllm_module(src, ".".join(parts[:i])) is None:
            return False
    m = _vllm_module(src, mod)
    if m is None:
        return False
    kind, names, text = m
    if name is None or name in names or kind in ("star", "unknown") or _vllm_module(src, f"{mod}.{name}") is not None:
        return True
    return kind == "lazy" and re.search(r"[\"']%s[\"']" % re.escape(name), text) is not None


def _runs(ok: list[bool], versions: list[str]) -> list[str]:
    """The specifier of each run of releases where it resolves."""
    out, start = [], None
    for i, good in enumerate(ok + [False]):
        if good and start is None:
            start = i
        elif not good and start is not None:
            hi = f",<{versions[i]}" if i < len(versions) else ""
            out.append(f">={versions[start]}{hi}")
            start = None
    return out


# entries whose load path imports hundreds of vLLM names (vllm-omni's CLI reaches its whole server): only the
# imports needed to name one failure in every vLLM release where some import fails are kept — the check names
# the first failing import of a row, so the verdicts are the same and the table stays small
COVER_ONLY = {"omni cli"}


def _cover(imports: list[dict], versions: list[str], entries: set[str]) -> list[dict]:
    """`imports` with, for each entry in `entries`, only those (in order) that fail in a read release no
    earlier kept import of the same entry fails in; the other entries' imports as they are."""
    out, failed_by = [], {}
    for imp in imports:
        if imp["entry"] not in entries:
            out.append(imp)
            continue
        fails = {v for v in versions if not any(SpecifierSet(sp).contains(v, prereleases=True) for sp in imp["vllm"])}
        seen = failed_by.setdefault(imp["entry"], set())
        if fails - seen:
            seen |= fails
            out.append(imp)
    return out


def _runs_under(gate, version: str) -> bool:
    """Whether vLLM `version` meets every specifier of an import's release gate (none: always)."""
    return all(SpecifierSet(g).contains(version, prereleases=True) for g in gate)


def _ok(vsrc: Path, version: str, mod: str, name, gate=(), names_only: bool = False) -> bool:
    """The import does not fail on load in `version`: its gate keeps it from running there, it resolves, or
    (`names_only`: under `except ModuleNotFoundError`) its module is missing there, which the try catches."""
    src = str(vsrc / version)
    return not _runs_under(gate, version) or resolves(src, mod, name) or names_only and not resolves(src, mod, None)


def build(wheels: list[Path], vsrc: Path, only=None, read: list[str] | None = None) -> dict:
    # a refresh of some packages reads the releases the kept rows were read against, so that every
    # row's runs are spans of one list
    versions = read or sorted((p.name for p in vsrc.iterdir() if (p / "vllm").is_dir()), key=vkey)
    rows = []
    entries = dict(ENTRIES) | {fid: e for fid, (_, e) in (PLUGINS | WRAPPERS).items()}
    for fid, dist in (DISTS | {fid: d for fid, (d, _) in (PLUGINS | WRAPPERS).items()}).items():
        if only and fid not in only or fid not in entries:  # a harness with no entry module read here
            continue
        found = {v: w for d in wheels for v, w in final_wheels(d, dist).items()}
        per_release: list[tuple[str, list[dict]]] = []
        for version in sorted(found, key=vkey):
            trees = read_wheel(found[version])
            got = {}
            for entry_file, entry in entries[fid]:
                if entry_file not in trees:
                    continue
                for path, line, mod, name, gate, names_only in vllm_imports(trees, loaded(trees, entry_file), gates=True):
                    if not any(_runs_under(gate, v) for v in versions) or not any(resolves(str(vsrc / v), mod, name) for v in versions):
                        continue  # a gate no release meets, or nowhere a module (not a .py module: not judged)
                    if names_only and not name:
                        continue  # `import vllm.x` under `except ModuleNotFoundError`: only a missing module fails it
                    ok = [_ok(vsrc, v, mod, name, gate, names_only) for v in versions]
                    if all(ok):
                        continue
                    key = (entry, f"{mod}.{name}" if name else mod)
                    got.setdefault(key, {"entry": entry, "import": key[1], "file": path, "line": line,
                                         "vllm": _runs(ok, versions), **({"gate": list(gate)} if gate else {}),
                                         **({"caught": "ModuleNotFoundError"} if names_only else {})})
            ordered = sorted(got.values(), key=lambda r: (r["entry"], r["file"], r["line"], r["import"]))
            per_release.append((version, _cover(ordered, versions, COVER_ONLY)))
        rows += release_rows(fid, dist, per_release, "imports",
                             lambda imps: [(r["entry"], r["import"], r["file"], r["vllm"]) for r in imps])
    return {"version": 1, "vllm_releases": versions, "rows": rows}


def release_rows(fid: str, dist: str, per_release: list[tuple[str, list[dict]]], key: str, sig) -> list[dict]:
    """One row per run of consecutive releases whose lists have the same `sig`, empty runs left out:
    {framework, releases (==X or >=X,<=Y), source (the run's first release), key: the list}."""
    runs: list[tuple[list[str], list[dict]]] = []
    for version, got in per_release:
        if runs and sig(runs[-1][1]) == sig(got):
            runs[-1][0].append(version)
        else:
            runs.append(([version], got))
    return [{"framework": fid, "releases": f"=={vers[0]}" if len(vers) == 1 else f">={vers[0]},<={vers[-1]}",
             "source": f"{dist.replace('_', '-')}=={vers[0]}", key: got} for vers, got in runs if got]


def reread(table: dict, vsrc: Path) -> dict:
    """The table's rows with each import's runs read again over the releases the sources hold between the
    table's first and last read release (the final releases; a gap the sources since filled is read too).
    A load-time import has no gate (an unguarded module-level statement), so the sources alone decide
    where it resolves, and no wheel is needed for a row already listed. What this cannot add: an import
    that resolved in every release read before and fails only in a filled gap (a full run with the
    wheels finds it)."""
    old = [str(v) for v in table.get("vllm_releases") or []]
    lo, hi = vkey(old[0]), vkey(old[-1])
    versions = sorted({*old, *(p.name for p in vsrc.iterdir() if re.fullmatch(r"\d+(\.\d+)+", p.name)
                                and lo <= vkey(p.name) <= hi and (p / "vllm").is_dir())}, key=vkey)
    rows = []
    for row in table.get("rows") or []:
        imps = []
        for imp in row.get("imports") or []:
            # `from m import n` or `import m.n`: the spelling whose reading gives the committed runs back
            forms = [tuple(imp["import"].rsplit(".", 1)), (imp["import"], None)]
            gate, caught = imp.get("gate") or (), bool(imp.get("caught"))
            form = next((f for f in forms if _runs([_ok(vsrc, v, *f, gate, caught) for v in old], old) == imp["vllm"]), None)
            if form is None:
                raise SystemExit(f"{row['framework']} {row['releases']} {imp['import']}: the sources no longer give "
                                 f"{imp['vllm']} over the releases read; run the tool with the wheels")
            imps.append({**imp, "vllm": _runs([_ok(vsrc, v, *form, gate, caught) for v in versions], versions)})
        rows.append({**row, "imports": imps})
    return {**table, "vllm_releases": versions, "rows": rows}


HEADER = """\
# The `from vllm… import X` statements each framework release's vLLM adapter runs when it is
# loaded (no try, no gate around them but a test of vLLM's own release: `gate`), and the vLLM releases in which each
# resolves or its gate keeps it from running
# (`vllm`: one specifier per run of releases; `vllm_releases`: the final releases read). Read from
# the released wheels and vLLM's sdists by tools/framework_vllm_imports.py —
# do not edit by hand, re-run the tool. `source` names the row's first release; `file`/`line` are
# in it. Only imports that fail in some vLLM release are listed.
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", type=Path, nargs="+", help="folders of wheels")
    ap.add_argument("--reread", action="store_true",
                    help="no wheels: read the committed rows' imports again over the releases the sources now hold")
    ap.add_argument("--vllm-src", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("--only", nargs="*", help="refresh only these packages' rows, keep the others in the output file")
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "knowledge" / "frameworks" / "vllm_imports.yaml")
    args = ap.parse_args(argv)
    if args.reread or not args.wheels:
        if not args.reread:
            ap.error("--wheels or --reread")
        data = reread(yaml.safe_load(args.out.read_text("utf-8")), args.vllm_src)
        args.out.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None), encoding="utf-8")
        print(f"{len(data['rows'])} rows over {len(data['vllm_releases'])} releases → {args.out}")
        return 0
    old = (yaml.safe_load(args.out.read_text("utf-8")) or {}) if args.only and args.out.exists() else {}
    data = build(args.wheels, args.vllm_src, args.only, [str(v) for v in old.get("vllm_releases") or []] or None)
    if args.only and args.out.exists():
        kept = [r for r in old.get("rows", []) if r["framework"] not in args.only]
        order = list(DISTS | {f: None for f in (*PLUGINS, *WRAPPERS)})
        # rows another tool adds (tools/triton_vllm_imports.py) stay after, in their order
        data["rows"] = sorted(kept + data["rows"], key=lambda r: order.index(r["framework"]) if r["framework"] in order else len(order))
    args.out.write_text(HEADER + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None), encoding="utf-8")
    print(f"{len(data['rows'])} rows → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
