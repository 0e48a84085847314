"""A compose service that is the project's workspace: another maker's image whose tag names the
vLLM release it holds, with the project's folder mounted into it and nothing of its own to run.

atbender/editorial-faithfulness runs its scripts in `modelscope:…-torch2.8.0-vllm0.11.0-modelscope1.32.0-
swift3.11.3`, a compose service with `volumes: [./:/workspace]`, `tty: true` and no command: the
scripts are started inside it (`docker exec`), so the vLLM they start is the image's 0.11.0, not the
newest a fresh `pip install vllm` would bring. Such a service names the release for the launches of
its folder as an image beside them does (engine/scan/image_beside.py: judged with the newest release's
facts beside it). Only an unambiguous tag counts (one vLLM release in it: images.image_version), and
only a service that mounts the compose file's own folder and runs no command but an idle shell.
"""
from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.images import image_version, is_vllm_like_image

_COMPOSE = re.compile(r"(?:^|/)(?:docker-)?compose(?:[.-][\w.-]+)?\.ya?ml$", re.I)
_HERE = frozenset((".", "./", "$PWD", "${PWD}", "$PWD/", "${PWD}/"))
# commands that keep a container up for `docker exec` and run nothing of the project's
_IDLE = frozenset(("bash", "sh", "/bin/bash", "/bin/sh", "sleep", "tail", "zsh", "/bin/zsh"))


def _mounts_here(svc: dict) -> bool:
    for v in svc.get("volumes") or ():
        if isinstance(v, str) and ":" in v and v.split(":", 1)[0] in _HERE:
            return True
        if isinstance(v, dict) and v.get("type", "bind") == "bind" and str(v.get("source", "")) in _HERE:
            return True
    return False


def _idle(svc: dict) -> bool:
    if svc.get("entrypoint") not in (None, "", []):
        return False
    cmd = svc.get("command")
    if cmd in (None, "", []):
        return True
    try:
        words = cmd if isinstance(cmd, list) else shlex.split(str(cmd))
    except ValueError:
        return False
    return bool(words) and str(words[0]) in _IDLE and (len(words) == 1 or str(words[0]) in ("sleep", "tail"))


def workspaces(files: list[str], read) -> list[tuple[str, str, str, int, str]]:
    """(folder, release, compose file, line, image) of each workspace service."""
    out = []
    for rel in files:
        if not _COMPOSE.search(rel):
            continue
        text = read(rel)
        if not text or "vllm" not in text.lower():
            continue
        try:
            doc = yamlio.load(text)
        except (yamlio.YamlError, ValueError, RecursionError):
            continue
        services = doc.data.get("services") if isinstance(doc.data, dict) else None
        if not isinstance(services, dict):
            continue
        for name, svc in services.items():
            image = svc.get("image") if isinstance(svc, dict) else None
            if not isinstance(image, str) or "$" in image or svc.get("build") or is_vllm_like_image(image):
                continue  # an image that serves vLLM itself is a launch (engine/scan/deploy/compose.py)
            release = image_version(image)
            if release and _idle(svc) and _mounts_here(svc):
                folder = str(PurePosixPath(rel).parent)
                out.append((folder, release, rel, doc.line_of(("services", str(name), "image")), image))
    return out
