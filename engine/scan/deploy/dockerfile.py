"""Dockerfile: CMD/ENTRYPOINT in exec and shell form (the official image's own entrypoint when
only CMD is given), ARG/ENV, and `pip install vllm==X` as the version the image installs."""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.scan import entry_installs, pins, source_pins
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.deploy.common import (
    entrypoint_for,
    is_vllm_image,
    is_vllm_like_image,
    launch_site,
    shell_site,
    yaml_word,
)
from vllm_kb.engine.scan.shell import Word
from vllm_kb.engine.scan.deploy import endpoint_env
from vllm_kb.engine.scan.image_env import env_command
from vllm_kb.engine.scan.images import env_image
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan import source_pins
from vllm_kb.engine.scan.site import Setting, Site


# one predicate for a Dockerfile's pins and its launch (eval70: Dockerfile-Nvidia was read for one, not the other)
is_dockerfile = pins.is_dockerfile


@dataclass
class _Instr:
    kw: str
    arg: str  # continuations joined with spaces
    line: int
    pieces: list[tuple[int, str]]  # (line, text) of each physical line, continuation backslash removed

    @property
    def shell_text(self) -> str:
        """The argument as the shell sees it, line breaks kept so words keep their lines."""
        first = self.pieces[0][1].lstrip()
        first = first[len(self.kw):] if first.upper().startswith(self.kw) else first
        return " \\\n".join([first] + [t for _, t in self.pieces[1:]])

    def lines_of(self, needles: list[str]) -> list[int]:
        """The line each needle (in order) is written on; the instruction's line when not found."""
        out, i, col = [], 0, 0
        for nd in needles:
            found = None
            for j in range(i, len(self.pieces)):
                k = self.pieces[j][1].find(nd, col if j == i else 0)
                if k >= 0:
                    found, i, col = self.pieces[j][0], j, k + len(nd)
                    break
            out.append(found or self.line)
        return out


def _instructions(text: str) -> list[_Instr]:
    """Instructions with continuations joined and comment lines dropped."""
    out: list[_Instr] = []
    buf: list[tuple[int, str]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not buf and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if buf and line.lstrip().startswith("#"):
            continue
        cont = line.endswith("\\")
        buf.append((n, line[:-1] if cont else line))
        if not cont:
            joined = " ".join(x.strip() for _, x in buf)
            kw, _, arg = joined.partition(" ")
            out.append(_Instr(kw.upper(), arg.strip(), buf[0][0], buf))
            buf = []
    return out


def _exec_form(arg: str) -> list[str] | None:
    import json

    if arg.startswith("["):
        try:
            v = json.loads(arg)
            return [str(x) for x in v] if isinstance(v, list) else None
        except ValueError:
            return None
    return None


def _run_install(rel: str, ins: _Instr, known: dict[str, str]) -> tuple[str, int, str] | None:
    """`RUN pip install vllm==0.11.0`: the image installs that vLLM whatever the project pins; a range
    (`"vllm>=0.10,<0.12"`) is read as the newest known release in it (engine/scan/pins.py site_install),
    and `vllm==${VLLM_VERSION}` with the ARG or ENV value set before it."""
    got = pins.site_install(pins.dockerfile_pins(rel, "RUN " + _expand_vars(ins.arg, known)))
    return (got[0], ins.lines_of([got[2]])[0], got[2]) if got else None


def scan_dockerfile(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    cur = _final_stage(rel, text, ctx.build_args.get(rel))
    if not cur:
        return []
    return [s for s in [_docker_site(ctx, rel, cur, text)] if s is not None]


def built_from(ctx: ScanContext, folder: str, build) -> tuple[str, tuple | None, list | None] | None:
    """compose `build:` (a context, or {context, dockerfile}): the image the built one starts from,
    the vLLM its RUN lines install and the packages they install over it, when it keeps that image's ENTRYPOINT (so a service's
    `command:` is still appended to it, as with `image:`)."""
    rel = build_dockerfile(ctx, folder, build) or ""
    text = ctx.read(rel) if rel else None
    st = _final_stage(rel, text, ctx.build_args.get(rel)) if text else None
    if not st or st.get("entrypoint") is not None or not st.get("image"):
        return None
    installed = st.get("installed")
    return st["image"], ((installed[0], f"{rel}:{installed[1]}", installed[2]) if installed else None), st.get("image_installs")


def image_installs(ctx: ScanContext, rel: str) -> list | None:
    """What a project Dockerfile's final stage installs over its base (RUN pip install …), for a launch elsewhere
    that runs the image it builds (a manifest's or compose service's `image:` a project script builds)."""
    text = ctx.read(rel)
    return _final_stage(rel, text, ctx.build_args.get(rel)).get("image_installs") if text else None


def build_dockerfile(ctx: ScanContext, folder: str, build) -> str | None:
    """The project Dockerfile a compose `build:` (a context, or {context, dockerfile}) names: the
    context is the compose file's folder joined once with `context:`, the Dockerfile relative to it.
    A context written from the project root (`docker compose --project-directory .`) is read so
    where the compose file's folder holds none. None for a URL, a path outside the project, or no
    such file (nothing is read, so no skip is recorded)."""
    spec = build if isinstance(build, dict) else {"context": build}
    context, name = str(spec.get("context") or "."), str(spec.get("dockerfile") or "Dockerfile")
    if name.startswith("/") or "://" in context or context.startswith("/"):
        return None
    for base in dict.fromkeys((folder, "")):
        rel = posixpath.normpath(PurePosixPath(base, context, name).as_posix())
        if not rel.startswith("..") and (ctx.root / rel).is_file():
            return rel
    return None


def final_stage_installs(rel: str, text: str) -> bool:
    """Whether the final stage's RUN lines install a vLLM of their own over the base image's."""
    return bool(_final_stage(rel, text).get("installed"))


def _final_stage(rel: str, text: str, given: dict[str, str] | None = None) -> dict[str, Any]:
    """The final stage; `given`: the build arguments the project builds it with (compose, docker build), over ARG defaults."""
    stages: dict[str, dict] = {}
    cur: dict[str, Any] = {}
    args: dict[str, str] = {}  # ARG defaults before the first FROM apply to FROM lines only; later ones to the stage
    for ins in _instructions(text):
        kw, arg = ins.kw, ins.arg
        if kw == "FROM":
            parts = _expand_vars(arg, args).split()
            base = parts[0] if parts else ""
            inherited = stages.get(base.lower())
            cur = dict(inherited) if inherited else {"image": base, "env": {}, "args": {}, "entrypoint": None, "cmd": None, "installed": None}
            cur["env"] = dict(cur["env"])
            cur["args"] = dict(cur.get("args") or {})
            if len(parts) >= 3 and parts[1].upper() == "AS":
                stages[parts[2].lower()] = cur
        elif kw == "ARG":
            name, eq, default = arg.partition("=")
            target = cur.setdefault("args", {}) if cur else args
            if given and name.strip() in given:
                target[name.strip()] = given[name.strip()]
            elif eq:
                target[name.strip()] = default.strip().strip("'\"")
        elif kw == "ENV":
            known = {**args, **(cur.get("args") or {}), **{k: str(v.value) for k, v in cur.get("env", {}).items()}}
            pairs = _env_pairs(arg)
            for (k, v), ln in zip(pairs, ins.lines_of([f"{k}=" if "=" in arg.split(" ", 1)[0] else k for k, _ in pairs])):
                cur.setdefault("env", {})[k] = Setting(k, _expand_vars(v, known), True, rel, ln, k, v, "dockerfile",
                                                       pos=_env_pos(text, ins, k, len(pairs)))
        elif kw == "RUN":
            if cur and "install" in arg and (pkgs := entry_installs.installs([arg])):
                # what the build installs over its base (`pip install --no-deps 'transformers>=5.5.0'`: L155)
                cur["image_installs"] = (cur.get("image_installs") or []) + [
                    {**i, "file": rel, "lines": [ins.line, ins.pieces[-1][0]]} for i in pkgs]
            if cur and (written := _written(ins)):
                cur["written"] = {**(cur.get("written") or {}), **written}
            known = {**args, **(cur.get("args") or {}), **{k: str(v.value) for k, v in cur.get("env", {}).items()}} if cur else {}
            got = _run_install(rel, ins, known) if cur else None
            if got:
                cur["installed"] = got
            elif cur and (w := next((w for w in arg.split() if source_pins.is_git_url(w)), None)):
                cur["installed"] = ("source", ins.lines_of([w])[0], w)  # built from a commit: no release known
            elif cur and (n := source_pins.checkout_line(arg)) is not None:
                # `git clone …/vllm && pip install -e .`: over a vllm-openai base too, the image then runs that build
                w = arg.splitlines()[n - 1].strip()
                cur["installed"] = ("source", ins.lines_of([w])[0], w)
        elif kw in ("ENTRYPOINT", "CMD") and cur:
            cur[kw.lower()] = ins
            if kw == "ENTRYPOINT":
                cur["cmd"] = None  # a new ENTRYPOINT resets an inherited CMD
    return cur


_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_BETWEEN = re.compile(r"(?:[ \t,]|\\[ \t]*\r?\n)*")


def _line_offset(text: str, line: int) -> int:
    """Where a line starts; -1 when the text has fewer "\n" lines (the parser split it at another
    line break, U+0085 or U+2028)."""
    pos = 0
    for _ in range(line - 1):
        nl = text.find("\n", pos)
        if nl < 0:
            return -1
        pos = nl + 1
    return pos


def _exec_spans(text: str, ins: _Instr, n: int) -> tuple[list, int] | None:
    """Offsets of each string of an exec-form `["a", "b"]` and where a new item goes; None when
    the array is not written plainly (a comment inside it, a count that does not match)."""
    start = _line_offset(text, ins.line)
    i = text.find("[", start) if start >= 0 else -1
    if i < 0:
        return None
    spans, j = [], i + 1
    while True:
        j = _BETWEEN.match(text, j).end()  # type: ignore[union-attr]
        if text[j:j + 1] == "]":
            break
        m = _JSON_STRING.match(text, j)
        if not m:
            return None
        spans.append((m.start(), m.end()))
        j = m.end()
    if len(spans) != n:
        return None
    return spans, (spans[-1][1] if spans else i + 1)


def _env_pos(text: str, ins: _Instr, name: str, pairs: int) -> dict | None:
    """Where an `ENV NAME=value` (or `ENV NAME value`) value is written, on a one-line ENV."""
    if len(ins.pieces) != 1:
        return None
    ls = _line_offset(text, ins.line)
    if ls < 0:
        return None
    le = text.find("\n", ls)
    le = len(text) if le < 0 else le
    line = text[ls:le].rstrip("\r")
    m = re.match(r"[ \t]*ENV[ \t]+", line, re.I)
    if not m:
        return None
    first = line[m.end():].split(None, 1)
    if not first:
        return None
    if pairs == 1 and "=" not in first[0]:
        v = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]+(?P<val>.*?)[ \t]*$").match(line, m.end())
    else:
        v = re.compile(r"(?<![\w$])(?P<name>" + re.escape(name) + r")=(?P<val>\"[^\"]*\"|'[^']*'|[^\s]*)").search(line, m.end())
    if not v or v.group("name") != name:
        return None
    return {"docker_env": [ls + v.start("val"), ls + v.end("val")], "pair": [ls + v.start("name"), ls + v.end("val")],
            "line": [ls, le], "pairs": pairs}


def _expand_vars(text: str, known: dict[str, str]) -> str:
    """`${MODEL}` / `$MODEL` from ARG and ENV values seen so far; others are left as written."""
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: known.get(m.group(1) or m.group(2), m.group(0)), text)


def _env_pairs(arg: str):
    if "=" not in arg.split(" ", 1)[0]:
        k, _, v = arg.partition(" ")
        return [(k, v.strip().strip('"'))]
    out = []
    for tok in re.findall(r'([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\'[^\']*\'|\S*)', arg):
        out.append((tok[0], tok[1].strip("'\"")))
    return out


def _docker_site(ctx: ScanContext, rel: str, st: dict, text: str) -> Site | None:
    import json

    image = st.get("image")
    ep, cmd = st.get("entrypoint"), st.get("cmd")
    entry = env_image(image) if ep is None and cmd is None else None
    endpoint = endpoint_env.endpoint_env(ctx, rel) if entry else {}  # the serverless endpoint's own variables
    env = {**st["env"], **endpoint_env.as_settings(endpoint)}
    known = {**(st.get("args") or {}), **{k: str(s.value) for k, s in env.items()}}
    ex = Expander(known)
    words: list[Word] = []
    argv_pos: list = []  # where each word is written, for fixes
    append = None
    by_env_used = False
    line = end = 1
    script = _runs_written(st, ep, cmd)
    if script is not None:  # a start script the image writes itself: its text is the command
        return _installed(shell_site(ctx, rel, script[0], script[1], "dockerfile", env, image, known), st, rel)
    first = min((i for i in (ep, cmd) if i is not None), key=lambda i: i.line, default=None)
    at = _line_offset(text, first.line) if first is not None else -1
    extra = {"env_at": {"docker_line": at} if at >= 0 else None}
    if ep is not None:
        form = _exec_form(ep.arg)
        if form is None:  # shell form: the CMD is ignored
            return _installed(shell_site(ctx, rel, ep.shell_text, ep.line, "dockerfile", env, image, known), st, rel)
        words += [yaml_word(t, ln, ex) for t, ln in zip(form, ep.lines_of([json.dumps(t) for t in form]))]
        spans = _exec_spans(text, ep, len(form))
        argv_pos += [{"json": list(sp)} for sp in spans[0]] if spans else [None] * len(form)
        append = {"json_after": spans[1], "empty": not form} if spans else None
        line = end = ep.line
    elif cmd is None and (by_env := env_command(image, [(k, yaml_word(str(v.value), v.line, ex)) for k, v in env.items()
                                                         if v.value is not None], 1, ctx.catalog)):
        words += by_env  # an image its ENV configures (RunPod's worker): the env is its command line
        argv_pos += [None] * len(by_env)
        by_env_used = True
        line = end = min((v.line for v in st["env"].values()), default=1)
    elif is_vllm_image(image) or _flags_only(cmd) and is_vllm_like_image(image):
        # a CMD of only flags on another maker's vLLM image (`FROM …/vllm-openai:v0.7.1`, `CMD ["--model", …]`)
        # can only be arguments to the entrypoint it inherits, vLLM's server, as `docker run IMAGE --model …` reads
        if cmd is not None and (form := _exec_form(cmd.arg)) and _SYSTEM_PROGRAM.match(form[0]):
            # `CMD ["/usr/bin/supervisord"]` on vllm/vllm-openai: a program, not a model for the inherited
            # `vllm serve` — the image is run with `--entrypoint=""` (eval89 Hiroaki-Masuzawa/llm_vlm_memo
            # shells/run_supervisor.sh), and what supervisord starts is read from its own .conf files
            return None
        implicit = entrypoint_for(image, ctx.untagged_image_release)
        words += [yaml_word(t, 1, ex) for t in implicit]
        argv_pos += [None] * len(implicit)
    if cmd is not None:
        form = _exec_form(cmd.arg)
        if form is None:
            if ep is None:
                return _installed(shell_site(ctx, rel, cmd.shell_text, cmd.line, "dockerfile", env, image, known), st, rel)
            form = ["/bin/sh", "-c", cmd.arg]
            words += [yaml_word(t, cmd.line, ex) for t in form]
            argv_pos += [None] * len(form)
            append = None
        else:
            words += [yaml_word(t, ln, ex) for t, ln in zip(form, cmd.lines_of([json.dumps(t) for t in form]))]
            spans = _exec_spans(text, cmd, len(form))
            argv_pos += [{"json": list(sp)} for sp in spans[0]] if spans else [None] * len(form)
            append = {"json_after": spans[1], "empty": not form} if spans else None
        line = cmd.line if ep is None else line
        end = cmd.pieces[-1][0]
    if not words:
        return None
    extra.update(argv_pos=argv_pos, argv_append=append)  # type: ignore[call-overload]
    site = launch_site(ctx, rel, words, line, end, "dockerfile", "json", env, image, extra)
    if site is not None and ep is None and cmd is None and not by_env_used:
        # only `FROM vllm/vllm-openai:vX`: the launch is a compose/k8s/script elsewhere; the image
        # still names the release for the folder's launches (engine/scan/image_beside.py)
        site.launch["image_only"] = True
    if site is not None and ep is not None and cmd is None:
        # an exec-form ENTRYPOINT with no CMD takes its arguments, the model among them, at `docker run`
        # (liuhong1happy/vllm-docker's `ENTRYPOINT ["vllm", "serve"]`, eval77: L33 said no model is given)
        site.opaque.append({"code": "forwards-args", "what": f"ENTRYPOINT {ep.arg}", "where": f"{rel}:{ep.line}"})
    endpoint_env.relocate(site, endpoint, (entry[0].get("aliases") or {}) if entry else {})
    return _installed(site, st, rel)


# `RUN echo '#!/bin/bash\n… vllm serve "$MODEL" …' > /app/start.sh` (or printf): a script the build writes; only a
# single-quoted text is read (a double-quoted one is expanded while the image is built)
_WRITE = re.compile(r"""\b(?:echo(?:[ \t]+-[neE]+)?|printf)[ \t]+'([^']*)'[ \t]*>[ \t]*([^\s>&;|]+)""")
_SHELLS = ("sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/env bash")
_SYSTEM_PROGRAM = re.compile(r"^/(?:usr/(?:local/)?)?s?bin/[^/]+$")  # an executable where no model is kept


def _flags_only(cmd) -> bool:
    form = _exec_form(cmd.arg) if cmd is not None else None
    return bool(form and form[0].startswith("-"))


def _written(ins: _Instr) -> dict[str, tuple[str, int]]:
    return {m.group(2).strip("'\""): (m.group(1).replace("\\n", "\n"), ins.line) for m in _WRITE.finditer(ins.arg)}


def _runs_written(st: dict, ep, cmd) -> tuple[str, int] | None:
    """(text, line) of the written script the image's exec-form command runs (`CMD ["/app/start.sh"]`,
    `["bash", "/app/start.sh"]`): laureano-arcanio/balanced-vllm-docker's Dockerfile.H100 (eval77)."""
    written = st.get("written") or {}
    forms = [_exec_form(i.arg) if i is not None else [] for i in (ep, cmd)]
    if not written or any(f is None for f in forms):
        return None
    argv = [w for f in forms for w in (f or [])]
    if len(argv) == 2 and argv[0] in _SHELLS:
        argv = argv[1:]
    return written.get(argv[0]) if len(argv) == 1 else None


def _installed(site: Site | None, st: dict, rel: str) -> Site | None:
    if site is not None and st.get("installed"):
        version, line, text = st["installed"]
        site.installed = (version, f"{rel}:{line}", text)
    if site is not None and st.get("image_installs"):
        site.launch["image_installs"] = st["image_installs"]
    return site
