"""What a coding agent is told, in the JSON its hook protocol documents.

Both agents read the same shape from a command hook's stdout (exit 0):

    PostToolUse   {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": TEXT}}
                  or, for a P0, {"decision": "block", "reason": TEXT}: Claude Code then shows the
                  reason to the model at once (the write already happened; nothing is undone), and
                  Codex records it as feedback for the model (post-tool-use.command.output schema).
    SessionStart  {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": LINE}}

Nothing is printed when there is nothing to say. TEXT is bounded (MAX_CHARS, about 2,000 tokens):
findings are added by priority until the next would not fit, then one line says how many were
left out."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.touched import TouchedAudit

MAX_CHARS = 8000
SESSION_MAX_CHARS = 600
_EVIDENCE_SHOWN = 3
# Control characters a project file may carry into a finding (an escape sequence in a flag value):
# shown as \xNN, never passed to the agent's terminal or context raw.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def post_tool_use(result: TouchedAudit | None, lang: str, block: bool = True) -> dict[str, Any] | None:
    text, has_p0 = edit_text(result, lang)
    if not text:
        return None
    if block and has_p0:
        return {"decision": "block", "reason": text}
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text}}


def session_start(line: str | None) -> dict[str, Any] | None:
    if not line:
        return None
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": line}}


def edit_text(result: TouchedAudit | None, lang: str, limit: int = MAX_CHARS) -> tuple[str, bool]:
    """The findings on the written lines as plain text, and whether one is a P0."""
    if result is None:
        return "", False
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.kb.redact import redact_text

    kb = load()
    blocks: list[tuple[str, list[str]]] = []  # (heading, one text per finding), file by file
    first_id, first_file, has_p0 = "", "", False
    for tf in result.files:
        items = sorted(tf.items, key=lambda e: (e["priority"], e["file"], e["line"] or 0))
        if not items:
            continue
        if tf.pin:
            head = kb.t("hook.pin", lang, file=tf.file)
        else:
            sites = "; ".join(kb.t("hook.site", lang, kind=s["kind"], line=s["line"], version=s["vllm"]["version"],
                                   source=s["vllm"]["source"]) for s in tf.sites[:3]) or kb.t("hook.no_site", lang)
            head = kb.t("hook.checked", lang, file=tf.file, sites=sites)
        blocks.append((head, [_item(e, kb, lang, tf.pin) for e in items]))
        first_id = first_id or items[0]["id"].split(":", 1)[0]
        first_file = first_file or tf.file
        has_p0 = has_p0 or any(e["priority"] == "P0" for e in items)
    if not blocks:
        return "", False
    footer = ((kb.t("hook.footer_p0", lang) + " ") if has_p0 else "") + kb.t("hook.footer", lang, id=first_id, file=first_file)
    total = sum(len(b) for _, b in blocks)
    out: list[str] = []
    shown = 0
    budget = limit - len(footer) - 200  # room for the "… and N more" line
    for head, texts in blocks:
        if len("\n".join(out + [head])) > budget:
            break
        out.append(head)
        for it in texts:
            if len("\n".join(out + [it])) > budget:
                break
            out.append(it)
            shown += 1
    if shown < total:
        out.append(kb.t("hook.more", lang, n=total - shown, file=first_file))
    out.append(footer)
    text = clean(redact_text("\n".join(out)))
    return text[:limit], has_p0


def _item(e: dict, kb, lang: str, pin: bool) -> str:
    what = kb.t("hook.reason", lang, title=e["title"], reason=e["reason"]) if e["reason"] else e["title"]
    if pin and e.get("site_file"):
        what += f" ({e['site_kind']}, {e['site_file']}:{e['site_line']})"
    line = kb.t("hook.item", lang, priority=e["priority"], id=e["id"], what=what)
    for fix in e["fix"][:3]:
        line += "\n  " + kb.t("hook.fix", lang, what=fix)
    return line


def session_line(det, lang: str, limit: int = SESSION_MAX_CHARS) -> str | None:
    """One line when `detect` found vLLM in the repository: a few pieces of evidence, then what
    the agent can use."""
    if det is None or not det.used:
        return None
    from vllm_kb.engine.kb.knowledge import load
    from vllm_kb.engine.kb.redact import redact_text

    kb = load()
    seen: list[str] = []
    for e in det.evidence:  # sites first: they say the most
        if e.obs.kind == "site":
            seen.append(f"{e.obs.what} {e.obs.file}:{e.obs.line}")
    for e in det.evidence:
        if e.obs.kind != "site":
            seen.append(f"{e.obs.file}:{e.obs.line} {e.obs.what}")
    uniq = list(dict.fromkeys(seen))
    shown = ", ".join(x[:100] for x in uniq[:_EVIDENCE_SHOWN])
    if len(uniq) > _EVIDENCE_SHOWN:
        shown += ", " + kb.t("hook.session_more", lang, n=len(uniq) - _EVIDENCE_SHOWN)
    line = clean(redact_text(kb.t("hook.session", lang, evidence=shown)).replace("\n", " "))
    return line[:limit]
