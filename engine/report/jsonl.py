"""JSON Lines (`--format json-lines`): one finding per line, for grep, jq and log pipelines.

Each line: rule (check id or finding code), id (with the subject: `not-in-version:swap_space`),
name, kind (check | finding | note), priority, level (error | warning | note), file and line
(the setting's, else the site's), site, title, reason, message, fix (the changes in words),
fingerprint, safe, fixable and changes (as in the JSON report). Suppressed findings are left out."""
from __future__ import annotations

from vllm_kb.engine.report import findings as flat
from vllm_kb.engine.report import json_text

FIELDS = ("rule", "id", "name", "kind", "priority", "level", "file", "line", "site", "title", "reason", "message",
          "fix", "fingerprint", "safe", "fixable", "changes")


def render(data: dict) -> str:
    out = []
    for e in flat.entries(data):
        out.append(json_text.line({k: e[k] for k in FIELDS}))
    return "\n".join(out) + ("\n" if out else "")
