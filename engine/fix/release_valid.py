"""A change the report proposes has to start in the site's own release, or it trades one failure
for another: `--limit-mm-per-prompt '{"image": 4}'` on 0.6.1 stops with "invalid nullable_kvs
value". `release_form` writes a mapping in the form the release's argparse reads; `problem` says
what a change still gets wrong there — an option the release does not have, a value outside its
`choices=`, a mapping form it cannot parse — so that plan() marks the change instead of writing it.
Only what reaches argparse is judged: a Python call or a framework's file hands a dict to the
engine as it is."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import parse

# Syntaxes whose value reaches vLLM's argparse as text.
ARGV = frozenset({"cli", "dockerfile", "compose", "k8s-args", "helm-values", "python-argv", "vscode-launch"})

# Mapping arguments that a release parses as key=value only, until the release named (first that
# takes JSON): `type=nullable_kvs` for --limit-mm-per-prompt from 0.5.5 (arg_utils.py:35, :466)
# to 0.8.4 (arg_utils.py:57, :671); 0.8.5 reads JSON and still takes key=value (optional_type,
# arg_utils.py:58), 0.10.0 JSON only (L32).
KV_UNTIL = {"limit_mm_per_prompt": "0.8.5"}


def kv_only(target: str, version: str) -> bool:
    first_json = KV_UNTIL.get(target)
    return first_json is not None and parse(version) < parse(first_json)


def kv_text(value: dict) -> str | None:
    """`image=4,video=1`, or None when a value is not a plain count (nothing key=value can say)."""
    if not value or not all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        return None
    return ",".join(f"{k}={v}" for k, v in value.items())


def release_form(target: str, value: Any, version: str, syntax: str) -> Any:
    """The value as the release's command line takes it (a mapping as key=value where only that
    parses); anything else unchanged."""
    if syntax in ARGV and isinstance(value, dict) and kv_only(target, version):
        return kv_text(value) or value
    return value


def _choices(target: str, version: str) -> list | None:
    from vllm_kb.engine.kb.knowledge import load

    rows = (load().doc("vllm", "cli_choices.yaml").data.get("args") or {}).get(target) or ()
    v = parse(version)
    row = next((r for r in rows if parse(r["from"]) <= v <= parse(r["to"])), None)
    return list(row["choices"]) if row else None


def problem(target: str, value: Any, syntax: str, kind: str, cat: Any, version: str, written: str | None = None) -> str | None:
    """Why `target = value`, written in `syntax` at a site of `kind` (as the text `written`, when
    known), does not start in `version` (None when nothing here says it would not)."""
    if syntax not in ARGV or "," in target:
        return None
    if cat.arg(target) is not None and not cat.flags_for_dest(target, version):
        return "absent"  # argparse: "unrecognized arguments"
    if kv_only(target, version) and (("{" in written) if written is not None else isinstance(value, dict)):
        return "form"
    if kind in ("vllm serve", "api_server") and not isinstance(value, (dict, list, bool)) and value is not None:
        choices = _choices(target, version)
        if choices is not None and str(value).strip().lower() not in {str(c).lower() for c in choices}:
            return "choice"  # argparse: "invalid choice"
    return None


def mark_invalid(changes: list, items: list, kind: str, cat: Any, version: str) -> None:
    """Marks each change that would stop the launch in `version` itself: said, never written. A
    change that comes with a new release (a pin beside it) is judged in that release, not here."""
    pinned = {i.id for i in items if any(op.kind == "pin" for op, _ in i.ops)}
    for ch in changes:
        if ch.op != "set" or ch.blocked or ch.after is None or set(ch.checks) & pinned:
            continue
        if problem(ch.target, ch.value, ch.syntax, kind, cat, version, ch.after):
            ch.blocked = "not_in_release"
