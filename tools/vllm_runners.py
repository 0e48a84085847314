#!/usr/bin/env python3
"""Build knowledge/vllm/runners.yaml: per vLLM release from 0.6.4 (the first with `--task`), which
registered architectures the release runs as a generative model and which as a pooling model
natively, and whether it converts a generative model into a pooling one.

vLLM decides both from the registered class, not from a list: ModelRegistry.is_text_generation_model
is `isinstance(cls, VllmModelForTextGeneration)`, a runtime-checkable Protocol whose methods
(compute_logits, and sample up to 0.8.x) the class must have; is_pooling_model is the same test
against the pooling Protocol (VllmModelForEmbedding's `pooler` in 0.6.4, VllmModelForPooling's
`pooler` 0.6.5–0.9.2) and, from 0.10.0, the class attribute `is_pooling_model` that
VllmModelForPooling sets True. Both are read here with ast from the release's own
interfaces_base.py, then the registered class's body and its bases, followed through every module
of the models packages (tools/vllm_architectures.py). A class the static reading cannot resolve
(made at run time by as_seq_cls_model(...), a base from outside the packages) is listed as
unresolved for that release: unknown, never "not generative".

Conversion: from 0.6.5 the loader wraps any model for pooling (models/adapters.py
as_embedding_model; the registry's _ModelInfo counts every model as poolable, "Can convert any
model into a pooling model" from 0.7.0), so a pooling task on a generative architecture starts;
0.6.4 has no adapters and raises "This model does not support the 'embedding' task". `convert_from`
is the first scanned release with vllm/model_executor/models/adapters.py.

Usage:
  python tools/vllm_runners.py --source /work/sdists/src -o knowledge/vllm/runners.yaml [--check]
"""
from __future__ import annotations

import ast
import re
import sys
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vllm_architectures import (_PLAIN, _bases, _find, registry_entries, registry_file, source_main, sp,  # noqa: E402
                                spans, vkey)
from vllm_bnb_support import model_files  # noqa: E402

FIRST = "0.6.4"  # ModelConfig._resolve_task: the first release with a task option
GEN_PROTOCOL = "VllmModelForTextGeneration"
POOL_PROTOCOLS = ("VllmModelForPooling", "VllmModelForEmbedding")
POOL_FLAG = "is_pooling_model"


def _body_names(node: ast.ClassDef) -> tuple[frozenset[str], bool | None]:
    """(the names a class body defines — methods and class attributes —, the value it gives
    `is_pooling_model` when a constant, else None)."""
    names: set[str] = set()
    flag = None
    for st in node.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(st.name)
            continue
        targets = st.targets if isinstance(st, ast.Assign) else [st.target] if isinstance(st, ast.AnnAssign) else []
        value = getattr(st, "value", None)
        for t in targets:
            if isinstance(t, ast.Name) and value is not None:
                names.add(t.id)
                if t.id == POOL_FLAG and isinstance(value, ast.Constant) and isinstance(value.value, bool):
                    flag = value.value
    return frozenset(names), flag


# a line that opens a class statement at the top of a module: every module-level class has one
_CLASS_LINE = re.compile(r"^class\b", re.M)
_CLASS_NAME = re.compile(r"^class[ \t]+([A-Za-z_][A-Za-z0-9_]*)(?=[ \t(:\[])", re.M)


class _Module(Mapping):
    """class → (base names, names its body defines, its `is_pooling_model` value) of one module,
    parsed with ast only when one of its classes is asked for: a release's models packages are 21 MB
    of source (0.34.0's vllm/models kernels), and the lookups need a few hundred of their modules.
    `candidates` (the names on the lines that open a class at the module's top) holds every class
    of the module, so a name outside it is answered without the parse."""

    def __init__(self, text: str):
        self._text: str | None = text
        self._classes: dict | None = None
        names = _CLASS_NAME.findall(text)
        self.candidates = frozenset(names)
        if len(names) != len(_CLASS_LINE.findall(text)):  # a line the pattern cannot name: read it all now
            self.candidates = frozenset(self._parsed())

    def _parsed(self) -> dict:
        if self._classes is None:
            try:
                tree = ast.parse(self._text or "")
            except SyntaxError:
                tree = ast.Module(body=[], type_ignores=[])  # as a module left out: no class
            self._classes = {n.name: (_bases(n), *_body_names(n)) for n in tree.body if isinstance(n, ast.ClassDef)}
            self._text = None
        return self._classes

    def __contains__(self, cls: object) -> bool:
        return cls in self.candidates and cls in self._parsed()

    def __getitem__(self, cls: str):
        return self._parsed()[cls]

    def __iter__(self):
        return iter(self._parsed())

    def __len__(self) -> int:
        return len(self._parsed())


def class_bodies(root: Path) -> dict[str, Mapping[str, tuple[list[str], frozenset[str], bool | None]]]:
    """module → class → (base names, names its body defines, its `is_pooling_model` value), over
    the models packages, keyed as tools/vllm_architectures.py keys them (a module read lazily)."""
    out: dict[str, Mapping[str, tuple[list[str], frozenset[str], bool | None]]] = {}
    for key, f in model_files(root):
        try:
            out[key] = _Module(f.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            continue
    return out


def protocols(root: Path) -> tuple[frozenset[str], frozenset[str], bool] | None:
    """(the methods a generative class needs, those a pooling class needs, whether pooling is the
    `is_pooling_model` attribute instead) from the release's interfaces_base.py; None before it."""
    f = root / "vllm/model_executor/models/interfaces_base.py"
    if not f.exists():
        return None
    gen: frozenset[str] = frozenset()
    pool: frozenset[str] = frozenset()
    flag = False
    for node in ast.parse(f.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.ClassDef):
            continue
        methods = frozenset(st.name for st in node.body if isinstance(st, ast.FunctionDef) and not st.name.startswith("_"))
        if node.name == GEN_PROTOCOL:
            gen = methods
        elif node.name in POOL_PROTOCOLS:
            pool = methods
            flag = _body_names(node)[1] is True
    return gen, pool, flag


def _resolve(classes: dict, module: str, cls: str, seen: frozenset = frozenset()):
    """(names the class has through its bases, its `is_pooling_model` value) or None when a base
    cannot be read. Own body first, then the bases left to right, as Python's lookup finds them."""
    found = _find(classes, module, cls)
    if found is None or f"{found[0]}.{cls}" in seen:
        return None
    module, (bases, names, flag) = found
    seen = seen | {f"{module}.{cls}"}
    plain = re.compile(_PLAIN.format("-"))
    got = set(names)
    for b in bases:
        if _find(classes, module, b) is not None:
            sub = _resolve(classes, module, b, seen)
            if sub is None:
                return None
            got |= sub[0]
            flag = sub[1] if flag is None else flag
        elif not plain.match(b):
            return None
    return frozenset(got), flag


def scan_release(root: Path) -> tuple[set[str], set[str], set[str]] | None:
    """(generative, natively pooling, unresolved) architectures of one release; None before the
    protocols exist."""
    proto = protocols(root)
    if proto is None or not proto[0]:
        return None
    gen_needs, pool_needs, by_flag = proto
    classes = class_bodies(root)
    last: dict[str, tuple[str, str]] = {}
    for arch, module, cls in registry_entries(registry_file(root)):
        last[arch] = (module, cls)  # _VLLM_MODELS merges the tables in order: the last entry wins
    gen, pool, unresolved = set(), set(), set()
    for arch, (module, cls) in last.items():
        got = _resolve(classes, module, cls)
        if got is None:
            unresolved.add(arch)
            continue
        names, flag = got
        if gen_needs <= names:
            gen.add(arch)
        if (flag is True) if by_flag else (bool(pool_needs) and pool_needs <= names):
            pool.add(arch)
    return gen, pool, unresolved


def build(sources: list[Path]) -> dict:
    found = {d.name: d for s in sources for d in s.iterdir()
             if re.fullmatch(r"\d+(\.\d+)+", d.name) and vkey(d.name) >= vkey(FIRST) and registry_file(d)}
    rows = [(v, found[v], scan_release(found[v])) for v in sorted(found, key=vkey)]
    rows = [(v, d, r) for v, d, r in rows if r is not None]
    releases = [v for v, _, _ in rows]
    out: dict = {"releases": releases,
                 "convert_from": next((v for v, d, _ in rows if (d / "vllm/model_executor/models/adapters.py").exists()), None)}
    for i, key in enumerate(("generate", "pooling", "unresolved")):
        names = sorted(set().union(*(r[i] for _, _, r in rows)))
        out[key] = {n: spans([n in r[i] for _, _, r in rows], releases) for n in names}
    return out


def dump(data: dict) -> str:
    lines = [
        "# Which registered architectures each vLLM release runs as a generative model and which as a",
        "# pooling model natively (ModelRegistry.is_text_generation_model / is_pooling_model: the",
        "# registered class against vllm/model_executor/models/interfaces_base.py's Protocols), built by",
        "# tools/vllm_runners.py from the releases' sources. Do not edit by hand.",
        "#   convert_from: the first release whose loader converts any model for pooling (models/adapters.py)",
        "#   generate / pooling: architecture → spans of scanned releases where its class is one",
        "#   unresolved: architecture → spans where its class could not be read statically (unknown)",
        "# An architecture registered in a release (architectures.yaml) and in neither list there is neither.",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        f'convert_from: "{data["convert_from"]}"',
    ]
    for key in ("generate", "pooling", "unresolved"):
        lines.append(f"{key}:")
        lines += [f"  {n}: {sp(s)}" for n, s in data[key].items()]
    return "\n".join(lines) + "\n"


def main() -> int:
    return source_main(__doc__, lambda source: dump(build(source)), many=True)


if __name__ == "__main__":
    sys.exit(main())
