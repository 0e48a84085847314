"""Markdown report in the seed's "第四步" layout, per site, in English or Chinese."""
from __future__ import annotations

from functools import lru_cache

from vllm_kb.engine.kb.knowledge import load
from vllm_kb.engine.kb.messages import num


@lru_cache(maxsize=1)
def _template():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("vllm_kb.engine.report", "templates"),
        autoescape=False, keep_trailing_newline=True, trim_blocks=False, lstrip_blocks=False,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("report.md.j2")


def render(report: dict) -> str:
    from vllm_kb.engine.kb.safe_text import shown

    from vllm_kb.engine.report.catalogue import expand
    from vllm_kb.engine.report.compact import compact

    # secrets hidden, control characters escaped: a renderer never trusts its input; each site's
    # table lists every check, as the per-site view of schema_version 1 holds them
    report = compact(expand(shown(report)))
    kb = load()
    lang = report["lang"]

    def t(key, **kw):
        return kb.t(key, lang, **kw)

    from vllm_kb.engine.report import memory_bar

    text = _template().render(r=report, t=t, num=num, membar=memory_bar)
    return tidy(text)


def tidy(text: str) -> str:
    """At most one blank line in a row, no trailing spaces, one final newline."""
    out, blank = [], 0
    for line in text.splitlines():
        if line.strip() == "":
            blank += 1
            if blank > 1:
                continue
        else:
            blank = 0
        out.append(line.rstrip())
    return "\n".join(out).strip() + "\n"
