"""What deployment tools do with their users' settings (knowledge/deploy/*.yaml): how each
release of a Helm chart renders the vLLM command. The scanners ask; the data says."""
from __future__ import annotations

from functools import lru_cache

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import SpecifierSet


@lru_cache(maxsize=None)
def load(name: str) -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "deploy", f"{name}.yaml")).data


def in_range(spec: str | None, version: str) -> bool:
    return not spec or SpecifierSet(spec).contains(version)
