"""Command lines held in the string values of a YAML or JSON file that no format scanner claims —
a recipe runner's `command: >` block, a job spec's `cmd`, an argv list — read as scripts on the lines
of the file that holds them (engine/scan/embedded.py), when they start vLLM: `vllm serve …` or
`python -m vllm.entrypoints…`. Whatever program reads the file, it hands that line to a shell or
to exec, so it is a launch site of its own."""
from __future__ import annotations

import re
import shlex
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.embedded import block_first_line, script_sites
from vllm_kb.engine.scan.image_tables import image_ref, name_and_tag
from vllm_kb.engine.scan.images import image_version, is_vllm_like_image
from vllm_kb.engine.scan.site import Site

# the start of a vLLM launch inside a longer text (after a shell separator, a quote or a path)
_LAUNCH = re.compile(r"(?:^|[\s;&|(\"'/=])(?:vllm\s+serve\b|python[\d.]*\s+(?:-\S+\s+)*-m\s+vllm\.entrypoints\.)")
_MAX_VALUES = 5000  # a data file with thousands of strings is no launch recipe: stop looking


def launches(text: str) -> bool:
    return ("vllm" in text) and _LAUNCH.search(text) is not None


def _values(data, path: tuple, budget: list[int]):
    """(path, text, is_argv) for every string and every list of strings, depth first."""
    if budget[0] <= 0:
        return
    budget[0] -= 1
    if isinstance(data, str):
        yield path, data, False
    elif isinstance(data, list):
        if data and all(isinstance(x, str) for x in data) and launches(" ".join(data)) and not any(launches(x) for x in data):
            yield path, shlex.join(data), True  # an argv list: ["vllm", "serve", "M", "--tp", "2"]
            return
        for i, x in enumerate(data):
            yield from _values(x, path + (i,), budget)
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from _values(v, path + (k,), budget)


# where a recipe runner keeps the values of its command's `{name}` placeholders (spark-vllm-docker's
# run-recipe.py: `defaults:` filled into `command:` with str.format; others name it vars/params)
_DEFAULTS_KEYS = ("defaults", "vars", "variables", "params", "parameters")
_PLACEHOLDER = re.compile(r"(?<![$\w{])\{([A-Za-z_]\w*)\}(?!\})")


def _defaults(data) -> dict[str, str]:
    if not isinstance(data, dict):
        return {}
    for k in _DEFAULTS_KEYS:
        got = data.get(k)
        if isinstance(got, dict):
            return {str(n): ("true" if v is True else "false" if v is False else str(v))
                    for n, v in got.items() if isinstance(v, (str, int, float, bool))}
    return {}


def _rayjob_head_image(data, path: tuple) -> str | None:
    """A KubeRay RayJob's `spec.entrypoint` runs as the Ray job's driver on the head node, in the head
    group's Ray container (the first): that image's vLLM, as a pod container's command runs its own
    (ray-operator: the submitter pod only submits it; https://docs.ray.io/en/latest/cluster/kubernetes/getting-started/rayjob-quick-start.html)."""
    if path != ("spec", "entrypoint") or not isinstance(data, dict) or data.get("kind") != "RayJob":
        return None
    node: Any = data
    for k in ("spec", "rayClusterSpec", "headGroupSpec", "template", "spec", "containers"):
        node = node.get(k) if isinstance(node, dict) else None
    head: dict = node[0] if isinstance(node, list) and node and isinstance(node[0], dict) else {}
    image = head.get("image")
    return image.strip() if isinstance(image, str) and image.strip() else None


_TAG_BESIDE = re.compile(r"^v?\d+(\.\d+)+(\.post\d+)?$")


def _doc_image(data) -> str | None:
    """The one vLLM image a document names (`base_image: {image: vllm/vllm-openai:v0.15.1}` of a
    serving platform's config): the container its command runs in. A tag that is itself a placeholder
    (`v{vllm_version}`, `${TAG}`) is filled at deploy time: read as an image of unknown release."""
    found: set[str] = set()
    budget = [_MAX_VALUES]

    def walk(node) -> None:
        budget[0] -= 1
        if budget[0] <= 0 or len(found) > 1:
            return
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "image" and (v := image_ref(v)) and v.strip():  # `image: {image|repository, tag}` of a chart's values too
                    name, tag = name_and_tag(v)
                    if not tag and _TAG_BESIDE.match(str(node.get("version") or "")):
                        # llmaz's BackendRuntime: `image: vllm/vllm-openai` with `version: v0.6.0`, which its
                        # controller appends to the image as the tag (api/inference/v1alpha1 BackendRuntimeSpec)
                        v = name = f"{v.strip()}:{node['version']}"
                    image = name if "{" in tag or "$" in tag else v.strip()
                    if is_vllm_like_image(image):
                        found.add(image)
                else:
                    walk(v)
        elif isinstance(node, list):
            for x in node:
                walk(x)

    walk(data)
    return found.pop() if len(found) == 1 else None


def scan(ctx: ScanContext, rel: str, doc: yamlio.Document, installed: str | None = None, rendered=None) -> list[Site]:
    """`installed`: the release the file itself installs (cerebrium.toml's pip table), under its image's;
    `rendered`: for a Helm chart's values, whether a template renders the value at a path (its site is that one)."""
    lines: list[str] | None = None
    out: list[Site] = []
    defaults = _defaults(doc.data)
    for path, text, argv in _values(doc.data, (), [_MAX_VALUES]):
        if not launches(text) or (rendered is not None and rendered(path)):
            continue
        if lines is None:
            lines = (ctx.read(rel) or "").splitlines()
        key_line = doc.line_of(path)
        first = key_line if argv else block_first_line(lines, key_line, text)
        known = None
        if _PLACEHOLDER.search(text):
            # `{tensor_parallel}` filled from the file's defaults, read as the variables they are; one
            # without a default is unknown, as an unset variable is (tandemn-tuna's Baseten template:
            # `{eager_flag}` is `--enforce-eager` or nothing, filled by str.format before the launch)
            # (an argv list's words are joined single-quoted: there the variable is spliced out of the quotes)
            text = _PLACEHOLDER.sub(lambda m: ("'\"${%s}\"'" if argv else "${%s}") % m.group(1), text)
            known = defaults or None
        image = _rayjob_head_image(doc.data, path) or _doc_image(doc.data)
        tag = image_version(image) if image else None
        version = ctx.catalog.resolve(tag).version if tag else installed
        for site in script_sites(ctx, rel, text, first, known=known, version=version):
            site.image = site.image or image
            site.mode_evidence = f"{rel}:{key_line} (a command line in `{'.'.join(str(p) for p in path)}`)"
            out.append(site)
    return out
