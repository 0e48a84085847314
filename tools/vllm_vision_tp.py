#!/usr/bin/env python3
"""Build knowledge/vllm/vision_tp.yaml: in which vLLM releases each model module splits its vision
tower's attention heads across the tensor-parallel ranks, and whether it then falls back when they do
not divide.

A vision attention class splits its heads with `divide(num_heads, tp_size)` (vllm.distributed.utils),
whose assertion ("25 is not divisible by 4") stops the launch while the model is built — unless the
module first tests the heads against the TP size and builds an unsplit attention instead:
  InternViT 0.6.0-0.10.x:  if num_heads % tp_size == 0: InternParallelAttention else InternSdpaAttention
  InternViT 0.11.0+:       use_data_parallel = ... or (num_heads + num_dummy_heads) % tp_size != 0
Per release and module (vllm/model_executor/models/<module>.py), read with ast:
  split:    a class whose name says vision (Vision, ViT, Vit, Visual, CLIP, Siglip, Blip, Pixtral, EVA),
            or any class of a module so named (blip.py and pixtral.py hold only vision towers), calls
            divide() on an expression naming heads with a second argument naming the TP size (tp /
            world_size), asserts `<heads> % <tp size> == 0`, raises when `<heads> % <tp size>` is
            non-zero (SigLIP 0.5.5: "Number of attention heads … must be divisible by the tensor model
            parallel size"), or builds a QKVParallelLinear, whose constructor calls
            divide(total_num_heads, tp_size) (vllm/model_executor/layers/linear.py, every release
            since 0.4.0): mllama's MllamaVisionSdpaAttention and GLM-4V's EVA2CLIPAttention split that
            way, without a divide() of their own
  fallback: the module also takes `<heads> % <tp size>` outside an assert and outside such a raise
            (the test before the split)
`strict` = split and no fallback: the releases where the vision heads must divide TP (check L2).
A module that reaches the split through another module's class (MiniCPM-V's SigLIP in
idefics2_vision_model.py) is listed under the module that holds the class: the catalog names it.

Usage:
  python tools/vllm_vision_tp.py --source /work/sdists/src -o knowledge/vllm/vision_tp.yaml
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import release_rows, sp, spans, table_main  # noqa: E402

_VISION = re.compile(r"Vision|ViT|Vit|Visual|CLIP|Siglip|SigLip|Blip|Pixtral|EVA")
_VISION_MODULE = re.compile(r"vit|vision|visual|clip|siglip|blip|pixtral")
_HEADS = re.compile(r"head", re.I)
_TP = re.compile(r"tp|world_size", re.I)


def _heads_mod_tp(n: ast.AST) -> bool:
    return isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) and bool(_HEADS.search(ast.unparse(n.left))) \
        and bool(_TP.search(ast.unparse(n.right)))


def _splits(tree: ast.Module, vision_module: bool) -> int | None:
    """Line of the first divide(<heads>, <tp size>) (or `assert <heads> % <tp size> == 0`) inside a
    vision class (or any class of a vision module), else None."""
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and (vision_module or _VISION.search(n.name))):
        for n in ast.walk(cls):
            if isinstance(n, ast.Assert) and any(_heads_mod_tp(x) for x in ast.walk(n.test)):
                return n.lineno
            if _raises_unless_divided(n):
                return n.lineno
            if not isinstance(n, ast.Call):
                continue
            f = n.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name == "divide" and len(n.args) == 2 and _HEADS.search(ast.unparse(n.args[0])) \
                    and _TP.search(ast.unparse(n.args[1])):
                return n.lineno
            if name == "QKVParallelLinear" and not _unsplit(n):
                return n.lineno
    return None


def _raises_unless_divided(n: ast.AST) -> bool:
    """`if <heads> % <tp size> [!= 0]: raise …`: the strict test, not a fallback."""
    return isinstance(n, ast.If) and any(_heads_mod_tp(x) for x in ast.walk(n.test)) \
        and any(isinstance(b, ast.Raise) for b in n.body)


def _unsplit(call: ast.Call) -> bool:
    """A QKVParallelLinear told not to split (`disable_tp=True`, `tp_size=1`): only a literal counts;
    `disable_tp=use_data_parallel` is `--mm-encoder-tp-mode data`, which the audit reads itself."""
    for k in call.keywords:
        v = k.value
        if k.arg == "disable_tp" and isinstance(v, ast.Constant) and v.value is True:
            return True
        if k.arg == "tp_size" and isinstance(v, ast.Constant) and v.value == 1:
            return True
    return False


def _falls_back(tree: ast.Module) -> bool:
    """`<heads> % <tp size>` outside an assert and outside a test that raises: the module tests the
    split before it makes it."""
    strict = {id(x) for n in ast.walk(tree) if isinstance(n, ast.Assert) or _raises_unless_divided(n)
              for x in ast.walk(n.test)}
    return any(_heads_mod_tp(n) and id(n) not in strict for n in ast.walk(tree))


def scan(root: Path) -> dict[str, dict]:
    """module → {strict: bool, line} of one release, for the modules whose vision tower splits heads."""
    out = {}
    base = root / "vllm/model_executor/models"
    for f in sorted(base.glob("*.py")):
        text = f.read_text(encoding="utf-8")
        if "divide" not in text and "assert" not in text and "QKVParallelLinear" not in text and "raise" not in text:
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        line = _splits(tree, bool(_VISION_MODULE.search(f.stem)))
        if line:
            out[f.stem] = {"strict": not _falls_back(tree), "line": line}
    return out


def build(sources: list[Path]) -> dict:
    releases, rows = release_rows(sources, scan)
    modules = sorted({m for _, s in rows for m in s})
    table = {}
    for m in modules:
        table[m] = {
            "strict": spans([bool(s.get(m, {}).get("strict")) for _, s in rows], releases),
            "fallback": spans([m in s and not s[m]["strict"] for _, s in rows], releases),
            "source": [{"release": v, "line": s[m]["line"]} for i, (v, s) in enumerate(rows)
                       if m in s and (i == 0 or m not in rows[i - 1][1] or rows[i - 1][1][m]["strict"] != s[m]["strict"])],
        }
        table[m] = {k: v for k, v in table[m].items() if v}
    return {"releases": releases, "modules": table}


def dump(data: dict) -> str:
    lines = [
        "# Where each vLLM release splits a vision tower's attention heads across TP ranks with divide()",
        "# (vllm/model_executor/models/<module>.py), built by tools/vllm_vision_tp.py. Do not edit by hand.",
        "#   strict:   spans of releases that split without a fallback: heads % TP != 0 fails the launch",
        "#   fallback: spans of releases that test heads % TP first and build an unsplit attention instead",
        "#   source:   the line of the divide() where the module starts to split, or changes between the two",
        "# A release outside both spans does not split that module's vision heads (or lacks the module).",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "modules:" + ("" if data["modules"] else " {}"),
    ]
    for m, row in data["modules"].items():
        lines.append(f"  {m}:")
        for k in ("strict", "fallback"):
            if k in row:
                lines.append(f"    {k}: {sp(row[k])}")
        lines.append("    source: [" + ", ".join(f'{{release: "{s["release"]}", line: {s["line"]}}}' for s in row["source"]) + "]")
    return "\n".join(lines) + "\n"


def main() -> None:
    table_main(__doc__, build, dump)

if __name__ == "__main__":
    main()
