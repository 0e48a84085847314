"""A vLLM command kept in a plain text file that the project's own Python reads and fills in
(tandemn-tuna's `templates/shared/vllm_serve_cmd.txt`, `vllm serve {model} --tensor-parallel-size
{tp_size} … {eager_flag}`, rendered with str.format for its Modal and SkyServe deployments: eval64).
Only a `.txt` whose text opens with the launch and whose name a Python file of the project names is
read: a note of commands nobody loads stays documentation. Placeholders are variables the file does
not set (unknown); the site is reported where the command is written, and a change is told, never
written (the filled text's offsets are not the file's)."""
from __future__ import annotations

import re

from vllm_kb.engine.scan.context import ScanContext, texts_with
from vllm_kb.engine.scan.embedded import script_sites
from vllm_kb.engine.scan.site import Site
from vllm_kb.engine.scan.yaml_commands import _PLACEHOLDER

# the file's first command line is the launch itself
_OPENS = re.compile(r"\A(?:\s*#[^\n]*\n)*\s*(?:vllm\s+serve\b|python[\d.]*\s+(?:-\S+\s+)*-m\s+vllm\.entrypoints\.)")


def candidate(rel: str, text: str) -> bool:
    name = rel.rpartition("/")[2].lower()
    return name.endswith(".txt") and not name.startswith(("requirements", "constraints")) and bool(_OPENS.match(text))


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    name = rel.rpartition("/")[2]
    reader = next(texts_with(ctx, ctx.files, ".py", name), None)
    if reader is None:
        return []
    sites = script_sites(ctx, rel, _PLACEHOLDER.sub(lambda m: "${" + m.group(1) + "}", text), 1)
    for site in sites:  # read from the filled text, whose offsets are not the file's: fixes are told, not written
        # the vLLM it runs is what the deployment the code renders it into installs: not a fresh install
        site.launch["release_placeholder"] = f"rendered by {reader[0]}"
        for w in (site.source or {}).get("words") or []:
            w.start = w.end = -1
        for setting in (*site.settings.values(), *site.env.values(), *([site.model] if site.model else [])):
            setting.pos = None
    return sites
