"""What every container syntax shares: the vLLM image and its entrypoint by tag, a YAML string
read as a shell word, and a launch turned into a site like a script's."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.versions import parse as parse_version
from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan import scripts
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.launchers import find_launch
from vllm_kb.engine.scan.shell import Command, Seg, ShellSyntaxError, Word, parse
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.site import Setting, Site

# The vllm/vllm-openai image's ENTRYPOINT by tag (docker/Dockerfile of each release; from 0.25
# a non-root wrapper that execs `vllm serve "$@"`).
IMAGE_ENTRYPOINTS = [("0.0.0", ["python3", "-m", "vllm.entrypoints.openai.api_server"]), ("0.12.0", ["vllm", "serve"])]


_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)?vllm/vllm-openai(?::(?P<tag>[\w.+-]+))?(?:@sha256:\w+)?$")


def image_version(image: str | None) -> str | None:
    """`vllm/vllm-openai:v0.10.2` → 0.10.2; None for latest, nightly or other images."""
    m = _IMAGE.match((image or "").strip())
    if not m or not m.group("tag"):
        return None
    v = try_parse(m.group("tag").lstrip("v").split("-")[0])
    return str(v) if v else None


def is_vllm_image(image: str | None) -> bool:
    return bool(_IMAGE.match((image or "").strip()))


def entrypoint_for(image: str | None, newest: str) -> list[str]:
    v = try_parse(image_version(image) or newest)
    chosen = IMAGE_ENTRYPOINTS[0][1]
    for at, ep in IMAGE_ENTRYPOINTS:
        if v is not None and v >= parse_version(at):
            chosen = ep
    return chosen


def yaml_word(text: str, line: int, ex: Expander, compose: bool = False, k8s_env: dict | None = None) -> Word:
    """A literal argv element as a word; `${VAR:-x}` (compose) and `$(VAR)` (Kubernetes) expand."""
    if k8s_env is not None:
        def sub(m):
            return k8s_env.get(m.group(1), m.group(0))
        text = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", sub, text)
        w = Word(raw=text, line=line, segs=[Seg("lit", text)])
        w.value = None if re.search(r"\$\([A-Za-z_]", text) else text
        if w.value is None:
            w.unresolved = text
        return w
    if compose and "$" in text:
        try:
            (cmd,) = parse('"' + text.replace('"', '\\"') + '"') or [Command([], line, line)]
            w = ex.expand(cmd.words[0])
            w.raw, w.line = text, line
            return w
        except (ShellSyntaxError, ValueError):
            pass
    w = Word(raw=text, line=line, segs=[Seg("lit", text)])
    w.value = text
    return w


def launch_site(ctx: ScanContext, rel: str, words: list[Word], line: int, end_line: int, syntax: str,
                 style: str, env: dict[str, Setting], image: str | None, extra: dict | None = None) -> Site | None:
    launch = find_launch(words)
    if launch is None:
        return None
    tag = image_version(image)
    version = ctx.catalog.resolve(tag).version if tag else ctx.version_for(rel)
    ex = Expander({k: str(s.value) for k, s in env.items() if s.resolved})
    site = scripts._site(ctx, rel, version, Command(words, line, end_line), launch, env, ex, syntax=syntax,
                         source=dict(extra or {}, argv_style=style))
    site.image = image
    return site


def shell_site(ctx, rel, text, line, syntax, env, image, known: dict | None = None, anchor: int | None = None,
                source_lines: list[str] | None = None) -> Site | None:
    """A command written as one shell string. `source_lines`: the file's lines, when the string is a
    YAML scalar whose own line breaks say nothing about where its words are written."""
    try:
        cmds = parse(text)
    except ShellSyntaxError as e:
        ctx.skip(rel, "shell-syntax", line, str(e))
        return None
    ex = Expander(known if known is not None else {k: str(s.value) for k, s in env.items() if s.resolved})
    for c in cmds:
        for w in c.words:
            ex.expand(w)
            w.line += line - 1
        if source_lines is not None:
            relocate(c.words, source_lines, line)
        site = launch_site(ctx, rel, c.words, anchor or line, max(w.line for w in c.words), syntax, "string", env, image)
        if site is not None:
            return site
    return None


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
