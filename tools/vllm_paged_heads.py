#!/usr/bin/env python3
"""Build knowledge/vllm/paged_head_sizes.yaml: the head sizes the PagedAttention kernels of each
vLLM release take, and which V0 CUDA backend refuses the others when the model is built:

* 0.1.0-0.3.3: every attention layer (vllm/model_executor/layers/attention.py `_SUPPORTED_HEAD_SIZES`,
  "head_size (…) is not supported");
* 0.4.0+: XFormers (vllm/attention/backends/xformers.py, "Head size … is not supported by
  PagedAttention", the list from vllm/attention/ops/paged_attn.py get_supported_head_sizes), and
  FlashAttention as well where its decode still ran PagedAttention (`fa_paged`, 0.4.0-0.4.2);
* `fa_heads`: V0 FlashAttention's get_supported_head_sizes, and `fallback`: the selector sends a
  head size outside it to XFormers ("Cannot use FlashAttention-2 backend for head size", 0.4.3+).
engine/check/startup_paged.py decides which backend the release picks (compute capability,
dtype, head size). Releases whose sources lack these pieces get no row.

Run: python tools/vllm_paged_heads.py --source /work/sdists/src -o knowledge/vllm/paged_head_sizes.yaml
"""
from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_attention_refusals import _text  # noqa: E402  (one way of reading a message)

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
OLD = "vllm/model_executor/layers/attention.py"
XF = "vllm/attention/backends/xformers.py"
FA = "vllm/attention/backends/flash_attn.py"
PAGED = "vllm/attention/ops/paged_attn.py"
FALLBACK = "Cannot use FlashAttention-2 backend for head size"


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def _tree(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None


def _list_assign(tree: ast.Module, name: str) -> list[int] | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            try:
                return list(ast.literal_eval(node.value))
            except ValueError:
                return None
    return None


def _returned(tree: ast.Module, fn: str) -> list[int] | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == fn:
            rets = [r for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
            if len(rets) == 1:
                try:
                    return list(ast.literal_eval(rets[0].value))
                except ValueError:
                    return None
    return None


def _raise(tree: ast.Module, needle: str) -> tuple[str, int] | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            text = _text(node.exc)
            if text and needle in text:
                return " ".join(text.split()), node.lineno
    return None


def scan(root: Path) -> dict | None:
    old = _tree(root / OLD)
    if old is not None:
        heads, hit = _list_assign(old, "_SUPPORTED_HEAD_SIZES"), _raise(old, "is not supported")
        if heads and hit:
            return {"paged": heads, "file": OLD, "line": hit[1], "text": hit[0], "fa_paged": None, "fa_heads": None,
                    "fallback": False}
        return None
    xf, paged = _tree(root / XF), _tree(root / PAGED)
    if xf is None or paged is None:
        return None
    heads, hit = _returned(paged, "get_supported_head_sizes"), _raise(xf, "is not supported by PagedAttention")
    if not heads or not hit:
        return None
    fa = _tree(root / FA)
    sources = "".join(p.read_text(encoding="utf-8", errors="replace") for p in
                      (root / "vllm/attention/selector.py", root / "vllm/platforms/cuda.py") if p.is_file())
    return {"paged": heads, "file": XF, "line": hit[1], "text": hit[0],
            "fa_paged": bool(fa and _raise(fa, "is not supported by PagedAttention")),
            "fa_heads": _returned(fa, "get_supported_head_sizes") if fa else None, "fallback": FALLBACK in sources}


def build(sources: list[Path]) -> dict:
    found = {d.name: d for s in sources for d in s.iterdir() if d.is_dir() and VERSION_DIR.fullmatch(d.name)}
    releases, spans = [], []
    for v in sorted(found, key=vkey):
        row = scan(found[v])
        if row is None:
            continue
        releases.append(v)
        same = json.dumps({k: x for k, x in row.items() if k != "line"}, sort_keys=True)
        if spans and spans[-1]["_same"] == same:
            spans[-1]["last"], spans[-1]["last_line"] = v, row["line"]
            continue
        spans.append({"first": v, "last": v, **row, "last_line": row["line"], "_same": same})
    for s in spans:
        s.pop("_same")
    return {"version": 1, "releases": releases, "spans": spans}


HEADER = """\
# The head sizes the PagedAttention kernels of each vLLM release take (`paged`) and who raises for
# the others while the model is built: every attention layer up to 0.3.3, V0's XFormers backend from
# 0.4.0 (`file`/`line`/`last_line`: the raise in the span's first and last release, `text` its words),
# FlashAttention too where `fa_paged`; `fa_heads` V0 FlashAttention's own head sizes, `fallback` the
# selector sends the others to XFormers. engine/check/startup_paged.py picks the backend.
# GENERATED by tools/vllm_paged_heads.py from the unpacked releases — do not edit by hand.
"""


def dump(data: dict) -> str:
    import yaml
    return HEADER + yaml.safe_dump(data, sort_keys=False, width=140, default_flow_style=None)


def main() -> None:
    from vllm_architectures import table_main
    table_main(__doc__.splitlines()[0], build, dump)


if __name__ == "__main__":
    main()
