#!/usr/bin/env python3
"""Build knowledge/vllm/lora_vocab.yaml: the largest vocabulary vLLM's LoRA logits layer accepts
per release, and which architectures have their LM head wrapped for LoRA.

With LoRA enabled, the LoRA model manager wraps every module of the model whose name matches its
LoRA modules while the engine starts; when that includes `lm_head`, the logits layer's
create_lora_weights raises "When using LoRA, vocab size must be 32000 >= vocab_size <= N" for a
vocabulary above N (the chained comparison `32000 < vocab_size > N` only tests the upper bound):
vllm/lora/layers.py (layers/logits_processor.py from 0.10.2). This reads N per release from that
comparison (`self.base_layer.vocab_size > N`), with its file and line.

Whether a class's LM head is wrapped is read where the manager takes its LoRA modules from the
class: 0.3.0 a global TARGET_MODULES_QKV (with lm_head) for every class that sets
`supports_lora = True`; 0.3.1–0.7.3 the class's `supported_lora_modules` list (`self.model.
supported_lora_modules` in vllm/lora/models.py), the nearest class up the bases that assigns it
deciding. From 0.8.0 the modules are collected from the built model (get_supported_lora_modules):
every LinearBase module plus the names of the class's `embedding_modules` (vllm/lora/utils.py), so
`lm_head` is wrapped where the nearest class up the bases that assigns `embedding_modules` has an
"lm_head" key (the SupportsLoRA default is empty). A class whose list or dict is not a literal, or
whose bases cannot be followed, is listed as unresolved.

Usage:
  python tools/vllm_lora_vocab.py --source /work/sdists/src -o knowledge/vllm/lora_vocab.yaml
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, _bases, _find, registry_file, sp, spans, split_registry, table_main, vkey  # noqa: E402

LIMIT = re.compile(r"self\.base_layer\.vocab_size\s*>\s*(\d+)")
NOT_ASSIGNED = object()


def limit(root: Path) -> tuple[int, str, int] | None:
    """(N, file, line) of the release's LoRA logits vocabulary check; None without one."""
    lora = root / "vllm/lora"
    for f in [lora / "layers.py", *sorted((lora / "layers").glob("*.py"))] if lora.is_dir() else []:
        if not f.is_file():
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = LIMIT.search(line)
            if m:
                return int(m.group(1)), str(f.relative_to(root)), i
    return None


def _modules_value(node: ast.ClassDef, attr: str = "supported_lora_modules"):
    """The class body's `supported_lora_modules` (a list of strings; `embedding_modules`: the keys of
    a dict), None when it is not a literal, NOT_ASSIGNED when the class does not assign it;
    `supports_lora = True` gives ["*"]."""
    out = NOT_ASSIGNED
    for st in node.body:
        targets = st.targets if isinstance(st, ast.Assign) else [st.target] if isinstance(st, ast.AnnAssign) else []
        for t in targets:
            if isinstance(t, ast.Name) and t.id == attr == "embedding_modules" and st.value is not None:
                v = st.value
                ok = isinstance(v, ast.Dict) and all(isinstance(k, ast.Constant) for k in v.keys)
                out = [k.value for k in v.keys] if ok else None
            elif isinstance(t, ast.Name) and t.id == attr and st.value is not None:
                v = st.value
                ok = isinstance(v, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) for e in v.elts)
                out = [e.value for e in v.elts] if ok else None
            elif (isinstance(t, ast.Name) and t.id == "supports_lora" and isinstance(st.value, ast.Constant)
                  and st.value.value is True and out is NOT_ASSIGNED):
                out = ["*"]
    return out


def _classes(root: Path, attr: str = "supported_lora_modules") -> dict:
    out: dict = {}
    base = root / "vllm/model_executor/models"
    for f in base.rglob("*.py"):
        key = ".".join(p for p in f.relative_to(base).with_suffix("").parts if p != "__init__")
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        out[key] = {n.name: (_bases(n), _modules_value(n, attr)) for n in tree.body if isinstance(n, ast.ClassDef)}
    return out


def _lm_head(classes: dict, module: str, cls: str, seen: set, global_modules: list[str] | None):
    """Whether the class's LoRA modules include lm_head (None: cannot tell; False also for no LoRA)."""
    found = _find(classes, module, cls)
    if found is None or found[0] + "." + cls in seen:
        return None
    module, (bases, value) = found
    seen.add(module + "." + cls)
    if value is None:
        return None
    if value is not NOT_ASSIGNED:
        return "lm_head" in (global_modules if value == ["*"] and global_modules is not None else value)
    unknown = False
    for b in bases:
        if _find(classes, module, b) is None:
            unknown = unknown or not re.match(r"^(Module|nn|object|Supports\w*|Has\w*|Is\w*|Generic|Protocol|ABC|PreTrainedModel)$", b)
            continue
        got = _lm_head(classes, module, b, seen, global_modules)
        if got is not False:
            return got
    return None if unknown else False


def _global_modules(root: Path) -> list[str] | None:
    """0.3.0's manager: the module-level TARGET_MODULES_QKV of vllm/lora/models.py."""
    f = root / "vllm/lora/models.py"
    for node in ast.parse(f.read_text(encoding="utf-8")).body if f.exists() else []:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "TARGET_MODULES_QKV"
                and isinstance(node.value, ast.List)):
            return [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
    return None


def lm_head_scan(root: Path) -> tuple[set[str], set[str]] | None:
    """(architectures whose LM head is wrapped for LoRA, unresolved ones); None where the
    release's manager does not take its modules from the class."""
    models, utils = root / "vllm/lora/models.py", root / "vllm/lora/utils.py"
    if registry_file(root) is None:
        return None
    text = models.read_text(encoding="utf-8") if models.exists() else ""
    glob = _global_modules(root)
    if "self.model.supported_lora_modules" in text or glob is not None:
        classes = _classes(root)
    elif utils.exists() and "embedding_modules" in utils.read_text(encoding="utf-8").partition("def get_supported_lora_modules")[2]:
        classes = _classes(root, "embedding_modules")  # 0.8.0+: get_supported_lora_modules
    else:
        return None
    return split_registry(root, lambda module, cls: _lm_head(classes, module, cls, set(), glob))


def build(sources: list[Path]) -> dict:
    found = {d.name: d for s in sources for d in s.iterdir() if VERSION_DIR.fullmatch(d.name) and (d / "vllm").is_dir()}
    dirs = sorted(found.values(), key=lambda d: vkey(d.name))
    rows = [(d.name, limit(d)) for d in dirs]
    rows = [(v, x) for v, x in rows if x is not None]
    releases = [v for v, _ in rows]
    limits: dict[int, dict] = {}
    for v, (n, f, line) in rows:
        e = limits.setdefault(n, {"in": [], "source": []})
        e["in"].append(v)
        if not e["source"] or e["source"][-1][1:] != (f, line):
            e["source"].append((v, f, line))
    heads = [(v, lm_head_scan(found[v])) for v in releases]
    heads = [(v, h) for v, h in heads if h is not None]
    hr = [v for v, _ in heads]
    return {
        "releases": releases,
        "limits": {n: {"in": spans([v in e["in"] for v in releases], releases), "source": e["source"]} for n, e in limits.items()},
        "lm_head_releases": hr,
        "lm_head": {a: spans([a in y for _, (y, _) in heads], hr) for a in sorted(set().union(*(y for _, (y, _) in heads)))},
        "lm_head_unresolved": {a: spans([a in u for _, (_, u) in heads], hr) for a in sorted(set().union(*(u for _, (_, u) in heads)))},
    }


def dump(data: dict) -> str:
    lines = [
        "# The largest vocabulary vLLM's LoRA logits layer accepts per release (\"When using LoRA, vocab size must be",
        "# 32000 >= vocab_size <= N\", raised while the engine starts when the LM head is wrapped for LoRA), and the",
        "# architectures whose LM head each release wraps. Built by tools/vllm_lora_vocab.py from the releases'",
        "# sources; do not edit by hand. Read by engine/check/startup_lora_vocab.py.",
        "#   limits: N → the spans of releases with that bound, and the line that raises (release, file, line)",
        "#   lm_head: architecture → spans of lm_head_releases whose class lists lm_head among its LoRA modules",
        "#   lm_head_unresolved: architecture → spans where the class could not be read statically (unknown)",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "limits:",
    ]
    for n, e in data["limits"].items():
        src = ", ".join(f'{{release: "{v}", file: "{f}", line: {line}}}' for v, f, line in e["source"])
        lines.append(f"  \"{n}\": {{in: {sp(e['in'])}, source: [{src}]}}")
    lines.append("lm_head_releases: [" + ", ".join(f'"{r}"' for r in data["lm_head_releases"]) + "]")
    for key in ("lm_head", "lm_head_unresolved"):
        lines.append(f"{key}:" + ("" if data[key] else " {}"))
        lines += [f"  {a}: {sp(s)}" for a, s in data[key].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    table_main(__doc__, build, dump)


if __name__ == "__main__":
    main()
