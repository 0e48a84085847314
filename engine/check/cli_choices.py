"""A value the release's command line refuses although its engine takes it: argparse's `choices=`
of `vllm serve` / the API server (knowledge/vllm/cli_choices.yaml, tools/vllm_cli_choices.py) lagged
behind the engine's enum in some releases (`--load-format sharded_state` on 0.5.4: "invalid
choice", while `LLM(load_format="sharded_state")` loads). Only settings that reach argparse are
judged: a Python call, a framework's config or a kwargs file never meets that list."""
from __future__ import annotations

from vllm_kb.engine.kb.catalog import ENUM_FOR_PATH
from vllm_kb.engine.kb.knowledge import FixOp, Knowledge
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.kb.versions import parse
from vllm_kb.engine.scan.site import Finding, Site

CLI_KINDS = ("vllm serve", "api_server")
# settings read from a Python call or a framework's own file: they reach the engine, not argparse
NOT_ARGV = frozenset({"python-call", "kwargs-json", "kwargs-yaml", "framework-config", "hydra-override", "env-file", "python-dict"})
# values a knowledge check or the catalog's enum already judges release by release (L10 for the
# quantization spelling, the parser checks for tool/reasoning parsers a plugin may register)
JUDGED_ELSEWHERE = frozenset({p[0] for p in ENUM_FOR_PATH if len(p) == 1})


# A Python call or a framework's file hands the value to the engine's config classes, never to
# argparse, so a `choices=` list the command line builds from a Literal binds it only where the
# engine checks too: by hand (ModelConfig "Unknown dtype" / "Unknown tokenizer mode", ParallelConfig
# "Unrecognized distributed executor backend", DecodingConfig "Invalid guided_decoding_backend",
# CacheConfig's prefix_caching_hash_algo — 0.8.5 config.py:2953/644/1794/3186/1424), or by pydantic
# from 0.9.1, when the config classes became pydantic dataclasses (0.9.1 config.py:27), except the
# fields marked SkipValidation (0.9.1 config.py:1456 CacheConfig.block_size; DeviceConfig.device).
CHECKED_BY_HAND = frozenset({"dtype", "tokenizer_mode", "distributed_executor_backend", "guided_decoding_backend",
                             "prefix_caching_hash_algo"})
SKIP_VALIDATION = frozenset({"block_size", "device"})
PYDANTIC_FROM = "0.9.1"


def engine_skips(syntax: str, name: str, version: str) -> bool:
    """The argument's command-line `choices=` do not bind a value given this way in this release."""
    if syntax not in NOT_ARGV or name in JUDGED_ELSEWHERE:
        return False
    return name in SKIP_VALIDATION or (parse(version) < parse(PYDANTIC_FROM) and name not in CHECKED_BY_HAND)


def _span(rows: list[dict], version: str) -> dict | None:
    v = parse(version)
    return next((r for r in rows if parse(r["from"]) <= v <= parse(r["to"])), None)


def _norm(value) -> str:
    return str(value).strip().lower()


def findings(site: Site, kb: Knowledge, version: str) -> list[Finding]:
    """`version` is the catalogued release the site runs."""
    if site.kind not in CLI_KINDS:
        return []
    table = kb.doc("vllm", "cli_choices.yaml").data.get("args") or {}
    out = []
    for s in site.settings.values():
        rows = table.get(s.name)
        if not rows or s.name in JUDGED_ELSEWHERE or s.syntax in NOT_ARGV or not s.resolved or s.value is None \
                or isinstance(s.value, (dict, list, bool)):
            continue
        row = _span(rows, version)
        if row is None or _norm(s.value) in {_norm(c) for c in row["choices"]}:
            continue
        takes = [r for r in rows if _norm(s.value) in {_norm(c) for c in r["choices"]}]
        later = [r["from"] for r in takes if parse(r["from"]) > parse(version)]
        earlier = [r["to"] for r in takes if parse(r["to"]) < parse(version)]
        when = msg("finding.cli_choice_later", first=later[0]) if later else {"en": "", "zh": ""}
        # the nearest release whose `choices=` list takes the value; one the list dropped: the last that took it
        fix = [(FixOp("pin", "vllm"), f">={later[0]}")] if later else [(FixOp("pin", "vllm", alternative=True), f"<={earlier[-1]}")] if earlier else []
        src = row["source"]
        text = {lang: msg("finding.value_not_in_cli", flag=row["flag"], value=s.value, version=version,
                          choices=", ".join(str(c) for c in row["choices"]), file=src["file"], line=src["line"],
                          release=src["release"])[lang] + when[lang] for lang in ("en", "zh")}
        out.append(Finding("value-not-in-version", text, s.file, s.line, "P0", fix=fix, subject=f"{s.name}={s.value}"))
    return out
