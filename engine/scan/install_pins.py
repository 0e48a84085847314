"""The requirements named on `pip install` command lines: a Dockerfile's RUN instructions, a
notebook's `%pip` cells and a shell script's lines (each read as RUN lines), a Markdown file's
instructions (engine/scan/extra_pins.py)."""
from __future__ import annotations

import re

from vllm_kb.engine.scan import pip_lines, source_pins
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.images import framework_image_pins
from vllm_kb.engine.scan.requirement import Pin, from_requirement


def dockerfile_pins(rel: str, text: str, given: dict[str, str] | None = None) -> list[Pin]:
    """Requirements named on `RUN … pip install …` lines (continuations joined), up to the end of
    that shell command; options and their values skipped. The environment image a project's
    scripts run in pins the folder; an image whose ENTRYPOINT/CMD starts vLLM keeps its vllm pin
    to its own site."""
    out: list[Pin] = []
    lines = text.splitlines()
    # an image that starts vLLM itself: its vllm pin is that site's own (Site.installed), not the folder's
    serves = re.search(r"^\s*(?:ENTRYPOINT|CMD)\b.*vllm", text, re.I | re.M) is not None
    out += framework_image_pins(rel, lines, serves, Pin)
    # a compose file's `build: args:` replace the ARG defaults (engine/scan/build_args.py)
    known = {**literal_vars(text), **(given or {})} if "$" in text else {}
    for start, _, logical, words in pip_lines.pip_commands(text):
        for w in pip_lines.requirement_words(words):
            word = expand(w, known) if "$" in w else w  # `vllm==${VLLM_VERSION}` after `ARG VLLM_VERSION=0.6.3`
            word = _branches(word, text) if "$" in word else word
            if (p := from_requirement(rel, n := _line_of_word(lines, start, w), word, "dockerfile")
                  or source_pins.git_pin(rel, n, word, "dockerfile", Pin)) is not None and not (serves and p.package == "vllm"):
                p.source = p.source or ("nightly" if p.package == "vllm" and not p.exact and _nightly(logical, w) else "")
                if word != w:  # as written, with what it expands to (a change finds no such text: nothing is edited)
                    p.text = f"{w} ({word})"
                out.append(p)
    return out


# `VLLM_VERSION=0.6.3`, `export …`, a Dockerfile's `ARG VLLM_VERSION=0.6.3` / `ENV …=…` (a script's
# lines arrive as RUN lines): a literal value, quoted or not
_ASSIGN = re.compile(r"^\s*(?:RUN\s+)?(?:export\s+|ARG\s+|ENV\s+)?([A-Za-z_]\w*)=([\"']?)([^\s\"'$`;&|()]+)\2\s*(?:#.*)?$", re.M)
_VAR = re.compile(r"\$\{(\w+)(?::?-([^}$]*))?\}|\$(\w+)")


# `VLLM_VERSION="${VLLM_VERSION:-0.20.0}"`: the default, read as the assumed value (as the shell model reads `${X:-d}`)
_DEFAULTED = re.compile(r"^\s*(?:RUN\s+)?(?:export\s+|ARG\s+|ENV\s+)?([A-Za-z_]\w*)=([\"']?)\$\{\w+:?-([^\s\"'$`;&|(){}]+)\}\2\s*(?:#.*)?$", re.M)


def literal_vars(text: str) -> dict[str, str]:
    """The variables a script or Dockerfile sets to one literal value, or to one default
    (`V="${V:-0.20.0}"`); a name set to two values (a branch, a later ARG) is left out: which
    one a pip line sees is not read here."""
    seen: dict[str, set[str]] = {}
    for m in _ASSIGN.finditer(text):
        seen.setdefault(m.group(1), set()).add(m.group(3))
    for m in _DEFAULTED.finditer(text):
        seen.setdefault(m.group(1), set()).add(m.group(3))
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


# `vllm==$VLLM_VERSION` where the script sets VLLM_VERSION in branches (`if …; then V="0.12.0"; else V="0.20.2"`)
_EXACT_VAR = re.compile(r"^([A-Za-z0-9_.\-\[\],]+)===?\$\{?(\w+)\}?$")
_VERSION = re.compile(r"^\d+(?:\.\d+)+$")


def _branches(word: str, text: str) -> str:
    """A requirement whose whole version is a variable the script sets to several releases, one per branch
    (microsoft/agent-lightning scripts/setup_verl.sh: VLLM_VERSION "0.12.0" for verl 0.7.1, else "0.20.2", then
    `vllm==$VLLM_VERSION`): one of them is installed, so the pin is the range over them (`>=0.12.0,<=0.20.2`) —
    a P0 then holds only where every release between them refuses. Which branch runs is the user's choice."""
    m = _EXACT_VAR.match(word)
    if m is None:
        return word
    got = {g[2] for g in _ASSIGN.findall(text) if g[0] == m.group(2)}
    if len(got) < 2 or not all(_VERSION.match(v) for v in got):
        return word
    ordered = sorted(got, key=lambda v: tuple(int(x) for x in v.split(".")))
    return f"{m.group(1)}>={ordered[0]},<={ordered[-1]}"


def _nightly(logical: str, word: str) -> bool:
    """An index of vLLM's nightly builds; `wheels.vllm.ai/0.12.0/cu129` (or `/$VLLM_VERSION/…` with the
    requirement's own variable) is one release's wheels, built per CUDA variant."""
    if source_pins.NIGHTLY not in logical:
        return False
    var = m.group(2) if (m := _EXACT_VAR.match(word)) else None
    segs = re.findall(re.escape(source_pins.NIGHTLY) + r"/([^/\s\"']*)", logical)
    return not segs or any(not (_VERSION.match(s) or var and s in (f"${var}", f"${{{var}}}")) for s in segs)


def expand(word: str, known: dict[str, str]) -> str:
    """`$NAME`, `${NAME}` from `known`, else `${NAME:-default}`'s default; others as written."""
    def one(m: re.Match) -> str:
        name = m.group(1) or m.group(3)
        return known[name] if name in known else m.group(2) if m.group(2) is not None else m.group(0)
    return _VAR.sub(one, word)


def clones_expanded(text: str, given: dict[str, str] | None = None) -> str:
    """The text with each `git clone` line's variables filled in from the file's own literal values (and a
    compose file's `build: args:`): `git clone $VLLM_REPO --branch $VLLM_TAG` after `ARG VLLM_TAG=v0.14.1`
    names the checkout engine/scan/source_pins.py reads, as a later `git checkout ${VLLM_REF}` line does
    (substratusai/vllm-docker Dockerfile.cuda-arm:104-107). Lines keep their places."""
    if "$" not in text or "clone" not in text:
        return text
    known = {**literal_vars(text), **(given or {})}
    return "\n".join(expand(line, known) if ("clone" in line or "checkout" in line) and "$" in line else line
                     for line in text.split("\n"))


def _line_of_word(lines: list[str], start: int, word: str) -> int:
    for n in range(start, len(lines) + 1):
        if word in lines[n - 1]:
            return n
    return start


def script_pins(ctx: ScanContext, rel: str, text: str) -> list[Pin]:
    """A shell script's `pip install` lines, read as a Dockerfile's RUN lines are (a scanner, as
    pins.scan is: the context is what every scanner is handed)."""
    return dockerfile_pins(rel, pip_lines.as_run(text))


def installed_with(vpin: Pin, pins: list[Pin], read) -> dict[str, Pin]:
    """The other packages pinned in the same install as `vpin` (package → pin): one `pip install`
    command of a Dockerfile or script, or one requirements/conda/pyproject file. pip resolves them
    together, so they hold wherever that vLLM pin's release does — also for a site in a folder
    the pin's file is not above (Open-Reasoner-Zero's docker/Dockerfile, its scripts at the root)."""
    out: dict[str, Pin] = {}
    if vpin.kind == "dockerfile":
        text = read(vpin.file) or ""
        if not re.search(r"^\s*RUN\b", text, re.I | re.M):  # a script's lines, read as RUN lines
            text = pip_lines.as_run(text)
        cmds = [(first, last, set(words)) for first, last, _, words in pip_lines.pip_commands(text)]
        mine = _command(cmds, vpin)
        same = (lambda p: mine is not None and _command(cmds, p) == mine)
    else:
        same = (lambda p: p.kind == vpin.kind)
    for p in sorted(pins, key=lambda p: p.line):
        if p.file == vpin.file and p.package != vpin.package and not p.above and same(p):
            out.setdefault(p.package, p)
    return out


def _command(cmds: list, pin: Pin) -> int | None:
    word = pin.text.split(" (", 1)[0]  # `vllm==${V} (vllm==0.6.3)`: the word as written
    return next((n for n, (first, last, words) in enumerate(cmds) if first <= pin.line <= last and word in words), None)
