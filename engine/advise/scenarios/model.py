"""The scenario templates of knowledge/scenarios.yaml as data: conditions, the settings each
scenario writes (with their release ranges), its templates per target syntax."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.errors import KnowledgeError, Problem, UsageError
from vllm_kb.engine.kb.knowledge import Text
from vllm_kb.engine.kb.versions import SpecifierSet

FILE = "knowledge/scenarios.yaml"
# What `plan` holds (CEL and placeholders may read only these).
PLAN_FIELDS = ("tp", "pp", "dp", "gpus", "sized", "fits", "kv_tokens", "max_concurrency", "max_model_len",
               "weights_per_gpu_gib", "kv_cache_gib")
PARALLEL_ARGS = ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size")
TARGETS = ("cli", "python", "yaml", "framework", "trainer", "trl_serve")
DEFAULT_RENDER = {"cli": ["cli"], "python": ["python"], "yaml": ["yaml_file", "yaml_command"],
                  "framework": ["framework"], "trainer": ["trainer"], "trl_serve": ["trl_serve"]}
KEYWORD_SCORE = 2  # a description (MCP) that names a scenario's keyword


# --- the knowledge ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Condition:
    when: str
    why: Text
    score: int = 0


@dataclass(frozen=True)
class Item:
    """An engine argument or env var a scenario sets."""

    name: str
    value: Any = None
    value_from: str | None = None
    when: str | None = None
    vllm: SpecifierSet | None = None
    env: bool = False

    def predicates(self) -> list[str]:
        return [p for p in (self.when, self.value_from) if p]


@dataclass
class Scenario:
    id: str
    name: str
    title: Text
    description: Text
    seed: str
    modes: tuple[str, ...]
    vllm: SpecifierSet
    parallel: str
    score: int
    requires: list[Condition]
    prefers: list[Condition]
    args: list[Item]
    env: list[Item]
    framework_keys: dict[str, list[dict]]
    render: dict[str, list[str]]
    notes: list[tuple[str | None, Text]]
    corrections: list[Text]
    sources: list[dict]
    cases: list[dict]
    keywords: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    index: int = 0

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.id, self.name, *self.aliases)

    def templates_for(self, target: str, framework: str) -> list[str]:
        return self.render.get(f"{target}.{framework}") or self.render.get(target) or DEFAULT_RENDER[target]


def _item(raw: dict, env: bool = False) -> Item:
    return Item(name=raw["env" if env else "arg"], value=raw.get("value"), value_from=raw.get("value_from"),
                when=raw.get("when"), vllm=SpecifierSet(raw["vllm"]) if raw.get("vllm") else None, env=env)


def _cond(raw: dict) -> Condition:
    return Condition(raw["when"], Text.of(raw["why"]), int(raw.get("score", 0)))


def _scenario(raw: dict, index: int) -> Scenario:
    return Scenario(
        id=raw["id"], name=raw["name"], title=Text.of(raw["title"]), description=Text.of(raw["description"]),
        seed=raw.get("seed", ""), modes=tuple(raw["modes"]), vllm=SpecifierSet(raw["vllm"]), parallel=raw["parallel"],
        score=int(raw.get("score", 0)), requires=[_cond(c) for c in raw.get("requires", [])],
        prefers=[_cond(c) for c in raw.get("prefers", [])], args=[_item(a) for a in raw.get("args", [])],
        env=[_item(e, env=True) for e in raw.get("env", [])], framework_keys=dict(raw.get("framework_keys") or {}),
        render=dict(raw.get("render") or {}), notes=[(n.get("when"), Text.of(n["text"])) for n in raw.get("notes", [])],
        corrections=[Text.of(c) for c in raw.get("corrections", [])], sources=list(raw.get("sources", [])),
        cases=list(raw.get("cases", [])), keywords=tuple(raw.get("keywords", ())), aliases=tuple(raw.get("aliases", ())),
        index=index)


class Scenarios:
    """The scenarios in knowledge order, by id, kebab name or alias; duplicates fail at load."""

    def __init__(self, scenarios: list[Scenario], templates: dict[str, dict]):
        self._list = scenarios
        self.templates = templates
        self._by_key: dict[str, Scenario] = {}
        problems = []
        for s in scenarios:
            for key in s.keys:
                other = self._by_key.get(key.lower())
                if other is not None and other is not s:
                    problems.append(Problem(FILE, s.id, "", f"duplicate id or name {key!r} (also {other.id})"))
                self._by_key[key.lower()] = s
        if problems:
            raise KnowledgeError(problems)

    def __iter__(self):
        return iter(self._list)

    def __len__(self) -> int:
        return len(self._list)

    def get(self, key: str) -> Scenario:
        s = self._by_key.get(key.strip().lower())
        if s is None:
            raise UsageError(f"no such scenario: {key!r} (scenarios: {', '.join(x.id for x in self._list)})")
        return s


def parse(data: dict) -> Scenarios:
    return Scenarios([_scenario(r, i) for i, r in enumerate(data["scenarios"])], dict(data["templates"]))


@lru_cache(maxsize=1)
def load() -> Scenarios:
    try:
        doc = yamlio.load_cached(resources.read_text("knowledge", "scenarios.yaml"))
    except yamlio.YamlError as e:
        raise KnowledgeError([Problem(f"{FILE}:{e.line}" if e.line else FILE, "", "", str(e))]) from None
    return parse(doc.data)
