"""The vLLM a shell launch runs when the install on its own path comes after the project's pins.

A setup-and-serve script often installs the project (`pip install -e .`, whose setup.py pins
one release) and then `pip install vllm==X` before `vllm serve`: the environment the launch
starts in holds X, whatever the folder's pin files say. The same holds for an install script the
launch script runs first (`bash setup.sh`, `source install.sh`, `. ./env.sh`). The path is read
in file order up to the launch's line: the script's own `pip install` lines (a `pip install -r
FILE` as FILE's vLLM pin where FILE names a release), and at the line that runs another script,
that script's lines. The last bounded vLLM requirement on it wins
(pins.site_install). A later install of the project itself or of a requirements file that names
vllm (`pip install -e .` over a setup.py that pins it) would move vLLM again: then nothing is
said here and the folder's pin stands, as before. Branches are not told apart: a path whose
installs sit under `if` is read in file order too, so only a script whose every vLLM install
names one release decides."""
from __future__ import annotations

import re
import shlex

from vllm_kb.engine.scan import conda_envs, pip_lines
from vllm_kb.engine.scan.install_pins import script_pins
from vllm_kb.engine.scan.pins import site_install
from vllm_kb.engine.scan.requirement import REQUIREMENTS_SUFFIXES, Pin

# `bash setup.sh`, `sh ./install.sh`, `source env/setup.sh`, `. ./setup.sh`: a script run before the launch
_RUNS = re.compile(r"^[ \t]*(?:bash|sh|source|\.)[ \t]+(?:-\w+[ \t]+)*([\w./-]+\.sh)\b", re.M)
_PROJECT_FILES = ("setup.py", "pyproject.toml", "setup.cfg")
_VLLM_REQ = re.compile(r"^\s*vllm\s*(?:\[[^\]]*\])?\s*(?:[=<>!~]|@|$)", re.I | re.M)


def adopt(ctx, rel: str, text: str, sites) -> None:
    """Each site of script `rel` that no image or build already decides takes the last vLLM
    install on its path (Site.installed; the report says which install and what it replaces)."""
    if not (pip_lines.PIP_INSTALL.search(text) or _RUNS.search(text) or "activate" in text or " run " in text):
        return
    for site in sites:
        if site.image or site.installed or site.file != rel:
            continue
        if (got := on_path(ctx, rel, text, site.line)) is not None:
            site.installed, env = got
            site.launch["installed_on_path"] = env or True


def on_path(ctx, rel: str, text: str, line: int) -> tuple[tuple[str, str, str], str | None] | None:
    """((release, "file:line", requirement), the conda environment it comes from or None) of the
    last vLLM install on the path to the launch at `line` of script `rel`; None when the path
    installs none, moves vLLM again afterwards or enters an environment no file of the project
    describes."""
    current: Pin | None = None
    env: str | None = None
    for kind, what in _steps(ctx, rel, text, line, depth=0):
        if kind == "moved":
            current = None  # the project's own install may put another release in place
        elif kind == "env" and isinstance(what, tuple):  # another environment: what was installed before is not in it
            env, pins = what
            current = next((p for p in reversed(pins) if _names_release(p)), None)
        elif isinstance(what, Pin) and _names_release(what):
            current = what
    if current is None:
        return None
    got = site_install([current], ctx.catalog.versions, ctx.catalog.newest)
    return None if got is None else (got, env if current.kind == "conda" else None)


def _names_release(p: Pin | None) -> bool:
    return p is not None and p.package == "vllm" and not p.source and bool(p.spec.strip())


def _steps(ctx, rel: str, text: str, line: int, depth: int) -> list[tuple[str, object]]:
    """What happens on the path in order: ("pin", Pin) per requirement installed, ("moved", None)
    for an install of the project or of a file that pins vllm (it may replace what came before),
    ("env", (name, its file's pins)) for `conda activate NAME`."""
    lines = text.splitlines()
    events: list[tuple[int, int, list[tuple[str, object]]]] = []
    events += [(p.line, 1, [("pin", p)]) for p in script_pins(ctx, rel, text) if p.line < line]
    for n, ref in _project_installs(ctx, rel, text, with_refs=True):
        if n < line:  # `pip install -r FILE`: FILE's own vLLM pin where it names a release, else vLLM may have moved
            got = _file_pin(ctx, rel, ref)
            events.append((n, 2, [("pin", got) if got is not None else ("moved", None)]))
    envs = None
    for n, ln in enumerate(lines[:max(0, min(line - 1, len(lines)))], 1):
        if (m := conda_envs.ACTIVATE.match(ln)) is not None:
            envs = conda_envs.by_name(ctx) if envs is None else envs
            events.append((n, 0, [("env", (m.group(1), envs.get(m.group(1), ("", []))[1]))]))
        elif depth < 2 and (m := _RUNS.match(ln)) is not None and (got := ctx.resolve_ref(rel, m.group(1))) not in (None, rel):
            inner = ctx.read(got)
            if inner is not None and (pip_lines.PIP_INSTALL.search(inner) or "activate" in inner):
                events.append((n, 3, _steps(ctx, got, inner, 10 ** 9, depth + 1)))
    if 0 < line <= len(lines) and (m := conda_envs.RUN.match(lines[line - 1])) is not None:  # the launch's own `conda run -n`
        envs = conda_envs.by_name(ctx) if envs is None else envs
        events.append((line, 9, [("env", (m.group(1), envs.get(m.group(1), ("", []))[1]))]))
    out: list[tuple[str, object]] = []
    for _, _, items in sorted(events, key=lambda e: (e[0], e[1])):
        out += items
    return out


def _file_pin(ctx, rel: str, ref: str | None) -> Pin | None:
    """The vLLM pin a requirements file `ref` (installed with -r) names a release with; None for a
    project folder, a file that names vllm bare or unreadably, or one not in the project."""
    if not ref or not ref.endswith(REQUIREMENTS_SUFFIXES) or "$" in ref:
        return None
    from vllm_kb.engine.scan.pins import requirements_pins

    got = ctx.resolve_ref(rel, ref)
    text = ctx.read(got) if got else None
    found = [p for p in requirements_pins(got, text) if _names_release(p)] if got and text else []
    return found[-1] if found else None


def _project_installs(ctx, rel: str, text: str, with_refs: bool = False) -> list:
    """Lines of `pip install -e .`, `pip install .`, `pip install -r FILE` whose target pins vllm
    (with `with_refs`: (line, the target as written))."""
    out: list = []
    for start, _, _, words in pip_lines.pip_commands(pip_lines.as_run(text)):
        for k, w in enumerate(words):
            opt, eq, val = w.partition("=")
            ref = None
            if opt in ("-r", "--requirement", "-e", "--editable"):
                ref = val if eq else (words[k + 1] if k + 1 < len(words) else "")
            elif not w.startswith("-") and (w in (".", "./") or w.startswith(("./", "../", "/")) or w.startswith(".[")):
                ref = w
            if ref and _names_vllm(ctx, rel, ref.split("[", 1)[0] or "."):
                out.append((start, ref) if with_refs else start)
                break
    return out


def _names_vllm(ctx, rel: str, ref: str) -> bool:
    """Whether the requirements file or the project folder `ref` pins vllm (unknown: yes)."""
    try:
        ref = shlex.split(ref)[0] if ref else ref
    except ValueError:
        return True
    if "$" in ref:
        return True
    if ref.endswith(REQUIREMENTS_SUFFIXES):
        got = ctx.resolve_ref(rel, ref)
        text = ctx.read(got) if got else None
        return text is None or _VLLM_REQ.search(text) is not None
    for name in _PROJECT_FILES:
        got = ctx.resolve_ref(rel, f"{ref.rstrip('/')}/{name}")
        text = ctx.read(got) if got else None
        if text is not None and re.search(r"""["'\s]vllm\s*(?:[=<>!~\[]|["'])""", text, re.I):
            return True
    return False


def mark_last(ctx, rel: str, text: str, found: list[Pin]) -> list[Pin]:
    """A setup script's vllm pins that come after its install of the project itself (`pip install
    -e .` over a setup.py that pins vllm, `pip install -r requirements.txt` that does): what that
    environment holds in the end, so they stand over the folder's pin files (pins.choose)."""
    moves = _project_installs(ctx, rel, text) if any(p.package == "vllm" for p in found) else []
    if moves:
        for p in found:
            if p.package == "vllm" and p.line > min(moves) and not any(n > p.line for n in moves):
                p.last_install = True
    return found
