"""The image builds a project's own files run or declare: `docker build -t NAME [-f FILE] CONTEXT` lines of a
script, a Makefile or a CI step (their variables filled from the file's own assignments), and the compose
services whose `build:` names a project Dockerfile beside an `image:` (engine/scan/own_images.py indexes them)."""
from __future__ import annotations

import posixpath
import re
import shlex

from vllm_kb.engine.scan.image_tables import name_and_tag

BUILD = re.compile(r"\b(?:docker|podman|buildah)\s+(?:buildx\s+|image\s+)?(?:build|bud)\b")
_DEFAULTED = re.compile(r"\$\{\w+:?-([^${}]*)\}")


def builds(ctx, rel: str, text: str, have, tagged: bool = False) -> list[tuple[str, str]]:
    """(image name, Dockerfile) of each build the file runs or declares; `tagged`: the name with its tag
    as written (`mineru:latest`), where a compose service names none."""
    compose = rel.endswith((".yml", ".yaml")) and "compose" in rel.rsplit("/", 1)[-1] and not tagged
    found = _compose_builds(posixpath.dirname(rel), text, have) if compose else []
    # the indexes of scripts, of scripts and docs, and image_platform's tagged one read the same files: split once
    memo: dict[str, list[tuple[str, str]]] = ctx.__dict__.setdefault("_own_build_lines", {})
    if rel not in memo:
        memo[rel] = _build_lines(rel, text, have) if BUILD.search(text) else []
    names = ((tag.lower() if tagged else name_and_tag(tag)[0].lower(), df) for tag, df in memo[rel])
    return found + [(name, df) for name, df in names if name and "$" not in name]


def _build_lines(rel: str, text: str, have) -> list[tuple[str, str]]:
    """(tag as written, Dockerfile) of each `docker build` line of a script or document."""
    folder = posixpath.dirname(rel)
    found = []
    fetched = _fetched(text, have)
    values = _assignments(text)
    for line in re.sub(r"\\[ \t]*\r?\n", " ", text).splitlines():
        m = BUILD.search(line)
        if not m:
            continue
        try:
            words = shlex.split(expand(line[m.end():], values), comments=True)
        except ValueError:
            continue
        tags, file, context, i = [], None, None, 0
        while i < len(words):
            w = words[i]
            if w in ("&&", "||", ";", "|") or w.startswith((">", "2>")):
                break
            opt, eq, inline = w.partition("=")
            if w.startswith("-"):
                takes = not eq and opt in ("-t", "--tag", "-f", "--file") or not eq and opt in _TAKES
                value = inline if eq else (words[i + 1] if takes and i + 1 < len(words) else None)
                if opt in ("-t", "--tag") and value:
                    tags.append(value)
                elif opt in ("-f", "--file") and value:
                    file = value
                i += 2 if takes else 1
                continue
            if not re.fullmatch(r"\$\{?\w+\}?", w):  # `docker build $NO_CACHE … .`: a variable set to options, or to nothing
                context = context or w
            i += 1
        df = _dockerfile(folder, context, file, have) if context else None
        if df is None and context in (".", "./"):  # the project's Dockerfile the same text downloads first (MinerU's docs)
            df = fetched.get(file or "Dockerfile")
        if df is None:
            continue
        found += [(tag, df) for tag in tags]
    return found


# `docker build` options that take a value, besides the tag and the file (engine/scan/docker_run.BUILD_TAKES)
_TAKES = frozenset({"--build-arg", "--target", "--platform", "--network", "--label", "--cache-from", "--cache-to", "--secret",
                    "--ssh", "-o", "--output", "--progress", "--iidfile", "--shm-size", "--ulimit", "--add-host",
                    "--build-context", "--metadata-file", "--builder", "-m", "--memory", "--annotation", "--attest"})


def _dockerfile(folder: str, context: str, file: str | None, have) -> str | None:
    if "$" in context or "://" in context or (file and "$" in file):
        return None
    for base in dict.fromkeys((folder, "")):  # the file's folder, then the project root
        ctx_dir = posixpath.normpath(posixpath.join(base, context))
        path = posixpath.normpath(posixpath.join(base, file) if file else posixpath.join(ctx_dir, "Dockerfile"))
        if not path.startswith("..") and path in have:
            return path
    return None


def _compose_builds(folder: str, text: str, have) -> list[tuple[str, str]]:
    out = []
    for image, df in compose_build_files(folder, text, have):
        # `${REGISTRY:-opea}/vllm-rocm:${TAG:-latest}`: the name compose gives it when nothing is set
        name = name_and_tag(_DEFAULTED.sub(r"\1", image))[0].lower() if isinstance(image, str) else ""
        if name and "$" not in name:
            out.append((name, df))
    return out


def compose_build_files(folder: str, text: str, have) -> list[tuple[object, str]]:
    """(the service's `image:` value, its project Dockerfile) of each compose service with a `build:`."""
    from vllm_kb.engine.kb import yamlio

    try:
        data = yamlio.load(text).data
    except (yamlio.YamlError, RecursionError):
        return []
    services = data.get("services") if isinstance(data, dict) else None
    out = []
    for svc in services.values() if isinstance(services, dict) else ():
        if not isinstance(svc, dict) or not svc.get("build"):
            continue
        spec = svc["build"] if isinstance(svc["build"], dict) else {"context": svc["build"]}
        df = _dockerfile(folder, str(spec.get("context") or "."), str(spec.get("dockerfile") or "Dockerfile"), have) \
            if isinstance(spec.get("dockerfile") or "", str) else None
        if df:
            out.append((svc.get("image"), df))
    return out


_ASSIGN = re.compile(r"^[ \t-]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?::=|::=|\?=|=|:[ \t])[ \t]*(.*?)[ \t]*$", re.M)


def _fetched(text: str, have) -> dict[str, str]:
    """File name → the project file a `wget`/`curl` of the project's own repository downloads
    (`wget https://…/MinerU@master/docker/global/Dockerfile` then `docker build -f Dockerfile .`): the one
    project path the URL ends with; a name two downloads give differently names none."""
    out: dict[str, str | None] = {}
    for url in re.findall(r"\b(?:wget|curl)\b[^\n]*?(https?://\S+)", text):
        tail = url.split("?", 1)[0].rstrip("/'\"")
        got = [f for f in have if tail.endswith("/" + f)]
        if len(got) == 1:
            base = got[0].rsplit("/", 1)[-1]
            out[base] = got[0] if out.get(base, got[0]) == got[0] else None
    return {k: v for k, v in out.items() if v}


def _assignments(text: str) -> dict[str, str]:
    """NAME → value of the file's assignments written once (or always alike): `IMAGE := x`, `IMAGE=x`,
    a CI `IMAGE: x`."""
    seen: dict[str, set[str]] = {}
    for m in _ASSIGN.finditer(text):
        v = m.group(2).strip().strip("'\"")
        if v and "$" not in v and " " not in v:
            seen.setdefault(m.group(1), set()).add(v)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


def expand(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\$\((\w+)\)|\$\{(\w+)\}|\$(\w+)", lambda m: values.get(m.group(1) or m.group(2) or m.group(3), m.group(0)), text)
