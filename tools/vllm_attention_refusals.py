#!/usr/bin/env python3
"""Build knowledge/vllm/attention_refusals.yaml: which CUDA attention backend (and ROCm's V0 one) of each vLLM release
refuses which model feature when the model is built, with vLLM's own words and line. Read with ast
from the unpacked releases: every `raise X("…")` and `assert cond, "…"` in a backend's module
whose message names logits soft-capping, attention sinks or a sliding window. The backend a
module implements is fixed by its path (MODULES below); vllm/worker/model_runner.py of 0.5.1–0.5.2
refuses soft-capping for every backend but FlashInfer ("*"), and 0.5.3's common metadata builder
(vllm/attention/backends/utils.py, used by XFormers) does the same for the backends built on it.

Which backend a release picks for a GPU and a model is engine/check/startup_attn.py's (it reads
vllm/attention/selector.py and vllm/platforms/cuda.py get_attn_backend_cls); this file holds only
what each backend refuses.

Usage:
  python tools/vllm_attention_refusals.py --source /work/sdists/src -o knowledge/vllm/attention_refusals.yaml
"""
from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")

# module → (engine, backend name as VLLM_ATTENTION_BACKEND / --attention-backend spell it)
MODULES = {
    "vllm/worker/model_runner.py": ("v0", "*"),
    "vllm/attention/backends/utils.py": ("v0", "XFORMERS"),
    "vllm/attention/backends/xformers.py": ("v0", "XFORMERS"),
    "vllm/attention/backends/flash_attn.py": ("v0", "FLASH_ATTN"),
    "vllm/v1/attention/backends/flash_attn.py": ("v1", "FLASH_ATTN"),
    "vllm/v1/attention/backends/flashinfer.py": ("v1", "FLASHINFER"),
    "vllm/v1/attention/backends/flex_attention.py": ("v1", "FLEX_ATTENTION"),
    "vllm/v1/attention/backends/triton_attn.py": ("v1", "TRITON_ATTN"),
    "vllm/v1/attention/backends/xformers.py": ("v1", "XFORMERS"),
    # ROCm's one V0 backend (the HIP selector returns ROCM_FLASH whatever is asked for)
    "vllm/attention/backends/rocm_flash_attn.py": ("v0", "ROCM_FLASH"),
}
# the last release a module is read for: from 0.7.1 ROCmFlashAttentionImpl refuses soft-capping only
# on its Triton path (VLLM_USE_TRITON_FLASH_ATTN, rocm_flash_attn.py 0.7.1:496), a condition the
# table has no column for; up to 0.7.0 the raise is unconditional (0.7.0 rocm_flash_attn.py)
UNTIL = {"vllm/attention/backends/rocm_flash_attn.py": "0.7.0"}

FEATURES = {
    "soft_cap": re.compile(r"soft[ _]?cap", re.I),
    "sinks": re.compile(r"\bsinks?\b", re.I),
    # a backend refusing the window itself, not the prefix-caching, cascade or per-layer-window limits
    "sliding_window": re.compile(r"does not support sliding window|sliding window is not supported in", re.I),
}
# messages that name a feature without refusing it
_NOT_A_REFUSAL = re.compile(r"must have the same number|only supports models in which all layers share|"
                            r"^cascade attention|prefix caching|BatchDCPPrefillWrapper", re.I)


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _text(node: ast.AST | None) -> str | None:
    """A message as written: string constants joined, f-string holes as {name}."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            elif isinstance(part, ast.FormattedValue):
                out.append("{" + ast.unparse(part.value) + "}")
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _text(node.left), _text(node.right)
        return a + b if a is not None and b is not None else None
    if isinstance(node, ast.Call) and node.args:
        return _text(node.args[0])
    return None


def refusals(path: Path) -> list[dict]:
    """(feature, kind, text, line) for each raise/assert of the module that names a feature."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            text, kind = _text(node.exc), "raise"
        elif isinstance(node, ast.Assert):
            text, kind = _text(node.msg), "assert"
        else:
            continue
        if not text or _NOT_A_REFUSAL.search(text):
            continue
        for feature, rx in FEATURES.items():
            if rx.search(text):
                out.append({"feature": feature, "kind": kind, "text": " ".join(text.split()), "line": node.lineno})
    return out


# the model whose layers hand `sinks` to the backend's Impl (gpt-oss, 0.10.1+)
SINKS_MODEL = "vllm/model_executor/models/gpt_oss.py"


def signature_refusals(path: Path) -> list[dict]:
    """An Impl class whose constructor takes neither `sinks` nor **kwargs: Attention passes the model's
    sinks to it as a keyword (vllm/attention/layer.py extra_impl_args), so Python raises a TypeError."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    out = []
    for cls in tree.body:
        if not (isinstance(cls, ast.ClassDef) and cls.name.endswith("Impl")):
            continue
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name == "__init__":
                names = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
                if "sinks" not in names and fn.args.kwarg is None:
                    out.append({"feature": "sinks", "kind": "signature", "line": fn.lineno,
                                "text": f"{cls.name}.__init__() got an unexpected keyword argument 'sinks'"})
    return out


def scan(sources: list[Path]) -> dict:
    releases: dict[str, Path] = {}
    for src in sources:
        for d in src.iterdir():
            if d.is_dir() and VERSION_DIR.fullmatch(d.name) and (d / "vllm").is_dir():
                releases.setdefault(d.name, d)
    order = sorted(releases, key=vkey)
    # (feature, engine, backend, file, text, kind) → [(release, line)]
    seen: dict[tuple, list[tuple[str, int]]] = {}
    for v in order:
        for rel, (engine, backend) in MODULES.items():
            if rel in UNTIL and vkey(v) > vkey(UNTIL[rel]):
                continue
            found: dict[tuple, int] = {}
            sigs = signature_refusals(releases[v] / rel) if (releases[v] / SINKS_MODEL).is_file() else []
            for r in refusals(releases[v] / rel) + sigs:  # the first line that says it, once per release
                k = (r["feature"], engine, backend, rel, r["text"], r["kind"])
                found[k] = min(found.get(k, r["line"]), r["line"])
            for k, line in found.items():
                seen.setdefault(k, []).append((v, line))
    rows = []
    for (feature, engine, backend, rel, text, kind), hits in seen.items():
        spans = []
        for v, line in hits:
            i = order.index(v)
            if spans and order.index(spans[-1]["last"]) == i - 1:
                spans[-1]["last"] = v
                spans[-1]["lines"][v] = line
            else:
                spans.append({"first": v, "last": v, "lines": {v: line}})
        for s in spans:
            rows.append({"feature": feature, "engine": engine, "backend": backend, "file": rel, "kind": kind,
                         "first": s["first"], "last": s["last"], "line": s["lines"][s["first"]],
                         "last_line": s["lines"][s["last"]], "text": text})
    rows.sort(key=lambda r: (r["feature"], r["engine"], r["backend"], vkey(r["first"]), r["file"]))
    return {"version": 1, "releases": order, "refusals": rows}


HEADER = """\
# Which CUDA attention backend (and ROCm's ROCM_FLASH, up to 0.7.0) of each vLLM release refuses which model feature (logits
# soft-capping, attention sinks, sliding window) when the model is built: every raise/assert in
# the backend's module whose message names the feature (kind signature: an Impl constructor that
# takes neither `sinks` nor **kwargs, a TypeError once gpt-oss hands it sinks), with its text and line in the first and
# last release of each span. Built by tools/vllm_attention_refusals.py from the releases'
# sources; do not edit by hand. backend "*" (0.5.1-0.5.2 model_runner): every backend but
# FlashInfer. engine/check/startup_attn.py decides which backend a release picks.
"""


def dump(data: dict) -> str:
    import json
    lines = [HEADER.rstrip("\n"), f"version: {data['version']}", "releases: " + json.dumps(data["releases"]), "refusals:"]
    for r in data["refusals"]:
        lines.append("  - {" + ", ".join(f"{k}: {json.dumps(r[k], ensure_ascii=False)}" for k in
                                         ("feature", "engine", "backend", "first", "last", "file", "line", "last_line", "kind", "text")) + "}")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, action="append", required=True)
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args()
    args.output.write_text(dump(scan(args.source)), encoding="utf-8")


if __name__ == "__main__":
    main()
