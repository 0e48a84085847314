"""The `pip install` commands of a Dockerfile's RUN instructions: where each starts and ends and its
words, up to the end of that shell command (continuations joined). Read for the pins they name
(engine/scan/pins.py) and for which pins one command installs together (engine/check/dependency_pins.py);
`requirement_words` is what one command installs (engine/scan/install_pins.py, entry_installs.py)."""
from __future__ import annotations

import re
import shlex
from typing import Iterator

# pip by any path (`venv/bin/pip`, `/opt/conda/bin/pip3.11`), uv's pip, or `python -m pip`
PIP_INSTALL = re.compile(r"(?:^|[\s;&|(])(?:[\w.~$/{}-]*/)?(?:pip3?(?:\.\d+)?|uv\s+pip|python3?(?:\.\d+)?\s+-m\s+pip)\s+install\s")


def as_run(text: str) -> str:
    """A shell script's lines as RUN instructions (each logical line once, continuations kept): a
    script that installs the vLLM it then starts pins its folder as a Dockerfile's RUN line does."""
    out, cont = [], False
    for ln in text.splitlines():
        out.append(ln if cont else "RUN " + ln)
        cont = ln.rstrip().endswith("\\")
    return "\n".join(out)


def logical_lines(text: str) -> Iterator[tuple[int, int, str]]:
    """(first line, last line, the line with its `\\` continuations joined) per logical line."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start, logical = i + 1, lines[i]
        while logical.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            logical = logical.rstrip()[:-1] + " " + lines[i]
        i += 1
        yield start, i, logical


def pip_commands(text: str) -> Iterator[tuple[int, int, str, list[str]]]:
    """(first line, last line, the RUN instruction joined, the words after `pip install`) per command."""
    for start, end, logical in logical_lines(text):
        if not logical.lstrip().upper().startswith("RUN") or not PIP_INSTALL.search(logical):
            continue
        for m in PIP_INSTALL.finditer(logical):
            rest = re.split(r"&&|\|\||;|\|", logical[m.end():], maxsplit=1)[0]
            for q in "\"'":
                if rest.count(q) % 2:  # the close of `bash -c "… && pip install vllm==0.5.1 …"`: the command ends there
                    rest = rest[:rest.rfind(q)]
            try:
                yield start, end, logical, shlex.split(rest, comments=True)
            except ValueError:
                continue


# pip options that take a value: their value is not a requirement
PIP_TAKES = {"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url", "--extra-index-url",
             "-f", "--find-links", "-t", "--target", "--prefix", "--root", "--python", "--trusted-host", "--platform",
             "--python-version", "--implementation", "--abi", "--src", "--upgrade-strategy", "--progress-bar",
             "--cache-dir", "--timeout", "--retries", "--config-settings", "-C", "--global-option", "--torch-backend",
             "--index-strategy", "--index", "--default-index", "--only-binary", "--no-binary"}


def requirement_words(words: list[str]) -> Iterator[str]:
    """The words of one `pip install` that name what it installs: options and their values skipped."""
    skip = False
    for w in words:
        if skip:
            skip = False
        elif w.startswith("-"):
            skip = w in PIP_TAKES
        else:
            yield w


def no_deps_files(rel: str, text: str, resolve) -> set[str]:
    """The requirement files `pip install --no-deps -r FILE` installs in a Dockerfile, script,
    Makefile recipe or README (each line read as a RUN line): pip installs what such a file
    lists as written, with no resolution joining its pins. `resolve(rel, ref)`: the project path."""
    if "--no-deps" not in text:
        return set()
    run = text if rel.rpartition("/")[2].lower().startswith(("dockerfile", "containerfile")) else as_run(text)
    out: set[str] = set()
    for _, _, _, words in pip_commands(run):
        if "--no-deps" not in words:
            continue
        for k, w in enumerate(words):
            opt, eq, val = w.partition("=")
            if opt in ("-r", "--requirement"):
                ref = val if eq else (words[k + 1] if k + 1 < len(words) else "")
                if ref and (got := resolve(rel, ref)) is not None:
                    out.add(got)
    return out
