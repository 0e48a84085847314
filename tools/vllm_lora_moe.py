#!/usr/bin/env python3
"""Build knowledge/vllm/lora_moe.yaml: the registered architectures whose class gives vLLM's fused-MoE
LoRA no expert mapping, in the releases that refuse such a model.

With LoRA enabled, the LoRA model manager asks whether the built model holds fused-MoE layers
(is_moe_model) and, if so, for the expert mapping (vllm/lora/utils.py process_packed_modules_mapping):
get_moe_expert_mapping (vllm/model_executor/utils.py) calls the model's own `get_expert_mapping`, or
that of one of its direct children, and an empty answer raises "To support LoRA for MoE model,
'get_expert_mapping' must be implemented" while the engine starts. The raise is in the releases whose
lora/utils.py holds those words (0.11.1–0.24.0); 0.25.0 walks every module and finds the method the
routed-experts layer has (vllm PR 47058).

Per release this reads the models package with `ast` (never imported) and, for each registered
architecture whose class implements SupportsLoRA, decides:
  - mapped: the class or a base up its lineage defines get_expert_mapping, or a direct child does —
    a `self.X = Cls(…)` in an `__init__` of the lineage, `self.X = self._init_model(…)` through that
    method's `return Cls(…)`, or `init_vllm_registered_model(…, architectures=["Cls"])`;
  - unmapped: none of them does, and the class or a child's file builds fused-MoE layers (FusedMoE,
    SharedFusedMoE, MoERunner): a dense class is left out, it never meets the raise;
  - unresolved: a base outside the models package (other than torch's or vLLM's layers), a child from
    init_vllm_registered_model without a literal class, or a `self._init_model(…)` that returns no class call.
Whether the launch's model is a mixture of experts is the audit's own model fact (num_experts in
config.json or the catalog); the table names classes only.

Usage:
  python tools/vllm_lora_moe.py --source /work/sdists/src -o knowledge/vllm/lora_moe.yaml [--check]
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import registry_file, source_main, sp, spans, split_registry, VERSION_DIR, vkey  # noqa: E402

WORDS = "'get_expert_mapping' must be implemented"
MOE_LAYERS = re.compile(r"\b(FusedMoE|SharedFusedMoE|MoERunner)\b")
PLAIN_BASES = {"Module", "nn", "object", "Generic", "Protocol", "ABC"}
# where a child's class may come from without ever having get_expert_mapping (no such method outside the models
# package in any release read: grep "def get_expert_mapping" vllm/ less model_executor/models)
LAYER_MODULES = ("vllm.model_executor.layers", "torch", "vllm.distributed", "vllm.attention", "vllm.v1",
                 "vllm.config", "vllm.model_executor.model_loader", "transformers")


class Package:
    """The models package of one release: class name → (node, file stem), names each file imports from where."""

    def __init__(self, root: Path):
        self.classes: dict[str, tuple[ast.ClassDef, str]] = {}
        self.imports: dict[str, dict[str, str]] = {}
        self.moe_files: set[str] = set()
        for f in sorted((root / "vllm/model_executor/models").glob("*.py")):
            try:
                text = f.read_text(encoding="utf-8")
                tree = ast.parse(text)
            except (SyntaxError, UnicodeDecodeError):
                continue
            if MOE_LAYERS.search(text):
                self.moe_files.add(f.stem)
            names: dict[str, str] = {}
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    src = ("." * node.level) + (node.module or "")
                    names.update({a.asname or a.name: src for a in node.names})
            self.imports[f.stem] = names
            for node in tree.body:
                if isinstance(node, ast.ClassDef):
                    self.classes.setdefault(node.name, (node, f.stem))

    def lineage(self, name: str) -> list[ast.ClassDef] | None:
        """The class and its bases in the package, nearest first; None where a base leads elsewhere."""
        out: list[ast.ClassDef] = []
        todo, seen = [name], set()
        while todo:
            n = todo.pop(0)
            if n in seen:
                continue
            seen.add(n)
            if n not in self.classes:
                if n in PLAIN_BASES:
                    continue
                return None
            node, home = self.classes[n]
            out.append(node)
            for b in node.bases:
                b = b.value if isinstance(b, ast.Subscript) else b
                if isinstance(b, ast.Attribute) and isinstance(b.value, (ast.Name, ast.Attribute)) \
                        and ast.unparse(b.value).split(".")[0] in ("nn", "torch"):
                    continue  # torch's own modules: no get_expert_mapping
                name = b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else "?"
                if name not in self.classes and self.layer(home, name):
                    continue
                todo.append(name)
        return out

    def layer(self, home: str, name: str) -> bool:
        """Whether the file imports `name` from outside the models package, where no get_expert_mapping is."""
        src = self.imports.get(home, {}).get(name)
        return src is not None and not src.startswith(".") and src.startswith(LAYER_MODULES)

    def file_of(self, node: ast.ClassDef) -> str:
        return self.classes[node.name][1]


def _has(line: list[ast.ClassDef], method: str) -> bool:
    return any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == method for c in line for f in c.body)


def _method(line: list[ast.ClassDef], name: str) -> ast.FunctionDef | None:
    for c in line:
        for f in c.body:
            if isinstance(f, ast.FunctionDef) and f.name == name:
                return f
    return None


def _callee(pkg: Package, line: list[ast.ClassDef], call: ast.expr, home: str) -> list[str] | None:
    """The package classes a `self.X = …` value builds ([] for a layer or a non-call), None where unknown."""
    if isinstance(call, ast.IfExp):
        a, b = _callee(pkg, line, call.body, home), _callee(pkg, line, call.orelse, home)
        return None if a is None or b is None else a + b
    if not isinstance(call, ast.Call):
        return []
    fn = call.func
    if isinstance(fn, ast.Name) and fn.id in ("initialize_model", "build_model"):
        return None  # vLLM's own model builders: the class comes from a config the reading does not follow
    if isinstance(fn, ast.Name) and fn.id == "init_vllm_registered_model":
        arch = next((k.value for k in call.keywords if k.arg == "architectures"), None)
        if isinstance(arch, (ast.List, ast.Tuple)) and arch.elts and all(
                isinstance(e, ast.Constant) and e.value in pkg.classes for e in arch.elts):
            return [e.value for e in arch.elts]  # type: ignore[union-attr]
        return None
    if isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id == "self":
        m = _method(line, fn.attr)
        if m is None:
            return None
        out: list[str] = []
        for r in ast.walk(m):
            if isinstance(r, ast.Return) and r.value is not None:
                got = _callee(pkg, line, r.value, home)
                if got is None or not got:
                    return None
                out += got
        return out or None
    if isinstance(fn, ast.Name) and fn.id in pkg.classes:
        return [fn.id]
    # anything else — a builtin, a helper function, a method of another object (a config, a layer's
    # tie_weights, transformers' AutoModel.from_config) — builds no vLLM model class
    return []


def judge(pkg: Package, cls: str) -> bool | None:
    """True: a LoRA class of a MoE family without a reachable expert mapping; False: mapped, dense or not
    LoRA; None: unknown."""
    line = pkg.lineage(cls)
    if line is None:
        return None
    if not any(c.name == "SupportsLoRA" for c in line):
        return False
    if _has(line, "get_expert_mapping"):
        return False
    files = {pkg.file_of(c) for c in line}
    for c in line:
        init = _method([c], "__init__")
        for n in ast.walk(init) if init is not None else ():
            target = n.targets[0] if isinstance(n, ast.Assign) and len(n.targets) == 1 else \
                n.target if isinstance(n, ast.AnnAssign) and n.value is not None else None
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                kids = _callee(pkg, line, n.value, pkg.file_of(c))  # type: ignore[union-attr,arg-type]
                if kids is None:
                    return None
                for k in kids:
                    kid = pkg.lineage(k)
                    if kid is None:
                        return None
                    if _has(kid, "get_expert_mapping"):
                        return False
                    files |= {pkg.file_of(x) for x in kid}
    return bool(files & pkg.moe_files)


def raise_line(root: Path) -> tuple[str, int] | None:
    f = root / "vllm/lora/utils.py"
    if f.is_file():
        for i, text in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if WORDS in text:
                return "vllm/lora/utils.py", i
    return None


def build(source: Path) -> dict:
    dirs = sorted((d for d in source.iterdir() if VERSION_DIR.fullmatch(d.name) and registry_file(d)), key=lambda d: vkey(d.name))
    found = [(d, raise_line(d)) for d in dirs]
    raising = [(d, r) for d, r in found if r]
    releases = [d.name for d, _ in raising]
    per = []
    for d, _ in raising:
        pkg = Package(d)
        per.append(split_registry(d, lambda _module, cls, pkg=pkg: judge(pkg, cls)))
    names = sorted(set().union(*(y for y, _ in per)))
    unresolved = sorted(set().union(*(u for _, u in per)))
    after = [d.name for d, r in found if not r and releases and vkey(d.name) > vkey(releases[-1])]
    seen: set[tuple[str, int]] = set()
    source_rows = []
    for d, r in raising:
        if r not in seen:
            seen.add(r)
            source_rows.append({"release": d.name, "file": r[0], "line": r[1]})
    return {"releases": releases, "fixed": after[0] if after else None, "source": source_rows,
            "unmapped": {n: spans([n in y for y, _ in per], releases) for n in names},
            "unresolved": {n: spans([n in u for _, u in per], releases) for n in unresolved}}


def dump(data: dict) -> str:
    lines = [
        "# The architectures whose class gives vLLM's fused-MoE LoRA no expert mapping, in the releases that refuse",
        "# them (\"To support LoRA for MoE model, 'get_expert_mapping' must be implemented\", raised while the engine",
        "# starts with LoRA on a model holding fused-MoE layers). Built by tools/vllm_lora_moe.py from the releases'",
        "# sources; do not edit by hand. Read by engine/check/startup_lora_moe.py.",
        "#   releases: the releases whose vllm/lora/utils.py raises it; fixed: the first release after them without it",
        "#   unmapped: architecture → spans of those releases where its class (a MoE family's) has no mapping",
        "#   unresolved: architecture → spans where the class or a child could not be followed statically (unknown)",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        f'fixed: "{data["fixed"]}"' if data["fixed"] else "fixed: null",
        "source: [" + ", ".join(f'{{release: "{s["release"]}", file: {s["file"]}, line: {s["line"]}}}' for s in data["source"]) + "]",
        "unmapped:",
        *[f"  {n}: {sp(s)}" for n, s in data["unmapped"].items()],
        "unresolved:" + ("" if data["unresolved"] else " {}"),
        *[f"  {n}: {sp(s)}" for n, s in data["unresolved"].items()],
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    return source_main(__doc__, lambda source: dump(build(source)), Path(__file__).resolve().parents[1] / "knowledge/vllm/lora_moe.yaml")


if __name__ == "__main__":
    sys.exit(main())
