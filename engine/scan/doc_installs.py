"""The vLLM a project's own install docs leave in place: a README whose shell block installs the project
(`cd verl`, `pip install -e .` over a setup.py's `vllm<=0.6.3`) and after it `pip install vllm==0.8.5` ends
with 0.8.5 in the environment, whatever the package declares (RUCAIBox entropy2performance/README.md:31-32,
RLHFlow/Minimal-RL README.md:61-62). The later step of one documented sequence wins, as a setup script's
does (script_installs.mark_last); a requirements file's exact pin still wins over any README (pins.choose
ranks it first only where the README installs the project before vLLM)."""
from __future__ import annotations

import dataclasses
import posixpath
import re

from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, try_parse
from vllm_kb.engine.scan import pip_lines
from vllm_kb.engine.scan.pins import Pin, dockerfile_pins

_FENCE = re.compile(r"^\s*(```|~~~)")
_CD = re.compile(r"(?:^|&&|;)\s*cd\s+(\S+)")
_CLONE = re.compile(r"git\s+clone\s+(?:\S+\s+)*?(?:https?://|git@)\S+?/([\w.-]+?)(?:\.git)?/?(?:\s+(\S+))?\s*$")
_PROJECT_FILES = ("setup.py", "pyproject.toml", "setup.cfg")
_NAMES_VLLM = re.compile(r"""["'\s]vllm\s*(?:[=<>!~\[]|["'])""", re.I)


def last_installs(ctx, files: list[str], pins: list[Pin]) -> list[Pin]:
    """For each Markdown install sequence that installs a package folder of the project (whose setup.py or
    pyproject.toml names vLLM) and then vLLM exactly: that exact pin, marked installed last, for the folder."""
    folders = {posixpath.dirname(f) for f in files}
    out: list[Pin] = []
    for rel in files:
        if not rel.lower().endswith((".md", ".markdown")):
            continue
        text = ctx.read(rel) or ""
        if "vllm==" in text.lower():
            out += _sequence(ctx, rel, text, folders, pins)
    return out


def _sequence(ctx, rel: str, text: str, folders: set, pins: list[Pin]) -> list[Pin]:
    here = posixpath.dirname(rel)
    cwd: str | None = here
    clones: set[str] = set()
    projects: dict[str, int] = {}  # the package folders installed so far, by the line that installs each
    last: tuple[Pin, dict] | None = None
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        body = line.strip().lstrip("$> ")
        if not fenced or not body or body.startswith("#"):
            continue
        if m := _CLONE.search(body):
            clones.add(m.group(2) or m.group(1))
        for target in _CD.findall(body):
            cwd = _moved(cwd, target, folders, clones, here)
        if cwd is None:
            continue  # a folder the audit cannot place: what it installs is not read
        for _, _, _, words in pip_lines.pip_commands("RUN " + body):
            for folder in _project_targets(ctx, cwd, words):
                projects[folder] = n
            got = [p for p in dockerfile_pins(rel, "RUN pip install " + " ".join(words))
                   if p.package == "vllm" and p.exact and not p.source and try_parse(p.exact)]
            if got and projects:
                last = (Pin(rel, n, got[0].text, f"=={got[0].exact}", "docs", got[0].exact, "vllm"), dict(projects))
    if last is None:
        return []
    pin, installed = last
    # a requirements file or lock that pins one release exactly is the folder's own word on what runs: a README
    # does not override it
    fixed = {p.folder for p in pins if p.package == "vllm" and p.exact and p.kind in ("requirements", "lock")}
    return [_for(pin, folder, pins) for folder, n in installed.items() if n < pin.line and folder not in fixed]


def _for(pin: Pin, folder: str, pins: list[Pin]) -> Pin:
    """The documented pin for the installed package's folder. The package's own pin stays beside it (`rival`:
    a P0 only where both refuse): where it excludes the release (setup.py `vllm<=0.6.3` under a documented
    0.8.5) the docs contradict it, and where it allows another (Minimal-RL's `vllm<=0.8.2` extra) an install
    that skips the README's last step brings that one."""
    rival = ""
    for p in (p for p in pins if p.package == "vllm" and p.folder == folder and p.spec.strip()):
        try:
            SpecifierSet(p.spec)
        except InvalidSpecifier:
            continue
        if (top := p.exact or _top(p.spec)) and top != pin.exact:
            rival = top
            break
    return dataclasses.replace(pin, installed_in=folder, last_install=True, rival=rival)


def _top(spec: str) -> str:
    """The release a `<=X`/`==X` bound names (the newest its range may hold), else none."""
    m = re.search(r"(?:<=|==)\s*(\d+(?:\.\d+)+(?:\.post\d+)?)", spec)
    return m.group(1) if m else ""


def _moved(cwd: str | None, target: str, folders: set, clones: set, here: str) -> str | None:
    target = target.strip("\"'").rstrip("/")
    if cwd is None or "$" in target or target.startswith(("/", "~")):
        return None
    if target in clones:  # `git clone …/Minimal-RL.git && cd Minimal-RL`: the checkout the docs describe
        return here
    new = posixpath.normpath(posixpath.join(cwd, target)) if cwd else posixpath.normpath(target)
    new = "" if new == "." else new
    if new.startswith(".."):
        return None
    return new if new in folders or not new else None


def _project_targets(ctx, cwd: str, words: list[str]) -> list[str]:
    out = []
    for k, w in enumerate(words):
        ref = None
        if w in ("-e", "--editable"):
            ref = words[k + 1] if k + 1 < len(words) else ""
        elif not w.startswith("-") and (w in (".", "./") or w.startswith(("./", ".["))) and (k == 0 or words[k - 1] not in ("-e", "--editable")):
            ref = w
        if ref is None:
            continue
        ref = ref.split("[", 1)[0].strip("\"'") or "."
        if "$" in ref or ref.startswith(("/", "git+", "http")):
            continue
        folder = posixpath.normpath(posixpath.join(cwd, ref)) if cwd else posixpath.normpath(ref)
        folder = "" if folder == "." else folder
        if any(_NAMES_VLLM.search(ctx.read(posixpath.join(folder, f) if folder else f) or "") for f in _PROJECT_FILES):
            out.append(folder)
    return out
