"""Images the project builds itself, tied to their Dockerfile by the project's own build: a `docker
build -t NAME [-f FILE] CONTEXT` in a script, a Makefile (`IMAGE := vllm-warden:dev`, `-t $(IMAGE)`) or
a CI step, and a compose service's `build:` beside its `image:`. A container that runs such an image
with no command of its own runs what that Dockerfile's final stage says, not what its name suggests:
`vllm-warden:dev` built `FROM vllm/vllm-openai… ENTRYPOINT [] CMD ["uvicorn", …]` is the project's
own web app, no vLLM server (eval75 Podwarden/vllm-warden, eval68 vllm-optimizer). The tie is by the
image's repository name (`registry…/apps/vllm-warden:latest` is the `vllm-warden` the Makefile
builds); a name as common as `vllm` or `vllm-openai` ties only when written the same in full.
Only a final stage whose command plainly runs another program counts: one that starts vLLM, runs a
script (engine/scan/deploy/image_entry.py reads those) or is not read leaves the container as it was."""
from __future__ import annotations

import json
import posixpath
import re

from vllm_kb.engine.scan.image_tables import name_and_tag
from vllm_kb.engine.scan import own_image_builds


_GENERIC = frozenset({"vllm", "vllm-openai", "vllm-openai-rocm", "vllm-openai-cpu"})
_SCRIPTS = (".sh", ".bash", ".mk", ".yml", ".yaml")
_INSTALLS_VLLM = re.compile(r"install[^&;|]*(?<![\w/.-])vllm(?=$|[\s=<>~!\[\]\"'])")  # not vllm-gguf-plugin
_INTERPRETERS = re.compile(r"^(?:python[\d.]*|bash|sh|exec|uv|dumb-init|tini|--)$")


def runs_other_program(ctx, image: str | None) -> str | None:
    """The project Dockerfile the image is built from, when every such build ends in a command that
    is not vLLM's (a web app, a proxy); None otherwise."""
    builds = _for(ctx, image)
    if not builds or any(_program(ctx.read(df) or "") != "other" for df in builds):
        return None
    return builds[0]


def built(ctx, rel: str, run) -> tuple[str, None] | None:
    """The project Dockerfile a `docker run` of a local image runs (its ENTRYPOINT comes first): the
    one beside a script that runs the image with no arguments (docker_run.folder_build), else the one
    every build of that name in the project uses (build.sh's `docker build -t "${IMAGE_NAME}:latest" .`
    beside run.sh's `docker run … "$IMAGE" MODEL --flags`: jessedc/vllm-docker-gb10, eval77)."""
    from vllm_kb.engine.scan import docker_run

    got = docker_run.folder_build(ctx.file_set(), rel, run)
    if got is not None or run.image is None:
        return got
    builds = _for(ctx, run.image.value)
    return (builds[0], None) if len(builds) == 1 else None


def note_run(ctx, rel: str, lines: tuple[int, int], run, dockerfile: str, env: dict) -> None:
    """A `docker run` of an image the project builds, with no command of its own (or the image's script
    named as one: `docker run IMAGE /entrypoint.sh`) and an env of its own: the script that image's
    Dockerfile runs is read after the tree with that env (engine/scan/deploy/image_entry.py docker_runs).
    With no env it is the script's own launch, read once (tests/test_local_image_beside.py); a value not
    known here (`-e MODEL=$1`) still makes it a deployment of its own (civo-learn/civo-vllm-docker, eval77)."""
    if not run.facts.get("env_names") or len(run.argv) > 1 or run.argv and not (run.argv[0].value or "").endswith(".sh"):
        return
    given = {name for name, _v, _o in run.env}
    ctx.image_script_runs.append((rel, *lines, dockerfile, {k: v for k, v in env.items() if k in given},
                                  run.argv[0].value if run.argv else None, run.facts.get("gpu_count")))


def release_base(ctx, image: str | None = None, dockerfile: str | None = None) -> tuple[str, str, int] | None:
    """(the vLLM image it starts FROM, the Dockerfile, that FROM's line) of the project's builds of `image`
    that install no vLLM of their own, whatever they run: the release is the base's even where the build
    sets its own ENTRYPOINT (GenAIComps' opea/vllm-rocm, `FROM rocm/vllm:…_vllm0.8.3_…` with ENTRYPOINT
    ["python3", "/workspace/api_server.py"] copied from that vLLM; eval119). Only for the release: what
    the container runs is read as before."""
    got = {_base(df, ctx.read(df) or "", entry=False) for df in ([dockerfile] if dockerfile else _for(ctx, image))}
    return got.pop() if len(got) == 1 and None not in got else None


def base_of(ctx, image: str | None = None, dockerfile: str | None = None) -> tuple[str, str, int] | None:
    """(the vLLM image it starts FROM, the Dockerfile, that FROM's line) of the project's build of `image`
    (or of `dockerfile`) that keeps its base's entrypoint and installs no vLLM of its own: what runs in it
    is the base's release (`FROM vllm/vllm-openai:v0.25.1` + a plugin), not the newest one an untagged
    `vllm-warden:dev` would be read as. None where builds of that name disagree or one is not read so."""
    builds = [dockerfile] if dockerfile else _for(ctx, image)
    got = {_base(df, ctx.read(df) or "") for df in builds}
    return got.pop() if len(got) == 1 and None not in got else None


def _base(df: str, text: str, entry: bool = True) -> tuple[str, str, int] | None:
    from vllm_kb.engine.scan.images import is_vllm_like_image

    args: dict[str, str] = {}
    stages: dict[str, tuple] = {}
    cur: tuple | None = None  # (base image, its FROM line, whether it is kept as it is)
    for n, kw, arg in _instructions(text):
        if kw == "ARG" and cur is None and (a := re.match(r"(\w+)=(\S+)$", arg)):
            args.setdefault(a.group(1), a.group(2).strip("'\""))
        elif kw == "FROM":
            parts = [p for p in own_image_builds.expand(arg, args).split() if not p.startswith("--platform")]
            if not parts:
                return None
            cur = stages.get(parts[0].lower()) or (parts[0], n, True)
            if len(parts) >= 3 and parts[1].upper() == "AS":
                stages[parts[2].lower()] = cur
                alias = parts[2].lower()
            else:
                alias = None
        elif cur is not None and (entry and kw in ("ENTRYPOINT", "CMD") or kw == "RUN" and _INSTALLS_VLLM.search(arg)):
            cur = (cur[0], cur[1], False)
            if alias:
                stages[alias] = cur
    if cur is None or not cur[2] or "$" in cur[0] or not is_vllm_like_image(cur[0]):
        return None
    return cur[0], df, cur[1]


def _instructions(text: str):
    """(line, keyword, argument) of each Dockerfile instruction, continuation lines joined."""
    pending, start = "", 0
    for n, line in enumerate(text.splitlines(), 1):
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not pending:
            start = n
        pending += line.rstrip("\\").rstrip() + " " if line.rstrip().endswith("\\") else line
        if not line.rstrip().endswith("\\"):
            head, _, arg = pending.strip().partition(" ")
            yield start, head.upper(), arg.strip()
            pending = ""


def dockerfiles(ctx, image: str | None, docs: bool = False) -> list[str]:
    """The project Dockerfiles every build of `image` in the project uses (none where it is not built here);
    `docs`: also the builds its README and docs tell the reader to run (`docker build -t NAME -f FILE .`)."""
    return _for(ctx, image, docs)


def entry_program(ctx, image: str | None, depth: int = 0) -> tuple[str, str] | None:
    """("vllm", "ENTRYPOINT […]: Dockerfile:line") where every project build of `image` (scripts and docs)
    ends in a stage whose ENTRYPOINT is the `vllm` CLI alone (`ENTRYPOINT ["vllm"]`, so `command: [serve, …]`
    is `vllm serve`), ("other", …) where it is another program; None where no build is read or they disagree.
    A stage with no ENTRYPOINT of its own inherits its base's: followed into a base the project builds."""
    got = set()
    for df in _for(ctx, image, True):
        found: tuple | None = None
        args: dict[str, str] = {}
        stages: dict[str, tuple | None] = {}
        alias = None
        for n, kw, arg in _instructions(ctx.read(df) or ""):
            if kw == "ARG" and (a := re.match(r"(\w+)=(\S+)$", arg)):
                args.setdefault(a.group(1), a.group(2).strip("'\""))
            elif kw == "FROM":
                parts = [p for p in own_image_builds.expand(arg, args).split() if not p.startswith("--platform")]
                found = stages[parts[0].lower()] if parts and parts[0].lower() in stages else ("base", parts[0]) if parts else None
                alias = parts[2].lower() if len(parts) >= 3 and parts[1].upper() == "AS" else None
            elif kw == "ENTRYPOINT":
                try:  # the shell form runs `/bin/sh -c` and drops the command's arguments: another program
                    argv = json.loads(arg) if arg.startswith("[") else None
                except ValueError:
                    argv = None
                word = str(argv[0]).rsplit("/", 1)[-1] if isinstance(argv, list) and len(argv) == 1 else ""
                found = ("vllm" if word == "vllm" else "other", f"ENTRYPOINT {arg}: {df}:{n}")
            else:
                continue
            if alias:
                stages[alias] = found
        if found and found[0] == "base":
            found = entry_program(ctx, found[1], depth + 1) if depth < 3 and "$" not in found[1] else None
        got.add(found)
    return got.pop() if len(got) == 1 and None not in got else None


def _for(ctx, image: str | None, docs: bool = False) -> list[str]:
    name = name_and_tag(image)[0].strip().lower()
    if not name or "$" in name:
        return []
    index = _index_of(ctx, docs)
    base = name.rsplit("/", 1)[-1]
    return sorted({df for built, df in index.get(base, ()) if base not in _GENERIC or built == name})


def runs_built(ctx, text: str) -> bool:
    """A script that may `docker run` (or podman) an image the project builds: read as a launch although it
    never names vLLM (`docker run gb10:latest Qwen/… --max-model-len …` beside build.sh's `-t gb10:latest`);
    whether the build runs vLLM is decided where the run is read."""
    if "run" not in text or ("docker" not in text and "podman" not in text):
        return False
    return any(name in text for name in _index_of(ctx))


def _index_of(ctx, docs: bool = False) -> dict[str, list[tuple[str, str]]]:
    key = "_own_images_docs" if docs else "_own_images"
    index = ctx.__dict__.get(key)
    if index is None:
        index = ctx.__dict__[key] = _index(ctx, docs)
    return index


def _index(ctx, docs: bool = False) -> dict[str, list[tuple[str, str]]]:
    """repository name → [(the name as built, its Dockerfile)]; `docs`: with the builds markdown documents."""
    out: dict[str, list[tuple[str, str]]] = {}
    files = list(getattr(ctx, "files", None) or [])
    have = ctx.file_set()
    for rel in files:
        base = rel.rsplit("/", 1)[-1]
        if not (base.endswith(_SCRIPTS) or base.startswith(("Makefile", "makefile", "GNUmakefile", "justfile"))
                or docs and base.lower().endswith(".md")):
            continue
        text = ctx.read(rel)
        if not text or "build" not in text:
            continue
        for tag, df in own_image_builds.builds(ctx, rel, text, have):
            out.setdefault(tag.rsplit("/", 1)[-1], []).append((tag, df))
    return out


def yaml_candidate(ctx, rel: str, text: str) -> bool:
    """A YAML file that never names vLLM but runs an image the project builds from a Dockerfile that does:
    a compose service `build: .` over `FROM vllm/vllm-openai:v0.19.0` whose `command:` starts at `--model`
    (the image's ENTRYPOINT is vLLM's server; eval84, the aitherium Gemma 4 post's first form), or a
    manifest naming an image a project script builds so. Which of them really starts vLLM is decided by
    the compose and Kubernetes readers; this only keeps the file from being dropped unread."""
    if "image" not in text and "build" not in text:
        return False
    names = [n for n, built in _index_of(ctx).items() if n in text and any(_names_vllm(ctx, df) for _t, df in built)]
    if names:
        return True
    if "build" not in text or not re.search(r"^services\s*:", text, re.M):
        return False
    return any(_names_vllm(ctx, df) for _i, df in own_image_builds.compose_build_files(posixpath.dirname(rel), text, ctx.file_set()))


def _names_vllm(ctx, dockerfile: str) -> bool:
    return "vllm" in (ctx.read(dockerfile) or "").lower()


def _program(text: str) -> str | None:
    """"other" where the final stage sets a command that plainly runs another program than vLLM
    (`ENTRYPOINT []` + `CMD ["uvicorn", …]`, `ENTRYPOINT ["nginx", …]`); None where it keeps the base
    image's, starts vLLM, runs a script, or is not read."""
    stages: dict[str, tuple] = {}
    alias = None
    ep = cmd = None  # None: inherited from the base image; a list: set in the project's Dockerfile
    for raw in re.sub(r"\\[ \t]*\r?\n", " ", text).splitlines():
        head, _, arg = raw.strip().partition(" ")
        kw, arg = head.upper(), arg.strip()
        if kw == "FROM":
            parts = arg.split()
            parts = [p for p in parts if not p.startswith("--platform")]
            ep, cmd = stages.get(parts[0].lower(), (None, None)) if parts else (None, None)
            if len(parts) >= 3 and parts[1].upper() == "AS":
                stages[parts[2].lower()] = (ep, cmd)
                alias = parts[2].lower()
            else:
                alias = None
            continue
        if kw not in ("ENTRYPOINT", "CMD"):
            continue
        try:
            got = json.loads(arg) if arg.startswith("[") else ["/bin/sh", "-c", arg]
        except ValueError:
            return None
        if not isinstance(got, list) or not all(isinstance(x, str) for x in got):
            return None
        if kw == "ENTRYPOINT":
            ep, cmd = got, None  # a new ENTRYPOINT resets the CMD
        else:
            cmd = got
        if alias:
            stages[alias] = (ep, cmd)
    if ep is None:
        return None  # the base image's entrypoint stays (vLLM's, for a vLLM image)
    argv = ep + (cmd or [])
    if not argv:
        return "other"  # `ENTRYPOINT []` and no CMD: nothing of vLLM's runs
    if any("vllm" in w.lower() for w in argv):
        return None  # starts vLLM, or may
    words = [w for w in argv if not w.startswith("-")]
    if argv[0] in ("/bin/sh", "/bin/bash", "sh", "bash") and "-c" in argv:
        return None if re.search(r"\.(?:sh|py)\b", " ".join(argv)) else "other"
    if any(w.endswith((".sh", ".py")) for w in words[:3]) or not words:
        return None  # a script of its own: read where it lies
    return None if _INTERPRETERS.match(words[0].rsplit("/", 1)[-1]) else "other"
