"""The multimodal model classes whose LoRA wrapping reaches their vision tower, per release, for L60.

vLLM adds LoRA to the language model only: LoRAModelManager._filter_unsupported_mm_module (vllm/lora/
models.py) skips every module whose name starts with a prefix the class's get_mm_mapping() names as
its connector or tower_model. Those prefixes must be vLLM's module names; a class that writes the
checkpoint's names instead (Qwen3-VL in 0.11.0: "model.visual." while the module is `self.visual`,
which its hf_to_vllm_mapper renames) filters nothing, so the vision tower's parallel linear layers get
LoRA wrappers, and the memory profile's dummy image run through the tower stops in the Punica shrink
kernel (`assert token_lora_mapping.size(0) == M`, vLLM #26991, #27669).

This reads each release's model files (AST only) and lists the classes — with the classes that inherit
the method — whose every tower_model prefix starts with a name the class never assigns on `self`.

    python tools/vllm_lora_towers.py --source /work/scratch/sdists/src           # the table
    python tools/vllm_lora_towers.py --source /work/scratch/sdists/src --check   # L60 agrees
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from knowledge_rule import arguments, contains, rule  # noqa: E402

_FROM = (0, 5, 1)  # the SupportsLoRA interface and get_mm_mapping's MultiModelKeys came later still


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v))


def _self_attrs(cls: ast.ClassDef) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(cls):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
        for t in targets:
            for e in t.elts if isinstance(t, ast.Tuple) else [t]:
                if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
                    out.add(e.attr)
    return out


def _towers(cls: ast.ClassDef) -> list[str] | None:
    """The tower_model prefixes a class's own get_mm_mapping returns, or None without one."""
    for f in cls.body:
        if isinstance(f, ast.FunctionDef) and f.name == "get_mm_mapping":
            for n in ast.walk(f):
                if isinstance(n, ast.Call):
                    for k in n.keywords:
                        if k.arg == "tower_model":
                            v = k.value
                            items = v.elts if isinstance(v, (ast.List, ast.Tuple)) else [v]
                            return [e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            return []
    return None


def index(models: Path) -> dict[str, ast.ClassDef]:
    out: dict[str, ast.ClassDef] = {}
    for f in sorted(models.glob("*.py")):
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        out.update({c.name: c for c in tree.body if isinstance(c, ast.ClassDef)})
    return out


def _lineage(name: str, classes: dict[str, ast.ClassDef], seen: set[str] | None = None) -> list[ast.ClassDef]:
    seen = seen if seen is not None else set()
    cls = classes.get(name)
    if cls is None or name in seen:
        return []
    seen.add(name)
    out = [cls]
    for b in cls.bases:
        if isinstance(b, ast.Name):
            out += _lineage(b.id, classes, seen)
    return out


def unfiltered(classes: dict[str, ast.ClassDef]) -> list[str]:
    """The classes whose tower prefixes (their own get_mm_mapping or the nearest base's) all start
    with a name no class of their lineage assigns on `self`."""
    out = []
    for name in classes:
        line = _lineage(name, classes)
        towers = next((t for c in line if (t := _towers(c)) is not None), None)
        if not towers:
            continue
        attrs = set().union(*(_self_attrs(c) for c in line))
        if all(t.split(".", 1)[0] not in attrs for t in towers):
            out.append(name)
    return sorted(out)


def table(src: Path) -> dict[str, list[str]]:
    out = {}
    for d in sorted((p for p in src.iterdir() if re.fullmatch(r"\d+\.\d+\.\d+", p.name)), key=lambda p: _vkey(p.name)):
        models = d / "vllm" / "model_executor" / "models"
        if _vkey(d.name) >= _FROM and models.is_dir():
            out[d.name] = unfiltered(index(models))
    return out


def l60_rule() -> dict:
    """L60's rule for these classes (the one whose `when` names startup.arch in a list)."""
    return rule("L60", "startup.arch in [")


def main() -> int:
    a = arguments("--source", "/work/scratch/sdists/src", "the unpacked releases", "L60's rule")
    rows = table(a.source)
    for release, names in rows.items():
        if names:
            print(f"{release:>8}  {', '.join(names)}")
    if not a.check:
        return 0
    found = l60_rule()
    listed = set(re.findall(r'"(\w+)"', found["when"].split("startup.arch in [", 1)[1].split("]", 1)[0]))
    bad = [r for r, names in rows.items() if contains(found["vllm"], r) != bool(names) or (names and set(names) != listed)]
    if bad:
        print(f"L60 disagrees with the sources in {', '.join(bad)}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
