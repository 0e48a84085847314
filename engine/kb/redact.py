"""Secrets never leave the audit: the one place that decides what a secret looks like and hides
it. Every output goes through here — the report dict (so text, Markdown, JSON and any other
renderer of it), the diffs inside it, `detect` records and MCP tool results.

A value is hidden when its name says it is a secret (HF_TOKEN, *_API_KEY, *_TOKEN, *_SECRET,
passwords, `--api-key`, `api_key=` …), when it sits in a URL's user-info or a token-like query
parameter, or when it has the shape of a well-known token (hf_…, sk-…, ghp_…, AKIA…, a JWT).
References (`$HF_TOKEN`, `os.environ["HF_TOKEN"]`) are kept: they are not secrets and say where
the secret comes from. Redaction is idempotent."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb.redact_lines import TRIGGERS, hits, line_end, links

REDACTED = "***"

# Names of secrets, as env vars, YAML/JSON keys, Python keywords or long flags (either spelling).
_SECRET_WORDS = re.compile(
    r"api[_-]?key|apikey|access[_-]?key|secret|passw(?:or)?d|credential|private[_-]?key|auth[_-]?token|bearer"
    r"|(?:^|[_-])token$|(?:^|[_-])(?:hf|hub|api|access|refresh|session|auth|bot|github|gh|gitlab|wandb|openai|oauth|pat)[_-]?token",
    re.I)
# …but not counts and limits that merely end in "token" (max_prompt_adapter_token), nor a tokenizer's
# or a model config's vocabulary tokens (pad_token, eos_token, hf_overrides' classifier_from_token)
_NOT_SECRET = re.compile(
    r"^(?:max|min|num|n)[_-]|(?:adapter|prefill|decode|image|video|audio|special|spec|pad|eos|bos|unk|sep|cls|mask"
    r"|from|start|end|stop|think|begin|sentinel|placeholder|vision|default|split|answer|tool|reasoning)[_-]token$", re.I)


def is_secret_name(name: Any) -> bool:
    if not isinstance(name, str) or not name:
        return False
    hit = _NAME_MEMO.get(name)
    if hit is None:
        n = name.strip().lstrip("-+~$").strip("\"'{}")
        hit = bool(_SECRET_WORDS.search(n)) and not _NOT_SECRET.search(n)
        _remember(_NAME_MEMO, name, hit)
    return hit


# Reports repeat the same keys and texts for every site: remember answers (bounded).
_NAME_MEMO: dict[str, bool] = {}
_TEXT_MEMO: dict[str, str] = {}
_LONG_MEMO: dict[str, str] = {}
_MEMO_LIMIT = 50_000


def _remember(memo: dict, key, value) -> None:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value


_REFERENCE = re.compile(r"^\s*(?:\$(?![(`])|os\.environ|os\.getenv|environ\[|getenv\(|\{\{|<|\*\*\*$)")


def _is_reference(value: str) -> bool:
    """`$HF_TOKEN`, `${HF_TOKEN}`, os.environ[...]: where a secret comes from, not the secret
    (a `${X:-default}` default is redacted separately)."""
    return bool(_REFERENCE.match(value))


# -- free text ---------------------------------------------------------------------------------

# Shapes of well-known tokens, redacted wherever they appear.
_TOKEN_SHAPES = re.compile(
    r"\b(?:hf_[A-Za-z0-9]{20,}|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}"
    r"|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})")
# scheme://user:password@host and scheme://token@host
_URL_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]{0,31}://)(?P<info>[^\s/@'\"<>]{1,512})@")
# ?token=…, &api_key=…
_URL_QUERY = re.compile(
    r"(?P<head>[?&;](?:[\w.-]{0,64}(?:token|api[_-]?key|apikey|secret|password|passwd|signature|sig|auth|credential)[\w.-]{0,64})=)(?P<val>[^&\s\"'#<>]+)",
    re.I)
_BEARER = re.compile(r"(?P<head>\b(?:Bearer|Basic)[ \t]+)(?P<val>[A-Za-z0-9._~+/=-]{12,})")
_VALUE = r"(?P<q>[\"'])?(?P<val>(?(q)[^\"'\n]*|[^\s\"'`,;&()}\]]+))(?(q)(?P=q))"
# NAME=value, NAME: value, "name": "value", name = 'value' (shell, .env, YAML, JSON, Python, TOML)
# Only names that may be secrets match, and only where a name starts: every regex here runs in
# linear time, also on a 1 MB line (a lookahead from every position would be quadratic).
_HINT = r"(?=[\w.-]*(?i:key|token|secret|pass|credential|auth|bearer))"
_ASSIGN = re.compile(r"(?<![\w.-])(?P<nq>[\"']?)" + _HINT + r"(?P<name>[A-Za-z_][\w.-]*)(?P=nq)\]?(?P<sep>[ \t]*(?:=|:(?!//))[ \t]*)" + _VALUE)
# --api-key value / --api-key=value / "--api-key", "value" / - --api-key⏎ - value (YAML lists, diffs)
_FLAG = re.compile(
    r"(?<![\w-])(?P<flag>--" + _HINT + r"[A-Za-z][\w-]*)(?P<sep>=|[\"']?[ \t]*,[ \t]*|[ \t]+(?:\\[ \t]*\n[ \t+]*)?|[\"']?[ \t]*\n[ \t+-]*?-[ \t]+)"
    r"(?!-)" + _VALUE)  # a next flag is not a value (and must stay free to match itself)
# ${HF_TOKEN:-default}
_DEFAULT = re.compile(r"\$\{(?P<name>[A-Za-z_]\w*)(?P<op>:?[-=+?])(?P<val>[^}]*)\}")
# Kubernetes / compose env entries: name: HF_TOKEN ⏎ value: …
_K8S_ENV = re.compile(
    r"(?P<head>\bname:[ \t]*[\"']?(?P<name>[A-Za-z_]\w*)[\"']?[ \t]*\n[ \t+-]*value:[ \t]*)" + _VALUE)
# A secret name given a command substitution: HF_TOKEN=$(echo hf_…), --api-key "`cat k`" — the
# command may hold the secret itself, so what it runs is hidden.
_CMDSUB = re.compile(r"(?P<head>(?<![\w.-])(?P<name>--[A-Za-z][\w-]*|[A-Za-z_][\w.-]*)(?:[ \t]*[=:][ \t]*|[ \t]+)[\"']?"
                     r"(?:\$\(|`))(?P<val>[^)`\n]+)(?P<end>[)`])")
# A secret name and its value as two arguments: os.environ.setdefault("HF_TOKEN", "…"),
# os.getenv("API_KEY", "…"), putenv, headers.setdefault(…)
_PAIR = re.compile(r"(?P<head>[\"'](?P<name>[A-Za-z_][\w.-]*)[\"'][ \t]*,[ \t]*)" + _VALUE)
# Passwords given to a command: mysql -pSECRET, sshpass -p SECRET, docker login -p SECRET,
# echo SECRET | docker login --password-stdin, wandb login KEY
_COMMAND_SECRETS = [
    re.compile(r"(?P<head>\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb|mariadb-dump)\b[^\n|;&]*?[ \t]-p)(?P<val>[^\s'\"-][^\s'\"]*|'[^'\n]*'|\"[^\"\n]*\")"),
    re.compile(r"(?P<head>\bsshpass\b[^\n|;&]*?[ \t]-p[ \t]*)(?P<val>[^\s'\"-][^\s'\"]*|'[^'\n]*'|\"[^\"\n]*\")"),
    re.compile(r"(?P<head>\b(?:docker|podman|nerdctl|buildah|skopeo|helm[ \t]+registry)[ \t]+login\b[^\n|;&]*?[ \t]-p[ \t]+)(?P<val>[^\s'\"-][^\s'\"]*|'[^'\n]*'|\"[^\"\n]*\")"),
    re.compile(r"(?P<head>\b(?:echo|printf)[ \t]+(?:-n[ \t]+)?)(?P<val>[^\s|]+)(?=[ \t]*\|[^\n]*--password-stdin)"),
    re.compile(r"(?P<head>\bwandb[ \t]+login[ \t]+(?:--\S+[ \t]+)*)(?P<val>[^\s'\"-][^\s'\"]*)"),
]
def _triggered(text: str) -> bool:
    low = text.lower()  # substring tests in C: a megabyte in about a millisecond
    return any(w in low for w in TRIGGERS)


def _keep_quotes(m: re.Match) -> str:
    q = m.group("q") or ""
    return f"{q}{REDACTED}{q}"


def _secret_value(val: str) -> bool:
    v = val.strip()
    return bool(v) and v != REDACTED and not _is_reference(v) and v.lower() not in ("none", "null", "true", "false", '""', "''")


# Values the audit read under a secret's name. A value reaches its name through the shell model
# (a function's "$2", an array, a variable named KEY, a Makefile variable): the line that writes
# it may carry no name that says "secret", so no pattern hides it there. Set per audit
# (engine/audit.py), before any output is built; the values themselves are never shown.
_KNOWN: re.Pattern | None = None


def known_secrets(values) -> None:
    """Hide these literal values wherever they appear in text from now on (replacing the last
    audit's). Short values and references are left: they would hide ordinary words."""
    global _KNOWN
    values = [x for v in values for x in (v if isinstance(v, (list, tuple)) else [v])]  # --api-key given twice
    keep = sorted({v.strip() for v in values if isinstance(v, str) and len(v.strip()) >= 8
                   and not any(c.isspace() for c in v.strip()) and _secret_value(v)}, key=len, reverse=True)
    pattern = re.compile("|".join(map(re.escape, keep))) if keep else None
    if (pattern and pattern.pattern) != (_KNOWN and _KNOWN.pattern):
        _KNOWN = pattern
        _TEXT_MEMO.clear()
        _LONG_MEMO.clear()


def redact_text(text: str) -> str:
    """Hide secrets in free text: a script line, a diff, a pin, an evidence line, a message."""
    if not isinstance(text, str) or not text:
        return text
    hit = _TEXT_MEMO.get(text) if len(text) < 65536 else _LONG_MEMO.get(text)
    if hit is None:
        if not _triggered(text):
            hit = text
        elif len(text) >= _REGIONS_FROM and "${" not in text:
            hit = _redact_regions(text)
        else:
            hit = _redact_text(text)
        if _KNOWN is not None:
            hit = _KNOWN.sub(REDACTED, hit)
        if len(text) < 65536:
            _remember(_TEXT_MEMO, text, hit)
        else:  # a large file's text, redacted again for each of its sites' diffs
            if len(_LONG_MEMO) >= 8:
                _LONG_MEMO.clear()
            _LONG_MEMO[text] = hit
    return hit


_REGIONS_FROM = 4096
_REGION_MEMO: dict[str, str] = {}


def _redact_regions(text: str) -> str:
    regions: list[list[int]] = []
    n, end = len(text), 0
    for hit in hits(text):
        if hit < end:
            continue
        start = text.rfind("\n", 0, hit) + 1
        while start > 0:  # the lines above that run onto this one
            prev = text.rfind("\n", 0, start - 1) + 1
            if not links(text, prev, start):
                break
            start = prev
        end = line_end(text, hit)
        while end < n and links(text, text.rfind("\n", 0, end - 1) + 1, end):
            end = line_end(text, end)
        if regions and start <= regions[-1][1] + 256:  # near the last one: one call for both
            regions[-1][1] = end
        else:
            regions.append([start, end])
    out: list[str] = []
    done = 0
    for start, end in regions:
        part = text[start:end]
        shown = _REGION_MEMO.get(part)
        if shown is None:
            shown = _redact_text(part)
            if len(part) < 65536:
                _remember(_REGION_MEMO, part, shown)
        out += (text[done:start], shown)
        done = end
    out.append(text[done:])
    return "".join(out)


_FILE_NAME = re.compile(r"\.(?:ya?ml|json|jsonl|py|sh|bash|zsh|env|toml|txt|md|cfg|ini|conf|ipynb|tf|j2|tpl|slurm|sbatch)$", re.I)


def _redact_text(text: str) -> str:

    def assign(m: re.Match) -> str:
        if not is_secret_name(m.group("name")) or not _secret_value(m.group("val")):
            return m.group(0)
        if re.fullmatch(r"-?\d+(?:\.\d+)?", m.group("val")) and not re.search(r"pass|secret|key", m.group("name"), re.I):
            return m.group(0)  # a count (…_token = 4), never a secret
        if m.group("sep").strip() == ":" and m.group("val").isdigit() and _FILE_NAME.search(m.group("name")):
            return m.group(0)  # samples/base-api-key.yaml:22 — a file and its line, as every report names a site
        cut = m.start("q") if m.group("q") else m.start("val")
        return m.group(0)[: cut - m.start(0)] + _keep_quotes(m)

    def flag(m: re.Match) -> str:
        val = m.group("val")
        if not is_secret_name(m.group("flag")) or not _secret_value(val) or val.startswith("-"):
            return m.group(0)
        if re.fullmatch(r"-?\d+(?:\.\d+)?", val) and not re.search(r"pass|secret|key", m.group("flag"), re.I):
            return m.group(0)
        return m.group("flag") + m.group("sep") + _keep_quotes(m)

    def default(m: re.Match) -> str:
        if not is_secret_name(m.group("name")) or not _secret_value(m.group("val")):
            return m.group(0)
        return "${" + m.group("name") + m.group("op") + REDACTED + "}"

    def k8s(m: re.Match) -> str:
        if not is_secret_name(m.group("name")) or not _secret_value(m.group("val")):
            return m.group(0)
        return m.group("head") + _keep_quotes(m)

    def userinfo(m: re.Match) -> str:
        info = m.group("info")
        if info == REDACTED or info.endswith(":" + REDACTED):
            return m.group(0)
        user, colon, _ = info.partition(":")
        if not colon and len(info) < 20 and not _TOKEN_SHAPES.search(info):
            return m.group(0)  # git@, user@: a user name, not a credential
        return m.group("scheme") + (f"{user}:{REDACTED}" if colon else REDACTED) + "@"

    def query(m: re.Match) -> str:
        return m.group("head") + (m.group("val") if m.group("val") == REDACTED or _is_reference(m.group("val")) else REDACTED)

    def bearer(m: re.Match) -> str:
        return m.group(0) if m.group("val") == REDACTED else m.group("head") + REDACTED

    def cmdsub(m: re.Match) -> str:
        if not is_secret_name(m.group("name")) or m.group("val").strip() == REDACTED:
            return m.group(0)
        return m.group("head") + REDACTED + m.group("end")

    def pair(m: re.Match) -> str:
        if not is_secret_name(m.group("name")) or not _secret_value(m.group("val")):
            return m.group(0)
        return m.group("head") + _keep_quotes(m)

    def command(m: re.Match) -> str:
        val = m.group("val")
        if val.strip("'\"") == REDACTED or _is_reference(val.strip("'\"")):
            return m.group(0)
        q = val[0] if val[:1] in "'\"" and len(val) > 1 and val[-1] == val[0] else ""
        return m.group("head") + q + REDACTED + q

    out = _TOKEN_SHAPES.sub(REDACTED, text)
    out = _CMDSUB.sub(cmdsub, out)
    for rx in _COMMAND_SECRETS:
        out = rx.sub(command, out)
    for _ in range(4):  # a replacement can free a neighbour to match (x--api-key → ***--api-key): to a fixpoint
        before = out
        out = _DEFAULT.sub(default, out)
        out = _K8S_ENV.sub(k8s, out)
        out = _FLAG.sub(flag, out)
        out = _ASSIGN.sub(assign, out)
        out = _PAIR.sub(pair, out)
        out = _URL_USERINFO.sub(userinfo, out)
        out = _URL_QUERY.sub(query, out)
        out = _BEARER.sub(bearer, out)
        if out == before:
            break
    return out


# -- values and structures ---------------------------------------------------------------------

def redact_value(name: Any, value: Any) -> Any:
    """A setting's or a variable's value: hidden whole when its name is a secret's, otherwise
    with any embedded secret (a URL's password, a token) hidden."""
    if value is None:
        return None
    if is_secret_name(name) and not isinstance(value, bool):
        if isinstance(value, (int, float)) and not re.search(r"pass|secret|key", str(name), re.I):
            return value
        if isinstance(value, str) and (not _secret_value(value)):
            return redact_text(value)
        if isinstance(value, (list, tuple)):  # --api-key may be given more than once
            return [redact_value(name, v) for v in value]
        if isinstance(value, dict):
            return {k: redact_value(name, v) for k, v in value.items()}
        return REDACTED
    return redact(value)


# Keys of a record that hold the value of the thing its `name`/`target`/`key` names.
_VALUE_FIELDS = ("value", "raw", "default")
_NAME_FIELDS = ("name", "target", "key", "subject")


def redact(obj: Any) -> Any:
    """A copy of a JSON-like structure (the report dict, a detect record, a tool result) with
    every secret hidden: values under secret names, records whose name/target/key is a secret
    name, and secrets inside any string (diffs included)."""
    t = type(obj)
    if t in _SCALARS or obj is None:
        return obj
    if t is str or isinstance(obj, str):
        return redact_text(obj)
    if t is list or isinstance(obj, list):
        return [redact(x) for x in obj]
    if isinstance(obj, tuple):
        return tuple(redact(x) for x in obj)
    if isinstance(obj, dict):
        # (a rename's value is the option's new name, not what it is set to)
        secret_record = any(is_secret_name(obj[k]) for k in _NAME_FIELDS if k in obj) and obj.get("op") != "rename"
        out = {}
        for k, v in obj.items():
            if secret_record and k in _VALUE_FIELDS:
                out[k] = redact_value(obj.get("name") or obj.get("target") or obj.get("key"), v)
            elif type(v) not in _CONTAINERS and is_secret_name(k):
                out[k] = redact_value(k, v)
            else:
                out[k] = redact(v)
        return out
    return obj


_SCALARS = frozenset({int, float, bool})
_CONTAINERS = frozenset({dict, list})
