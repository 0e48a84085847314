#!/usr/bin/env python3
"""Where each error wording the knowledge quotes occurs in vLLM's own sources, release by release.

The wordings: every check's `error_text` (knowledge/checks/*.yaml) that vLLM itself prints (no
`origin`, or `origin: vllm` — argparse's, Python's, Triton's, NCCL's words are not in vLLM's
tree), and the decision tree's matcher patterns whose `source` is a vLLM file. For each unpacked
release (/work/sdists/src/<version>) every string literal of vllm/**/*.py is read with `ast` —
f-strings with their `{…}` holes, implicit and `+` concatenations joined, whitespace collapsed — and
a wording occurs in a release when, with `{placeholders}` matching any text, it is part of one of
those strings, or one of those strings (its holes matching anything) is the whole wording.

Writes tests/data/error_text_releases.yaml (wording → the release spans it occurs in, and the
releases read); tests/test_error_text_releases.py checks every claim against that file, without
the sdists. `--check` re-reads the sources and exits 1 when the committed file is stale.

Run: python tools/vllm_error_texts.py [--source /work/sdists/src] [--check] [--jobs 2]
"""
from __future__ import annotations

import argparse
import ast
import os
import pickle
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "error_text_releases.yaml"
VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
HOLE = re.compile(r"\{[^{}]*\}")
VLLM_ORIGINS = (None, "vllm")
_WS = re.compile(r"\s+")


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def norm(s: str) -> str:
    return _WS.sub(" ", HOLE.sub("{}", s)).strip()


# --- the wordings --------------------------------------------------------------------------

def _load(text: str):
    # libyaml where built, as engine/kb/yamlio.py reads the knowledge (the same data, ~6x faster)
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def wordings() -> dict[str, list[dict]]:
    """normalised wording → the claims that quote it ({where, text, vllm})."""
    out: dict[str, list[dict]] = {}
    for f in sorted((ROOT / "knowledge" / "checks").glob("*.yaml")):
        for c in _load(f.read_text())["checks"]:
            for i, e in enumerate(c.get("error_text") or []):
                if e.get("origin") in VLLM_ORIGINS:
                    out.setdefault(norm(e["text"]), []).append(
                        {"where": f"{f.name} {c['id']} error_text[{i}]", "text": e["text"], "vllm": e.get("vllm")})
    tree = _load((ROOT / "knowledge" / "decision_tree.yaml").read_text())
    for m in tree.get("matchers") or []:
        url = str((m.get("source") or {}).get("url", ""))
        if url.startswith("vllm:"):
            rel = url[5:].split("/", 1)[0]
            for p in m.get("patterns") or []:
                out.setdefault(norm(p), []).append({"where": f"decision_tree.yaml matcher {m['id']}", "text": p, "vllm": f"=={rel}"})
    return out


# --- the sources ---------------------------------------------------------------------------

def _render(n: ast.AST) -> str | None:
    if isinstance(n, ast.Constant) and isinstance(n.value, str):
        return n.value
    if isinstance(n, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in n.values)
    if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
        a, b = _render(n.left), _render(n.right)
        if a is not None and b is not None:
            return a + b
        return a if b is None and a is not None else b
    return None


def _file_strings(text: str) -> list[str]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    inner: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.JoinedStr, ast.BinOp)):
            inner.update(id(x) for x in ast.iter_child_nodes(n))
    out = set()
    for n in ast.walk(tree):
        if id(n) in inner or not isinstance(n, (ast.Constant, ast.JoinedStr, ast.BinOp)):
            continue
        s = _render(n)
        if s and len(s) >= 8:
            out.add(_WS.sub(" ", s).strip())
    return sorted(out)


CACHE_FORMAT = 1


def _release_strings(release: Path) -> dict[str, list[str]]:
    """Every module's string literals, parsed once per release and kept beside the sources (parsing
    is nine tenths of a run: 20 s a release, against 2 s to match every wording)."""
    cache = release.parent.parent / "strings-cache" / f"{release.name}.v{CACHE_FORMAT}.pickle"
    if cache.is_file():
        with cache.open("rb") as fh:
            return pickle.load(fh)
    out = {str(f.relative_to(release)): _file_strings(f.read_text(errors="replace"))
           for f in sorted((release / "vllm").rglob("*.py"))}
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as fh:
            pickle.dump(out, fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(cache)
    except OSError:
        pass  # a read-only source tree: no cache, same answer
    return out


def strings(release: Path, words: re.Pattern) -> list[str]:
    """The string literals of the release's modules that hold one of `words` (the rarest word of
    each wording: a file without any is left out)."""
    seen: set[str] = set()
    for rel, strs in _release_strings(release).items():
        if words.search((release / rel).read_text(errors="replace")):
            seen.update(strs)
    return sorted(seen)


def _literal_rx(s: str, hole: str) -> str:
    return hole.join(re.escape(p) for p in s.split("{}"))


def _longest_words(w: str) -> list[str]:
    # ties broken by the word itself: a set's order changes with PYTHONHASHSEED, and with it which
    # words were tried — two runs of the tool gave different spans
    words = sorted(set(re.findall(r"[A-Za-z_][A-Za-z0-9_]{4,}", w)), key=lambda x: (-len(x), x))
    return words[:4]


def occurs(w: str, blob: str, strs: list[str], starts: list[int]) -> bool:
    import bisect

    forward = re.compile(_literal_rx(w, ".*?"), re.S)
    parts = [p for p in w.split("{}") if p.strip()]
    anchor = max(parts, key=len) if parts else ""
    if anchor and len(anchor) >= 6:
        k = blob.find(anchor)
        while k >= 0:
            if forward.search(strs[bisect.bisect_right(starts, k) - 1]):
                return True
            k = blob.find(anchor, k + 1)
    # a source string with holes where the wording has a value: the whole wording is that string
    words = _longest_words(w)
    if not words:
        return False
    present = [x for x in words if x in blob]  # a word on the wording's value side is not in the source
    tried: set[int] = set()
    # every word, rarest first: the rarest may be a value the wording carries that some other string holds
    for rare in sorted(present, key=lambda x: (blob.count(x), x)):
        k = blob.find(rare)
        while k >= 0:
            i = bisect.bisect_right(starts, k) - 1
            if i not in tried:
                tried.add(i)
                s = strs[i]
                # a string mostly holes (f"{method} is not supported yet.") would be every wording that ends so
                if "{}" in s and len(s.replace("{}", "").strip()) >= max(20, len(w) // 2) \
                        and re.fullmatch(_literal_rx(s, ".+?"), w, re.S):
                    return True
            k = blob.find(rare, k + 1)
    return False


def _word_filter(ws: list[str]) -> re.Pattern:
    # a wording's longest word: a file that lacks every one cannot hold any wording
    picks = {max(_longest_words(w) or [""], key=len) for w in ws} - {""}
    return re.compile("|".join(sorted(map(re.escape, picks))) or "(?!)")


def scan_release(args: tuple[str, list[str]]) -> tuple[str, list[str]]:
    release, ws = args
    strs = strings(Path(release), _word_filter(ws))
    starts, pos = [], 0
    for s in strs:
        starts.append(pos)
        pos += len(s) + 1
    blob = "\x00".join(strs)
    return Path(release).name, [w for w in ws if occurs(w, blob, strs, starts)]


def spans(found: list[str], releases: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    for r in releases:
        if r in found:
            if out and releases.index(out[-1][1]) == releases.index(r) - 1:
                out[-1][1] = r
            else:
                out.append([r, r])
    return out


def build(src: Path, jobs: int) -> dict:
    ws = sorted(wordings())
    releases = sorted((p.name for p in src.iterdir() if VERSION_DIR.match(p.name) and (p / "vllm").is_dir()), key=vkey)
    found: dict[str, list[str]] = {w: [] for w in ws}
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        for rel, hits in ex.map(scan_release, [(str(src / r), ws) for r in releases]):
            for w in hits:
                found[w].append(rel)
    return {"version": 1, "releases": releases,
            "texts": {w: spans(found[w], releases) for w in ws}}


HEADER = """# Where each error wording the knowledge quotes (check error_text, decision-tree matchers citing a
# vLLM file) occurs in vLLM's sources: normalised wording ({} for a placeholder, whitespace collapsed)
# → spans of releases. GENERATED by tools/vllm_error_texts.py from the unpacked sdists; checked by
# tests/test_error_text_releases.py. Re-run the tool after changing a wording.
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    data = build(a.source, a.jobs)
    text = HEADER + yaml.safe_dump(data, sort_keys=False, width=400, allow_unicode=True)
    if a.check:
        same = OUT.is_file() and yaml.safe_load(OUT.read_text()) == data
        print("error_text_releases.yaml is current" if same else "error_text_releases.yaml differs from the sources")
        return 0 if same else 1
    OUT.write_text(text)
    missing = [w for w, s in data["texts"].items() if not s]
    print(f"wrote {OUT}: {len(data['texts'])} wordings, {len(missing)} found in no release")
    for w in missing:
        print("  never:", w[:120])
    return 0


if __name__ == "__main__":
    sys.exit(main())
