"""Launch commands a README gives only in its shell code fences (eugr/spark-vllm-docker: every
`vllm serve` is in README.md, run through the project's `launch-cluster.sh exec …`, eval99).

A fence is documentation, not a file that runs: what the reader types may differ (a placeholder
filled in, a flag added, another release installed). So such a launch is listed as a site — where the
project installs vLLM itself (ships_vllm): a README that names vLLM only as a server the reader may
run describes no launch of the project —, read by the same shell model as a script, but it never carries a P0 (engine/check/evaluate.settle_documented
lowers it to P1 with the reason) and `--fix` edits it only with `--unsafe-fixes`. A fence that is not
shell (`python`, `yaml`), or not valid shell (`vllm serve <model>`), is no site; docs/launch-checks.md
says the same to the user."""
from __future__ import annotations

import re

from vllm_kb.engine.scan import embedded
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.shell import ShellSyntaxError
from vllm_kb.engine.scan.shell_tree import parse_tree
from vllm_kb.engine.scan.site import Site

# README.md, readme.md, README_zh.md, README.en.md, README-CN.markdown, in any folder
_README = re.compile(r"(?:^|/)readme(?:[._-][\w-]+)?\.(?:md|markdown)$", re.I)
_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([\w+.-]*)")
# the info strings of a shell session or script; an unlabelled fence is read too (most READMEs' commands)
_SHELL = {"", "bash", "sh", "shell", "zsh", "console", "shell-session", "shellsession", "terminal", "sh-session"}
_PROMPT = re.compile(r"^(\s*)\$ ")  # `$ vllm serve …`: the prompt is not part of the command
# `vllm serve <model-name>`: a placeholder the reader fills in, which the shell would read as redirections
_PLACEHOLDER = re.compile(r"(?<![<\w])<[A-Za-z_][\w./:|-]*>|(?<!\S)(?:\.\.\.|…)(?!\S)")  # or `vllm serve ...`


# a model the reader is to fill in: `vllm serve MODEL_NAME`, `model_name`, `your-model`, `/path/to/model`, `path_to_merged_model` (LLaMA-Factory), `{model_name}`
_PLACEHOLDER_MODEL = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,}|(?i:(?:your|my)[_-]?\w*|model(?:[_-]?(?:name|path|id|dir))?|.*\bpath[/_-]to(?:\b|_).*|.*\{[\w.-]*\}.*)")


def is_readme(rel: str) -> bool:
    return bool(_README.search(rel))


def fences(text: str) -> list[tuple[int, int, int]]:
    """(offset of the first line, offset after the last, first line number) of each shell fence."""
    out, pos = [], 0
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if not m:
            pos += len(lines[i]) + 1
            i += 1
            continue
        mark, info = m.group(1), m.group(2).lower()
        body_start, first = pos + len(lines[i]) + 1, i + 2
        j, end = i + 1, body_start
        while j < len(lines) and not re.match(r"^ {0,3}" + re.escape(mark[0]) + "{" + str(len(mark)) + r",}\s*$", lines[j]):
            end += len(lines[j]) + 1
            j += 1
        if info in _SHELL and end > body_start:
            out.append((body_start, end - 1, first))
        pos, i = end + (len(lines[j]) + 1 if j < len(lines) else 0), j + 1
    return out


def masked(text: str, start: int, end: int) -> str:
    """The file's text up to the fence's end, offsets kept: a `$ ` prompt blanked, and in a session
    with prompts the lines that are output (no prompt, not a continued command) blanked too."""
    body = text[start:end].split("\n")
    prompted = any(_PROMPT.match(ln) for ln in body)
    out, going_on = [], False
    for ln in body:
        m = _PROMPT.match(ln)
        if m:
            ln = m.group(1) + "  " + ln[m.end():]
        elif prompted and not going_on:
            ln = " " * len(ln)
        going_on = ln.rstrip().endswith("\\")
        out.append(ln)
    return text[:start] + "\n".join(out)


def ships_vllm(ctx: ScanContext, rel: str) -> bool:
    """The project installs vLLM for the README's folder (a pin at or above it, a Dockerfile's install,
    a build from source): its README then tells how to run what it ships. A README that only names
    vLLM as one server the reader may run (tests/fixtures/neg-mentions) describes no launch of its own."""
    folder = rel.rpartition("/")[0]
    pinned = any(k == "" or folder == k or folder.startswith(k + "/") for k in ctx.versions_by_dir)
    return pinned or bool(ctx.image_installs) or bool(ctx.source_built)


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    found: list[Site] = []
    if not ships_vllm(ctx, rel):
        return found
    for start, end, first in fences(text):
        if "vllm" not in text[start:end].lower() or _PLACEHOLDER.search(text[start:end]):
            continue
        script = masked(text, start, end)
        try:
            parse_tree(script, start, first)  # documentation need not be valid shell: no site, no skip
        except (ShellSyntaxError, RecursionError):
            continue
        before = set(ctx.referenced)
        launched = embedded.script_sites(ctx, rel, script, first, start=start)
        # a config the fence's command reads stays a site of its own: the file runs whatever the README says
        ctx.referenced.intersection_update(before)
        for site in launched:
            model = site.model.value if site.model is not None and site.model.resolved else None
            if isinstance(model, str) and _PLACEHOLDER_MODEL.fullmatch(model):
                continue  # a template of a command, not one a reader runs as written
            site.launch["documented"] = first  # the fence: launches of two fences are alternatives, never run together
            found.append(site)
    return found
