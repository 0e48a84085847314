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


@lru_cache(maxsize=1)
def _machines() -> dict[str, tuple[str, int]]:
    return {name.lower(): (fam["gpu"], int(n)) for fam in load("cloud_instances")["families"] for name, n in fam["sizes"].items()}


def machine_gpu(name: object) -> tuple[str, int] | None:
    """A cloud machine type (g5.12xlarge, ml.g5.2xlarge, Standard_NC24ads_A100_v4 or NC24ads_A100_v4,
    a3-highgpu-8g) → (GPU id, GPUs per machine); None for one knowledge/deploy/cloud_instances.yaml
    does not list."""
    if not isinstance(name, str) or not name.strip():
        return None
    key, table = name.strip().lower(), _machines()
    return table.get(key) or table.get(key.removeprefix("ml.")) or table.get("standard_" + key)
