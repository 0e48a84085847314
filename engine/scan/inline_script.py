"""A Python script's inline metadata (PEP 723): the `# /// script` … `# ///` comment block whose TOML
`dependencies` a runner installs into the script's own environment before it runs it (`uv run
script.py`, `pipx run`, `hatch run`, `hf jobs uv run`). The vLLM requirement there is the release
that script's sites run, whatever the folder's other pins say."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.tomlread import toml

# the reference regular expression of PEP 723 ("Reference Implementation")
_BLOCK = re.compile(r"(?m)^# /// (?P<type>[a-zA-Z0-9-]+)$\s(?P<content>(^#(| .*)$\s)+)^# ///$")


def dependencies(text: str) -> list[tuple[int, str]] | None:
    """(line, requirement) of the `script` block's `dependencies`; None where the file has no such
    block, or two (PEP 723: a tool must then refuse it), or its TOML does not parse."""
    if "# /// script" not in text:
        return None
    blocks = [m for m in _BLOCK.finditer(text) if m.group("type") == "script"]
    if len(blocks) != 1:
        return None
    m = blocks[0]
    lines = m.group("content").splitlines(keepends=True)
    body = "".join(line[2:] if line.startswith("# ") else line[1:] for line in lines)
    try:
        deps = toml().loads(body).get("dependencies")
    except toml().TOMLDecodeError:
        return None
    if not isinstance(deps, list):
        return None
    first = text.count("\n", 0, m.start("content")) + 1  # the block's first TOML line
    out = []
    for dep in deps:
        if isinstance(dep, str):
            at = next((first + i for i, line in enumerate(lines) if dep in line), first)
            out.append((at, dep))
    return out


def vllm_install(rel: str, text: str, known, newest: str) -> tuple[str, str, str] | None:
    """Site.installed for the sites of a script whose inline metadata requires a bounded vLLM
    (`vllm==0.22.0`, `vllm>=0.10,<0.12`: the newest release in the range, judged as a range later);
    None for a bare `vllm` or none."""
    from vllm_kb.engine.scan import pins

    got = dependencies(text)
    found = [p for line, dep in got or () if (p := pins.from_requirement(rel, line, dep.replace(" ", ""), "image")) is not None]
    return pins.site_install(found, known, newest) if found else None
