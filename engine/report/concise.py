"""`--format concise`: one line per finding, `file:line:col: ID message`, the shape compilers and
ruff print, which editors, `grep` and CI problem matchers already read. `[*]` marks what
`vllm-kb audit --fix` writes by itself (a safe, writable change), as ruff marks its safe fixes.
The column is 1: findings are located by line. A finding's text is kept on its one line."""
from __future__ import annotations

from vllm_kb.engine.report import findings as flat
from vllm_kb.engine.report.sarif import _base


def line_of(e: dict, prefix: str = "") -> str:
    where = f"{prefix}{e['file']}:{int(e['line'] or 1)}:1"
    fix = " [*]" if e["fixable"] and e["safe"] else ""
    prio = f" [{e['priority']}]" if e["priority"] else ""
    return f"{where}: {e['rule']}{fix}{prio} {' '.join(e['message'].split())}"


def render(data: dict, cwd: str | None = None) -> str:
    from vllm_kb.engine.kb.safe_text import shown

    data = shown(data)  # one line per finding on a terminal: no secret, no control character
    _, prefix = _base(data["project"]["root"], cwd)
    lines = [line_of(e, prefix) for e in flat.entries(data)]
    return "\n".join(lines) + ("\n" if lines else "")
