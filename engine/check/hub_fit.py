"""transformers 5 forced into a container whose huggingface_hub is 0.x (check L155).

The usual way to read a model type newer than an image's transformers is to install transformers in
the container's command before `vllm serve`; with `--no-deps` pip leaves the image's huggingface_hub
alone. Every transformers 4.x from 4.55 requires huggingface-hub<1.0 and every 5.x huggingface-hub>=1.3
(their wheels' METADATA on PyPI), and transformers 5 imports names only huggingface_hub 1.x has
(`is_offline_mode`), so `import transformers` fails as vLLM starts. The image's transformers is 4.x
where its vLLM release requires transformers<5 (0.11.1-0.19.x: knowledge/vllm/model_types.yaml
vllm_requires) or where the image was built before transformers 5.0.0 reached PyPI."""
from __future__ import annotations

import re
from datetime import date
from typing import Any

from vllm_kb.engine.check.transformers_fit import release_requires
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, Version

_IMAGE = re.compile(r"^(?:docker\.io/)?vllm/vllm-openai:v?(\d+\.\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)$")
HUB_FOR_5 = "1.3.0"
# transformers X.Y.0 (from which on) → the huggingface-hub its wheel requires (METADATA Requires-Dist, read from
# 5.0.0, 5.3.0, 5.4.0, 5.5.0, 5.10.4, 5.13.0, 5.17.0, 5.18.0, 5.19.0, 5.21.0, 5.23.0, 5.24.0 and 5.25.0)
_HUB_REQUIRES = (("5.0.0", "1.3.0", "2.0"), ("5.4.0", "1.5.0", "2.0"), ("5.18.0", "1.31.0", "3.0"), ("5.25.0", "2.4.0", "3.0"))
_FIVES = ("5.0.0", "5.5.0", "5.5.1", "5.6.0", "5.10.0", "5.99.0")  # a requirement admitting any: the image holds a 5.x  # transformers 5.0.0's Requires-Dist: huggingface-hub<2.0,>=1.3.0


def _only_5(spec: str) -> bool:
    """Whether the spec admits transformers 5 and no 4.x (an empty one: pip's newest, a 5.x today)."""
    if not spec:
        return True
    try:
        ss = SpecifierSet(spec)
    except InvalidSpecifier:
        return False
    return not any(ss.contains(v) for v in ("4.57.6", "4.99.0")) and any(ss.contains(v) for v in ("5.0.0", "5.5.0", "5.99.0"))


def _hub_ok(spec: str) -> bool:
    try:
        return not spec or SpecifierSet(spec).contains("1.99.0") or SpecifierSet(spec).contains(HUB_FOR_5)
    except InvalidSpecifier:
        return True


def hub_fit(site, table: dict, vllm_released: dict) -> dict[str, Any]:
    """launch.hub_short / hub_tf / hub_image / hub_release for a site whose command installs
    transformers 5 with --no-deps over a vLLM image whose transformers (and so huggingface_hub) is older."""
    # the build's installs over the vLLM image (a Dockerfile's RUN), then the container command's
    entry = (site.launch.get("image_installs") or []) + (site.launch.get("entry_installs") or [])
    tf = [i for i in entry if i["package"] == "transformers"]
    if not tf or not tf[-1]["no_deps"] or not _only_5(tf[-1]["spec"]):
        return {}
    if any(i["package"] == "huggingface-hub" and _hub_ok(i["spec"]) for i in entry):
        return {}  # the command brings the huggingface_hub transformers 5 needs
    m = _IMAGE.match(site.image or "")
    if m is None:
        return {}  # another image: what it holds is not known
    release = m.group(1)
    requires = release_requires(table.get("vllm_requires") or {}, release)
    built = vllm_released.get(release)
    five = (table.get("released") or {}).get("5.0.0")
    try:
        tf4 = isinstance(requires, str) and not any(SpecifierSet(requires).contains(v) for v in _FIVES)
    except InvalidSpecifier:
        tf4 = False
    if not tf4 and not (built and five and date.fromisoformat(str(built)) < date.fromisoformat(str(five))):
        return {}
    return {"hub_short": True, "hub_tf": tf[-1]["text"], "hub_image": site.image, "hub_release": release,
            "hub_need": hub_need(tf[-1]["spec"], table.get("released") or {})}


def _hub_of(release: str) -> tuple[str, str]:
    got = _HUB_REQUIRES[0][1:]
    for first, floor, cap in _HUB_REQUIRES:
        if Version(release) >= Version(first):
            got = (floor, cap)
    return got


def hub_need(spec: str, released: dict) -> str:
    """The huggingface-hub to install beside transformers `spec`: the floor of the oldest 5.x it admits, so
    that pip brings its newest huggingface_hub for the newest transformers it brings, and the cap of the newest
    where the spec bounds transformers from above (`==5.5.0` → `>=1.5.0,<2.0`)."""
    try:
        ss = SpecifierSet(spec)
    except InvalidSpecifier:
        return f">={HUB_FOR_5}"
    known = sorted({*released, *re.findall(r"\d+\.\d+(?:\.\d+)?", spec)}, key=Version)
    admitted = [v for v in known if Version(v) >= Version("5.0.0") and ss.contains(v)]
    if not admitted:
        return f">={HUB_FOR_5}"
    floor = _hub_of(admitted[0])[0]
    return f">={floor},<{_hub_of(admitted[-1])[1]}" if re.search(r"<|==|~=", spec) else f">={floor}"
