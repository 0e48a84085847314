"""Process managers that start vLLM from a line of their own: a Procfile (`web: vllm serve …`, with
the `.env` beside it that foreman and honcho load), a systemd unit (`ExecStart=` with
`Environment=` and `EnvironmentFile=`) and a supervisord program (`command=` with `environment=`).
Each command is read with the shell model at its own place in the file: every other byte is
blanked (newlines kept), so lines and offsets are the file's own and a fix edits only its words."""
from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

from vllm_kb.engine.scan import envfile, scripts
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy import image_files
from vllm_kb.engine.scan.images import image_version
from vllm_kb.engine.scan.shell_expand import Expander, hole
from vllm_kb.engine.scan.shell_run import State
from vllm_kb.engine.scan.site import Setting, Site

_PROC = re.compile(r"^([A-Za-z0-9_.-]+)[ \t]*:[ \t]*(\S.*)$")
_INI_KEY = re.compile(r"^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(.*)$")


# a unit written as a Jinja template (an Ansible role's templates/vllm.service.j2)
_TEMPLATED = (".service.j2", ".service.jinja", ".service.jinja2")
_JINJA = re.compile(r"\{\{.*?\}\}")


def kind(rel: str) -> str | None:
    name = rel.rpartition("/")[2]
    if name == "Procfile" or name.startswith("Procfile."):
        return "procfile"
    if name.endswith((".service", ".service.in") + _TEMPLATED):
        return "systemd"
    if name.endswith((".conf", ".ini")):
        return "supervisord"  # read only when it has a [program:…] section
    return None


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    if "vllm" not in text:
        return []
    how = kind(rel)
    if how == "procfile":
        return _procfile(ctx, rel, text)
    if how == "systemd" and rel.endswith(_TEMPLATED):
        # each `{{ … }}` is unknown until Ansible renders it: a hole of the same width, so lines and offsets
        # stay the file's; `{% … %}` decides which text is there at all: not read
        return [] if "{%" in text else _systemd(ctx, rel, _JINJA.sub(_same_width_hole, text))
    if how == "systemd":
        return _systemd(ctx, rel, text)
    if how == "supervisord" and "[program:" in text:
        return _supervisord(ctx, rel, text)
    return []


def _keep(text: str, spans: list[tuple[int, int]], joined: bool = False) -> str:
    """The text with only `spans` (character offsets) kept: every other character a space, newlines
    kept. `joined`: an INI value continued on indented lines is one command (its newlines spaces)."""
    out = [c if c == "\n" else " " for c in text]
    for a, b in spans:
        out[a:b] = text[a:b].replace("\n", " ") if joined else text[a:b]
    return "".join(out)


def _lines(text: str):
    """(line number, start offset, line text) of each line."""
    at = 0
    for n, line in enumerate(text.split("\n"), 1):
        yield n, at, line
        at += len(line) + 1


def _run(ctx: ScanContext, rel: str, text: str, spans: list[tuple[int, int]], env: dict[str, Setting], tool: str,
         joined: bool = False) -> list[Site]:
    if not spans:
        return []
    ex = Expander({k: str(v.value) for k, v in env.items() if v.value is not None})
    ex.exported |= set(env)
    # a file an image copies in runs that image's vLLM (engine/scan/deploy/image_files.py)
    image, installed = image_files.image_of(ctx, rel) or (None, None)
    release = image_version(image) or (installed[0] if installed else None)
    version = ctx.catalog.installed_version(release)
    sites = scripts.scan(ctx, rel, _keep(text, spans, joined), state=State(ex, dict(env)), version=version)
    for site in sites:
        site.tool = tool
        if image and not site.image and not site.installed:
            site.image, site.installed = image, installed
    return sites


def _settings(values: dict[str, envfile.EnvValue], syntax: str) -> dict[str, Setting]:
    return {k: Setting(k, v.value, v.value is not None, v.file, v.line, k, v.raw, syntax, v.why) for k, v in values.items()}


def _procfile(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    env = _settings(envfile.load(ctx, envfile.beside(rel)) or {}, "env-file")
    spans = []
    for _n, at, line in _lines(text):
        m = _PROC.match(line)
        if m and not line.lstrip().startswith("#") and "vllm" in m.group(2):
            spans.append((at + m.start(2), at + len(line)))
    return _run(ctx, rel, text, spans, env, "procfile")


def _continued(lines: list, k: int) -> int:
    """The index of the last line of a logical line that ends in `\\` continuations."""
    while k < len(lines) - 1 and lines[k][2].rstrip().endswith("\\"):
        k += 1
    return k


def _systemd(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    lines = list(_lines(text))
    env: dict[str, Setting] = {}
    spans: list[tuple[int, int]] = []
    k = 0
    while k < len(lines):
        n, at, line = lines[k]
        last = _continued(lines, k)
        m = _INI_KEY.match(line)
        if m and not line.lstrip().startswith(("#", ";")):
            key, value = m.group(1), m.group(2)
            start = at + m.start(2)
            if key == "Environment":
                env.update(_assignments(value, rel, n, "systemd"))
            elif key == "EnvironmentFile":
                env.update(_settings(_unit_env_file(ctx, rel, value), "env-file"))
            elif key in ("ExecStart", "ExecStartPre") and "vllm" in text[start:lines[last][1] + len(lines[last][2])]:
                while start < at + len(line) and text[start] in "-@+!:":
                    start += 1  # systemd's own prefixes: ignore failure, argv[0], privileges
                spans.append((start, lines[last][1] + len(lines[last][2])))
        k = last + 1
    return _run(ctx, rel, text, spans, env, "systemd")


def _same_width_hole(m: re.Match) -> str:
    compact = re.sub(r"\s+", "", m.group(0))
    return hole(compact.ljust(len(m.group(0)) - 2) if len(compact) <= len(m.group(0)) - 2 else m.group(0)[1:-1])


def _unit_env_file(ctx: ScanContext, rel: str, value: str) -> dict[str, envfile.EnvValue]:
    """`EnvironmentFile=[-]/etc/x.env`: that file when the project holds it (an absolute path is
    looked for by its name beside the unit, the way a repository ships it), else nothing."""
    path = value.strip().lstrip("-").strip()
    name = PurePosixPath(path).name
    for cand in (envfile.beside(rel, path.lstrip("/")), envfile.beside(rel, name)):
        got = envfile.load(ctx, cand) if cand else None
        if got is not None:
            return got
    return {}


def _assignments(value: str, rel: str, line: int, syntax: str) -> dict[str, Setting]:
    """`Environment="A=1" B=2` (systemd)."""
    try:
        words = shlex.split(value, comments=False)
    except ValueError:
        return {}
    out = {}
    for w in words:
        name, eq, val = w.partition("=")
        if eq and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            out[name] = Setting(name, val, True, rel, line, name, val, syntax)
    return out


def _supervisor_env(ctx: ScanContext, value: str, rel: str, line: int) -> dict[str, Setting]:
    """`environment=KEY="v1,v2",K2=v` by supervisord's own grammar (supervisor/datatypes.py
    dict_of_key_value_pairs, 3.x–4.x: a non-POSIX shlex with `/.+-():` as word characters, then
    KEY = value triples with one separator token (a comma) between them, quotes stripped from the
    value; a quoted value keeps its commas). What supervisord would refuse to read is skipped with its line: the programs then run
    with an environment the audit does not know, never a made-up one."""
    lexer = shlex.shlex(value.strip())
    lexer.wordchars += "/.+-():"
    try:
        tokens = list(lexer)
    except ValueError as e:
        ctx.skip(rel, "parse-error", line, f"supervisord environment: {e}")
        return {}
    out: dict[str, Setting] = {}
    for i in range(0, len(tokens), 4):
        k_eq_v = tokens[i:i + 3]
        if len(k_eq_v) != 3 or k_eq_v[1] != "=":
            ctx.skip(rel, "parse-error", line, "supervisord environment: not KEY=value pairs (supervisord refuses it)")
            return {}
        name, raw = k_eq_v[0], k_eq_v[2]
        val = raw.strip("'\"")
        if "%(" in val:  # supervisord's %(ENV_X)s / %(here)s expansions: a value the audit cannot tell
            out[name] = Setting(name, None, False, rel, line, name, raw, "supervisord", f"{raw} (a supervisord expansion)")
        else:
            out[name] = Setting(name, val, True, rel, line, name, raw, "supervisord")
    return out


def _supervisord(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    sites: list[Site] = []
    section: list[tuple[int, int, str]] = []
    for n, at, line in list(_lines(text)) + [(0, len(text) + 1, "[end]")]:
        if line.startswith("["):
            sites += _program(ctx, rel, text, section)
            section = []
        else:
            section.append((n, at, line))
    return sites


def _program(ctx: ScanContext, rel: str, text: str, section: list) -> list[Site]:
    env: dict[str, Setting] = {}
    spans = []
    for k, (n, at, line) in enumerate(section):
        m = _INI_KEY.match(line)
        if not m or line.lstrip().startswith((";", "#")) or line[:1] in " \t":
            continue
        end = k
        while end + 1 < len(section) and section[end + 1][2][:1] in (" ", "\t") and section[end + 1][2].strip():
            end += 1  # an indented line continues the value
        value = text[at + m.start(2):section[end][1] + len(section[end][2])]
        if m.group(1) == "environment":
            env.update(_supervisor_env(ctx, value, rel, n))
        elif m.group(1) == "command" and "vllm" in value:
            spans.append((at + m.start(2), section[end][1] + len(section[end][2])))
    return _run(ctx, rel, text, spans, env, "supervisord", joined=True)
