#!/usr/bin/env python3
"""Build knowledge/vllm/architectures.yaml: which model architectures (config.json "architectures")
each vLLM release registers, and which it names as removed. Read with ast from the unpacked
releases (DIR/<version>/vllm/model_executor/models/registry.py, models/__init__.py 0.2.5–0.6.2,
the `_MODEL_REGISTRY` of vllm/model_executor/model_loader.py before 0.2.5, whose values are the
imported classes themselves): the keys of every module-level `_*_MODELS` dict literal are the registered architectures,
except `_PREVIOUSLY_SUPPORTED_MODELS` (removed, with the last release that had them: vLLM raises
"was supported in vLLM until …"), `_OOT_SUPPORTED_MODELS` (moved to a plugin) and the ROCm
lists. Spans run over the scanned releases only; a release between two scanned ones that differ
is unknown (engine/check/startup_arch.py).

Pipeline parallelism per architecture (ModelConfig.verify_with_parallel_config raises for an
architecture that lacks it): 0.5.1–0.6.2 the `_PP_SUPPORTED_MODELS` list in vllm/config.py;
from 0.6.3 the registry's class (module, class name) implements the `SupportsPP` interface,
read by following the class's bases through every module of vllm/model_executor/models/ (a
base named SupportsPP, or a class body `supports_pp = True`). A class the static reading cannot
resolve (made at run time, a base from outside the models package) is listed as unresolved for
that release, never as "no PP".

LoRA per architecture (the model loader raises "Model X does not support LoRA, but LoRA is
enabled" in 0.3.0–0.6.3, the model runner "X does not support LoRA yet." from 0.6.3, when LoRA is
enabled on a class without it; no LoRA before 0.3.0, no vllm/lora/): 0.3.0 the class sets
`supports_lora = True` (the loader asks getattr(model_class, "supports_lora")); 0.3.1–0.5.0 the
class (or a base) sets `supported_lora_modules`;
from 0.5.1 it implements the `SupportsLoRA` interface (a base named SupportsLoRA, or a class body
`supports_lora = True`). Read the same way as PP, unresolved classes listed apart.

Quantization per architecture before 0.2.2 (get_model raises "Quantization is not supported for
<class>." when --quantization is given for a class outside `_MODEL_CLASSES_SUPPORT_QUANTIZATION`,
vllm/model_executor/model_loader.py 0.2.0–0.2.1.post1): `quant` lists the architectures whose
registered class is in that list, from `quant_from` (the first release with the list) to
`quant_until` (the last one); every class takes --quantization from 0.2.2 (the linear methods).

Usage:
  python tools/vllm_architectures.py --source /work/sdists/src [--source more/] -o knowledge/vllm/architectures.yaml
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_class_lookup import _find  # noqa: E402,F401 — the other tools import it from here

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
NOT_REGISTERED = ("_PREVIOUSLY_SUPPORTED_MODELS", "_OOT_SUPPORTED_MODELS", "_ROCM_UNSUPPORTED_MODELS",
                  "_ROCM_PARTIALLY_SUPPORTED_MODELS", "_ROCM_SWA_REASON")


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


OLD_REGISTRY = "_MODEL_REGISTRY"  # model_loader.py before 0.2.5: {architecture: imported class}
OLD_QUANT = "_MODEL_CLASSES_SUPPORT_QUANTIZATION"  # model_loader.py 0.2.0–0.2.1.post1: [class, …]


def registry_file(root: Path) -> Path | None:
    """The file whose module-level dicts register the release's architectures."""
    reg = root / "vllm/model_executor/models/registry.py"
    if reg.exists():
        return reg
    init = root / "vllm/model_executor/models/__init__.py"
    if init.exists() and re.search(r"^_\w*MODELS\b", init.read_text(encoding="utf-8"), re.M):
        return init
    loader = root / "vllm/model_executor/model_loader.py"
    if loader.exists() and re.search(rf"^{OLD_REGISTRY}\b", loader.read_text(encoding="utf-8"), re.M):
        return loader
    return init if init.exists() else None


def _registry_dicts(path: Path):
    """(name, ast.Dict) of every module-level `_*_MODELS` dict literal."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name, value = node.target.id, node.value
        else:
            continue
        if (name.endswith("_MODELS") or name == OLD_REGISTRY) and isinstance(value, ast.Dict):
            yield name, value


def registry_entries(path: Path):
    """(architecture, module, class) of every registered `_*_MODELS` entry, plugin/ROCm-only tables left out."""
    for name, d in _registry_dicts(path):
        if any(name.startswith(x) for x in NOT_REGISTERED):
            continue
        for k, v in zip(d.keys, d.values):
            if (isinstance(k, ast.Constant) and isinstance(v, ast.Tuple) and len(v.elts) >= 2
                    and all(isinstance(e, ast.Constant) for e in v.elts[:2])):
                yield k.value, v.elts[0].value, v.elts[1].value
            elif isinstance(k, ast.Constant) and isinstance(v, ast.Name):
                # the old loader's {architecture: class}: the module is wherever that class is defined
                yield k.value, "", v.id


def _classes(root: Path) -> dict[str, dict[str, tuple[list[str], bool]]]:
    """module → class → (base names, sets supports_pp = True) of every class in the models
    packages (vllm/model_executor/models/, its sub-packages, and vllm/models/ of the newest
    releases). Keys: the dotted path under model_executor/models ("llama", "transformers.base"),
    or the full one elsewhere ("vllm.models.deepseek_v4.model")."""
    out: dict[str, dict[str, tuple[list[str], bool]]] = {}
    bases_dir = root / "vllm/model_executor/models"
    for top in (bases_dir, root / "vllm/models"):
        for f in top.rglob("*.py") if top.is_dir() else ():
            rel = f.relative_to(bases_dir if top == bases_dir else root).with_suffix("")
            key = ".".join(p for p in rel.parts if p != "__init__") if top == bases_dir else \
                ".".join(p for p in rel.parts if p != "__init__")
            try:
                tree = ast.parse(f.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError):
                continue
            out[key] = {node.name: (_bases(node), _flags(node)) for node in tree.body if isinstance(node, ast.ClassDef)}
    return out


def _bases(node: ast.ClassDef) -> list[str]:
    out = []
    for b in node.bases:
        b = b.value if isinstance(b, ast.Subscript) else b
        out.append(b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else "?")
    return out


def _flags(node: ast.ClassDef) -> frozenset[str]:
    """The interface flags a class body sets: `supports_pp = True`, `supports_lora = True`, and
    `supported_lora_modules = …` (how 0.4.1–0.5.0 marked a LoRA model)."""
    out = set()
    for st in node.body:
        targets = st.targets if isinstance(st, ast.Assign) else [st.target] if isinstance(st, ast.AnnAssign) else []
        for t in targets:
            if not isinstance(t, ast.Name):
                continue
            if t.id in ("supports_pp", "supports_lora") and isinstance(st.value, ast.Constant) and st.value.value is True:
                out.add(t.id)
            elif t.id == "supported_lora_modules" and st.value is not None:
                out.add("supported_lora_modules")
    return frozenset(out)


# bases outside the models packages that end the walk without the interface (torch, typing, the
# other interfaces); {} is the interface's own name
_PLAIN = ("^(Module|nn|object|Supports(?!{}$)\\w*|Has\\w*|Is\\w*|Generic|Protocol|ABC|"
          "PreTrainedModel|PretrainedConfig|VllmModel\\w*|CustomOp|\\w*Interface\\w*|NamedTuple)$")
# interface → (base class name, class-body flag)
INTERFACES = {"pp": ("SupportsPP", "supports_pp"), "lora": ("SupportsLoRA", "supports_lora"),
              "lora_old": ("", "supported_lora_modules")}


def _implements(classes: dict, module: str, cls: str, seen: set, iface: str = "pp") -> bool | None:
    """Whether the class `cls` (as seen from `module`) implements the interface (None: cannot tell)."""
    found = _find(classes, module, cls)
    if found is None or found[0] + "." + cls in seen:
        return None
    module, (bases, flags) = found
    seen.add(module + "." + cls)
    base, flag = INTERFACES[iface]
    if flag in flags or (base and base in bases):
        return True
    plain = re.compile(_PLAIN.format(base or "-"))
    unknown = False
    for b in bases:
        got = _implements(classes, module, b, seen, iface) if _find(classes, module, b) else (False if plain.match(b) else None)
        if got:
            return True
        unknown = unknown or got is None
    return None if unknown else False


def split_registry(root: Path, judge) -> tuple[set[str], set[str]]:
    """(architectures whose registered class `judge(module, cls)` says True of, those it says None of)."""
    yes: set[str] = set()
    unresolved: set[str] = set()
    for arch, module, cls in registry_entries(registry_file(root)):
        got = judge(module, cls)
        if got:
            yes.add(arch)
        elif got is None:
            unresolved.add(arch)
    return yes, unresolved


def _per_class(root: Path, iface: str) -> tuple[set[str], set[str]]:
    """(architectures whose registered class implements the interface, those it cannot resolve)."""
    classes = _classes(root)
    return split_registry(root, lambda module, cls: _implements(classes, module, cls, set(), iface))


def pp_scan(root: Path) -> tuple[set[str], set[str]] | None:
    """(architectures with PP, architectures the reading cannot resolve) of one release, None
    before 0.5.1 (no pipeline parallelism at all)."""
    config = root / "vllm/config.py"
    if config.exists():
        for node in ast.parse(config.read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id == "_PP_SUPPORTED_MODELS" and isinstance(node.value, ast.List)):
                return {e.value for e in node.value.elts if isinstance(e, ast.Constant)}, set()
    if not (root / "vllm/model_executor/models/registry.py").exists():
        return None
    return _per_class(root, "pp")


def lora_scan(root: Path) -> tuple[set[str], set[str]] | None:
    """(architectures with LoRA, architectures the reading cannot resolve) of one release: the
    registered class implements SupportsLoRA (0.5.1+) or sets supported_lora_modules (before)."""
    reg = registry_file(root)
    if reg is None or not (root / "vllm/lora").is_dir():
        return None  # no LoRA before 0.3.0
    if (root / "vllm/model_executor/models/interfaces.py").exists():
        return _per_class(root, "lora")
    loader = root / "vllm/model_executor/model_loader.py"
    # 0.3.0's loader asks getattr(model_class, "supports_lora"), 0.3.1–0.5.0 supported_lora_modules
    if loader.exists() and '"supports_lora"' in loader.read_text(encoding="utf-8"):
        return _per_class(root, "lora")
    return _per_class(root, "lora_old")


def quant_scan(root: Path) -> set[str] | None:
    """The architectures whose registered class is in the old loader's
    _MODEL_CLASSES_SUPPORT_QUANTIZATION (0.2.0–0.2.1.post1); None where the release has no such list."""
    loader = root / "vllm/model_executor/model_loader.py"
    if not loader.exists():
        return None
    for node in ast.parse(loader.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == OLD_QUANT and isinstance(node.value, (ast.List, ast.Tuple))):
            classes = {e.id for e in node.value.elts if isinstance(e, ast.Name)}
            return {arch for arch, _, cls in registry_entries(loader) if cls in classes}
    return None


def scan(path: Path) -> tuple[set[str], dict[str, str], set[str]]:
    """(registered, removed {arch: last release}, moved to a plugin) of one release."""
    registered: set[str] = set()
    removed: dict[str, str] = {}
    oot: set[str] = set()
    for name, value in _registry_dicts(path):
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if name == "_PREVIOUSLY_SUPPORTED_MODELS":
            for k, v in zip(value.keys, value.values):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Constant):
                    removed[k.value] = str(v.value)
        elif name == "_OOT_SUPPORTED_MODELS":
            oot.update(keys)
        elif not name.startswith("_ROCM"):
            registered.update(keys)
    return registered, removed, oot


def sp(s: list[list[str]]) -> str:
    """Spans as the one-line YAML the tables are written in."""
    return "[" + ", ".join(f'["{a}", "{b}"]' for a, b in s) + "]"


def spans(present: list[bool], releases: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    start = None
    for i, on in enumerate(present + [False]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            out.append([releases[start], releases[i - 1]])
            start = None
    return out


def release_rows(sources: list[Path], scan_one) -> tuple[list[str], list[tuple[str, dict]]]:
    """(releases in order, [(release, scan_one(its folder))]) over every release folder with a model registry."""
    found = {d.name: d for source in sources for d in source.iterdir() if VERSION_DIR.fullmatch(d.name) and registry_file(d)}
    rows = [(d.name, scan_one(d)) for d in sorted(found.values(), key=lambda d: vkey(d.name))]
    return [v for v, _ in rows], rows


def build(sources: list[Path]) -> dict:
    releases, rows = release_rows(sources, lambda d: d)
    dirs = [d for _, d in rows]
    per = [scan(registry_file(d)) for d in dirs]
    names = sorted(set().union(*(r for r, _, _ in per)))
    arch = {n: spans([n in r for r, _, _ in per], releases) for n in names}
    removed: dict[str, dict] = {}
    for n in sorted(set().union(*(set(rm) for _, rm, _ in per))):
        listed = [n in rm for _, rm, _ in per]
        until = next(rm[n] for _, rm, _ in reversed(per) if n in rm)
        removed[n] = {"until": until, "listed": spans(listed, releases)}
    plugin = {n: spans([n in o for _, _, o in per], releases) for n in sorted(set().union(*(o for _, _, o in per)))}
    out = {"releases": releases, "registered": arch, "removed": removed, "plugin": plugin}
    for key, scan_one in (("pp", pp_scan), ("lora", lora_scan)):
        found = [(r, p) for r, p in zip(releases, (scan_one(d) for d in dirs)) if p is not None]
        rels, sets = [r for r, _ in found], [p for _, p in found]
        out[key + "_from"] = rels[0] if rels else None
        out[key] = {n: spans([n in y for y, _ in sets], rels) for n in sorted(set().union(*(y for y, _ in sets)))}
        out[key + "_unresolved"] = {n: spans([n in u for _, u in sets], rels) for n in sorted(set().union(*(u for _, u in sets)))}
    quant = [(r, q) for r, q in zip(releases, (quant_scan(d) for d in dirs)) if q is not None]
    if quant:
        rels = [r for r, _ in quant]
        out["quant_from"], out["quant_until"] = rels[0], rels[-1]
        out["quant"] = {n: spans([n in q for _, q in quant], rels) for n in sorted(set().union(*(q for _, q in quant)))}
    return out


def dump(data: dict) -> str:
    """Compact YAML, one architecture a line."""
    lines = [
        "# Which model architectures (config.json \"architectures\") each vLLM release registers, built by",
        "# tools/vllm_architectures.py from the releases' model registry (vllm/model_executor/models/",
        "# registry.py; models/__init__.py before 0.6.3). Do not edit by hand.",
        "#   registered: architecture → spans of scanned releases that register it",
        "#   removed:    architecture → the last release that had it (vLLM raises \"Model architecture X was",
        "#               supported in vLLM until vU, and is not supported anymore\") and the releases that say so",
        "#   plugin:     architectures moved out of tree to a plugin, and the releases that say so",
        "# A release between two scanned ones is known only where both agree.",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "registered:",
    ]
    lines += [f"  {n}: {sp(s)}" for n, s in data["registered"].items()]
    lines.append("removed:")
    lines += [f'  {n}: {{until: "{e["until"]}", listed: {sp(e["listed"])}}}' for n, e in data["removed"].items()]
    lines.append("plugin:")
    lines += [f"  {n}: {sp(s)}" for n, s in data["plugin"].items()]
    per_class = {
        "pp": ["# Pipeline parallelism (ModelConfig.verify_with_parallel_config: _PP_SUPPORTED_MODELS in 0.5.1–0.6.2,",
               "# the registered class implements SupportsPP from 0.6.3), from pp_from on:"],
        "lora": ["# LoRA (the loader's \"does not support LoRA, but LoRA is enabled\" 0.4.1–0.6.3, the runner's \"does not",
                 "# support LoRA yet.\" from 0.6.3): the class sets supported_lora_modules (0.4.1–0.5.0) or implements",
                 "# SupportsLoRA (0.5.1+), from lora_from on:"],
    }
    for key, intro in per_class.items():
        pad = " " * len("_unresolved:")
        lines += intro + [
            f"#   {key}:{pad}architecture → spans of scanned releases whose class supports it",
            f"#   {key}_unresolved: architecture → spans where the class could not be read statically (unknown)",
            f'{key}_from: "{data[key + "_from"]}"',
            f"{key}:",
        ]
        lines += [f"  {n}: {sp(s)}" for n, s in data[key].items()]
        lines.append(f"{key}_unresolved:")
        lines += [f"  {n}: {sp(s)}" for n, s in data[key + "_unresolved"].items()]
    if data.get("quant"):
        lines += [
            "# Quantization per class (get_model raises \"Quantization is not supported for <class>.\" for a class",
            "# outside model_loader.py _MODEL_CLASSES_SUPPORT_QUANTIZATION), quant_from–quant_until only; every",
            "# class takes --quantization after quant_until:",
            "#   quant: architecture → spans of scanned releases whose class is in the list",
            f'quant_from: "{data["quant_from"]}"',
            f'quant_until: "{data["quant_until"]}"',
            "quant:",
        ]
        lines += [f"  {n}: {sp(s)}" for n, s in data["quant"].items()]
    return "\n".join(lines) + "\n"


def table_main(doc: str, build, dump) -> None:
    """The command line of every per-release table tool: --source (repeatable) and -o."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, required=True, action="append", help="a folder of unpacked releases (repeatable)")
    ap.add_argument("-o", "--output", type=Path, required=True)
    a = ap.parse_args()
    a.output.write_text(dump(build(a.source)), encoding="utf-8")


def write_or_check(out: Path, text: str, check: bool) -> int:
    """Write a generated table, or (--check) say whether the committed one is what the sources give."""
    if check:
        same = out.is_file() and out.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{out} differs from the sources")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0


SOURCES = Path("/work/sdists/src")  # the unpacked releases, <version>/vllm/


def source_main(doc: str, text_of, out: Path | None = None, many: bool = False) -> int:
    """The command line of a table tool that reads the unpacked releases into one table: --source (a
    folder, repeatable where `many`; /work/sdists/src by default), --check, and -o (required where the
    tool names no table of its own, `out` None). `text_of(source)` renders the table."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, action="append" if many else "store", default=None,
                    help="a folder of unpacked releases" + (" (repeatable)" if many else ""))
    ap.add_argument("-o", "--output", type=Path, default=out, required=out is None)
    ap.add_argument("--check", action="store_true", help="only say whether the committed table is what the sources give")
    a = ap.parse_args()
    return write_or_check(a.output, text_of(a.source or ([SOURCES] if many else SOURCES)), a.check)


def main() -> None:
    table_main(__doc__, build, dump)


if __name__ == "__main__":
    main()
