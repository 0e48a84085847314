"""The two prompts a user picks from the client's menu: "audit this project" and "fix finding
X". Their wording lives in knowledge/i18n.yaml (mcp.prompt_*), in English and Chinese."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from vllm_kb.engine.kb.knowledge import load

Lang = Literal["en", "zh"]


def audit_project(
    path: Annotated[str, Field(description="project folder or file, inside the client's roots")] = ".",
    gpu: Annotated[str | None, Field(description='target machine, e.g. "H100-80GB x8"; omit to probe this one')] = None,
    lang: Annotated[Lang, Field(description="language of the answer and the report")] = "en",
) -> str:
    """Audit the vLLM usage in a project and report the changes, P0 first."""
    kb = load()
    extra = (f', gpu="{gpu}"' if gpu else "") + (', lang="zh"' if lang == "zh" else "")
    return kb.t("mcp.prompt_audit", lang, path=path, extra=extra)


def fix_finding(
    key: Annotated[str, Field(description="check id or name (B3, kv-cache-fp8) or a finding's id")],
    path: Annotated[str, Field(description="project folder or file, inside the client's roots")] = ".",
    lang: Annotated[Lang, Field(description="language of the answer")] = "en",
) -> str:
    """Apply the audit's changes for one check or finding, then confirm with a second audit."""
    kb = load()
    check = kb.checks.find(key)
    about = ""
    if check is not None:
        about = kb.t("mcp.prompt_fix_about", lang, id=check.id, name=check.name, title=check.title(lang),
                     advice=check.advice(lang))
        key = check.id
    return kb.t("mcp.prompt_fix", lang, key=key, path=path, about=about)
