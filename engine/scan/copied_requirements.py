"""A requirements file that a Dockerfile copies into the image and installs there (`COPY
builder/requirements.txt /requirements.txt` then `RUN pip install -r /requirements.txt`): what it
pins is what the image holds, so its pins stand for the Dockerfile's folder, where the image's
sites are, not only for the folder the file sits in (RunPod's worker-vllm keeps its transformers
pin in builder/ and its handler in src/; the pin was read for builder/ alone)."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePosixPath

from vllm_kb.engine.scan.pip_lines import pip_commands

_COPY = re.compile(r"^\s*(?:COPY|ADD)\s+(?:--\S+\s+)*(?P<args>.+?)\s*$", re.I)
_REQ_FLAGS = ("-r", "--requirement", "-c", "--constraint")


def _norm(path: str) -> str:
    return PurePosixPath(path.strip("'\"")).as_posix().lstrip("./") if path else ""


def _copies(text: str) -> list[tuple[str, str]]:
    """(source in the build context, destination in the image) of each COPY/ADD of one file."""
    out = []
    for line in text.splitlines():
        m = _COPY.match(line)
        if not m or m["args"].startswith("["):
            continue
        parts = m["args"].split()
        if len(parts) != 2 or "--from" in line:
            continue  # several sources into a folder, or a stage's files: not one project file
        out.append((parts[0], parts[1]))
    return out


def _installed(text: str) -> list[str]:
    """The paths the RUN lines' pip installs read with -r/-c, in the Dockerfile's order: a list, not
    a set, so that which of them a `COPY . .` stands for does not follow the string hash seed."""
    out: dict[str, None] = {}
    for _, _, _, words in pip_commands(text):
        for i, w in enumerate(words):
            if w in _REQ_FLAGS and i + 1 < len(words):
                out[words[i + 1]] = None
            elif w.startswith(tuple(f + "=" for f in _REQ_FLAGS)) or w.startswith("-r") and len(w) > 2 and not w.startswith("--"):
                out[w.split("=", 1)[1] if "=" in w else w[2:]] = None
    return list(out)


def pins(files: list[str], read, all_pins: list) -> list:
    """Copies of the pins of each requirements file a Dockerfile copies and installs, standing for the
    Dockerfile's folder; a file beside the Dockerfile keeps its pins, marked as installed in the image."""
    from vllm_kb.engine.scan.pins import is_dockerfile

    by_file: dict[str, list] = {}
    for p in all_pins:
        by_file.setdefault(p.file, []).append(p)
    out: list = []
    for rel in files:
        if not is_dockerfile(rel):
            continue
        text = read(rel)
        if not text or not re.search(r"^\s*(?:COPY|ADD)\s", text, re.I | re.M) or "-r" not in text and "--requirement" not in text:
            continue
        folder = PurePosixPath(rel).parent.as_posix()
        folder = "" if folder == "." else folder
        installed = list(dict.fromkeys(_norm(p) for p in _installed(text)))
        for src, dst in _copies(text):
            source = _source(folder, src, dst, installed, by_file)
            if source is None:
                continue
            for p in by_file.get(source, []):
                if p.above:
                    continue
                if p.folder == folder:
                    p.installed_in = folder  # read for this folder already: marked as the image's own
                else:
                    out.append(replace(p, installed_in=folder))
    return out


def _source(folder: str, src: str, dst: str, installed: list[str], by_file: dict) -> str | None:
    """The project file that a COPY of `src` to `dst` puts where a pip install reads it: one file
    (to its name, or into a folder: `COPY requirements.txt .`), or one inside a copied folder
    (`COPY . /app` then `-r /app/requirements.txt`); a WORKDIR-relative path matches by name."""
    into = dst in (".", "./") or dst.endswith("/")
    target = _norm(f"{dst.rstrip('/')}/{PurePosixPath(src).name}") if into and dst not in (".", "./") else _norm(dst)
    wanted: list[str] = []
    for path in installed:
        if path == target or into and PurePosixPath(path).name == PurePosixPath(src).name:
            wanted.append(_norm(src))
        elif not into and path.startswith(target + "/"):
            wanted.append(_norm(f"{src}/{path[len(target) + 1:]}"))  # inside a copied folder
        elif src in (".", "./") and into:
            wanted.append(path)  # the whole context into the working folder: the path as written
    for rel in wanted:
        for cand in (_norm(f"{folder}/{rel}") if folder else rel, rel):
            if cand in by_file:
                return cand
    return None
