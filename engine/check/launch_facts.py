"""The `launch` facts the launch checks (knowledge/checks/L.yaml) read: how each argument is
written on the command line, whether the process model and the container let vLLM start, what
the host gives it. Computed from the site the scanners read; never from the auditing machine
unless the user asked for the local probe."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.scan.site import Site

# Syntaxes whose settings reach vLLM as argv words, parsed by vLLM's own argparse.
ARGV_SYNTAXES = frozenset({"cli", "compose", "k8s-args", "helm-values", "dockerfile"})
_KV_ITEM = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*=\s*(-?\d+)\s*$")


def arg_forms(site: Site) -> dict[str, Any]:
    """`arg_form`, `kv_value` and `kv_text` for the mapping arguments a command line writes."""
    forms: dict[str, str] = {}
    kv_value: dict[str, dict] = {}
    kv_text: dict[str, str] = {}
    for name, s in site.settings.items():
        if s.syntax not in ARGV_SYNTAXES or not s.resolved or s.implied:
            continue
        if "." in (s.key or "").lstrip("-"):
            forms[name] = "dotted"
            if isinstance(s.value, dict):
                text = _as_kv(s.value)
                if text:
                    kv_text[name] = text
            continue
        if isinstance(s.value, dict):
            forms[name] = "json"
            text = _as_kv(s.value)
            if text:
                kv_text[name] = text
        elif isinstance(s.value, str) and "=" in s.value and not s.value.lstrip().startswith(("{", "[")):
            forms[name] = "kv"
            parsed = _parse_kv(s.value)
            if parsed is not None:
                kv_value[name] = parsed
        else:
            forms[name] = "value"
    return {"arg_form": forms, "kv_value": kv_value, "kv_text": kv_text}


def _parse_kv(text: str) -> dict | None:
    out = {}
    for item in text.split(","):
        m = _KV_ITEM.match(item)
        if not m:
            return None
        out[m.group(1)] = int(m.group(2))
    return out


def _as_kv(value: dict) -> str | None:
    if not value or not all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        return None
    return ",".join(f"{k}={v}" for k, v in value.items())


def launch_facts(site: Site) -> dict[str, Any]:
    return {**arg_forms(site)}
