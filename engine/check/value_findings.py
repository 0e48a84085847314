"""Findings on a setting's value that the site's vLLM release does not accept (`--quantization
fp8_per_block` on 0.19, a misspelt `kv_connector`), from the catalog's allowed values per release:
a value other releases know (value-not-in-version, with the runs of releases that take it), one near
a listed name (value-unknown, with the guess) and one nothing lists (value-unlisted)."""
from __future__ import annotations

import difflib
from typing import Any

from vllm_kb.engine.check import cli_choices
from vllm_kb.engine.check.site_platform import platform, plugin_quantizations
from vllm_kb.engine.kb.knowledge import FixOp, Knowledge
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan.site import Finding, Site

# Arguments whose value a knowledge check judges, release by release and with what else is set
# (knowledge/checks/L.yaml parser-name: an unknown tool parser only fails with
# --enable-auto-tool-choice, except where argparse lists the names); no generic value finding.
DECIDED_BY_CHECKS = frozenset({"tool_call_parser", "reasoning_parser"})


def _successor(kb: Knowledge, what: str, value, allowed: list) -> Any:
    """The value that replaced a removed one (renames.yaml `values`), when this release takes it."""
    for r in kb.value_renames:
        if r["path"] == what and str(r["old"]) == str(value) and str(r["new"]) in {str(v) for v in allowed}:
            return r["new"]
    return None


# Values vLLM looks up in a registry a plugin adds to (a `vllm.general_plugins` entry point, loaded
# before the engine starts): KVConnectorFactory.register_connector (distributed/kv_transfer/
# kv_connector/factory.py, 0.8.5+; also `kv_connector_module_path`), register_quantization_config
# (model_executor/layers/quantization/__init__.py, 0.8.5+), register_model_loader
# (model_executor/model_loader/__init__.py, 0.10.2+). vllm-ascend registers MooncakeConnectorV1.
_REGISTRIES = {("kv_transfer_config", "kv_connector"), ("quantization",), ("load_format",)}


def _plugin_methods(site: Site) -> frozenset[str]:
    plat = platform({}, {n: str(e.value) for n, e in site.env.items() if e.resolved}, site.image,
                    (site.launch or {}).get("framework_device"), site.plugins)
    return plugin_quantizations(plat, site.plugins)


def _registrable(site: Site, path: tuple[str, ...], whole) -> bool:
    """Whether a value near a listed one may be another registered name, not a misspelling: the site
    loads a vLLM plugin, or names the connector's module itself."""
    if path not in _REGISTRIES:
        return False
    return bool(site.plugins) or (isinstance(whole, dict) and bool(whole.get("kv_connector_module_path")))


# Names only a vendor's patched vLLM build registers: no stock release has them, and the vendor's pip
# package (aibrix_kvcache) is a cache library, not a plugin that registers them with stock vLLM. Stock
# vLLM's connector factory raises "Unsupported connector type" for such a name without
# kv_connector_module_path (0.9.2 distributed/kv_transfer/kv_connector/factory.py:62-70).
_VENDOR_ONLY: dict[tuple[str, ...], dict[str, str]] = {("kv_transfer_config", "kv_connector"): {
    n: "AIBrix" for n in ("AIBrixOffloadingConnectorV1Type1", "AIBrixOffloadingConnectorV1Type2",
                          "AIBrixOffloadingConnectorV1Type3")}}


def _vendor_only(path: tuple[str, ...], value, whole, stock: bool) -> str | None:
    """The vendor whose own vLLM build alone has this value, where the site runs stock vLLM and names
    no module for it."""
    vendor = _VENDOR_ONLY.get(path, {}).get(str(value))
    if not vendor or not stock or (isinstance(whole, dict) and whole.get("kv_connector_module_path")):
        return None
    return vendor


def value_remarks(site: Site, cat, version: str, handled: set[str], kb: Knowledge, stock: bool = False) -> list[Finding]:
    """Values vLLM does not accept in this release (`--quantization fp8_per_block` on 0.19).
    `stock`: the site runs vLLM as released (a pin, or vLLM's own image), not a vendor's build."""
    out = []
    for s in site.settings.values():
        if not s.resolved or not s.known or s.name in handled or s.value is None or s.name in DECIDED_BY_CHECKS:
            continue
        candidates: list[tuple[tuple[str, ...], Any]] = [((s.name,), s.value)]
        if isinstance(s.value, dict):
            candidates = [((s.name, k), v) for k, v in s.value.items()]
        for path, value in candidates:
            if isinstance(value, (dict, list, bool)) or value is None:
                continue
            allowed = cat.allowed_values(path, version, refused=True)
            if not allowed or not allowed[0] or (len(path) == 1 and cli_choices.engine_skips(s.syntax, s.name, version)):
                continue
            values, _ = allowed
            if str(value) in {str(v) for v in values}:
                continue
            if path == ("quantization",) and str(value).lower() in _plugin_methods(site):
                continue  # registered by the plugin of the platform it runs on (vllm-ascend's `ascend`)
            if path == ("quantization",) and str(value).lower() in {str(v) for v in values}:
                continue  # vLLM lower-cases it (the command line of 0.4–0.12 does not: launch check L10)
            if _enum_names(cat, path, version, values) and str(value).upper() in {str(v) for v in values}:
                continue  # the list holds an enum's member names; vLLM takes their lower-case values
            if path in _UPPER_CASED and str(value).upper() in {str(v) for v in values}:
                continue  # vLLM looks the member up by `value.upper()` in every release with the option
            what = ".".join(path)
            history = cat.value_history(path, value) or cat.value_history(path, str(value))
            if history and path == ("quantization",):
                continue  # a method other releases know: L10 quant-name says so, with the releases
            if history:
                # the runs of releases, not first … last: fp8_e5m2 left in 0.4.1 and came back in 0.4.3
                when = msg("finding.value_available", spans=cat.release_runs(history))
                text = {lang: msg("finding.value_not_in_version", value=value, what=what, version=version, when=when[lang])[lang] for lang in ("en", "zh")}
                new = _successor(kb, what, value, values)
                # the whole JSON value with the one key replaced: the change reads as what the site will run
                fix = [(FixOp("set", s.name), {**s.value, path[1]: new} if len(path) == 2 else new)] if new is not None else []
                out.append(Finding("value-not-in-version", text, s.file, s.line, "P0", fix=fix, safe=bool(fix), subject=f"{what}={value}"))
                continue
            guess = difflib.get_close_matches(str(value), [str(v) for v in values], n=1, cutoff=0.75)
            if guess and not _registrable(site, path, s.value):
                hint = msg("finding.did_you_mean", guess=guess[0])
                text = {lang: msg("finding.value_unknown", value=value, what=what, version=version)[lang] + hint[lang] for lang in ("en", "zh")}
                fix = [(FixOp("set", s.name), {path[1]: guess[0]} if len(path) == 2 else guess[0])]
                out.append(Finding("value-unknown", text, s.file, s.line, "P0", fix=fix, subject=f"{what}={value}"))
            elif vendor := _vendor_only(path, value, s.value, stock):
                text = msg("finding.value_vendor_only", value=value, what=what, version=version, vendor=vendor)
                out.append(Finding("value-unlisted", text, s.file, s.line, "P0", subject=f"{what}={value}"))
            else:
                text = msg("finding.value_unlisted", value=value, what=what, version=version)
                out.append(Finding("value-unlisted", text, s.file, s.line, "P1", subject=f"{what}={value}"))
    return out


# options vLLM parses as `Enum[value.upper()]` in every release that has them: --attention-backend
# (0.13.0 arg_utils create_engine_config, from 0.18 config/attention.py validate_backend_before),
# --mamba-backend (0.20.0 arg_utils); and keys of a JSON config, each through its pydantic
# `field_validator(mode="before")` from the release that brought the key: compilation_config's
# cudagraph_mode (0.10.1 config/compilation.py validate_cudagraph_mode_before … 0.34.0:1028),
# attention_config's backend (0.13.0 config/attention.py:70 … 0.34.0:289) and mla_prefill_backend
# (0.21.0:103 … 0.34.0:297), speculative_config's attention_backend (0.21.0 config/speculative.py
# _parse_attention_backend … 0.34.0:1642), mamba_config's backend (0.20.0 config/mamba.py … 0.34.0:63)
_UPPER_CASED = frozenset({("attention_backend",), ("mamba_backend",), ("compilation_config", "cudagraph_mode"),
                          ("attention_config", "backend"), ("attention_config", "mla_prefill_backend"),
                          ("speculative_config", "attention_backend"), ("mamba_config", "backend")})


def _enum_names(cat, path: tuple, version: str, values: list) -> bool:
    """The catalog's list holds an enum's member names, not the values vLLM parses: its own default
    is not in it but is in upper case (config_format 0.6.4–0.8.x: AUTO, HF, MISTRAL for
    `choices=[f.value for f in ConfigFormat]`, default "auto")."""
    e = cat.arg(path[0]) if len(path) == 1 else None
    default = e.field("default", version) if e is not None and e.exists(version) else None
    return isinstance(default, str) and default not in values and default.upper() in {str(v) for v in values}
