"""Build knowledge/frameworks/vllm_classes.json: the keywords vLLM's constructors accept per
release, for the classes serving wrappers and scripts build themselves (SamplingParams,
OpenAIServingChat …) — read with `ast` from vLLM's sources of every release, never imported.
engine/kb/vllm_classes.py answers "does vLLM 0.N take `SamplingParams(use_beam_search=…)`".

A class is found by name wherever a release defines it (it moves: serving_chat.py, later
chat_completion/serving.py); where a release defines it more than once, a keyword any of them
takes is taken. What it takes: the parameters of its own `__init__`; without one, the annotated
fields of a dataclass or msgspec.Struct with those of the bases the release defines. `**kwargs`,
a pydantic model (extra keywords are ignored) or a base the sources do not show leaves the class
`open` in that release: nothing is judged there. `msgspec` marks the releases where the class is a
msgspec.Struct, whose error reads "Unexpected keyword argument 'x'" rather than Python's.

Usage: python tools/vllm_class_kwargs.py [--vllm-src /work/sdists/src] [-o knowledge/frameworks/vllm_classes.json]"""
from __future__ import annotations

import argparse
import ast
import json
import sys
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from framework_vllm_imports import _runs  # noqa: E402
from vllm_catalog import vkey  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

CLASSES = ("SamplingParams", "OpenAIServingChat", "OpenAIServingCompletion", "OpenAIServingModels",
           "BaseModelPath", "LoRARequest", "OpenAIServingEmbedding", "OpenAIServing")
# folders (and files) of a release where they are defined
WHERE = ("sampling_params.py", "lora", "entrypoints")
_STRUCT_BASES = {"Struct", "object"}


@lru_cache(maxsize=None)
def _classes_in(text: str) -> dict[str, ast.ClassDef]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    return {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}


def definitions(src: Path) -> dict[str, list[ast.ClassDef]]:
    """Every top-level class of the files under WHERE, by name."""
    out: dict[str, list[ast.ClassDef]] = {}
    root = src / "vllm"
    for w in WHERE:
        p = root / w
        files = [p] if p.is_file() else sorted(p.rglob("*.py")) if p.is_dir() else []
        for f in files:
            for name, node in _classes_in(f.read_text("utf-8", "replace")).items():
                out.setdefault(name, []).append(node)
    return out


def _base_name(b: ast.expr) -> str:
    return b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else ""


def _decorated_dataclass(node: ast.ClassDef) -> bool:
    for d in node.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        if _base_name(f) == "dataclass":
            return True
    return False


def accepted(node: ast.ClassDef, defs: dict[str, list[ast.ClassDef]], depth: int = 0) -> tuple[set[str], str] | None:
    """(keywords, kind) of one class definition; None when open (anything may be taken)."""
    init = next((s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"), None)
    if init is not None:
        a = init.args
        if a.kwarg is not None:
            return None
        names = {x.arg for x in (*a.args, *a.kwonlyargs)} - {"self"}
        return names, "init"
    bases = [_base_name(b) for b in node.bases]
    if "BaseModel" in bases or "OpenAIBaseModel" in bases or depth > 6:
        return None
    msgspec = "Struct" in bases
    if not (msgspec or _decorated_dataclass(node)) and not any(b in defs for b in bases):
        return None
    names: set[str] = set()
    for s in node.body:
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and "ClassVar" not in ast.unparse(s.annotation):
            names.add(s.target.id)
    kind = "msgspec" if msgspec else "dataclass"
    for b in bases:
        if b in _STRUCT_BASES or b in ("ABC", "Generic", "PydanticMsgspecMixin"):
            continue
        if b not in defs:
            return None  # a base the sources read do not show
        got = [accepted(d, defs, depth + 1) for d in defs[b]]
        if any(g is None for g in got):
            return None
        for g in got:
            names |= g[0]
            if g[1] == "init":
                return names | g[0], "init"  # an inherited __init__ decides
            kind = "msgspec" if g[1] == "msgspec" else kind
    return names, kind


def build(vsrc: Path, versions: list[str], runs=_runs) -> dict:
    """{class: {defined, open?, msgspec?, keywords: {runs: [names]}}} over the releases read."""
    per = [definitions(vsrc / v) for v in versions]
    out: dict[str, dict] = {}
    for cls in CLASSES:
        got: list[tuple[set[str], str] | None | bool] = []
        for defs in per:
            if cls not in defs:
                got.append(False)
                continue
            each = [accepted(d, defs) for d in defs[cls]]
            if any(e is None for e in each):
                got.append(None)
                continue
            names = set().union(*(e[0] for e in each))
            got.append((names, "msgspec" if any(e[1] == "msgspec" for e in each) else "init"))
        if not any(g not in (False,) for g in got):
            continue
        entry: dict = {"defined": runs([g is not False for g in got], versions)}
        if any(g is None for g in got):
            entry["open"] = runs([g is None for g in got], versions)
        if any(isinstance(g, tuple) and g[1] == "msgspec" for g in got):
            entry["msgspec"] = runs([isinstance(g, tuple) and g[1] == "msgspec" for g in got], versions)
        by: dict[str, list[str]] = {}
        every = sorted(set().union(*(g[0] for g in got if isinstance(g, tuple))))
        for kw in every:
            key = " | ".join(runs([isinstance(g, tuple) and kw in g[0] for g in got], versions))
            by.setdefault(key, []).append(kw)
        entry["keywords"] = dict(sorted(by.items()))
        out[cls] = entry
    return out


ABOUT = ("The keywords vLLM's constructors take per release, for the classes serving wrappers and scripts build "
         "themselves: `defined` the releases where a module defines the class, `open` those where it takes any keyword "
         "(**kwargs, a pydantic model, a base not read: not judged), `msgspec` those where it is a msgspec.Struct, "
         "`keywords` each run of releases ('A | B') with the keywords taken there. Written by tools/vllm_class_kwargs.py "
         "from vLLM's sources of every release; do not edit by hand.")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vllm-src", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "knowledge" / "frameworks" / "vllm_classes.json")
    args = ap.parse_args(argv)
    versions = sorted((p.name for p in args.vllm_src.iterdir() if (p / "vllm").is_dir()), key=vkey)
    classes = build(args.vllm_src, versions)
    lines = [json.dumps({"about": ABOUT, "version": 1, "vllm_releases": versions}, ensure_ascii=False)[:-1] + ', "classes": {']
    for i, (cls, entry) in enumerate(classes.items()):
        lines.append(json.dumps(cls) + ": " + json.dumps(entry, ensure_ascii=False) + ("," if i < len(classes) - 1 else ""))
    args.out.write_text("\n".join(lines) + "\n}}\n", encoding="utf-8")
    print(f"{len(classes)} classes → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
