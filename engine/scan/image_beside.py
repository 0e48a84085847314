"""A launch that names no vLLM release, in a project whose container image names one.

A `serve.sh` beside a `Dockerfile` that is `FROM vllm/vllm-openai:v0.9.1` (or that installs
`vllm==0.9.1`) is usually run in that image — `docker run … bash serve.sh`, `docker exec`, a
platform that mounts the repository — but the script alone pins nothing, and a fresh `pip install
vllm` would bring the newest release. Judged as the newest only, an option the newest release
dropped was a certain refusal although the image the project builds accepts it (vLLM #17604
`--enable-reasoning` on v0.9.1, #30165 `--swap-space` on v0.10.2: both started).

So such a site is judged as the image's release, and with the newest release's facts beside it
(`between_releases` in engine/check/site_release.py): a P0 stays P0 only where both give it. Only images of
the site's own folder or a folder above it count (a monorepo's other services do not), and only
when those name one release; where they disagree the site stays unpinned.
"""
from __future__ import annotations

from pathlib import PurePosixPath

from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan.images import image_version, is_vllm_like_image
from vllm_kb.engine.scan.site import Site

BASIS = "image-beside"


def index(sites: list[Site], known: set[str]) -> dict[str, list[tuple[str, Site]]]:
    """folder → [(release, site)] of the sites whose image (or the image build's own install)
    names a known vLLM release."""
    out: dict[str, list[tuple[str, Site]]] = {}
    for s in sites:
        release = image_version(s.image) if s.image and is_vllm_like_image(s.image) else None
        if release is None and s.installed and s.installed[0] in known and not s.launch.get("installed_on_path"):  # an image build's, not a script's
            release = s.installed[0]
        if release in known:
            out.setdefault(str(PurePosixPath(s.file).parent), []).append((release, s))
    return out


def choice(site: Site, current: pins_mod.VersionChoice, found: dict[str, list[tuple[str, Site]]]):
    """The image release for a site with no pin, image or install of its own; else `current`."""
    if current.basis != "none" or site.image or site.installed or not found:
        return current
    folder = PurePosixPath(site.file).parent
    for d in (folder, *folder.parents):
        here = found.get(str(d))
        if not here:
            continue
        releases = {r for r, _ in here}
        if len(releases) != 1:
            return current  # the project's images disagree: which one runs the script is not known
        release, other = here[0]
        at_file, at_line = other.launch.get("image_at") or (other.file, other.line)
        text = other.image or (other.installed[2] if other.installed else "")
        return pins_mod.VersionChoice(release, False, BASIS,
                                      pins_mod.Pin(at_file, at_line, text, f"=={release}", "image", release))
    return current
