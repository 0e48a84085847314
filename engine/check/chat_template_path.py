"""`--chat-template` given as a relative path the project does not hold (finding `chat-template-path`).

From 0.6.3 the OpenAI server checks the value before anything loads (cli_args.validate_parsed_serve_args →
chat_utils.validate_chat_template; 0.6.3 vllm/entrypoints/chat_utils.py:321-323, 0.24.0 :1262-1278, 0.34.0
vllm/renderers/chat_utils/chat_template.py:30-46): a value without `{`, `}` or a newline is a path, and when
no file is there — resolved from the directory the server starts in — nor in vLLM's built-in template folder,
it stops with "The supplied chat template string (…) appears path-like, but doesn't exist!". Recipes write
`examples/tool_chat_template_*.jinja`, a path into a vLLM source checkout that a pip install does not have.

Certain (P0) only for a relative path with a folder in it (the built-in folder has no sub-folders, so it never
matches), a pip-installed release (the project's pin), and a launch file that changes no directory first; a
file of that name elsewhere in the project, or no pin, leaves the directory the user starts in open (P1). A
container (vllm/vllm-openai's WORKDIR /vllm-workspace holds examples/), an absolute path or a variable: none."""
from __future__ import annotations

import re
from pathlib import Path

from vllm_kb.engine.kb.knowledge import FixOp
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.kb.versions import parse, try_parse
from vllm_kb.engine.scan.site import Finding, Site

CODE = "chat-template-path"
CODES = {CODE: "P0"}
FIRST = parse("0.6.3")  # validate_parsed_serve_args calls validate_chat_template from this release
_SERVERS = frozenset({"vllm serve", "api_server"})
_CD = re.compile(r"(?:^|[;&|]\s*)(?:cd|pushd)\s", re.M)


def _elsewhere(root: Path, name: str) -> bool:
    """A file of that name anywhere in the project (the user may start the server from its folder)."""
    try:
        return any(p.is_file() for p in root.rglob(name))
    except OSError:
        return True


def _changes_dir(root: Path, site: Site) -> bool:
    """Whether the launch file changes directory before the launch line (`cd /opt/vllm && vllm serve …`)."""
    try:
        text = (root / site.file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True
    return bool(_CD.search("\n".join(text.splitlines()[: max(site.line, 1)])))


def findings(site: Site, root: Path | None, basis: str | None, version: str) -> list[Finding]:
    s = site.settings.get("chat_template")
    v = try_parse(version)
    if s is None or not s.resolved or not isinstance(s.value, str) or s.syntax != "cli" or site.kind not in _SERVERS \
            or site.image or (site.launch or {}).get("remote") or root is None or v is None or v < FIRST:
        return []
    text = s.value.strip()
    if not text or any(c in text for c in "{}\n") or "/" not in text or text.startswith(("/", "~")) or "$" in text:
        return []
    folder = (root / site.file).parent
    if (root / text).exists() or (folder / text).exists():
        return []
    name = Path(text).name
    certain = basis == "pin" and not _elsewhere(root, name) and not _changes_dir(root, site)
    source = msg("finding.chat_template_examples", version=str(v)) if text.startswith("examples/") else {"en": "", "zh": ""}
    said = msg("finding.chat_template_path", value=text, version=version, name=name)
    if not certain:
        said = {k: said[k] + msg("finding.chat_template_path_open")[k] for k in said}
    message = {k: said[k] + source[k] for k in said}
    return [Finding(CODE, message, s.file or site.file, s.line or site.line, "P0" if certain else "P1",
                    fix=[(FixOp("set", "chat_template"), f"./{name}")], safe=False, subject="chat_template")]
