"""kustomize overlays: a strategic-merge patch that gives a container its command is a site of its
own; the image it runs is the base's, rewritten by the overlay's `images:`."""
from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext


def overlay(ctx: ScanContext, rel: str) -> dict | None:
    """The kustomization in the file's folder that lists it as a patch, as data."""
    folder = PurePosixPath(rel).parent
    name = PurePosixPath(rel).name
    for k in ("kustomization.yaml", "kustomization.yml", "Kustomization"):
        path = k if folder.as_posix() == "." else f"{folder.as_posix()}/{k}"
        text = ctx.read(path) if (ctx.root / path).is_file() else None
        if not text:
            continue
        try:
            data = yamlio.load(text).data
        except yamlio.YamlError:
            return None
        if not isinstance(data, dict):
            return None
        patches = [p.get("path") if isinstance(p, dict) else p for p in (data.get("patches") or []) + (data.get("patchesStrategicMerge") or [])]
        if any(isinstance(p, str) and PurePosixPath(p).name == name for p in patches):
            return data | {"_folder": folder.as_posix()}
    return None


def image_for(ctx: ScanContext, kust: dict, kind: str | None, obj: str | None, container: str | None) -> str | None:
    """The base container's image (from the overlay's resources), after the `images:` rewrite."""
    base_image = None
    for res in kust.get("resources") or []:
        for rel, doc in _docs(ctx, kust["_folder"], str(res)):
            data = doc.data
            if isinstance(data, dict) and data.get("kind") == kind and (data.get("metadata") or {}).get("name") == obj:
                for c in _containers(data):
                    if c.get("name") == container and isinstance(c.get("image"), str):
                        base_image = c["image"]
    images = [i for i in kust.get("images") or [] if isinstance(i, dict)]
    for i in images:
        if base_image is None and len(images) == 1 or base_image is not None and base_image.split(":")[0] == i.get("name"):
            name = i.get("newName") or i.get("name") or ""
            tag = i.get("newTag")
            return f"{name}:{tag}" if tag else (i.get("digest") and f"{name}@{i['digest']}") or name
    return base_image


def _docs(ctx: ScanContext, folder: str, ref: str, depth: int = 0):
    path = PurePosixPath(folder) / ref
    norm = _norm(path)
    if norm is None or depth > 4:
        return
    if (ctx.root / norm).is_dir():
        sub = None
        for k in ("kustomization.yaml", "kustomization.yml"):
            if (ctx.root / norm / k).is_file():
                sub = f"{norm}/{k}"
        if sub is None:
            return
        try:
            data = yamlio.load(ctx.read(sub) or "").data
        except yamlio.YamlError:
            return
        for r in (data or {}).get("resources") or [] if isinstance(data, dict) else []:
            yield from _docs(ctx, norm, str(r), depth + 1)
        return
    text = ctx.read(norm) if (ctx.root / norm).is_file() else None
    if text:
        try:
            for d in yamlio.load_all(text):
                yield norm, d
        except yamlio.YamlError:
            return


def _norm(path: PurePosixPath) -> str | None:
    parts: list[str] = []
    for p in path.parts:
        if p == "..":
            if not parts:
                return None
            parts.pop()
        elif p not in (".", ""):
            parts.append(p)
    return "/".join(parts)


def _containers(data: dict):
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "containers" and isinstance(v, list):
                    yield from (c for c in v if isinstance(c, dict))
                elif isinstance(v, (dict, list)):
                    stack.append(v)
        elif isinstance(node, list):
            stack.extend(node)
