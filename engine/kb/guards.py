"""Settings that guard access to a server: API keys, TLS, CORS and media allow-lists, auth
tokens, passwords, auth middleware. Removing one (or renaming it away) can leave a server open
to anyone, so such a fix is never `safe`: `--fix` applies it only with `--unsafe-fixes`, after a
person looked (engine/fix/changes.py, engine/check/catalog_findings.py)."""
from __future__ import annotations

import re

_GUARD = re.compile(
    r"api[_-]?key|ssl|tls|cert|allowed[_-]|allow[_-]?credentials|auth(?!or)|(?:^|[_-])token(?:$|[_-])|passw|secret|"
    r"middleware|cors|"
    r"(?:^|[_-])key[_-]?file|(?:^|[_-])ca[_-]",
    re.I)
# …but not counts and limits that merely mention tokens
_NOT_GUARD = re.compile(r"^-*(?:max|min|num|n)[_-]|tokens?[_-]?(?:budget|threshold|ids?)$|(?:batched|prompt|spec|speculative)[_-]tokens?", re.I)


def guards_access(name: str | None) -> bool:
    """Whether an argument, flag or variable name looks like an access guard (`--api-key`,
    `ssl_keyfile`, `allowed_origins`, `VLLM_API_KEY`, a misspelt `--api-keyz`)."""
    if not name:
        return False
    n = str(name).strip().lstrip("-+")
    return bool(_GUARD.search(n)) and not _NOT_GUARD.search(n)


def runs_foreign_code(name: str | None) -> bool:
    """Whether turning a setting on lets the model repository's own Python run in the server
    (`trust_remote_code`): like removing a guard, that is a person's call, so such a fix is never
    `safe` even where vLLM will not start without it."""
    return bool(name) and str(name).strip().lstrip("-").replace("-", "_") == "trust_remote_code"
