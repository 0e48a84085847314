"""Text a Helm template renders that the renderer (helm_render.py) shapes after the fact: `toYaml`'s
value, and the shell lines a `{{- … }}` joins."""
from __future__ import annotations

import json
import re


class Yaml:
    """`toYaml X | nindent N`: a mapping's keys one per line, anything else as JSON (which YAML reads)."""

    def __init__(self, value, indent: int = 0) -> None:
        self.value, self.indent = value, indent

    @property
    def text(self) -> str:
        pad = " " * self.indent
        v = self.value
        if v in (None, {}, []):
            return ""
        if isinstance(v, dict):
            return "\n".join(pad + json.dumps(str(k)) + ": " + json.dumps(x) for k, x in v.items())
        if isinstance(v, list):
            return "\n".join(pad + "- " + json.dumps(x) for x in v)
        return pad + json.dumps(v)

    @property
    def flow(self) -> str:
        return "" if self.value is None else json.dumps(self.value)


def continued(out: str, text: str) -> str:
    """`out` with each line helm's `{{-` takes away (the dash eats the newline before it), kept here as
    an empty line for the line numbers, written as a lone `\\` where the line above ends a shell line
    with one: `--trust-remote-code \\` then `{{- if .Values.chunked }}` is one command in helm's output,
    and an empty line would end it there (the args below it read as no launch's)."""
    if "\\" not in out:
        return out
    lines, src = out.split("\n"), text.split("\n")
    last = ""
    for i, line in enumerate(lines):
        if line.strip():
            last = line
        elif i < len(src) and src[i].strip() and _CONTINUES.search(last):
            lines[i] = last[:len(last) - len(last.lstrip(" \t"))] + "\\"
    return "\n".join(lines)


_CONTINUES = re.compile(r"(?<!\\)(?:\\\\)*\\$")  # an odd run of backslashes at the end
