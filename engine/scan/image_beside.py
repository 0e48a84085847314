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

from collections.abc import Sequence
from pathlib import PurePosixPath

from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan.images import image_version, is_vllm_like_image
from vllm_kb.engine.scan.site import Site

BASIS = "image-beside"


def index(sites: list[Site], known: set[str], workspaces: Sequence[tuple[str, str, str, int, str]] = ()) -> dict[str, list[tuple]]:
    """folder → [(release, file, line, image text)] of the sites whose image (or the image build's own
    install) names a known vLLM release, and of the `workspaces` (folder, release, file, line, image:
    engine/scan/workspace_image.py) that mount a folder into an image naming one."""
    out: dict[str, list[tuple]] = {}
    for s in sites:
        release = image_version(s.image) if s.image and is_vllm_like_image(s.image) else None
        # an image build's, not a script's, nor what a Ray application installs for its own module (scan/ray_runtime_pins.py)
        if release is None and s.installed and s.installed[0] in known and not s.launch.get("installed_on_path") \
                and not s.launch.get("ray_runtime_env"):
            release = s.installed[0]
        if release in known:
            at_file, at_line = s.launch.get("image_at") or (s.file, s.line)
            text = s.image or (s.installed[2] if s.installed else "")
            out.setdefault(str(PurePosixPath(s.file).parent), []).append((release, at_file, at_line, text))
    for folder, release, at_file, at_line, text in workspaces:
        if release in known:
            out.setdefault(folder, []).append((release, at_file, at_line, text))
    return out


def choice(site: Site, current: pins_mod.VersionChoice, found: dict[str, list[tuple]]):
    """The image release for a site with no pin, image or install of its own; else `current`."""
    if current.basis != "none" or site.image or site.installed or not found:
        return current
    folder = PurePosixPath(site.file).parent
    for d in (folder, *folder.parents):
        here = found.get(str(d))
        if not here:
            continue
        releases = {h[0] for h in here}
        if len(releases) != 1:
            return current  # the project's images disagree: which one runs the script is not known
        release, at_file, at_line, text = here[0]
        return pins_mod.VersionChoice(release, False, BASIS,
                                      pins_mod.Pin(at_file, at_line, text, f"=={release}", "image", release))
    return current
