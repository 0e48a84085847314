"""Where the project's own build certainly resolves the newest transformers.

vLLM 0.4.0–0.11.0 set only a floor on transformers, so an install that leaves it open above gets the
newest release — today a transformers 5, whose tokenizers no longer have what those releases read
(knowledge/vllm/transformers_imports.yaml). Whether an install resolves the newest is certain only in
a fresh environment: an image build FROM a base that carries no Python packages and a Python that
transformers 5 installs on (3.10+), where nothing else in the same pip command may cap transformers
(a package that depends on it, or a tokenizers / huggingface-hub pin), and no later RUN installs
transformers again. Anywhere else (a developer's environment, a base image with its own
transformers) the resolution is only likely, and said as such.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Callable

from vllm_kb.engine.scan import pip_lines
from vllm_kb.engine.scan.pins import is_dockerfile, package_name

# bases with no Python packages and a Python of 3.10 or later (transformers 5 requires it; on 3.9 pip
# resolves the last 4.x): python:3.10+, Ubuntu 22.04/24.04 (3.10/3.12), CUDA images on them, Debian 12+
_FRESH = re.compile(r"^(?:docker\.io/)?(?:library/)?(?:python:3\.(?:1\d)(?:[.-]\S*)?"
                    r"|(?:nvidia/cuda|nvcr\.io/nvidia/cuda):\S*ubuntu(?:22|24)\.04\S*"
                    r"|ubuntu:(?:22|24)\.04\S*|debian:(?:bookworm|trixie|12|13)\S*)$", re.I)
_FROM = re.compile(r"^\s*FROM\s+(?:--\S+\s+)*(\S+)", re.I)
# packages that depend on transformers and may bound it; and those transformers 5 needs newer releases
# of (huggingface-hub 1.x, tokenizers 0.22), which cap it only where the project holds them back
_CAPS = frozenset({"trl", "peft", "sentence-transformers", "optimum", "auto-gptq", "autoawq", "gptqmodel", "unsloth",
                   "unsloth-zoo", "llamafactory", "ms-swift", "verl", "openrlhf", "lmdeploy", "sglang", "xinference",
                   "lm-eval", "compressed-tensors", "llmcompressor", "axolotl", "vllm-omni"})
_HELD = frozenset({"tokenizers", "huggingface-hub"})
_BOUNDED = re.compile(r"<|==|~=|!=")
_REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def newest_build(site_file: str, pin, files: list[str], read: Callable[[str], str | None],
                 image: str | None = None) -> str | None:
    """`Dockerfile:line` of the image build that installs vLLM and transformers (through the pin's
    requirements file, the pin itself, or — without a pin — vLLM's own requirement) into a fresh
    environment with nothing capping it; for a launch outside the Dockerfile, the build of the image
    it runs in (`image`, the base the scan read for it)."""
    folder = PurePosixPath(site_file).parent.as_posix()
    # a launch written in a Dockerfile runs in that image; another file, in an image built above it
    for rel in [site_file] if is_dockerfile(site_file) else _dockerfiles(files):
        where = PurePosixPath(rel).parent.as_posix()
        if where not in (".", "") and folder != where and not folder.startswith(where + "/"):
            continue
        text = read(rel) or ""
        if rel != site_file and (not image or image not in {b for _, b in _stage_bases(text)}):
            continue
        hit = _fresh_install(rel, text, pin, read, files)
        if hit:
            return hit
    return None


_HELD_FILES: list = [None, 0, []]  # the last file list, its length, its Dockerfiles


def _dockerfiles(files: list[str]) -> list[str]:
    """The Dockerfiles of the project's files, in their order: found once per audit, not once per
    site (vLLM's tree: 590 sites × 9,000 files)."""
    if _HELD_FILES[0] is not files or _HELD_FILES[1] != len(files):
        _HELD_FILES[:] = [files, len(files), [rel for rel in files if is_dockerfile(rel)]]
    return _HELD_FILES[2]


def _stage_bases(text: str) -> list[tuple[int, str]]:
    return [(n, m.group(1)) for n, line in enumerate(text.splitlines(), 1) if (m := _FROM.match(line))]


def _fresh_install(rel: str, text: str, pin, read, files: list[str]) -> str | None:
    bases = _stage_bases(text)
    got = []
    for first, _last, _, words in pip_lines.pip_commands(text):
        reqs = _requirements(words, rel, read, files)
        if reqs is None or any(c in words for c in ("-c", "--constraint")):
            return None  # what the build installs is not all known: nothing is certain
        got.append((first, words, reqs))
    every = [r for _, _, reqs in got for r in reqs]
    if {name for name, _, _ in every} & _CAPS:
        return None
    # transformers (or what it needs) named anywhere with a ceiling or an exact release: that decides
    if any(name in _HELD | {"transformers"} and _BOUNDED.search(spec) for name, _, spec in every):
        return None
    fresh = [(first, {name for name, _, _ in reqs}, reqs) for first, _, reqs in got
             if (base := next((b for n, b in reversed(bases) if n < first), None)) is not None and _FRESH.match(base)]
    if not any("vllm" in names for _, names, _ in fresh):
        return None  # vLLM is not installed here: the image is not the one that starts it
    for first, names, reqs in fresh:
        if (pin is not None and _brings(pin, reqs)) or (pin is None and "vllm" in names):
            return f"{rel}:{first}"
    return None


def _brings(pin, reqs: list[tuple[str, str, str]]) -> bool:
    """The command installs the pin: its requirements file, or the requirement itself."""
    if pin.kind == "requirements":
        return any(src == pin.file or PurePosixPath(src).name == PurePosixPath(pin.file).name
                   for name, src, _ in reqs if name == "transformers")
    return pin.kind == "dockerfile" and any(name == "transformers" and src == "" for name, src, _ in reqs)


def _requirements(words: list[str], rel: str, read, files: list[str]) -> list[tuple[str, str, str]] | None:
    """(package, the requirements file it came from or "", the requirement) of what one pip command
    installs; None for a command whose set the audit cannot read (an unknown -r file, a project)."""
    out: list[tuple[str, str, str]] = []
    it = iter(words)
    for w in it:
        if w in ("-r", "--requirement"):
            src = next(it, "")
            found = _file(src, rel, files)
            if found is None:
                return None
            for line in (read(found) or "").splitlines():
                m = _REQ.match(line.split("#", 1)[0])
                if m and not line.lstrip().startswith("-"):
                    out.append((package_name(m.group(1)), found, line.split("#", 1)[0].strip()))
        elif w in ("-e", "--editable", ".") or w.startswith("git+") or w.startswith("-e"):
            return None
        elif not w.startswith("-") and (m := _REQ.match(w)):
            out.append((package_name(m.group(1)), "", w))
    return out


def _file(src: str, rel: str, files: list[str]) -> str | None:
    """The project file a Dockerfile's `-r PATH` names: by path from the Dockerfile's folder, else by
    the file's name (COPY builder/requirements.txt /requirements.txt)."""
    base = PurePosixPath(rel).parent
    direct = (base / src.lstrip("./")).as_posix() if not src.startswith("/") else None
    if direct in files:
        return direct
    name = PurePosixPath(src).name
    same = [f for f in files if (f.endswith(name) or f.endswith(("/", "/."))) and PurePosixPath(f).name == name]
    return same[0] if len(same) == 1 else None
