"""Makefiles: each recipe line is a shell command (continuation lines joined as make passes them),
with make's own variables (`NAME ?= v`, `:=`, `=`, `+=`, `export`, `-include .env`) substituted
first and `$$` turned into `$`. A target that runs vLLM is a site at its recipe line."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.embedded import script_sites
from vllm_kb.engine.scan.shell_expand import hole
from vllm_kb.engine.scan.site import Setting, Site

_ASSIGN = re.compile(r"^(?:(export|override)\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(\?=|:::=|::=|:=|\+=|!=|=)\s*(.*)$")
_TARGET = re.compile(r"^([^\t#=:][^=:]*?)\s*::?(?!=)(.*)$")
_INCLUDE = re.compile(r"^-?s?include\s+(.+)$")
_REF = re.compile(r"\$(?:\(([^()]*)\)|\{([^{}]*)\}|([A-Za-z_@<^*?]))")


def is_makefile(rel: str) -> bool:
    if "akefile" not in rel and ".mk" not in rel:  # every name below holds one: no path built for most files
        return False
    name = PurePosixPath(rel).name
    return name in ("Makefile", "makefile", "GNUmakefile") or name.endswith(".mk") or name.startswith(("Makefile.", "Makefile_", "Makefile-"))


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    lines = text.splitlines()
    variables: dict[str, str] = {}
    notes: dict[str, str] = {}
    exported: set[str] = set()
    sites: list[Site] = []
    i = 0
    in_recipe = False
    while i < len(lines):
        first = i
        logical = lines[i]
        while logical.endswith("\\") and i + 1 < len(lines):
            i += 1
            logical = logical + "\n" + lines[i]
        i += 1
        if logical.startswith("\t") and in_recipe:
            sites += _recipe(ctx, rel, logical, first + 1, variables, notes, exported)
            continue
        stripped = logical.strip()
        if not stripped or stripped.startswith("#"):
            continue
        in_recipe = False
        m = _ASSIGN.match(stripped)
        if m:
            _assign(m, variables, notes, exported)
            continue
        inc = _INCLUDE.match(stripped)
        if inc:
            for ref in inc.group(1).split():
                _include(ctx, rel, _expand(ref, variables), variables)
            continue
        if stripped.startswith("export "):
            exported.update(stripped.split()[1:])
            continue
        t = _TARGET.match(logical)
        if t:
            in_recipe = True
            recipe = t.group(2).split(";", 1)
            if len(recipe) == 2 and recipe[1].strip():
                sites += _recipe(ctx, rel, "\t" + recipe[1], first + 1, variables, notes, exported)
    return sites


def _value(text: str) -> str:
    """A variable's value as make reads it: up to an unescaped `#` (a comment), `\\#` a literal one."""
    m = re.search(r"(?<!\\)#", text)
    return (text[:m.start()] if m else text).replace("\\#", "#").strip()


def _assign(m, variables: dict[str, str], notes: dict[str, str], exported: set[str]) -> None:
    export, name, op, value = m.groups()
    value = _value(value)
    if op == "?=":
        if name not in variables:
            variables[name] = value
            notes[name] = f"default of {name} ?= {value} (make)"
    elif op == "+=":
        variables[name] = (variables.get(name, "") + " " + value).strip()
    elif op == "!=":
        variables[name] = hole(f"$(shell {value})")
    else:
        variables[name] = _expand(value, variables) if op in (":=", "::=", ":::=") else value
        notes.pop(name, None)
    if export:
        exported.add(name)


def _include(ctx: ScanContext, rel: str, ref: str, variables: dict[str, str]) -> None:
    target = ctx.resolve_ref(rel, ref) if "\ue000" not in ref else None
    for line in (ctx.read(target) or "").splitlines() if target else []:
        m = _ASSIGN.match(line.strip())
        if m and not line.lstrip().startswith("#"):
            variables[m.group(2)] = _value(m.group(4))


def _expand(text: str, variables: dict[str, str], depth: int = 0) -> str:
    """make's own expansion: `$(NAME)` / `${NAME}` from the makefile, `$$` → `$`; make functions
    and unknown variables become holes (what the shell would have got is unknown)."""
    if depth > 10:
        return hole(text)
    out = []
    k = 0
    while k < len(text):
        if text.startswith("$$", k):
            out.append("$")
            k += 2
            continue
        m = _REF.match(text, k)
        if not m:
            out.append(text[k])
            k += 1
            continue
        name = m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
        if name in variables:
            out.append(_expand(variables[name], variables, depth + 1))
        elif name and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            out.append(hole(f"$({name})"))
        else:
            out.append(hole(m.group(0).replace(" ", "")))
        k = m.end()
    return "".join(out)


def _recipe(ctx, rel, logical: str, line: int, variables, notes, exported) -> list[Site]:
    body = "\n".join(ln[1:] if ln.startswith("\t") else ln for ln in logical.split("\n"))
    body = re.sub(r"^[@+\-\s]+", "", body)
    script = _expand(body, variables)
    known = {k: _expand(variables[k], variables) for k in exported if k in variables}  # make exports only these
    env = {name: Setting(name, v, "\ue000" not in v, rel, line, name, v, "cli") for name, v in known.items()}
    return script_sites(ctx, rel, script, line, known=known, env=env, notes={k: v for k, v in notes.items() if k in known})
