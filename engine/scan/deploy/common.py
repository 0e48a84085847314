"""What every container syntax shares: the vLLM image and its entrypoint by tag, a YAML string
read as a shell word, and a launch turned into a site like a script's."""
from __future__ import annotations

import re

from vllm_kb.engine.scan import entry_installs, scripts
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.shell import Command, Seg, ShellSyntaxError, Word, parse
from vllm_kb.engine.scan.shell_expand import Expander, hole
from vllm_kb.engine.scan.shell_nodes import Simple
from vllm_kb.engine.scan.shell_budget import TooComplex
from vllm_kb.engine.scan.shell_run import Runner, State
from vllm_kb.engine.scan.site import Setting, Site

from vllm_kb.engine.scan.images import (  # noqa: F401 — re-exported for the container scanners
    IMAGE_ENTRYPOINTS,
    container_command,
    dated_release,
    entrypoint_for,
    image_version,
    is_local_image,
    is_variant_image,
    is_vllm_image,
    is_vllm_like_image,
)


# A Go-template (or Jinja) action left in a manifest an operator or chart renders later (KServe's
# LLMInferenceServiceConfig, a chart's files/, `{{ .Values.x }}`): its text is not known until then.
# GitHub's `${{ … }}` is resolved by engine/scan/ci.py.
_TEMPLATE_ACTION = re.compile(r"(?<![$\ue000])\{\{-?(.*?)-?\}\}", re.S)  # not one already held (helm_render.py)


def template_holes(text: str) -> str:
    """`text` with each `{{ … }}` action as a hole (shell_expand): what it renders is unknown."""
    if "{{" not in text:
        return text
    return _TEMPLATE_ACTION.sub(lambda m: hole("{{" + re.sub(r"\s+", "", m.group(1)) + "}}"), text)


def yaml_word(text: str, line: int, ex: Expander, compose: bool = False, k8s_env: dict | None = None) -> Word:
    """A literal argv element as a word; `${VAR:-x}` (compose) and `$(VAR)` (Kubernetes) expand, a
    template action `{{ … }}` is unknown."""
    if (held := template_holes(text)) != text:
        w = Word(raw=text, line=line, segs=[Seg("lit", held)])
        w.text, w.unresolved = held, text
        return w
    if k8s_env is not None:
        def sub(m):
            return k8s_env.get(m.group(1), m.group(0))
        text = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", sub, text)
        w = Word(raw=text, line=line, segs=[Seg("lit", text)])
        # a `$(NAME)` the container's env does not set stays as written: unknown in an argument; in a
        # script of several lines (`bash -c` + a block) the shell runs it as a command, as it does
        # `$(seq 1 30)`, which is no Kubernetes reference at all (aws-samples/aws-do-eks's manifests)
        w.value = None if "\n" not in text and re.search(r"\$\([A-Za-z_][A-Za-z0-9_]*\)", text) else text
        if w.value is None:
            w.unresolved = text
        return w
    if compose and "$" in text.replace("$$", ""):
        # compose's `$$` is a literal `$` (for the container's shell), not the shell's PID
        try:
            held = text.replace("$$", _DOLLAR)
            (cmd,) = parse('"' + held.replace('"', '\\"') + '"') or [Command([], line, line)]
            w = _dollars(ex.expand(cmd.words[0]))
            w.raw, w.line = text, line
            return w
        except (ShellSyntaxError, ValueError):
            pass
    if compose:
        text = text.replace("$$", "$")
    w = Word(raw=text, line=line, segs=[Seg("lit", text)])
    w.value = text
    return w


def launch_site(ctx: ScanContext, rel: str, words: list[Word], line: int, end_line: int, syntax: str,
                 style: str, env: dict[str, Setting], image: str | None, extra: dict | None = None,
                 known: dict[str, str] | None = None, source_lines: list[str] | None = None,
                 version: str | None = None) -> Site | None:
    """The site a container's argv starts: run as a shell command would be, so `sh -c "…"`,
    `bash -lc -- "…"`, `exec`, `env` and wrappers are read through. `known`: variables the argv's
    inner scripts see (the container's environment). `version`: the release a tool names for the
    launch itself (GPUStack's backend_version), over the image's and the folder's."""
    tag = image_version(image)
    # an image that names only its build day: its argv read with the grammar of the release it is judged at
    version = version or (ctx.catalog.resolve(tag).version if tag else ctx.catalog.installed_version(dated_release(image, grammar=True)) or ctx.version_for(rel))
    st = State(Expander(known if known is not None else {k: str(s.value) for k, s in env.items() if s.resolved}), dict(env))
    st.ex.exported |= set(st.ex.vars)
    found: list[Site] = []
    frozen = [_frozen(w) for w in words]

    def emit(c) -> None:
        if found:
            return
        if source_lines is not None:
            relocate(c.words, source_lines, line)
        c.env = {**env, **{k: v for k, v in c.env.items() if k not in env}}
        site = scripts.site_for(ctx, rel, version, c, syntax)
        if site is not None:
            site.source = dict(site.source or {}, **_positions(extra, frozen, site.source),
                               argv_style="string" if "shell string" in c.via else style)
            found.append(site)

    runner = Runner(ctx, rel, emit, state=st, anchor=(line, end_line))
    try:
        runner.simple(Simple(frozen, line, end_line))
    except (ShellSyntaxError, RecursionError) as e:
        ctx.skip(rel, "shell-syntax", line, str(e))
        return None
    except TooComplex as e:  # a `bash -c` string past its budget (shell_budget)
        ctx.skip(rel, "shell-too-complex", line, str(e))
        return None
    if found:
        # a `docker run IMAGE` inside the command (a Python f-string run with shell=True) names the
        # image vLLM runs in; the container's own image only when the command names none
        found[0].image = found[0].image or image
        # what the command installs before vLLM starts (engine/scan/entry_installs.py)
        if got := entry_installs.installs([w.text for w in frozen if w.text and "install" in w.text]):
            found[0].launch["entry_installs"] = got
            entry_installs.adopt_vllm(found[0])
        return found[0]
    return None


def _positions(extra: dict | None, frozen: list[Word], source: dict | None) -> dict:
    """`extra` with `argv_pos` (where each argv element is written, for fixes: engine/fix/
    deploy_edits.py) given per word of the site's own argv: the shell run may read through
    wrappers (`env`, `exec`) or an inner script (`sh -c "…"`), so the site's words are not always
    the container's. A word that is not one of the container's own items has no position, and new
    arguments are appended only when the site's argv ends where the container's does."""
    out = dict(extra or {})
    if "argv_pos" not in out:
        return out
    pos, append = out.pop("argv_pos"), out.pop("argv_append", None)
    mine = (source or {}).get("words")
    if not isinstance(mine, list) or len(pos) != len(frozen):
        return out
    at = {id(w): i for i, w in enumerate(frozen)}
    out["argv_pos"] = [pos[at[id(w)]] if id(w) in at else None for w in mine]
    out["argv_append"] = append if mine and at.get(id(mine[-1])) == len(frozen) - 1 else None
    return out


def shell_site(ctx, rel, text, line, syntax, env, image, known: dict | None = None, anchor: int | None = None,
                source_lines: list[str] | None = None, end_line: int | None = None, version: str | None = None) -> Site | None:
    """A command written as one shell string (Dockerfile shell form, a YAML scalar, a job API's command):
    run as `/bin/sh -c TEXT` would run it. `end_line`: where a call spanning lines ends."""
    script = template_holes(text)
    return launch_site(ctx, rel, [_plain("/bin/sh", line), _plain("-c", line), _plain(script, line)], anchor or line,
                       end_line or line, syntax, "string", env, image, known=known, source_lines=source_lines, version=version)


def _frozen(w: Word) -> Word:
    """An argv element already expanded (compose `${VAR:-x}` against .env, Kubernetes `$(VAR)`):
    kept as its value, so running the command does not expand it again."""
    text = w.value if w.value is not None else (w.text if w.text is not None else hole(w.unresolved or w.raw))
    out = Word(raw=w.raw, line=w.line, segs=[Seg("lit", text, quoted=True)], start=w.start, end=w.end)
    out.value, out.text, out.assumed, out.unresolved = w.value, text, w.assumed, w.unresolved
    return out


def _plain(text: str, line: int) -> Word:
    w = Word(raw=text, line=line, segs=[Seg("lit", text, quoted=True)], start=-1, end=-1)
    w.value = text
    w.text = text
    return w


_DOLLAR = "\ue002"  # compose's `$$` while the rest of the string is expanded


def _dollars(w: Word) -> Word:
    for seg in w.segs:
        seg.text = seg.text.replace(_DOLLAR, "$")
    w.value = w.value.replace(_DOLLAR, "$") if w.value is not None else None
    w.text = w.text.replace(_DOLLAR, "$") if w.text is not None else None
    return w


def plain_yaml(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def relocate(words: list[Word], lines: list[str], start: int) -> None:
    """Give each word the line it is written on, searching the file text in order from `start`
    (a folded or block scalar keeps no line numbers of its own)."""
    i, col = start - 1, 0
    for w in words:
        for j in range(i, min(len(lines), i + 500)):
            k = lines[j].find(w.raw, col if j == i else 0)
            if k >= 0:
                w.line, i, col = j + 1, j, k + len(w.raw)
                break


def int_gpus(v) -> int | None:
    """A GPU count as a manifest writes it (2, "2"); None for anything else ("all", 0.5)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int) and v > 0:
        return v
    if isinstance(v, str) and v.strip().isdigit() and int(v) > 0:
        return int(v)
    return None
