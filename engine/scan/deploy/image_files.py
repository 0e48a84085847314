"""Files an image copies in. A supervisord conf (or a unit, a Procfile) that the final stage of a
project's Dockerfile COPYs or ADDs runs inside that image, so its programs run the vLLM release the
image has — its tag (`FROM vllm/vllm-openai:v0.11.0`) or the `pip install vllm==X` of its RUN
lines — the way a container's own command does. The build context is taken as the Dockerfile's
folder (what `docker build .` beside it uses); `COPY --from=…` copies from another stage."""
from __future__ import annotations

import fnmatch
import json
import posixpath
import shlex
from pathlib import PurePosixPath

from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.dockerfile import _final_stage, _instructions, is_dockerfile


def image_of(ctx: ScanContext, rel: str) -> tuple[str, tuple | None] | None:
    """(base image, (release, "file:line", text) the image's RUN installs or None) of the first
    Dockerfile whose final stage copies `rel` in; None when none does."""
    for df in sorted(f for f in ctx.files if is_dockerfile(f)):
        text = ctx.read(df)
        if not text or not _copies(df, text, rel):
            continue
        st = _final_stage(df, text)
        if not st or not st.get("image"):
            continue
        installed = st.get("installed")
        return st["image"], ((installed[0], f"{df}:{installed[1]}", installed[2]) if installed else None)
    return None


def _copies(df: str, text: str, rel: str) -> bool:
    folder = str(PurePosixPath(df).parent)
    copied = False
    for ins in _instructions(text):
        if ins.kw == "FROM":
            copied = False  # only the final stage's files are in the image that runs
        elif ins.kw in ("COPY", "ADD") and any(_covers(folder, src, rel) for src in _sources(ins.arg)):
            copied = True
    return copied


def copied_paths(df: str, text: str, is_dir) -> dict[str, list[str]]:
    """Container path → the project paths (relative to the project root) the final stage copies
    there (`WORKDIR /app` + `COPY models/qwen ./models/qwen`, `COPY . /srv`): a directory source's
    contents land at the destination, a file source keeps its name under a destination ending in
    `/`. A program the image runs that opens a path there reads what lies in the project."""
    folder = str(PurePosixPath(df).parent)
    out: dict[str, list[str]] = {}
    workdir = "/"
    for ins in _instructions(text):
        if ins.kw == "FROM":
            out, workdir = {}, "/"
        elif ins.kw == "WORKDIR" and ins.arg.strip():
            workdir = posixpath.normpath(posixpath.join(workdir, ins.arg.strip().strip("'\"")))
        elif ins.kw in ("COPY", "ADD"):
            paths = _paths(ins.arg)
            srcs, dest = paths[:-1], paths[-1] if paths else ""
            if not srcs or "$" in dest or any(c in "".join(srcs) for c in "*?[$"):
                continue
            target = posixpath.normpath(posixpath.join(workdir, dest))
            for src in srcs:
                if "://" in src:
                    continue
                path = posixpath.normpath(posixpath.join(folder, src.lstrip("/")))
                where = posixpath.join(target, posixpath.basename(path)) if (dest.endswith("/") or dest in (".", "..")) and not is_dir(path) else target
                out.setdefault(where, []).append("" if path == "." else path)
    return out


def _paths(arg: str) -> list[str]:
    """The paths of a COPY/ADD (exec or shell form), sources then destination, flags dropped;
    none for `--from` (another stage's files) or fewer than two."""
    try:
        words = json.loads(arg) if arg.startswith("[") else shlex.split(arg, comments=False)
    except ValueError:
        return []
    if not isinstance(words, list):
        return []
    words = [str(w) for w in words]
    if any(w.startswith("--from") for w in words):
        return []
    paths = [w for w in words if not w.startswith("--")]
    return paths if len(paths) >= 2 else []


def _sources(arg: str) -> list[str]:
    """The source paths of a COPY/ADD (exec or shell form), flags dropped; none for `--from`."""
    return _paths(arg)[:-1]


def _covers(folder: str, src: str, rel: str) -> bool:
    """`src` (relative to the build context) is `rel`, a folder holding it, or a glob matching it."""
    if "://" in src or src.startswith("$"):
        return False
    path = posixpath.normpath(posixpath.join(folder, src.lstrip("/")))
    path = "" if path == "." else path
    if any(c in src for c in "*?["):
        return fnmatch.fnmatchcase(rel, path)
    return rel == path or not path or rel.startswith(path.rstrip("/") + "/")


def merge_copied_config(ctx: ScanContext, site, rel: str, text: str) -> None:
    """`--config /app/config.yaml` on the Dockerfile's own ENTRYPOINT/CMD, a file its final stage
    COPYs in: the project file copied there is read (engine/scan/mounted_config.py)."""
    from vllm_kb.engine.scan import mounted_config

    if getattr((site.source or {}).get("parsed"), "config_path", None) is None:
        return
    files = ctx.file_set()
    copies = copied_paths(rel, text, lambda p: p in ("", ".") or any(f.startswith(p.rstrip("/") + "/") for f in files))
    here = posixpath.dirname(rel)
    mounts = {t: [r if r.startswith("..") or r == "." else "./" + r for r in (posixpath.relpath(s or ".", here or ".") for s in srcs)]
              for t, srcs in copies.items()}
    mounted_config.merge(ctx, site, mounts)
