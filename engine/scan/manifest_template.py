"""Manifest templates read as the YAML they render to: `vllm.yaml.tpl` (envsubst), `deploy.yml.j2`,
`x.yaml.template`, and with a dash, `deployment.yaml-template` (aws-samples/aws-do-eks: `cat
X.yaml-template | envsubst > X.yaml`). lahlfors/cybernetic-governance-engine keeps every vLLM Deployment as a
`.yaml.tpl` whose command is written out and whose other values are `${VAR}` placeholders. A
placeholder that fills a whole line (`${ARGS}` under the command, `${RESOURCE_LIMITS}`) is not YAML
until rendered: it is read as a comment of the same length (offsets hold for --fix), and a site
of such a file may take more arguments than it shows.

envsubst replaces every `$VAR`, so a template that must keep a `$` for the shell spells it `${DOLLAR}`
(with `DOLLAR='$'` exported: aws-do-eks's `for i in ${DOLLAR}(seq 1 30)`), which read as written is a
shell syntax error. Inside a block scalar (a container's `args: - |`) it is read as empty shell
quotes and a `$` of the same length (`""""""""$`): the script the shell gets once rendered."""
from __future__ import annotations

import re

TEMPLATE = (".tpl", ".tmpl", ".j2", ".jinja", ".jinja2", ".template")
_DATA = (".yaml", ".yml", ".json", ".toml")
# the data suffix and the template's joined by a dash or an underscore: `.yaml-template`, `.yml_tpl`
_JOINED = re.compile(r"^(\.(?:yaml|yml|json|toml))[-_](?:tpl|tmpl|j2|jinja2?|template)$")
_DOLLAR = re.compile(r"\$\{DOLLAR\}|\$DOLLAR(?!\w)")
_BLOCK_START = re.compile(r"(?:^|[:\-][ \t]+)[|>][+-]?\d?[ \t]*(?:#.*)?$")
_LINE_HOLE = re.compile(r"^([ \t]*)(\$\{?[A-Za-z_]\w*\}?|\{\{[^{}\n]*\}\}|\{%[^\n]*%\})[ \t]*$", re.M)


def data_suffix(name: str, suffix: str, inner) -> str:
    """`.yaml` for `x.yaml.tpl`; the suffix itself otherwise (`inner` gives a name's suffix)."""
    if suffix in TEMPLATE:
        got = inner(name[: len(name) - len(suffix)])
        return got if got in _DATA else suffix
    if (m := _JOINED.match(suffix)) is not None:
        return m.group(1)
    return suffix


def is_template(rel: str) -> bool:
    low = rel.lower()
    return low.endswith(TEMPLATE) or _JOINED.match(low[low.rfind("."):]) is not None


def rendered(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with each whole-line placeholder turned into a comment, and (line, placeholder) of each."""
    holes: list[tuple[int, str]] = []

    def blank(m: re.Match) -> str:
        holes.append((text.count("\n", 0, m.start()) + 1, m.group(2)))
        body = m.group(0)[len(m.group(1)):]
        return m.group(1) + "#" + body[1:]

    return _dollars(_LINE_HOLE.sub(blank, text)), holes


def _dollars(text: str) -> str:
    """`${DOLLAR}` in the block scalars as `""""""""$`: empty shell quotes, one `$`, the same length."""
    if "DOLLAR" not in text:
        return text
    out, block = [], None  # block: the indent of the line that opened the block scalar we are in
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        if block is not None and line.strip() and indent <= block:
            block = None
        if block is not None and "DOLLAR" in line:
            line = _DOLLAR.sub(lambda m: '"' * (len(m.group(0)) - 1) + "$", line)
        elif block is None and _BLOCK_START.search(line.rstrip()):
            block = indent
        out.append(line)
    return "\n".join(out)


def mark(sites: list, rel: str, holes: list[tuple[int, str]]) -> list:
    """A site of a template with whole-line placeholders after its own line may be handed more arguments."""
    for s in sites:
        for line, what in holes:
            if line > s.line and (not s.end_line or line <= s.end_line + 40):
                s.opaque.append({"code": "forwards-args", "what": what, "where": f"{rel}:{line}"})
                break
    return sites


_TOML_PIECE = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|#[^\n]*|([=\[,][ \t]*)?\{([A-Za-z_]\w*)\}")


def toml_rendered(text: str) -> str:
    """A str.format TOML template (tandemn-tuna's cerebrium.toml.tpl) as TOML, each offset kept: a bare
    value or array item (`= {gpu_count}`, `[{model}, …`) becomes the string `"gpu_count"` (braces to
    quotes), a placeholder right after an item (`"{model}"{eager_flag}]`, filled with `, "--enforce-eager"`
    or nothing) becomes spaces; placeholders inside strings stay for the command reader (unknown values)."""
    if "{{" in text:
        return text  # a Jinja template: not this kind

    def sub(m: re.Match) -> str:
        if m.group(2) is None:
            return m.group(0)
        if m.group(1) is not None:
            return m.group(1) + '"' + m.group(2) + '"'
        return " " * len(m.group(0))

    return _TOML_PIECE.sub(sub, text)
