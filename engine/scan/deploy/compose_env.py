"""The environment a compose service gives the container it builds from a project Dockerfile: its
`env_file:` files, then its `environment:` (compose's own order, later winning), on top of the
image's `ENV`. A program that image's ENTRYPOINT/CMD runs (engine/scan/deploy/image_entry.py)
reads these through `os.environ`/`os.getenv` — the common wrapper that names its model only in a
`.env` beside the compose file (`MODEL=Qwen/…`, `env_file: .env`). A Dockerfile two services
build with their own environments is left alone: which one a site is cannot be told."""
from __future__ import annotations

from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import envfile
from vllm_kb.engine.scan.context import texts_with
from vllm_kb.engine.scan.deploy.compose import _env_files
from vllm_kb.engine.scan.deploy.dockerfile import build_dockerfile
from vllm_kb.engine.scan.site import Setting

_NAMES = ("docker-compose", "compose")


def services(ctx, needle: str):
    """(compose file, its document, the .env values beside it, its folder, service name, service) of
    every service of the project's compose files whose text holds `needle`."""
    composes = [rel for rel in getattr(ctx, "files", None) or [] if rel.rpartition("/")[2].startswith(_NAMES)]
    for rel, text in texts_with(ctx, composes, (".yml", ".yaml"), needle):
        try:
            doc = yamlio.load(text)
        except (yamlio.YamlError, RecursionError):
            continue
        found = doc.data.get("services") if isinstance(doc.data, dict) else None
        if not isinstance(found, dict):
            continue
        dotenv = envfile.values(envfile.load(ctx, envfile.beside(rel)))
        folder = PurePosixPath(rel).parent.as_posix()
        for name, svc in found.items():
            if isinstance(svc, dict):
                yield rel, doc, dotenv, folder, str(name), svc


def by_dockerfile(ctx) -> dict[str, dict[str, Setting]]:
    """Project Dockerfile → the environment the one compose service that builds it adds."""
    seen: dict[str, list[dict[str, Setting]]] = {}
    for rel, doc, dotenv, folder, name, svc in services(ctx, "build"):
        if not svc.get("build"):
            continue
        df = build_dockerfile(ctx, folder, svc["build"])
        if df:
            seen.setdefault(df, []).append(_service_env(ctx, rel, svc, dotenv, doc.line_of(("services", name))))
    return {df: envs[0] for df, envs in seen.items() if len(envs) == 1 or all(e == envs[0] for e in envs)}



def _service_env(ctx, rel: str, svc: dict, dotenv: dict[str, str], line: int) -> dict[str, Setting]:
    env = _env_files(ctx, rel, svc, dotenv)
    raw = svc.get("environment")
    items = raw.items() if isinstance(raw, dict) else ((str(e).partition("=")[0], str(e).partition("=")[2] if "=" in str(e)
                                                        else dotenv.get(str(e))) for e in raw) if isinstance(raw, list) else ()
    for k, v in items:
        k = str(k)
        value: str | None = None if v is None else str(v)
        if value is not None and "$" in value:
            try:
                value = envfile.interpolate(value, dotenv.get)
            except envfile._Missing:
                value = None
        env[k] = Setting(k, value, value is not None, rel, line, k, "" if v is None else str(v), "compose",
                         None if value is not None else "set where the service is started")
    return env
