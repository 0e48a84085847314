"""The values a compose file gives a Dockerfile's build arguments (`build: {context, args: {VLLM_VERSION:
0.8.5}}`): docker builds the Dockerfile with them, so `ARG VLLM_VERSION` then `RUN pip install
vllm==${VLLM_VERSION}` installs that release — a pin the Dockerfile alone leaves unreadable (or at
its `ARG` default, which the compose value replaces). A Dockerfile two services build with different
values of one argument gets neither: which build runs is not read here.

The same holds for a shell script's `docker build --build-arg VLLM_VERSION=0.8.5 [-f FILE] CONTEXT`, and for
a compose value `${VLLM_VERSION}` / `${VLLM_VERSION:-0.8.5}`: compose takes it from the `.env` beside the compose
file, else the default written after `:-` / `-`; with neither it stays unread."""
from __future__ import annotations

import posixpath
import shlex
from pathlib import PurePosixPath

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan import envfile
from vllm_kb.engine.scan.docker_run import BUILD_TAKES


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


def _substituted(v: str, env: dict[str, str]) -> str | None:
    """A compose value with its `${VAR}` / `${VAR:-default}` filled in as compose would; None where unread."""
    try:
        got = envfile.interpolate(v, env.get) if "$" in v else v
    except envfile._Missing:
        return None
    return got if got and "$" not in got else None


def _shell_builds(ctx, rel: str, text: str):
    """(Dockerfile, {argument: value}) of each `docker build` a shell script runs with --build-arg."""
    from vllm_kb.engine.scan.deploy.dockerfile import build_dockerfile

    folder = PurePosixPath(rel).parent.as_posix()
    for line in text.replace("\\\n", " ").splitlines():
        if "--build-arg" not in line or "docker" not in line:
            continue
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        at = next((i for i in range(len(words) - 1) if words[i] == "docker" and words[i + 1] in ("build", "buildx")), None)
        if at is None:
            continue
        args: dict[str, str] = {}
        dockerfile, positional = None, []
        rest = words[at + 2:]
        rest = rest[1:] if words[at + 1] == "buildx" and rest[:1] == ["build"] else rest
        i = 0
        while i < len(rest):
            w = rest[i]
            if w in ("&&", ";", "|", "||"):
                break
            if w == "--build-arg" and i + 1 < len(rest) or w.startswith("--build-arg="):
                kv = rest[i + 1] if w == "--build-arg" else w.split("=", 1)[1]
                i += 2 if w == "--build-arg" else 1
                k, eq, v = kv.partition("=")
                if eq and "$" not in v:
                    args[k] = v
                continue
            if w in ("-f", "--file") and i + 1 < len(rest):
                dockerfile, i = rest[i + 1], i + 2
                continue
            if w.startswith("-"):
                # an option with a value (-t NAME, --target X, --platform P) takes the next word
                i += 2 if w in BUILD_TAKES else 1
                continue
            positional.append(w)
            i += 1
        if not args or not positional or "$" in positional[-1]:
            continue
        context = positional[-1]
        if dockerfile and "$" not in dockerfile:
            # -f is relative to the directory docker runs in: the script's folder, else the project root
            name = posixpath.relpath(dockerfile, context) if not dockerfile.startswith("/") else None
            target = build_dockerfile(ctx, "" if folder == "." else folder, {"context": context, "dockerfile": name}) if name else None
        else:
            target = build_dockerfile(ctx, "" if folder == "." else folder, {"context": context})
        if target:
            yield target, args


def values(ctx, files: list[str]) -> dict[str, dict[str, str]]:
    """Dockerfile → {argument: value} the project's compose files and shell scripts build it with."""
    from vllm_kb.engine.scan.deploy.dockerfile import build_dockerfile

    seen: dict[str, dict[str, set[str]]] = {}
    for rel in files:
        if rel.endswith((".sh", ".bash")):
            text = ctx.read(rel)
            for target, given in _shell_builds(ctx, rel, text) if text and "--build-arg" in text else ():
                for k, v in given.items():
                    seen.setdefault(target, {}).setdefault(k, set()).add(v)
            continue
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
        env = envfile.values(envfile.load(ctx, envfile.beside(rel)))
        for doc in docs:
            services = doc.data.get("services") if isinstance(doc.data, dict) else None
            for svc in (services or {}).values() if isinstance(services, dict) else ():
                build = svc.get("build") if isinstance(svc, dict) else None
                given = _args(build)
                target = build_dockerfile(ctx, "" if folder == "." else folder, build) if given else None
                if target is None:
                    continue
                for k, v in given.items():
                    if (got := _substituted(v, env)) is not None:
                        seen.setdefault(target, {}).setdefault(k, set()).add(got)
    return {f: {k: next(iter(v)) for k, v in args.items() if len(v) == 1} for f, args in seen.items()}
