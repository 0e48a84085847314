"""A key of a JSON configuration argument (`--speculative-config '{…}'`, `compilation_config={…}`)
that the site's vLLM release does not have: its config class refuses it (config-key-unknown, P0) or
ignores it (P1, the setting has no effect). The fields per release are the catalog's
`config_fields`; whether the class refuses or ignores an unknown key comes from its pydantic
config, read here from each release's sources (vllm/config/<name>.py)."""
from __future__ import annotations

import difflib

from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.knowledge import FixOp
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan.site import Finding, Site

CODE = "config-key-unknown"

# (first release whose config class is a pydantic dataclass, first release that forbids extra keys).
# A pydantic dataclass ignores an unknown keyword by default (extra="ignore"); vLLM's `@config`
# decorator sets extra="forbid" for every config class from 0.16.0 (vllm/config/utils.py 0.16.0
# `merged_config = ConfigDict(extra="forbid")`, still 0.34.0), and CompilationConfig forbids it
# itself from 0.13.0 (`@dataclass(config=ConfigDict(extra="forbid"))`, vllm/config/compilation.py
# 0.13.0). A refused key stops `vllm serve` in argparse ("argument --compilation-config/-O: 1
# validation error for CompilationConfig … Unexpected keyword argument") or the engine configuration
# (`SpeculativeConfig(**self.speculative_config)`, vllm/engine/arg_utils.py 0.16.0:1378). Before the
# first release of a row the class lived in vllm/config.py and is not judged here.
CLASSES: dict[str, tuple[str, str, str]] = {
    "compilation_config": ("CompilationConfig", "0.10.1", "0.13.0"),
    "speculative_config": ("SpeculativeConfig", "0.11.0", "0.16.0"),
    "kv_transfer_config": ("KVTransferConfig", "0.10.2", "0.16.0"),
    "kv_events_config": ("KVEventsConfig", "0.10.2", "0.16.0"),
    "structured_outputs_config": ("StructuredOutputsConfig", "0.11.0", "0.16.0"),
    "attention_config": ("AttentionConfig", "0.13.0", "0.16.0"),
    "eplb_config": ("EPLBConfig", "0.10.2", "0.16.0"),
    "ec_transfer_config": ("ECTransferConfig", "0.11.1", "0.16.0"),
    "profiler_config": ("ProfilerConfig", "0.13.0", "0.16.0"),
    "kernel_config": ("KernelConfig", "0.16.0", "0.16.0"),
    "pooler_config": ("PoolerConfig", "0.11.0", "0.16.0"),
    "override_pooler_config": ("PoolerConfig", "0.10.1", "0.16.0"),
}


def _fields(cat: Catalog, arg: str, version: str) -> set[str]:
    prefix = arg + "."
    return {k[len(prefix):] for k, e in cat.raw["config_fields"].items()
            if k.startswith(prefix) and (f := cat.config_field(k)) is not None and f.exists(version)}


def _releases(cat: Catalog, arg: str, key: str) -> list[str]:
    e = cat.config_field(f"{arg}.{key}")
    return [str(v) for v in cat.versions if e is not None and e.exists(str(v))]


def findings(site: Site, cat: Catalog, version: str, handled: set[str], claimed: set[tuple[str, str]]) -> list[Finding]:
    """The unknown keys of the site's JSON configuration arguments in `version` (a catalog release);
    `claimed` holds the keys a P0 check already rewrites (one cause, one P0)."""
    out = []
    at = cat.index_version(version)
    for s in site.settings.values():
        row = CLASSES.get(s.name)
        if row is None or not s.resolved or s.name in handled or not isinstance(s.value, dict):
            continue
        cls, first, forbid = row
        if at < cat.index_version(first):
            continue
        fields = _fields(cat, s.name, version)
        if not fields:
            continue
        refused = at >= cat.index_version(forbid)
        for key in s.value:
            if not isinstance(key, str) or key in fields or (s.name, key) in claimed:
                continue
            where = _releases(cat, s.name, key)
            guess = difflib.get_close_matches(key, sorted(fields), n=1, cutoff=0.75)
            if where:
                extra = msg("finding.config_key_elsewhere", spans=cat.release_runs(where))
            elif guess:
                extra = msg("finding.did_you_mean", guess=guess[0])
            else:
                extra = {"en": "", "zh": ""}
            name = "finding.config_key_refused" if refused else "finding.config_key_ignored"
            base = msg(name, key=key, arg=s.name, cls=cls, version=version)
            text = {lang: base[lang] + extra[lang] for lang in ("en", "zh")}
            fix = []
            # a dict fix merges into the site's own value, and a key set to None is removed
            if guess and not where:
                fix = [(FixOp("set", s.name), {key: None, guess[0]: s.value[key]})]
            elif refused:
                fix = [(FixOp("set", s.name), {key: None})]
            out.append(Finding(CODE, text, s.file, s.line, "P0" if refused else "P1", fix=fix,
                               subject=f"{s.name}.{key}"))
    return out
