"""The Xinference server an `xinference launch` goes to: the launch is a client (it asks a running
server, `--endpoint` or the local default, to start the model), so the vLLM that runs is the one in
the server's image. A project that starts exactly one Xinference image release (a compose service,
a Kubernetes container, a `docker run`) names it; the release that image installs
(knowledge/deploy/framework_images.yaml) is the launch's. Several releases, or none, say nothing."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.context import texts_with
from vllm_kb.engine.scan.images import image_version

_IMAGE = re.compile(r"(?<![\w./-])((?:[\w.-]+(?::\d+)?/)?(?:xprobe/xinference|xprobe_xinference/xinference):[\w.+-]+)")
_FILES = (".yml", ".yaml", ".sh", ".bash", "Dockerfile", ".dockerfile")


def server_images(ctx) -> list[tuple[str, int, str, str]]:
    """(file, line, image, vLLM release) of each Xinference image the project starts whose release is known."""
    got = ctx.__dict__.get("_xinference_servers")
    if got is None:
        got = []
        for rel, text in texts_with(ctx, ctx.files, _FILES, "xinference"):
            for m in _IMAGE.finditer(text):
                v = image_version(m.group(1))
                if v:
                    got.append((rel, text.count("\n", 0, m.start()) + 1, m.group(1), v))
        ctx.__dict__["_xinference_servers"] = got
    return got


def server_release(ctx) -> tuple[str, int, str, str] | None:
    """The one Xinference image release the project starts, or None (none, or several vLLM releases)."""
    found = server_images(ctx)
    return found[0] if found and len({v for *_, v in found}) == 1 else None
