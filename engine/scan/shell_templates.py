"""Shell scripts written as Jinja templates (`serve.sh.j2`, or a `.sh` an application renders:
princeton-ddss/blackfish's `text_generation_slurm.sh` with `{% extends %}`, `{% block %}` and
`{{ job_config.gres }}`), read as the script they render to with every template expression
unknown. The text keeps the file's lines and offsets (a fix edits only its own bytes):

- `{{ … }}` is a hole of the same width: an unknown word, or an unknown part of one;
- `{# … #}` and a `{% … %}` tag alone on its line are blanked, so a command written inside a block
  (each branch of an `{% if %}`) is read as it stands; `{% raw %}` keeps its text as written;
- a tag that interrupts a command continued with `\\` becomes a hole (the words the template may add
  there), and the lines of a block it opens are holes too: a flag written under a condition is
  neither read as given nor as left out;
- an `{% if %}…{% endif %}` inside one line is one hole.

So a template expression is never a value, never a positional word, and never a missing flag."""
from __future__ import annotations

import bisect
import re
from pathlib import PurePosixPath

from vllm_kb.engine.scan.shell_holes import hole

TEMPLATE_SUFFIXES = (".j2", ".jinja", ".jinja2", ".tpl", ".tmpl", ".template")
_SHELL = (".sh", ".bash", ".zsh", ".slurm", ".sbatch")
_EXPR = re.compile(r"\{\{.*?\}\}", re.S)
_COMMENT = re.compile(r"\{#.*?#\}", re.S)
_TAG = re.compile(r"\{%-?\s*(\w+)?.*?-?%\}", re.S)
_OPENS = {"if": "endif", "for": "endfor", "macro": "endmacro", "call": "endcall", "filter": "endfilter"}
_ASSIGN = re.compile(r"^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*)?[A-Za-z_]\w*(?:\[[^]]*\])?\+?=")
_JINJA_TAG = re.compile(r"\{%-?\s*(?:if|for|block|extends|include|set|macro|raw|import|from|with|call|filter)\b[^\n]*?%\}")
_JINJA_EXPR = re.compile(r"\{\{-?\s*[A-Za-z_'\"(][^\n{}]*\}\}")
_GO = re.compile(r"\{\{-?\s*(?:[.$]|(?:end|else|printf|range|template|define|with|len|index)\b)")
_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.S)


def is_template_script(rel: str) -> bool:
    """`x.sh.j2`, `x.bash.jinja`, `x.sh.tpl`: a shell script kept as a template."""
    p = PurePosixPath(rel.lower())
    return p.suffix in TEMPLATE_SUFFIXES and PurePosixPath(p.stem).suffix in _SHELL


def templated(text: str) -> bool:
    """Whether a script holds Jinja syntax: a `{% … %}` tag, or a `{{ name… }}` expression in a script
    with no Go template in it (`{{ .Values.x }}`, `{{- $x }}`: a chart or a `--format` string the
    script hands on, which its own shell never renders)."""
    if "{%" in text and _JINJA_TAG.search(text) is not None:
        return True
    return "{{" in text and _GO.search(text) is None and _JINJA_EXPR.search(text) is not None


def rendered(text: str) -> str:
    """The script with its template syntax read as described above (same length, same lines)."""
    out = list(text)
    keep: list[tuple[int, int]] = []
    for m in _RAW.finditer(text):  # the raw text stays; its two tags are blanked below
        keep.append((m.start(1), m.end(1)))

    def kept(at: int) -> bool:
        return any(a <= at < b for a, b in keep)

    def put(a: int, b: int, new: str) -> None:
        for k, c in enumerate(new):
            out[a + k] = c

    def blank(a: int, b: int) -> None:
        put(a, b, "".join("\n" if text[k] == "\n" else " " for k in range(a, b)))

    def holed(a: int, b: int, tail: str = "") -> None:
        """The span as one hole (its first line) and blanks, with `tail` at its end."""
        first = text.find("\n", a, b)
        end = b if first < 0 else first
        width = end - a - len(tail)
        body = re.sub(r"\s+", "", text[a:end])
        if width < 3:
            blank(a, b)
            return
        put(a, end, hole(body[: width - 2].ljust(width - 2)) + tail)
        if first >= 0:
            blank(first, b)

    for m in _COMMENT.finditer(text):
        if not kept(m.start()):
            blank(m.start(), m.end())
    for m in _EXPR.finditer(text):
        if not kept(m.start()):
            holed(m.start(), m.end())
    tags = [m for m in _TAG.finditer(text) if not kept(m.start())]
    _inline_blocks(text, tags, holed)
    _line_tags(text, tags, out, blank, holed)
    return "".join(out)


def _inline_blocks(text: str, tags, holed) -> None:
    """`{% if x %}--nv{% endif %}` within one line: one hole from the opening tag to its end tag."""
    for k, m in enumerate(tags):
        end_name = _OPENS.get(m.group(1) or "")
        if end_name is None:
            continue
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        depth = 0
        for n in tags[k + 1:]:
            if n.start() > line_end:
                break
            if n.group(1) == m.group(1):
                depth += 1
            elif n.group(1) == end_name:
                if depth == 0:
                    holed(m.start(), n.end())
                    break
                depth -= 1


def _line_tags(text: str, tags, out: list[str], blank, holed) -> None:
    """A tag alone on its line: blanked, or a hole where a continued command runs into it (and the
    lines of the block it opens there holes as well)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    tag_lines: dict[int, str] = {}
    for m in tags:
        n = bisect.bisect_right(starts, m.start()) - 1
        if lines[n].strip() == m.group(0).strip():
            tag_lines[n] = m.group(1) or ""
    depth = 0  # blocks open since a continued command ran into one
    outer = 0  # blocks opened by a tag on a line of its own: their commands are read, their assignments not
    for n, line in enumerate(lines):
        a, b = starts[n], starts[n] + len(line)
        continued = n > 0 and "".join(out[starts[n - 1]:starts[n - 1] + len(lines[n - 1])]).rstrip().endswith("\\")
        name = tag_lines.get(n)
        if name is None:
            if depth and "".join(out[a:b]).strip():
                holed(a, b, " \\" if line.rstrip().endswith("\\") else "")
            elif outer and not continued and _ASSIGN.match(line):
                holed(a, b)  # a variable set in one branch only: unknown after it, never the branch's value
            continue
        if depth == 0 and not continued:
            outer = max(0, outer + (1 if name in _OPENS else -1 if name in _OPENS.values() else 0))
            blank(a, b)
        elif depth == 0:  # the command runs into the tag: what the template puts there is unknown
            if name in _OPENS:
                depth = 1
            holed(a, b, " \\" if name in _OPENS else "")  # a branch that ends here ends the command
        else:
            depth += 1 if name in _OPENS else -1 if name.startswith("end") else 0
            holed(a, b, " \\" if continued else "")
