"""Images whose tag names what they install by their maker's own numbering
(knowledge/deploy/framework_images.yaml): the vLLM and framework releases a tag says, and where
the maker says so."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb.versions import try_parse

__all__ = ["framework_image", "framework_image_package", "framework_image_source", "image_ref", "name_and_tag",
           "pypi_wheel_release", "unlisted_vendor_release"]


def name_and_tag(image: str | None) -> tuple[str, str]:
    """An image reference's name and tag (`rocm/vllm:v0.8.5` → rocm/vllm, v0.8.5; a registry's
    port is no tag; a digest is dropped)."""
    text = (image or "").strip().split("@", 1)[0]
    name, _, tag = text.rpartition(":") if ":" in text.rsplit("/", 1)[-1] else (text, "", "")
    return name, tag


def image_ref(image: Any) -> str | None:
    """A chart value's image as one reference: `{registry?, repository, tag}` (app-template, vLLM's
    example chart, most charts), `{image, tag}` or `{name, tag}` (Red Hat's vllm-kserve chart) →
    `repo:tag` (`repo@sha256:…` for a digest); a string as written; None for anything else. An empty
    tag (`tag: ""`, the chart's appVersion by convention) leaves the name untagged."""
    if isinstance(image, str):
        return image
    if not isinstance(image, dict):
        return None
    repo = next((image[k] for k in ("repository", "image", "name") if isinstance(image.get(k), str) and image[k].strip()), None)
    if repo is None:
        return None
    repo = repo.strip()
    if isinstance(image.get("registry"), str) and image["registry"] and not repo.startswith(image["registry"] + "/"):
        repo = f"{image['registry'].rstrip('/')}/{repo}"
    tag = image.get("tag")
    if not isinstance(tag, (str, int, float)) or isinstance(tag, bool) or not str(tag).strip() or name_and_tag(repo)[1]:
        return repo
    tag = str(tag).strip()
    return f"{repo}@{tag}" if tag.startswith("sha256:") else f"{repo}:{tag}"


def framework_image(image: str | None) -> dict[str, str]:
    """What a framework's image tag says it installs (knowledge/deploy/framework_images.yaml):
    {"vllm": release} and/or {framework package: release}; {} where its tag names no release."""
    from vllm_kb.engine.kb import deploy_tools

    name, tag = name_and_tag(image)
    out: dict[str, str] = {}
    for e in deploy_tools.load("framework_images")["images"] if tag else ():
        if not re.match(e["match"], name):
            continue
        if e.get("vllm") and (m := re.search(e["vllm"], tag)) and try_parse(m.group(1)) is not None:
            out["vllm"] = m.group(1)
        if e.get("release") and (m := re.search(e["release"], tag)) and try_parse(m.group(1)) is not None:
            if e.get("framework"):
                out[e["framework"]] = m.group(1)
            line = ".".join(m.group(1).split(".")[:2])
            if line in (e.get("lines") or {}):  # a framework's own numbering: its line's vLLM
                out["vllm"] = str(e["lines"][line])
        if e.get("releases") and (m := re.search(e["tag"], tag)):  # a vendor's release → its vLLM, by the vendor's notes
            out.update({"vllm": r[1] for r in e["releases"] if r[0] == m.group(1)})
        break
    return out


def framework_image_source(image: str | None) -> tuple[str, str] | None:
    """(vLLM release, where its maker says so) for an image whose tag the table maps to a vLLM
    release by the maker's own numbering (a release row, a line); None where the tag names vLLM's
    release itself or nothing."""
    from vllm_kb.engine.kb import deploy_tools

    name, tag = name_and_tag(image)
    for e in deploy_tools.load("framework_images")["images"] if tag else ():
        if not re.match(e["match"], name):
            continue
        if e.get("releases") and (m := re.search(e["tag"], tag)):
            return next(((str(r[1]), str(r[2])) for r in e["releases"] if r[0] == m.group(1)), None)
        if e.get("lines") and e.get("release") and (m := re.search(e["release"], tag)):
            line = ".".join(m.group(1).split(".")[:2])
            return (str(e["lines"][line]), str(e.get("source") or "")) if line in e["lines"] else None
        return None
    return None


def unlisted_vendor_release(image: str | None) -> str | None:
    """The vendor's own release an image's tag names (`nvcr.io/nvidia/vllm:26.02-py3` → 26.02) where the
    table knows the vendor's numbering but no row of that release: its vLLM is not known, and the report
    says whose release it is rather than "untagged" (eval115 M6: GKE nemo-rl-on-gke's NGC 26.02)."""
    from vllm_kb.engine.kb import deploy_tools

    name, tag = name_and_tag(image)
    for e in deploy_tools.load("framework_images")["images"] if tag else ():
        if not re.match(e["match"], name):
            continue
        if e.get("releases") and e.get("tag") and (m := re.search(e["tag"], tag)) \
                and not any(str(r[0]) == m.group(1) for r in e["releases"]):
            return m.group(1)
        return None
    return None


def framework_image_package(image: str | None, package: str) -> tuple[str, str] | None:
    """(release, where it is said) of a package an image whose tag counts its vendor's releases installs
    beside vLLM (`packages:` rows: KServe's huggingfaceserver keeps its uv.lock's bitsandbytes 0.45.5); None
    where the table does not say."""
    from vllm_kb.engine.kb import deploy_tools

    name, tag = name_and_tag(image)
    for e in deploy_tools.load("framework_images")["images"] if tag else ():
        if not re.match(e["match"], name):
            continue
        rows = (e.get("packages") or {}).get(package) or []
        if rows and e.get("tag") and (m := re.search(e["tag"], tag)):
            return next(((str(r[1]), str(r[2])) for r in rows if r[0] == m.group(1)), None)
        return None
    return None


def pypi_wheel_release(image: str | None) -> str | None:
    """The vLLM release an image installs as PyPI's wheel (`pypi_wheel: true` rows: Xinference's Dockerfile
    pip-installs its requirement file's `vllm==X`), whose kernels and torch are that wheel's; None where the
    table does not say the image holds the PyPI wheel (a vendor's own build: NGC, Triton, Dynamo)."""
    from vllm_kb.engine.kb import deploy_tools

    name, _ = name_and_tag(image)
    row = next((e for e in deploy_tools.load("framework_images")["images"] if re.match(e["match"], name)), None)
    if row is None or not row.get("pypi_wheel"):
        return None
    return framework_image(image).get("vllm")
