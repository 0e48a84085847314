"""The environment a serverless platform gives an image that is configured only by env vars
(RunPod's worker-vllm, knowledge/deploy/env_images.yaml): the endpoint's variables are set in the
platform's console, not in the Dockerfile, and a project keeps them as an env file beside the
Dockerfile that names the image (`.env`, `endpoint.env`). On RunPod the endpoint's variables
override the image's ENV, so the file's values win. Several candidate files in that folder are
left alone: which one the endpoint uses cannot be told."""
from __future__ import annotations

from pathlib import PurePosixPath

from vllm_kb.engine.scan import envfile
from vllm_kb.engine.scan.site import Setting, Site


def _candidates(ctx, rel: str) -> list[str]:
    folder = PurePosixPath(rel).parent.as_posix()
    out = []
    for f in getattr(ctx, "files", None) or ():
        p = PurePosixPath(f)
        if p.parent.as_posix() == folder and (p.name == ".env" or p.name.endswith(".env")):
            out.append(f)
    return out


def endpoint_env(ctx, rel: str) -> dict[str, envfile.EnvValue]:
    """NAME → value of the one env file beside the Dockerfile `rel`; {} when there is none or several."""
    found = _candidates(ctx, rel)
    if len(found) != 1:
        return {}
    return {k: v for k, v in (envfile.load(ctx, found[0]) or {}).items() if v.value is not None}


def as_settings(values: dict[str, envfile.EnvValue]) -> dict[str, Setting]:
    return {k: Setting(k, v.value, True, v.file, v.line, k, v.raw, "env-file", f"from {v.where}") for k, v in values.items()}


def relocate(site: Site | None, values: dict[str, envfile.EnvValue], aliases: dict[str, str]) -> None:
    """The engine arguments the env file set are written there: a finding names that file and
    line, and a fix says where to change it instead of editing the Dockerfile."""
    if site is None or not values:
        return
    by_arg = {aliases.get(k) or k.lower(): v for k, v in values.items()}
    for s in site.settings.values():
        v = by_arg.get(s.name)
        if v is not None and s.file == site.file and s.line == v.line:
            s.file = v.file  # its syntax stays the site's: the worker hands it on as the image would
            s.pos = {**(s.pos or {}), "from_env": f"{v.name} at {v.where}"}
