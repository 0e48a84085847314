"""GitHub Actions workflow commands (`--format github`): one annotation per finding, shown on
the pull request's diff — `::error file=deploy/serve.sh,line=14,title=vllm-kb B4 swap-space::…`.
P0 is an error, P1 a warning, P2 and notes are notices. Paths are relative to the working
folder when the audited root is inside it (a workflow runs from the repository root)."""
from __future__ import annotations

from vllm_kb.engine.report import findings as flat
from vllm_kb.engine.report.sarif import _base

COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(data: dict, cwd: str | None = None) -> str:
    from vllm_kb.engine.kb.safe_text import shown

    data = shown(data)  # annotations are printed in the job log: no secret, no control character
    _, prefix = _base(data["project"]["root"], cwd)
    lines = []
    for e in flat.entries(data, prefix):
        title = f"vllm-kb {e['rule']}" + (f" {e['name']}" if e["name"] != e["rule"] else "")
        props = [f"file={_prop(prefix + e['file'])}"]
        if e["line"]:
            props.append(f"line={int(e['line'])}")
        props.append(f"title={_prop(title)}")
        message = e["message"] + ("".join("\n" + f for f in e["fix"]) if e["fix"] else "")
        lines.append(f"::{COMMAND[e['level']]} {','.join(props)}::{_data(message)}")
    return "\n".join(lines) + ("\n" if lines else "")
