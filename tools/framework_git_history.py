#!/usr/bin/env python3
"""Build knowledge/frameworks/git_history.json: per framework, its main branch commit by commit (first
parent), grouped into runs of consecutive commits that have the same version, the same declared
vLLM range and the same judged vLLM imports on their adapter's load path — so that a project that
installs the framework from git at a commit (`verl @ git+https://…/verl@<sha>`) is judged by the
code of that commit, and one that installs a branch by the newest commit known.

Per commit, read with `git` (nothing is checked out) and `ast`:
  - version: the framework's version file (VERSION_FILES);
  - declared: the first `vllm<spec>` requirement in setup.py, pyproject.toml or requirements.txt;
  - imports: the unguarded vLLM imports its adapter's entry modules run on load (read as the audit
    reads a copy in a tree, engine/scan/framework_source.py), kept where knowledge/frameworks/
    vllm_symbols.json judges them and some vLLM release lacks them;
  - kwargs (frameworks in KWARGS): the engine arguments the package's vLLM calls pass, read as
    tools/framework_engine_kwargs.py reads a release's wheel (its calls_in), so a commit between
    releases is judged by what it passes (LLaMA-Factory main passed disable_log_requests until
    PR 9539, after declaring vLLM <=0.11.0: llamafactory#9386).
Only commits whose diff touches a line that says "vllm", a file whose path says "vllm", or a version
or requirements file, are read; the others carry the state of the commit before them.

Usage: python tools/framework_git_history.py --repo FID=DIR [FID=DIR …] [-o knowledge/frameworks/git_history.json]
(DIR: a full clone of the framework's repository with its main branch checked out)
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_engine_kwargs import calls_in  # noqa: E402

from vllm_kb.engine.kb import vllm_symbols
from vllm_kb.engine.scan.framework_source import ENTRIES, loaded, vllm_imports

ROOT = Path(__file__).resolve().parents[1]
VERSION_FILES = {
    "verl": ["verl/version/version"],
    "trl": ["VERSION", "trl/__init__.py"],
    "openrlhf": ["version.txt", "setup.py"],
    "llamafactory": ["src/llamafactory/extras/env.py", "src/llmtuner/__init__.py", "src/llamafactory/__init__.py"],
    "ms-swift": ["swift/version.py"],
}
# the frameworks whose runs carry the engine arguments their commits pass (a history built before
# this keeps its runs without them, and the audit reads the release rows for those)
KWARGS = {"llamafactory"}
DEPENDENCY_FILES = ["setup.py", "pyproject.toml", "requirements.txt"]
_VERSION = re.compile(r"(?:^|__version__\s*=\s*|VERSION\s*=\s*|version\s*=\s*)[\"']?(\d+(?:\.\d+)+(?:\.?(?:dev|post|rc)\d*)?)", re.M)
_DECLARED = re.compile(r"[\"'\s]vllm\s*(?:\[[^\]]*\])?\s*((?:[<>=!~]=?\s*\d[\w.*+]*\s*,?\s*)+)")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, errors="replace", check=True).stdout


class _Blobs:
    """Blob texts through one `git cat-file --batch`, and their parsed trees, kept by object id."""

    def __init__(self, repo: Path):
        self.proc = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.trees: dict[str, object] = {}
        self.vllm: dict[str, bool] = {}

    def text(self, oid: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(oid.encode() + b"\n")
        self.proc.stdin.flush()
        head = self.proc.stdout.readline().split()
        if len(head) < 3 or head[1] == b"missing":
            return ""
        data = self.proc.stdout.read(int(head[2]))
        self.proc.stdout.read(1)
        return data.decode("utf-8", "replace")

    def says_vllm(self, oid: str) -> bool:
        if oid not in self.vllm:
            self.vllm[oid] = "vllm" in self.text(oid)
        return self.vllm[oid]

    def tree(self, oid: str):
        import ast

        if oid not in self.trees:
            try:
                self.trees[oid] = ast.parse(self.text(oid))
            except (SyntaxError, ValueError, RecursionError):
                self.trees[oid] = ast.Module(body=[], type_ignores=[])
        return self.trees[oid]


class _Commit:
    """path → ast of one commit's files under a root (the reader's `trees` protocol)."""

    def __init__(self, oids: dict[str, str], root: str, blobs: _Blobs):
        self.oids, self.root, self.blobs = oids, root, blobs

    def _full(self, path: str) -> str:
        return f"{self.root}/{path}" if self.root else path

    def __contains__(self, path) -> bool:
        return self._full(path) in self.oids

    def __getitem__(self, path):
        return self.blobs.tree(self.oids[self._full(path)])


def state(fid: str, repo: Path, sha: str, blobs: _Blobs) -> dict:
    oids = {}
    for line in _git(repo, "ls-tree", "-r", "--full-tree", sha).splitlines():
        meta, _, path = line.partition("\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == "blob":
            oids[path] = parts[2]
    version = None
    for f in VERSION_FILES[fid]:
        if f in oids and (m := _VERSION.search(blobs.text(oids[f]))):
            version = m.group(1)
            break
    declared = None
    for f in DEPENDENCY_FILES:
        if f in oids and (m := _DECLARED.search(blobs.text(oids[f]))):
            declared = re.sub(r"\s+", "", m.group(1)).rstrip(",")
            break
    imports = {}
    for tail, entry in ENTRIES[fid]:
        for path in oids:
            if path == tail or path.endswith("/" + tail):
                root = path[: len(path) - len(tail)].rstrip("/")
                trees = _Commit(oids, root, blobs)
                for file, line, mod, name in vllm_imports(trees, loaded(trees, tail)):
                    spelled = f"{mod}.{name}" if name else mod
                    if _judged(mod, name):
                        imports.setdefault((entry, spelled), {"entry": entry, "import": spelled, "module": mod, "name": name,
                                                             "file": f"{root}/{file}" if root else file, "line": line})
                break
    out = {"version": version, "declared": declared, "imports": sorted(imports.values(), key=lambda i: (i["entry"], i["import"]))}
    if fid in KWARGS:
        out["kwargs"] = engine_calls(fid, oids, blobs)
    return out


def engine_calls(fid: str, oids: dict[str, str], blobs: _Blobs) -> list[dict]:
    """The engine calls of the package's own modules at one commit (src/ layouts read as the wheel's
    paths), as tools/framework_engine_kwargs.py reads a release; scripts and tests never ship."""
    pkg = ENTRIES[fid][0][0].split("/")[0]
    trees = {}
    for path, oid in oids.items():
        rel = path[4:] if path.startswith("src/") else path
        if rel.startswith(pkg + "/") and rel.endswith(".py") and blobs.says_vllm(oid):
            trees[rel] = blobs.tree(oid)
    calls = sorted(calls_in(fid, trees), key=lambda c: (c["file"], c["line"]))
    return [{k: c[k] for k in ("call", "entry", "gate", "file", "line", "kwargs") if c.get(k)} for c in calls if c.get("entry") != "never"]


_JUDGED: dict[tuple, bool] = {}


def _judged(mod: str, name: str | None) -> bool:
    """The table judges the import and some read release lacks it."""
    key = (mod, name)
    if key not in _JUDGED:
        _JUDGED[key] = any(vllm_symbols.resolves(mod, name, v) is False for v in vllm_symbols.read_releases())
    return _JUDGED[key]


def history(fid: str, repo: Path) -> dict:
    commits = [line.split() for line in _git(repo, "log", "--first-parent", "--format=%H %cs", "HEAD").splitlines()][::-1]
    touched = set(_git(repo, "log", "--first-parent", "-m", "--format=%H", "-G", "vllm", "HEAD").split())
    touched |= set(_git(repo, "log", "--first-parent", "--format=%H", "HEAD", "--", *VERSION_FILES[fid], *DEPENDENCY_FILES).split())
    if fid in KWARGS:  # an argument's line need not say vllm; its adapter's file name does
        touched |= set(_git(repo, "log", "--first-parent", "--format=%H", "HEAD", "--", ":(glob)**/*vllm*").split())
    blobs = _Blobs(repo)
    runs: list[dict] = []
    current = None
    for sha, date in commits:
        if current is None or sha in touched:
            current = state(fid, repo, sha, blobs)
        sig = (current["version"], current["declared"], [(i["entry"], i["import"], i["file"]) for i in current["imports"]],
               json.dumps([{**c, "line": 0, "kwargs": sorted(c["kwargs"])} for c in current.get("kwargs") or []], sort_keys=True))
        if runs and runs[-1]["_sig"] == sig:
            runs[-1]["commits"].append(sha[:10])
            runs[-1]["until"] = date
        else:
            runs.append({"_sig": sig, "since": date, "until": date, **current, "commits": [sha[:10]]})
    for r in runs:
        del r["_sig"]
        r["commits"] = " ".join(r["commits"])
    return {"head": commits[-1][0][:10], "head_date": commits[-1][1], "runs": runs}


ABOUT = ("Each framework's main branch, first parent, in runs of consecutive commits with the same version, declared "
         "vLLM range and judged vLLM imports (those knowledge/frameworks/vllm_symbols.json judges and some vLLM release "
         "lacks), and for some frameworks the engine arguments its package's vLLM calls pass (`kwargs`, as of the run's first commit); `commits` the 10-character prefixes of the run's commits, oldest first. Written by "
         "tools/framework_git_history.py from the frameworks' repositories; do not edit by hand.")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", nargs="+", required=True, help="FID=DIR: a framework id and a full clone of its repository")
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "knowledge" / "frameworks" / "git_history.json")
    args = ap.parse_args(argv)
    data: dict = {"about": ABOUT, "version": 1, "frameworks": {}}
    if args.out.is_file():  # the frameworks not given keep their history (refresh one at a time)
        data["frameworks"] = json.loads(args.out.read_text(encoding="utf-8")).get("frameworks") or {}
    for spec in args.repo:
        fid, _, path = spec.partition("=")
        data["frameworks"][fid] = history(fid, Path(path))
        print(f"{fid}: {len(data['frameworks'][fid]['runs'])} runs", file=sys.stderr)
    lines = [json.dumps({k: data[k] for k in ("about", "version")}, ensure_ascii=False)[:-1] + ', "frameworks": {']
    fids = list(data["frameworks"])
    for i, fid in enumerate(fids):
        fw = data["frameworks"][fid]
        lines.append(json.dumps(fid) + ": " + json.dumps({k: fw[k] for k in ("head", "head_date")})[:-1] + ', "runs": [')
        lines += [json.dumps(r, ensure_ascii=False) + ("," if j < len(fw["runs"]) - 1 else "") for j, r in enumerate(fw["runs"])]
        lines.append("]}" + ("," if i < len(fids) - 1 else ""))
    args.out.write_text("\n".join(lines) + "\n}}\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
