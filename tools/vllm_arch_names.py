#!/usr/bin/env python3
"""Build knowledge/vllm/arch_names.yaml: the name a model family's checkpoints start with, per
architecture vLLM registers, so that a model named by a Hub id or by a local folder (a ModelScope
download `/data/AI-ModelScope/dbrx-instruct`, an HF cache snapshot) is known by its class where
the catalog (knowledge/models.yaml) has no family for it.

Evidence, read from every unpacked release: the checkpoints vLLM's "Supported models" page names
per architecture (docs/models/supported_models.md, docs/source/models/supported_models.{md,rst}
0.6.2+) and those its tests load (tests/models/registry.py `_HfExamplesInfo`, as
tools/vllm_example_models.py reads them). Left out, because the class is not what the
checkpoint's own config.json says: a docs row for the Mistral format or one that needs
--hf-overrides, a row naming several classes or a wildcard, a test entry whose hf_overrides
rewrite "architectures", the speculative, Transformers-backend and converted test tables, and a
repository listed under two architectures in any release (a converted head, a class renamed
from one release to the next: BAAI/bge-m3).

A family's name is the part of a checkpoint's name before its first size, version, date or
variant word (`dbrx-instruct` → `dbrx`, `flan-t5-large` → `flan-t5`), kept only when no checkpoint
of another architecture, in any release, has a name that starts with it (`qwen2` is both Qwen2
and Qwen2-VL: no family). A toy or test upload names no family. The audit (engine/kb/arch_names.py)
reads a family only where the catalog has none, and not for a name that adds a word making it
another model (models.yaml derived_markers: Reward, Embedding, -VL …).

Usage:
  python tools/vllm_arch_names.py --source /work/sdists/src -o knowledge/vllm/arch_names.yaml
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vllm_architectures import VERSION_DIR, table_main, vkey  # noqa: E402
from vllm_example_models import REGISTRY, _overrides_architecture, _repos  # noqa: E402

DOCS = ("docs/models/supported_models.md", "docs/source/models/supported_models.md",
        "docs/source/models/supported_models.rst")
_REPO = re.compile(r"`([A-Za-z0-9][\w.-]*/[\w.-]+)`")
_ARCH = re.compile(r"`([A-Za-z][A-Za-z0-9_]*)`")
# a docs row whose checkpoints are read as another class than their config.json names
_NOT_OWN = re.compile(r"(?i)mistral format|hf[-_]overrides|--hf-|convert")
# where a name stops being the family's: a size, a version or date, a variant word
_SIZE = re.compile(r"(?i)^(\d+(\.\d+)?[bmkt]|\d+b\d+|\d+x\d+(\.\d+)?[bm]|a\d+(\.\d+)?b|e\d+b|\d+(\.\d+)?[bm]-a\d+b)$")
_NUMBER = re.compile(r"(?i)^v?\d+([._]\d+)*[a-z]?$")
# (tuning, size and format words only: a modality or task word — Vision, VL, Audio, OCR, Coder,
# Reward — names another model of the family, often on another class: aya-vision is not aya-expanse)
_VARIANT = frozenset("""instruct chat base hf it pt tiny mini small medium large xl xxl xxxl nano micro lite
dev random preview sft dpo rl thinking online fp8 fp16 bf16 int4 int8 awq gptq gguf w4a16 w8a8 dynamic turbo hd
demo test dummy""".split())
# uploads that shrink or stub a model for tests: they name no family of their own
_TOY = re.compile(r"(?i)tiny|random|dummy|testing|internal|debug|toy|stub")
_MIN_LETTERS = 3
_GENERIC = frozenset("model models llm lm chat text base test tiny gpt bert open moe".split())
# a family known from one checkpoint may have other generations on other classes (upstage's
# solar-pro is SolarForCausalLM, SOLAR-10.7B LlamaForCausalLM): two checkpoints must agree
_MIN_EXAMPLES = 2


def _docs_rows(root: Path):
    """(architecture, [repos], kind) of every single-class row of the release's supported-models
    page; kind: text / multimodal / pooling from the sections it sits in, or None."""
    f = next((root / d for d in DOCS if (root / d).exists()), None)
    if f is None:
        return
    lines = f.read_text(encoding="utf-8").splitlines()
    rst = f.suffix == ".rst"
    top = sub = None  # the modality section, and the task section inside it
    rows: list[tuple[str, str | None]] = []
    cur: list[str] = []
    for i, line in enumerate(lines):
        head = None
        if rst and line.strip() and i + 1 < len(lines) and re.fullmatch(r"[=\-^~]{4,}", lines[i + 1].strip()):
            head = line.strip().lower()
        elif not rst and line.startswith("#"):
            head = line.lower()
        if head is not None:
            if "multimodal" in head or "multi-modal" in head or "text-only" in head or "language models" in head:
                top, sub = ("multimodal" if "multi" in head else "text"), None
            elif any(w in head for w in ("pooling", "embedding", "reward", "classification", "scoring", "cross-encoder")):
                sub = "pooling"
            elif "generat" in head:
                sub = None
        kind = sub or top
        if rst:
            if line.lstrip().startswith("* - "):
                if cur:
                    rows.append((" ".join(cur), kind))
                cur = [line]
            elif cur and line.startswith("    ") and line.strip():
                cur.append(line)
            elif cur:
                rows.append((" ".join(cur), kind))
                cur = []
        elif line.startswith("| `"):
            rows.append((line, kind))
    if cur:
        rows.append((" ".join(cur), top))
    for row, k in rows:
        cells = re.split(r"\|| - ", row)
        first = next((c for c in cells if "`" in c), "")
        archs = _ARCH.findall(first.replace(":code:", ""))
        if len(archs) != 1 or "*" in first or _NOT_OWN.search(row):
            continue
        rest = row[row.find(first) + len(first):]
        yield archs[0], _REPO.findall(rest), k


def _test_rows(root: Path):
    f = root / REGISTRY
    if not f.exists():
        return
    for node in ast.parse(f.read_text(encoding="utf-8")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        value = getattr(node, "value", None)
        if not (isinstance(target, ast.Name) and isinstance(value, ast.Dict) and target.id.endswith("_EXAMPLE_MODELS")):
            continue
        own = not target.id.startswith(("_SPECULATIVE", "_TRANSFORMERS", "_AUTOMATIC"))
        kind = "multimodal" if "MULTIMODAL" in target.id else "text" if "TEXT_GENERATION" in target.id else (
            "pooling" if any(w in target.id for w in ("EMBEDDING", "CROSS_ENCODER", "REWARD", "CLASSIF")) else None)
        for k, v in zip(value.keys, value.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Call)):
                continue
            name = v.func.id if isinstance(v.func, ast.Name) else getattr(v.func, "attr", "")
            if name == "_HfExamplesInfo":
                if own:  # a draft class keyed to its target's repository, a backend or converted class: not the repo's
                    yield k.value, _repos(v), ("not-own" if _overrides_architecture(v) else kind)


def family_of_name(name: str) -> str | None:
    """The family part of a checkpoint's name (after the organisation): its tokens before the
    first size, version, date or variant word; None when that leaves too little to name a family."""
    parts = re.split(r"([-_]|(?<!\d)\.|\.(?!\d))", name)
    keep: list[str] = []
    for i in range(0, len(parts), 2):
        tok = parts[i]
        low = tok.lower()
        if not tok or _SIZE.match(tok) or _NUMBER.match(tok) or low in _VARIANT:
            break
        keep += ([parts[i - 1]] if keep else []) + [tok]
    stem = "".join(keep)
    if sum(c.isalpha() for c in stem) < _MIN_LETTERS or stem.lower() in _GENERIC:
        return None
    return stem


def names_class(stem: str, arch: str) -> bool:
    """Whether the family's name is the class's own (dbrx / DbrxForCausalLM, gpt-j / GPTJForCausalLM):
    a fine-tuner's brand on someone else's class (Hermes-3-Llama-3.1 on LlamaForCausalLM,
    WizardCoder on GPTBigCode and on Llama, ByteDance's Dolphin on Donut) names no class of its own."""
    cls = arch.lower()
    return any(len(w) >= _MIN_LETTERS and w in cls for w in re.findall(r"[a-z]+", stem.lower()))


def covered(stem: str) -> bool:
    """A family the catalog (knowledge/models.yaml) already names: the audit reads the catalog's
    row, grounded in the checkpoints' own config.json, and never this table's (the docs list
    deepseek-llm under DeepseekForCausalLM; its config.json says LlamaForCausalLM)."""
    import yaml
    global _FAMILIES
    if _FAMILIES is None:
        data = yaml.safe_load((Path(__file__).resolve().parents[1] / "knowledge/models.yaml").read_text(encoding="utf-8"))
        _FAMILIES = [re.compile(f["match"]) for f in data["families"]]
    return any(rx.search(stem) for rx in _FAMILIES)


_FAMILIES: list | None = None


def _transformers_classes() -> set[str]:
    """The classes transformers' Auto mappings name (knowledge/vllm/transformers_classes.yaml): a
    checkpoint saved by transformers names its class in config.json, so a repository vLLM lists
    under such a class holds that class; a class of vLLM's own (BgeM3EmbeddingModel, an MTP or
    Mistral-format class) may be what vLLM makes of another config.json."""
    import yaml
    table = yaml.safe_load((Path(__file__).resolve().parents[1] / "knowledge/vllm/transformers_classes.yaml").read_text(encoding="utf-8"))
    return set(table["classes"])


def _registered() -> set[str]:
    """Every architecture some scanned release registers (knowledge/vllm/architectures.yaml, built
    from the same releases by tools/vllm_architectures.py): a docs row naming another is a typo."""
    import yaml
    table = yaml.safe_load((Path(__file__).resolve().parents[1] / "knowledge/vllm/architectures.yaml").read_text(encoding="utf-8"))
    return set(table["registered"])


def norm(name: str) -> str:
    return name.lower().replace("_", "-")


def starts(name: str, stem: str) -> bool:
    n, s = norm(name), norm(stem)
    return n.startswith(s) and (len(n) == len(s) or n[len(s)] in "-.")


def build(sources: list[Path]) -> dict:
    found = {d.name: d for source in sources for d in source.iterdir() if VERSION_DIR.fullmatch(d.name)}
    dirs = sorted(found.values(), key=lambda d: vkey(d.name))
    pairs: dict[str, set[str]] = {}   # repo (lower) → architectures it is listed under
    own: dict[str, str] = {}         # repo (lower) → its spelling, when some row names it as its own class
    kinds: dict[str, set[str]] = {}
    releases = []
    for d in dirs:
        rows = [*_docs_rows(d), *_test_rows(d)]
        if not rows:
            continue
        releases.append(d.name)
        for arch, repos, kind in rows:
            for repo in repos:
                pairs.setdefault(repo.lower(), set()).add(arch)
                if kind != "not-own":
                    own.setdefault(repo.lower(), repo)
            if kind and kind != "not-own":
                kinds.setdefault(arch, set()).add(kind)
    registered = _registered()
    fams: dict[str, dict] = {}
    for low, repo in own.items():
        archs = pairs[low]
        org, name = repo.split("/", 1)
        if len(archs) != 1 or _TOY.search(repo):
            continue
        arch = next(iter(archs))
        stem = family_of_name(name)
        if stem is None or covered(stem) or arch not in registered or "pooling" in kinds.get(arch, ()) or not names_class(stem, arch):
            continue
        clash = any(starts(r.split("/", 1)[1], stem) and a != {arch} for r, a in pairs.items())
        if clash:
            continue
        fam = fams.setdefault(norm(stem), {"stem": norm(stem), "architecture": arch, "examples": []})
        if fam["architecture"] != arch:
            fam["clash"] = True
        fam["examples"].append(repo)
    out = []
    for key in sorted(fams):
        fam = fams[key]
        names = sorted({e.split("/", 1)[1].lower() for e in fam["examples"]})
        if fam.get("clash") or len(names) < _MIN_EXAMPLES:
            continue
        k = kinds.get(fam["architecture"], set())
        row = {"stem": fam["stem"], "architecture": fam["architecture"], "examples": sorted(set(fam["examples"]), key=str.lower)[:3]}
        if len(k) == 1:
            row["kind"] = next(iter(k))
        out.append(row)
    classes = _transformers_classes()
    checkpoints = {repo: next(iter(pairs[low])) for low, repo in own.items()
                   if len(pairs[low]) == 1 and not _TOY.search(repo) and next(iter(pairs[low])) in registered
                   and next(iter(pairs[low])) in classes}
    return {"releases": releases, "families": out, "checkpoints": dict(sorted(checkpoints.items(), key=lambda kv: kv[0].lower()))}


def dump(data: dict) -> str:
    lines = [
        "# The name a model family's checkpoints start with, per architecture vLLM registers, from the",
        "# checkpoints vLLM's own supported-models page and tests name (tools/vllm_arch_names.py: what is",
        "# left out and why). Read where the catalog (models.yaml) has no family for a model's name.",
        "# Do not edit by hand.",
        "#   stem: a name (after the organisation) starting with it, then `-`, `_`, `.` or its end",
        "#   kind: text / multimodal / pooling, where the releases place the class in one section",
        "# checkpoints: repositories the releases name under one class only, a class transformers has",
        "# (its config.json names it): that very checkpoint, by Hub id or as a folder named like it.",
        "version: 1",
        "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]",
        "families:",
    ]
    for f in data["families"]:
        kind = f', kind: {f["kind"]}' if f.get("kind") else ""
        ex = ", ".join(f'"{e}"' for e in f["examples"])
        lines.append(f'  - {{stem: "{f["stem"]}", architecture: {f["architecture"]}{kind}, examples: [{ex}]}}')
    lines.append("checkpoints:")
    lines += [f'  "{r}": {a}' for r, a in data["checkpoints"].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    table_main(__doc__, build, dump)


if __name__ == "__main__":
    main()
