"""What `vllm-kb audit` prints: the report in the chosen format (or, with --statistics, the
count of findings per rule), to stdout or -o FILE. Each format's module is imported only when
it is asked for."""
from __future__ import annotations

import sys
from pathlib import Path

from vllm_kb.engine.kb.errors import UsageError


def render(data: dict, fmt: str, output: str | None, docs_url: str | None, statistics: bool = False) -> str | None:
    """The text to write, or None when the terminal report was printed already."""
    if statistics:
        from vllm_kb.engine.report import statistics as stats

        return stats.render(data, "json" if fmt == "json" else "text")
    if fmt == "json":
        from vllm_kb.engine.report import json_text

        return json_text.dumps(data) + "\n"
    if fmt == "summary":  # what an agent reads first: bounded whatever the project (engine/report/summary.py)
        from vllm_kb.engine.kb.knowledge import load
        from vllm_kb.engine.report import summary

        kb = load()
        t = lambda key, **kw: kb.t(key, data["lang"], **kw)  # noqa: E731
        from vllm_kb.engine.report import json_text

        return json_text.dumps(summary.summary(data, t, t("summary.next_cli"))) + "\n"
    if fmt == "markdown":
        from vllm_kb.engine.report import markdown

        return markdown.render(data)
    if fmt == "sarif":
        from vllm_kb.engine.report import sarif

        return sarif.render(data, docs_url)
    if fmt == "github":
        from vllm_kb.engine.report import github

        return github.render(data)
    if fmt == "json-lines":
        from vllm_kb.engine.report import jsonl

        return jsonl.render(data)
    if fmt == "concise":
        from vllm_kb.engine.report import concise

        return concise.render(data)
    if fmt == "gitlab":
        from vllm_kb.engine.report import gitlab

        return gitlab.render(data)
    from vllm_kb.engine.report import text as text_mod

    if output:
        return text_mod.render(data, width=100, color=False)
    text_mod.print_report(data)
    return None


def write(text: str, output: str | None) -> None:
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {output}: {e.strerror or e}") from None
    else:
        sys.stdout.write(text)
