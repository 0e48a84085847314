"""What each vLLM release's CUDA build requires of torch and of the packages compiled against one
torch (knowledge/vllm/dependency_pins.yaml, built by tools/vllm_dependency_pins.py from every
release's requirement files), and which of a project's pins are read for them."""
from __future__ import annotations

from functools import lru_cache

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, try_parse

# Packages whose wheels are built against one torch (or are torch): a project's pin of one of them
# beside vLLM's own decides whether pip installs the pair, and whether vLLM's kernels still load.
PACKAGES = ("torch", "torchvision", "torchaudio", "xformers", "vllm-flash-attn", "flashinfer-python")


@lru_cache(maxsize=1)
def _table() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "dependency_pins.yaml")).data


@lru_cache(maxsize=256)  # asked per site, of the few releases a project pins
def requires(release: str) -> dict[str, dict]:
    """package → {spec, at} for the release (empty when its sdist had no requirement file)."""
    pins = _table().get("pins") or {}
    return dict(pins.get(str(release)) or {})


def admits_torch(release: str, torch: str) -> bool | None:
    """Whether the release's own torch requirement admits that torch (a local build tag such as
    `+cu121` is the same release to pip); None where the release states none or it cannot be read."""
    spec = (requires(release).get("torch") or {}).get("spec")
    want = try_parse(str(torch).split("+", 1)[0])
    if not spec or want is None:
        return None
    try:
        return SpecifierSet(spec).contains(str(want))
    except InvalidSpecifier:
        return None
