"""What deployment tools do with their users' settings (knowledge/deploy/*.yaml): how each
release of a Helm chart renders the vLLM command. The scanners ask; the data says."""
from __future__ import annotations

from functools import lru_cache

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import SpecifierSet


@lru_cache(maxsize=None)
def load(name: str) -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "deploy", f"{name}.yaml")).data


def vendor_entrypoint(name: str) -> list[str] | None:
    """The ENTRYPOINT of a vendor's image built from vLLM (knowledge/deploy/vendor_images.yaml
    `entrypoint`), by the image's name without its tag; None where it is not recorded."""
    import re

    return next((list(e["entrypoint"]) for e in load("vendor_images")["images"]
                 if e.get("entrypoint") and re.match(e["match"], name)), None)


def vendor_torch(image: str | None) -> dict | None:
    """The torch a vendor image's build holds at its tag (knowledge/deploy/vendor_images.yaml `torch`):
    the row with `torch`, `torch_cuda`, `source`; None where no row names the tag."""
    import re

    text = (image or "").strip().split("@", 1)[0]
    name, _, tag = text.rpartition(":") if ":" in text.rsplit("/", 1)[-1] else (text, "", "")
    for e in load("vendor_images")["images"] if tag else ():
        if re.match(e["match"], name):
            return next((r for r in e.get("torch") or () if re.search(r["tags"], tag)), None)
    return None


def path_lacks(image: str | None, program: str) -> str | None:
    """The source saying a vendor image's tag has no `program` on PATH (knowledge/deploy/vendor_images.yaml
    `path_lacks`); None where no row names the tag."""
    import re

    text = (image or "").strip().split("@", 1)[0]
    name, _, tag = text.rpartition(":") if ":" in text.rsplit("/", 1)[-1] else (text, "", "")
    for e in load("vendor_images")["images"] if tag else ():
        if re.match(e["match"], name):
            return next((r["source"] for r in e.get("path_lacks") or ()
                         if r["program"] == program and re.search(r["tags"], tag)), None)
    return None


def xinference_checkpoint(name: object, size: object = None, fmt: object = None, quantization: object = None) -> str | None:
    """The Hugging Face checkpoint Xinference's registry names for `--model-name NAME
    --size-in-billions SIZE [--model-format F --quantization Q]` (knowledge/deploy/xinference_models.yaml,
    read from a release's llm_family.json): the pytorch spec's weights, or the prequantized repo of a
    gptq/awq/fp8/bnb spec; None for a name, size, format or quantization it does not list, or no
    size (or quantization) where the name has several."""
    if not isinstance(name, str):
        return None
    form = str(fmt or "pytorch").lower()
    table = load("xinference_models")
    if form == "pytorch":
        if str(quantization or "none").lower() != "none":
            return None
        return _one(_by_size(table["models"], name, size))
    formats = _by_size(table.get("quantized") or {}, name, size)
    quants = {k.lower(): v for k, v in ((formats or {}).get(form) or {}).items()}
    if quantization is None or str(quantization).strip() == "":
        return _one(quants)
    return quants.get(str(quantization).strip().lower())


def _by_size(models: dict, name: str, size: object):
    """The entry of `name` (any case) at `size` in billions; with no size, the only one."""
    sizes = {k.lower(): v for k, v in models.items()}.get(name.lower())
    if not sizes:
        return None
    if size is None or str(size).strip() == "":
        return next(iter(sizes.values())) if len(sizes) == 1 else None
    text = str(size).strip().replace("_", ".")
    if text.endswith(".0"):
        text = text[:-2]
    return sizes.get(text)


def _one(got):
    if isinstance(got, dict):
        return next(iter(got.values())) if len(got) == 1 else None
    return got


def xinference_release(name: object = None) -> str:
    """The Xinference release whose registry the table read `name` from: the newest one read, or the
    older one that alone lists it (`older`)."""
    table = load("xinference_models")
    older = {k.lower(): v for k, v in (table.get("older") or {}).items()}
    return str(older.get(str(name).lower()) or table["source"]["release"])


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
