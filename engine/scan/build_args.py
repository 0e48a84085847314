"""The values a compose file gives a Dockerfile's build arguments (`build: {context, args: {VLLM_VERSION:
0.8.5}}`): docker builds the Dockerfile with them, so `ARG VLLM_VERSION` then `RUN pip install
vllm==${VLLM_VERSION}` installs that release — a pin the Dockerfile alone leaves unreadable (or at
its `ARG` default, which the compose value replaces). A Dockerfile two services build with different
values of one argument gets neither: which build runs is not read here."""
from __future__ import annotations

from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio


def _compose_like(rel: str) -> bool:
    name = PurePosixPath(rel).name.lower()
    return name.endswith((".yml", ".yaml")) and "compose" in name


def _args(build) -> dict[str, str]:
    raw = build.get("args") if isinstance(build, dict) else None
    if isinstance(raw, dict):
        return {str(k): str(v) for k, v in raw.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)}
    if isinstance(raw, list):  # ["VLLM_VERSION=0.8.5"]
        return dict(str(x).split("=", 1) for x in raw if isinstance(x, str) and "=" in x)
    return {}


def values(ctx, files: list[str]) -> dict[str, dict[str, str]]:
    """Dockerfile → {argument: value} the project's compose files build it with."""
    from vllm_kb.engine.scan.deploy.dockerfile import build_dockerfile

    seen: dict[str, dict[str, set[str]]] = {}
    for rel in files:
        if not _compose_like(rel):
            continue
        text = ctx.read(rel)
        if not text or "args" not in text or "build" not in text:
            continue
        try:
            docs = yamlio.load_all(text)
        except (yamlio.YamlError, RecursionError):
            continue
        folder = PurePosixPath(rel).parent.as_posix()
        for doc in docs:
            services = doc.data.get("services") if isinstance(doc.data, dict) else None
            for svc in (services or {}).values() if isinstance(services, dict) else ():
                build = svc.get("build") if isinstance(svc, dict) else None
                given = _args(build)
                target = build_dockerfile(ctx, "" if folder == "." else folder, build) if given else None
                if target is None:
                    continue
                for k, v in given.items():
                    if "$" not in v:  # `${VLLM_VERSION}` from the shell or .env: not read here
                        seen.setdefault(target, {}).setdefault(k, set()).add(v)
    return {f: {k: next(iter(v)) for k, v in args.items() if len(v) == 1} for f, args in seen.items()}
