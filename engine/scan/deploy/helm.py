"""Helm values of vLLM's own example chart: `image.command` is the argv."""
from __future__ import annotations

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.image_tables import image_ref
from vllm_kb.engine.scan.deploy.common import (
    launch_site,
    yaml_word,
)
from vllm_kb.engine.scan.deploy.kubernetes import resource_gpus
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Site


def scan_helm_chart(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    img = doc.data["image"]
    image = image_ref(img) if img.get("repository") else None
    words = [yaml_word(str(t), doc.line_of(("image", "command", i)), Expander()) for i, t in enumerate(img["command"])]
    extra = {"argv_pos": [doc.pos(("image", "command", i)) for i in range(len(words))],
             "argv_append": doc.pos(("image", "command"))}
    site = launch_site(ctx, rel, words, doc.line_of(("image", "command")), words[-1].line if words else 1,
                        "helm-values", "json", {}, image, extra)
    if site is not None:
        site.gpu_request = resource_gpus(doc.data.get("resources"))
    return [site] if site is not None else []
