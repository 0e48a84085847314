"""`vllm serve --config /app/config.yaml` where /app/config.yaml is a container path: the project
file behind it is the one a bind mount puts there (compose `./config.yaml:/app/config.yaml`, either
volume syntax; `docker run -v "$PWD/cfg:/cfg"`) or a Dockerfile COPYs in (`COPY config.yaml
/app/config.yaml`). Read there, its settings count as a config written beside the launch would
(eval75 Shivam-Patel-LR/vLLM-deployments: TP 2 and max-model-len 65536 were not seen).

The container scanners know the mounts only once the site is built, so the file is merged after:
what the command line sets still wins, as in vLLM's own parser."""
from __future__ import annotations

import posixpath

from vllm_kb.engine.scan import serve_config
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.site import Site


def project_file(ctx: ScanContext, rel: str, path: str, mounts: dict | None) -> str | None:
    """The project file that container path `path` holds through `mounts` (container path →
    sources, as engine/scan/docker_run.add_mount writes them), relative to `rel`'s folder; None for
    a named volume, a host path outside the project, or no mount there."""
    if not path.startswith("/") or not mounts:
        return None
    path = posixpath.normpath(path)
    best: tuple[str, list] | None = None
    for target, sources in mounts.items():
        t = posixpath.normpath(str(target))
        if (path == t or path.startswith(t.rstrip("/") + "/")) and (best is None or len(t) > len(best[0])):
            best = (t, sources if isinstance(sources, list) else [sources])
    if best is None:
        return None
    rest = path[len(best[0]):].lstrip("/")
    found = set()
    for src in best[1]:
        # a bind source is a path (`./cfg`, `../x`); a word alone is a named volume, `~` the host's home
        if not isinstance(src, str) or not src.startswith(("./", "../")) and src not in (".", ".."):
            continue
        got = ctx.resolve_ref(rel, posixpath.join(src, rest) if rest else src)
        if got is not None:
            found.add(got)
    return found.pop() if len(found) == 1 else None


def merge(ctx: ScanContext, site: Site, mounts: dict | None, version: str | None = None) -> None:
    """Read the --config file `site` names by a container path, where `mounts` put a project file."""
    parsed = (site.source or {}).get("parsed")
    a = getattr(parsed, "config_path", None)
    if a is None or a.text is None or site.config_file is not None:
        return
    target = project_file(ctx, site.file, a.text, mounts)
    if target is None:
        return
    if version is None:
        from vllm_kb.engine.scan.images import image_version

        tag = image_version(site.image)
        version = ctx.catalog.resolve(tag).version if tag else ctx.version_for(site.file)
    got = serve_config.read_config(ctx, target, version)
    if got is None:
        return
    settings, unknown, model, style = got
    site.opaque = [o for o in site.opaque if not (o.get("code") == "config-missing" and o.get("what") == f"--config {a.text}")]
    site.config_file = target
    site.config_key_style = style
    for name, s in settings.items():
        if name not in site.settings:  # the command line wins over the config file
            site.set(s)
    for name, s in unknown.items():
        site.unknown.setdefault(name, s)
    site.launch["model_in_config"] = model is not None
    if model is not None and site.model is None:
        site.model = model
