"""The documents of a YAML or JSON file as the scanners read them: a broken later document leaves
the ones before it standing (reported as partial), a broken file is skipped and reported, and
JSON nested deeper than the YAML loader allows is refused before a scanner walks it. A file kept for
envsubst (`cat x.yaml-template | envsubst > x.yaml`) may put a `${VAR}` inside a flow collection
(`labels: { app: ${NAME} }`), which is no YAML until rendered: the placeholders on the line the parser
stops at are read as words of the same length (`"$NAME"` where it is a whole item, else `$_NAME_`) and
the file is read again."""
from __future__ import annotations

import json
import re

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.scan.context import ScanContext


_HOLE = re.compile(r"\$\{([A-Za-z_]\w*)\}")
_RETRIES = 64  # lines mended at most: a file broken otherwise is not parsed again and again


def _word(m: re.Match) -> str:
    """A placeholder that is a whole item (`[a, ${B}]`, `{k: ${V}}`) as the quoted `"$B"`: the same value
    for whatever expands it later (compose's .env, the shell); one inside a longer word as `$_B_`."""
    text, a, b = m.string, m.start(), m.end()
    if text.count('"', 0, a) % 2 or text.count("'", 0, a) % 2:
        return m.group(0)  # inside a quoted scalar: YAML already, and its value as written
    alone = (a == 0 or text[a - 1] in " \t[{,") and (b == len(text) or text[b] in " \t,]}")
    return ('"$' + m.group(1) + '"') if alone else "$_" + m.group(1) + "_"


def _placeholders_mended(text: str, line: int | None) -> str | None:
    """The text with the `${VAR}` of the error's line (and the one before: an unclosed `{` is told on
    the next) read as words (`_word`); None when those lines hold none."""
    if not line or "${" not in text:
        return None
    lines = text.split("\n")
    changed = False
    for i in (line - 2, line - 1):
        if 0 <= i < len(lines) and "${" in lines[i]:
            new = _HOLE.sub(_word, lines[i])
            changed |= new != lines[i]
            lines[i] = new
    return "\n".join(lines) if changed else None


def _load_yaml(text: str, partial: list) -> list:
    for _ in range(_RETRIES):
        try:
            return yamlio.load_all(text, partial)
        except yamlio.YamlError as e:
            mended = _placeholders_mended(text, e.line)
            if mended is None:
                raise
            text = mended
            partial.clear()
    return yamlio.load_all(text, partial)


def load_docs(ctx: ScanContext, rel: str, text: str) -> list:
    partial: list[yamlio.Document] = []  # the documents read before a broken one
    try:
        if rel.endswith(".json"):
            data = json.loads(text)
            if _too_deep(data, yamlio.MAX_DEPTH):  # the scanners walk what they get
                raise ValueError("nesting too deep")
            return [yamlio.Document(data=data)]
        return _load_yaml(text, partial)
    except yamlio.YamlError as e:
        if partial:  # a manifest's later document is broken (a Secret's {{HF_TOKEN}} template): the ones before it stand
            ctx.skip(rel, "yaml-partial", e.line, str(e))
            return partial
        ctx.skip(rel, "yaml-error", e.line, str(e))
    except ValueError as e:
        ctx.skip(rel, "parse-error", detail=str(e)[:120])
    except RecursionError:  # json.loads on [[[[…]]]]
        ctx.skip(rel, "parse-error", detail="nesting too deep")
    return []


def _too_deep(data, limit: int) -> bool:
    stack = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return False
