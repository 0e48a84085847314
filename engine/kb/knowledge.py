"""The knowledge base in memory: checks (by id, name and alias), categories, hardware and model
catalogs, effective defaults and UI strings. Loading is cheap and fails loudly on duplicate
or unknown ids; full validation (schemas, CEL, fact names) is `vllm-kb kb validate`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Iterator

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.errors import KnowledgeError, Problem, UsageError
from vllm_kb.engine.kb.versions import SpecifierSet

LANGS = ("en", "zh")
CATEGORY_FILES = tuple("ABCDEFGHIJL")


@dataclass(frozen=True)
class Text:
    en: str
    zh: str

    def __call__(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    @classmethod
    def of(cls, raw: dict | None) -> "Text":
        raw = raw or {}
        return cls(en=str(raw.get("en", "")), zh=str(raw.get("zh", raw.get("en", ""))))


@dataclass(frozen=True)
class FixOp:
    kind: str  # set | unset | env | unset_env | pin (a package's version: "vllm", "trl") | rename (value: the argument a misspelt one should be)
    # | container (an option of the site's `docker run`: engine/fix/container_edits.py)
    target: str
    value: Any = None
    value_from: str | None = None
    alternative: bool = False  # another way out instead of the rule's other changes: said, never written

    @classmethod
    def of(cls, raw: dict) -> "FixOp":
        if "set" in raw:
            return cls("set", raw["set"], raw.get("value"), raw.get("value_from"), bool(raw.get("alternative")))
        if "unset" in raw:
            return cls("unset", raw["unset"], alternative=bool(raw.get("alternative")))
        if "env" in raw:
            return cls("env", raw["env"], str(raw.get("value")), alternative=bool(raw.get("alternative")))
        if "pin" in raw:
            return cls("pin", raw["pin"], raw.get("value"), raw.get("value_from"), bool(raw.get("alternative")))
        if "container" in raw:
            return cls("container", raw["container"], str(raw.get("value")))
        return cls("unset_env", raw["unset_env"])

    @property
    def is_env(self) -> bool:
        return self.kind in ("env", "unset_env")


@dataclass
class Rule:
    status: str
    when: str
    reason: Text
    vllm: SpecifierSet | None = None
    priority: str | None = None
    fix: tuple[FixOp, ...] = ()
    safe: bool = False
    index: int = 0
    source: tuple[dict, ...] = ()  # where vLLM decides it: {release, file, line} or {url, title}
    # a rule of a CUDA-only check whose `when` names ROCm (`site.platform == "rocm"`) reads what
    # vLLM's shared code decides on both platforms (a backend's own metadata): judged on ROCm too
    rocm: bool = False


@dataclass
class Check:
    id: str
    name: str
    category: str
    title: Text
    advice: Text
    rationale: Text
    modes: tuple[str, ...]
    priority: str
    rules: list[Rule]
    otherwise_status: str
    otherwise_reason: Text
    sources: list[dict]
    cases: list[dict]
    file: str
    aliases: tuple[str, ...] = ()
    vllm: SpecifierSet | None = None
    outside_versions: Text | None = None
    error_text: tuple[dict, ...] = ()  # {text, vllm}: what vLLM prints when this launch fails
    raw: dict = field(default_factory=dict, repr=False)
    # read from vLLM's CUDA paths: `applies_to.cuda_only`, or a rule that reads the CUDA compute
    # capability or architecture; not judged on ROCm (engine/check/evaluate.py)
    cuda_only: bool = False
    # read from vLLM's GPU paths, CUDA's and ROCm's alike (CUDA/HIP graphs): `applies_to.gpu_only`; with
    # cuda_only, not judged where another platform's plugin or backend runs vLLM (TPU, Ascend NPU, Gaudi …)
    gpu_only: bool = False

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.id, self.name, *self.aliases)


# the GPU facts only a CUDA device has (an AMD GPU carries its gcnArchName instead)
_CUDA_FACTS = re.compile(r"\bgpu\.(?:compute_capability|arch)\b")


def _estimated(rule: dict) -> bool:
    """Whether a rule writes (not merely offers as an alternative) a value the memory estimate computed."""
    return any("memory." in str(f.get("value_from") or "") and not f.get("alternative") for f in rule.get("fix", []))


def _check_from(raw: dict, category: str, file: str) -> Check:
    applies = raw.get("applies_to", {})
    rules = []
    for i, r in enumerate(raw.get("rules", [])):
        rules.append(Rule(
            status=r["status"], when=r["when"], reason=Text.of(r.get("reason")),
            vllm=SpecifierSet(r["vllm"]) if r.get("vllm") else None,
            priority=r.get("priority"), fix=tuple(FixOp.of(f) for f in r.get("fix", [])),
            # a P0 means vLLM will not start without the fix (or a verified gain at no risk):
            # its fix is safe unless the rule says otherwise (engine/report/consistency.py) — or
            # writes a value the memory estimate computed (a max_model_len cut, a utilization):
            # that is this machine's guess, and changes what the launch serves, so only
            # --unsafe-fixes writes it (docs/cli.md, eval115: GKE adk-vllm's published context limit)
            safe=bool(r.get("safe", (r.get("priority") or raw.get("priority", "P2")) == "P0" and not _estimated(r))),
            index=i, source=tuple(r.get("source", ())), rocm='site.platform == "rocm"' in r["when"],
        ))
    other = raw.get("otherwise", {})
    return Check(
        id=raw["id"], name=raw["name"], category=category,
        title=Text.of(raw.get("title")), advice=Text.of(raw.get("advice")),
        rationale=Text.of(raw.get("rationale")), modes=tuple(applies.get("modes", ())),
        priority=raw.get("priority", "P2"), rules=rules,
        otherwise_status=other.get("status", "not_enabled"), otherwise_reason=Text.of(other.get("reason")),
        sources=list(raw.get("sources", [])), cases=list(raw.get("cases", [])), file=file,
        aliases=tuple(raw.get("aliases", ())),
        vllm=SpecifierSet(applies["vllm"]) if applies.get("vllm") else None,
        outside_versions=Text.of(applies["outside_versions"]) if applies.get("outside_versions") else None,
        error_text=tuple(raw.get("error_text", ())), raw=raw,
        cuda_only=bool(applies.get("cuda_only")) or any(_CUDA_FACTS.search(r.when) for r in rules),
        gpu_only=bool(applies.get("gpu_only")),
    )


class Registry:
    """Checks in knowledge order, addressable by id, kebab name or former alias."""

    def __init__(self, checks: list[Check]):
        self._checks = checks
        self._by_key: dict[str, Check] = {}
        problems = []
        for c in checks:
            for key in c.keys:
                other = self._by_key.get(key.lower())
                if other is not None and other is not c:
                    problems.append(Problem(c.file, c.id, "", f"duplicate id or name {key!r} (also {other.id} in {other.file})"))
                self._by_key[key.lower()] = c
        if problems:
            raise KnowledgeError(problems)

    def __iter__(self) -> Iterator[Check]:
        return iter(self._checks)

    def __len__(self) -> int:
        return len(self._checks)

    def get(self, key: str) -> Check:
        c = self._by_key.get(key.strip().lower())
        if c is None:
            raise UsageError(f"no such check: {key!r} (try `vllm-kb checks list`)")
        return c

    def find(self, key: str) -> Check | None:
        return self._by_key.get(key.strip().lower())

    def in_category(self, cat: str) -> list[Check]:
        return [c for c in self._checks if c.category == cat]


def load_yaml(*parts: str) -> yamlio.Document:
    name = resources.display_name("knowledge", *parts)
    try:
        return yamlio.load_cached(resources.read_text("knowledge", *parts))
    except yamlio.YamlError as e:
        where = f"{name}:{e.line}" if e.line else name
        raise KnowledgeError([Problem(where, "", "", str(e))]) from None
    except FileNotFoundError:
        raise KnowledgeError([Problem(name, "", "", "file is missing")]) from None


class Knowledge:
    def __init__(self) -> None:
        self.manifest = load_yaml("manifest.yaml").data
        self._docs: dict[str, yamlio.Document] = {}

    def doc(self, *parts: str) -> yamlio.Document:
        key = "/".join(parts)
        if key not in self._docs:
            self._docs[key] = load_yaml(*parts)
        return self._docs[key]

    @property
    def version(self) -> str:
        return str(self.manifest.get("knowledge_version"))

    @cached_property
    def categories(self) -> list[dict]:
        return list(self.doc("categories.yaml").data["categories"])

    def category(self, cid: str) -> dict:
        for c in self.categories:
            if c["id"] == cid:
                return c
        raise KnowledgeError([Problem("knowledge/categories.yaml", cid, "", "unknown category")])

    @cached_property
    def checks(self) -> Registry:
        out: list[Check] = []
        for cat in (c["id"] for c in self.categories):
            parts = ("checks", f"{cat}.yaml")
            data = self.doc(*parts).data or {}
            for raw in data.get("checks", []):
                out.append(_check_from(raw, cat, resources.display_name("knowledge", *parts)))
        return Registry(out)

    @cached_property
    def gpus(self) -> list[dict]:
        return list(self.doc("gpus.yaml").data["gpus"])

    @cached_property
    def models(self) -> list[dict]:
        return list(self.doc("models.yaml").data["families"])

    @cached_property
    def effective_defaults(self) -> list[dict]:
        return list(self.doc("vllm", "effective_defaults.yaml").data["defaults"])

    @cached_property
    def renames(self) -> dict[tuple[bool, str], dict]:
        """(is_env, name) → what replaced a removed option."""
        return {(bool(r.get("env")), r["name"]): r for r in self.doc("vllm", "renames.yaml").data["renames"]}

    @cached_property
    def value_renames(self) -> list[dict]:
        """Values vLLM replaced by another (a connector's V1 name): path, old, new, last."""
        return list(self.doc("vllm", "renames.yaml").data.get("values") or [])

    @cached_property
    def strings(self) -> dict[str, Text]:
        raw = self.doc("i18n.yaml").data["strings"]
        return {k: Text.of(v) for k, v in raw.items()}

    def t(self, _key: str, _lang: str, /, **kw) -> str:
        text = self.strings.get(_key)
        if text is None:
            raise KnowledgeError([Problem("knowledge/i18n.yaml", _key, "", "missing UI string")])
        s = text(_lang)
        return s.format(**kw) if kw else s


@lru_cache(maxsize=1)
def load() -> Knowledge:
    return Knowledge()
