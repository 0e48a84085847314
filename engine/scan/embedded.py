"""Shell scripts written inside other files — Makefile recipes, CI workflow `run:` steps, SkyPilot
`run:` blocks — read with the same shell model as a script, on the lines of the file that holds
them, with the variables the surrounding file defines."""
from __future__ import annotations

from vllm_kb.engine.scan import scripts, shell_choices
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.shell import ShellSyntaxError
from vllm_kb.engine.scan.shell_budget import TooComplex
from vllm_kb.engine.scan.shell_expand import Expander
from vllm_kb.engine.scan.shell_flat import FlatRunner
from vllm_kb.engine.scan.shell_nodes import shift_lines
from vllm_kb.engine.scan.shell_run import Runner, State
from vllm_kb.engine.scan.shell_tree import parse_tree
from vllm_kb.engine.scan.site import Setting, Site


def script_sites(ctx: ScanContext, rel: str, text: str, first_line: int, *, known: dict[str, str] | None = None,
                 env: dict[str, Setting] | None = None, notes: dict[str, str] | None = None, tool: str | None = None,
                 version: str | None = None, cwd: str | None = None, start: int | None = None) -> list[Site]:
    """Sites of a script whose first line is `first_line` of `rel`. `known`: variables the script
    starts with (exported: `env`, as the environment the step gets); `cwd`: the folder its relative
    paths start from, where that is not the file's own (a CI step's working directory); `start`: the
    script begins at that offset of `text`, the file's own text (its words keep the file's offsets)."""
    ex = Expander(known)
    ex.notes.update(notes or {})
    ex.exported |= set(env or {})
    st = State(ex, dict(env or {}), cwd=cwd)
    version = version or ctx.version_for(rel)
    found: dict[str, Site] = {}

    def emit(c) -> None:
        site = scripts.site_for(ctx, rel, version, c)
        if site is not None and site.id not in found:
            if tool:
                site.tool = tool
            found[site.id] = site
        elif site is not None and "branch" in c.via:  # the same launch through another branch's array
            shell_choices.merge_site(found[site.id], site)

    try:
        nodes = parse_tree(text) if start is None else parse_tree(text, start, first_line)
    except ShellSyntaxError as e:
        ctx.skip(rel, "shell-syntax", first_line + e.line - 1 if start is None else e.line, str(e))
        return []
    except RecursionError:
        ctx.skip(rel, "parse-error", first_line, "nesting too deep")
        return []
    if start is None:
        shift_lines(nodes, first_line - 1)
    initial = st.copy()
    runner = Runner(ctx, rel, emit, state=st)
    try:
        runner.run(nodes)
        runner.finish()
    except TooComplex as e:  # past its budget (shell_budget): each command once, without control flow
        found.clear()
        ctx.skip(rel, "shell-too-complex", first_line, str(e))
        FlatRunner(ctx, rel, emit, state=initial).run(nodes)
    return list(found.values())


def block_first_line(lines: list[str], key_line: int, text: str) -> int:
    """The file line a YAML string value starts on: the key's own line for a plain or quoted
    scalar, the next non-empty line for a `|` / `>` block."""
    if not (1 <= key_line <= len(lines)):
        return key_line
    head = lines[key_line - 1].split("#", 1)[0].rstrip()
    if head.endswith(("|", ">", "|-", ">-", "|+", ">+")) or (head.endswith(":") and "\n" in text):
        first = text.split("\n", 1)[0].strip()
        for j in range(key_line, min(len(lines), key_line + 50)):
            if first and first in lines[j]:
                return j + 1
        return key_line + 1
    return key_line
