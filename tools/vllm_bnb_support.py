#!/usr/bin/env python3
"""Build knowledge/vllm/bnb_support.yaml: which registered model architectures each vLLM release
can load with BitsAndBytes (in flight, `--quantization bitsandbytes`, and checkpoints saved
quantized with bitsandbytes — both go through the BitsAndBytes model loader).

The loader (vllm/model_executor/model_loader/loader.py up to 0.8.x, bitsandbytes_loader.py from
0.9.0; BitsAndBytes left in 0.28.0) refuses a model class that lacks one attribute:
  if not hasattr(model, "<attr>"):
      raise AttributeError(f"Model {type(model).__name__} does not support BitsAndBytes quantization yet. …")
The attribute is read per release from the loader itself (the `hasattr(model, "…")` test right
before that message): `bitsandbytes_stacked_params_mapping` in 0.5.0–0.6.6, `packed_modules_mapping`
from 0.7.0. Each registered architecture's class (registry `(module, class)`) is then read with
ast through its bases over every module of vllm/model_executor/models/ (interfaces.py included:
SupportsLoRA/SupportsQuant give `packed_modules_mapping` a default from 0.8.0): the attribute is
present when a class on the way assigns it in its body (an annotation without a value is not an
attribute) or as `self.<attr> = …` in a method. A class with its own `__new__` (a dispatcher whose
instance is another class, chosen from the config: MiniCPMV) or a base the reading cannot find (made
at run time, from outside the package) makes that architecture unresolved for the release, never "no".

Usage:
  python tools/vllm_bnb_support.py --source /work/sdists/src -o knowledge/vllm/bnb_support.yaml
"""
from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, _bases, registry_entries, registry_file, sp, spans, table_main, vkey  # noqa: E402
from vllm_architectures import _find as _find_near  # noqa: E402
from vllm_bnb_fused import breaks, class_value, fused_on_disk, loader_targets  # noqa: E402

LOADERS = ("vllm/model_executor/model_loader/bitsandbytes_loader.py", "vllm/model_executor/model_loader/loader.py")
MESSAGE = "does not support BitsAndBytes"
_HASATTR = re.compile(r"""hasattr\(\s*model\s*,\s*["'](\w+)["']\s*\)""")
# bases from torch/typing/transformers that end the walk without the attribute
_PLAIN = re.compile(r"^(Module|nn|object|Generic|Protocol|ABC|PreTrainedModel|PretrainedConfig|NamedTuple|"
                    r"ModuleList|CustomOp|GenerationMixin)$")


def loader_check(root: Path) -> tuple[str, int, str] | None:
    """(loader file, line of the message, attribute tested) of one release; None without the loader."""
    for rel in LOADERS:
        f = root / rel
        if not f.exists():
            continue
        lines = f.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if MESSAGE in line:
                window = "\n".join(lines[max(0, i - 6):i])
                found = _HASATTR.findall(window)
                if found:
                    return rel, i + 1, found[-1]
    return None


def model_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(module key, file) of every module of the models packages: the dotted path under
    model_executor/models, or the full one under vllm/models."""
    base = root / "vllm/model_executor/models"
    for top in (base, root / "vllm/models"):
        for f in top.rglob("*.py") if top.is_dir() else ():
            rel = f.relative_to(base if top == base else root).with_suffix("")
            yield ".".join(p for p in rel.parts if p != "__init__"), f


def _index(root: Path) -> dict[str, dict[str, ast.ClassDef]]:
    """module (dotted, under model_executor/models, or full under vllm/models) → class → node."""
    out: dict[str, dict[str, ast.ClassDef]] = {}
    for key, f in model_files(root):
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        out[key] = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    return out


def _find(index: dict, module: str, cls: str) -> tuple[str, ast.ClassDef] | None:
    """`cls` as seen from `module` (vllm_architectures._find), else in the interfaces every model
    module imports from."""
    got = _find_near(index, module, cls)
    if got is None:
        m = next((m for m in ("interfaces", "interfaces_base", "utils") if cls in index.get(m, {})), None)
        got = (m, index[m][cls]) if m else None
    return got


def _defines(node: ast.ClassDef, attr: str) -> bool:
    for st in node.body:
        if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in st.targets):
            return True
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == attr and st.value is not None:
            return True
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(st):
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target] if isinstance(sub, ast.AnnAssign) else []
                if any(isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                       and t.value.id == "self" for t in targets):
                    return True
    return False


def has_attr(index: dict, module: str, cls: str, attr: str, seen: set) -> bool | None:
    """Whether instances of `cls` (as seen from `module`) have `attr` (None: cannot tell)."""
    found = _find(index, module, cls)
    if found is None or found[0] + "." + cls in seen:
        return None
    module, node = found
    seen.add(module + "." + cls)
    if _defines(node, attr):
        return True
    if any(isinstance(st, ast.FunctionDef) and st.name == "__new__" for st in node.body):
        return None  # a dispatcher (MiniCPMV): the instance is another class, chosen at run time
    unknown = False
    for b in _bases(node):
        got = has_attr(index, module, b, attr, seen) if _find(index, module, b) else (False if _PLAIN.match(b) else None)
        if got:
            return True
        unknown = unknown or got is None
    return None if unknown else False


def scan(root: Path, index: dict | None = None) -> tuple[set[str], set[str], set[str]] | None:
    """(architectures with BitsAndBytes, without, unresolved) of one release; None without the loader."""
    check = loader_check(root)
    reg = registry_file(root)
    if check is None or reg is None:
        return None
    attr = check[2]
    index = _index(root) if index is None else index
    yes: set[str] = set()
    no: set[str] = set()
    unresolved: set[str] = set()
    for arch, module, cls in registry_entries(reg):
        got = has_attr(index, module, cls, attr, set())
        (yes if got else no if got is False else unresolved).add(arch)
    return yes, no - yes, unresolved - yes


def fused_names(dirs: list[Path], indexes: dict | None = None) -> dict[str, set[str]]:
    """architecture → the projections its checkpoint stores fused, from any release's class."""
    out: dict[str, set[str]] = {}
    for d in dirs:
        index = (indexes or {}).get(d) or _index(d)
        for arch, module, cls in registry_entries(registry_file(d)):
            got = fused_on_disk(index, _find, _bases, module, cls)
            if got:
                out.setdefault(arch, set()).update(got)
    return out


def fused_broken(root: Path, supported: set[str], fused: dict[str, set[str]]) -> set[str]:
    """The supported architectures whose fused checkpoint weights this release's name-matching
    loader cannot load (tools/vllm_bnb_fused.py); none where the loader reads the model's layers."""
    targets = loader_targets(root, LOADERS)
    if targets is None:
        return set()
    index = _index(root)
    out = set()
    for arch, module, cls in registry_entries(registry_file(root)):
        if arch in supported and fused.get(arch):
            own = class_value(index, _find, _bases, module, cls, "default_bitsandbytes_target_modules")
            stacked = class_value(index, _find, _bases, module, cls, "bitsandbytes_stacked_params_mapping")
            if breaks(fused[arch], [str(t) for t in own] if isinstance(own, list) else targets, stacked):
                out.add(arch)
    return out


def build(sources: list[Path]) -> dict:
    found = {d.name: d for source in sources for d in source.iterdir() if VERSION_DIR.fullmatch(d.name) and registry_file(d)}
    dirs = sorted(found.values(), key=lambda d: vkey(d.name))
    fused: dict[str, set[str]] = {}
    rows = []
    for d in dirs:  # one parse of each release's models for both readings
        index = _index(d)
        for arch, names in fused_names([d], {d: index}).items():
            fused.setdefault(arch, set()).update(names)
        rows.append((d.name, loader_check(d), scan(d, index), d))
    rows = [(v, c, s, d) for v, c, s, d in rows if c is not None and s is not None]
    releases = [v for v, _, _, _ in rows]
    loader = [{"release": v, "file": c[0], "line": c[1], "attribute": c[2]} for v, c, _, _ in rows]
    names = sorted(set().union(*(y | n | u for _, _, (y, n, u), _ in rows)))
    table = {}
    for key, pos in (("supported", 0), ("unsupported", 1), ("unresolved", 2)):
        table[key] = {a: spans([a in s[pos] for _, _, s, _ in rows], releases) for a in names
                      if any(a in s[pos] for _, _, s, _ in rows)}
    broken = [fused_broken(d, s[0], fused) for _, _, s, d in rows]
    table["fused"] = {a: spans([a in b for b in broken], releases) for a in names if any(a in b for b in broken)}
    return {"releases": releases, "loader": loader, **table}


def dump(data: dict) -> str:
    lines = [
        "# Which registered model architectures each vLLM release can load with BitsAndBytes (in flight or",
        "# a checkpoint saved quantized with bitsandbytes), built by tools/vllm_bnb_support.py. Do not edit.",
        "# The BitsAndBytes loader raises \"Model <class> does not support BitsAndBytes quantization yet.\"",
        "# when the model class lacks the attribute `loader` names per release (file and line of the raise).",
        "#   supported / unsupported: architecture → spans of scanned releases whose class has / lacks it",
        "#   unresolved: spans where the class could not be read statically (unknown)",
        "#   fused: spans where the class has it but the loader, matching weights by a fixed list of names",
        "#     (up to 0.6.4), cannot load the projections the checkpoint stores fused (tools/vllm_bnb_fused.py)",
        "# Releases outside `releases` have no BitsAndBytes loader (before 0.5.0; 0.28.0 removed it).",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "loader:",
    ]
    lines += [f'  - {{release: "{r["release"]}", file: {r["file"]}, line: {r["line"]}, attribute: {r["attribute"]}}}'
              for r in data["loader"]]
    for key in ("supported", "unsupported", "unresolved", "fused"):
        lines.append(f"{key}:" + ("" if data[key] else " {}"))
        lines += [f"  {n}: {sp(s)}" for n, s in data[key].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    table_main(__doc__, build, dump)


if __name__ == "__main__":
    main()
