"""The platform of a container site read from the project Dockerfile its image is built from. A
project may hold one Dockerfile per accelerator (MinerU: CUDA, Ascend NPU, MLU, … each FROM another
vendor's vLLM image): its platform plugins (vllm-ascend) are then the project's, but a container built
from the CUDA one holds none of them. Where the compose service's `build:` names the Dockerfile, or
every build of the image's name *and tag* the project runs or documents (`docker build -t
mineru:latest -f Dockerfile .`) uses Dockerfiles that agree, the site takes that platform and those
Dockerfiles' plugins; anywhere else (no build, builds that disagree, a Dockerfile that installs a
requirements file or the project itself, whose plugins cannot be told) it keeps the project's."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import plugins as kb_plugins
from vllm_kb.engine.scan import own_image_builds
from vllm_kb.engine.scan.image_tables import name_and_tag

# an install whose packages the Dockerfile does not spell: a requirements file, the project's own tree
_UNSPELLED = re.compile(r"install[^&;|\n]*(?:\s-r\s|--requirement|\s-e\s|\s\.(?:\[|\s|$)|\s\./)")


def _tagged(ctx, image: str) -> list[str]:
    """The project Dockerfiles every build of exactly `image` (name and tag; no tag is latest) uses."""
    index: dict[str, set[str]] | None = ctx.__dict__.get("_tagged_builds")
    if index is None:
        index = {}
        ctx.__dict__["_tagged_builds"] = index
        have = ctx.file_set()
        for rel in getattr(ctx, "files", None) or []:
            base = rel.rsplit("/", 1)[-1]
            if not (base.endswith((".sh", ".bash", ".mk", ".md")) or base.startswith(("Makefile", "makefile", "justfile"))):
                continue
            text = ctx.read(rel)
            if not text or "build" not in text:
                continue
            for tag, df in own_image_builds.builds(ctx, rel, text, have, tagged=True):
                index.setdefault(_full(tag), set()).add(df)
    return sorted(index.get(_full(image), ()))


def _full(image: str) -> str:
    name, tag = name_and_tag(image.strip().lower())
    return f"{name}:{tag or 'latest'}"


def _of_dockerfile(ctx, df: str) -> tuple[str, frozenset[str]] | None:
    """(platform, platform plugins) the final stage's base image and installs give; None where unsure."""
    from vllm_kb.engine.scan.platform_of import PLATFORM_PLUGINS, platform
    from vllm_kb.engine.scan.deploy.dockerfile import _final_stage

    text = ctx.read(df)
    st = _final_stage(df, text, ctx.build_args.get(df)) if text else None
    if not st or not isinstance(st.get("image"), str) or "$" in st["image"] or _UNSPELLED.search(text or ""):
        return None
    plugins = frozenset(p for p in kb_plugins.packages_in(text or "", dockerfile=True) if p in PLATFORM_PLUGINS)
    return platform({}, {}, st["image"], None, plugins), plugins


def build_platform(ctx, site) -> tuple[str, list[str], frozenset[str]] | None:
    """(platform, the Dockerfiles, their platform plugins) of the site's image where unambiguous."""
    df = (site.source or {}).get("build_dockerfile")
    image = (site.source or {}).get("image_written") or site.image
    dfs = [df] if df else _tagged(ctx, image) if image and "$" not in image else []
    if not dfs:
        return None
    got = [_of_dockerfile(ctx, d) for d in dfs]
    known = [g for g in got if g is not None]
    if len(known) != len(got) or len({g[0] for g in known}) != 1:
        return None
    return known[0][0], dfs, frozenset().union(*(g[1] for g in known))
