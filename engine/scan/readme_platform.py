"""The accelerator a folder's README says its launches run on. A guide that pulls and runs a vendor's
vLLM image (om-ai-lab/VLM-R1 ascend_inference/300IDuo/README.md: `docker run … quay.io/ascend/
vllm-ascend:v0.10.0rc1-310p bash`, then `vllm serve` and an offline script in the same folder) runs
those launches inside that image, whatever Dockerfile the project keeps at its root. Only the README
files of the launch's own folder are read, only the images a `docker pull/run` (podman, nerdctl), a
`FROM` or an `image:` line names, and only where every vLLM image there is one platform other than
CUDA: a guide that names vllm/vllm-openai beside vllm-ascend says nothing about any one launch. A
folder's name (`ascend_inference`, `tpu/`) is not read: a sample's folder is a topic, not a machine."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan.images import is_vllm_image
from vllm_kb.engine.scan.platform_of import platform

_README = re.compile(r"^readme(?:[._-][\w-]+)?\.(?:md|rst|txt)$", re.I)
_IMAGE_LINE = re.compile(r"\b(?:docker|podman|nerdctl)\s+(?:pull|run|create)\b|^\s*FROM\s|\bimage:\s", re.I)
# an image reference: a registry or namespace path, an optional tag or digest (never a host path or an option)
_REF = re.compile(r"^[a-z0-9][\w.-]*(?::\d+)?(?:/[\w.-]+)+(?::[\w.-]+)?(?:@sha256:[0-9a-f]+)?$", re.I)


def _images(text: str) -> list[tuple[str, int]]:
    """(image, line) of each image reference a pull/run/FROM/image: line names; a command continued with
    `\\` is one line, numbered where it starts."""
    out: list[tuple[str, int]] = []
    joined, start = "", 0
    for n, line in enumerate(text.splitlines(), 1):
        if not joined:
            start = n
        joined += " " + line
        if line.rstrip().endswith("\\"):
            joined = joined.rstrip()[:-1]
            continue
        if _IMAGE_LINE.search(joined.strip()):
            for word in joined.split():
                word = word.strip("`'\",;()")
                if _REF.match(word):
                    out.append((word, start))
        joined = ""
    return out


def _readmes(ctx) -> dict[str, list[str]]:
    """The project's README files by folder, listed once per scan."""
    index = ctx.__dict__.get("_readme_index")
    if index is None:
        index = {}
        for f in getattr(ctx, "files", None) or []:
            base = f.rsplit("/", 1)[-1]
            if base[:6].lower() == "readme" and _README.match(base):
                index.setdefault(str(PurePosixPath(f).parent), []).append(f)
        ctx.__dict__["_readme_index"] = index
    return index


def folder_platform(ctx, rel: str) -> tuple[str, str, str] | None:
    """(platform, image, README file:line) for the launches in `rel`'s folder; None where its README
    files name no vLLM image, or images of CUDA or of two platforms."""
    folder = str(PurePosixPath(rel).parent)
    cache: dict = ctx.__dict__.setdefault("_readme_platforms", {})
    if folder in cache:
        return cache[folder]
    found: list[tuple[str, str, str]] = []
    for f in _readmes(ctx).get(folder, ()):
        text = ctx.read(f) or ""
        if "vllm" not in text.lower():
            continue
        for image, line in _images(text):
            plat = platform({}, {}, image)
            if plat != "cuda":
                found.append((plat, image.split("@")[0], f"{f}:{line}"))
            elif is_vllm_image(image):
                found.append(("cuda", image, f"{f}:{line}"))
    plats = {p for p, _i, _w in found}
    cache[folder] = found[0] if len(plats) == 1 and "cuda" not in plats else None
    return cache[folder]
