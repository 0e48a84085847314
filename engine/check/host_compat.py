"""Serving packages and evaluation harnesses that start vLLM themselves — FastChat's vllm_worker,
Xinference, Ray Serve LLM, lighteval, lm-evaluation-harness — against the vLLM release the project
pins. The user writes none of what breaks: the package's own
code passes an engine argument vLLM removed, or reads an engine attribute the V1 engine lacks, so
only the pair of releases decides (knowledge/frameworks/compat.yaml rows of `fastchat`,
`xinference`, `ray`). The facts name the break and the nearest pair that works: the closest vLLM
release this package release takes, and the package release that fixed it (`fixed_in`)."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from vllm_kb.engine.check import framework_imports, framework_kwargs
from vllm_kb.engine.check.framework_compat import engine_needed
from vllm_kb.engine.kb import compat, deploy_tools
from vllm_kb.engine.kb.versions import parse, try_parse

# host id → its package on PyPI
PACKAGES = {"fastchat": "fschat", "xinference": "xinference", "ray": "ray", "lighteval": "lighteval", "lm_eval": "lm-eval", "openllm": "openllm",
            "unsloth_zoo": "unsloth-zoo", "smolagents": "smolagents",
            "triton": "tritonserver", "kserve": "kserve"}


def host_of(site) -> str | None:
    """The serving package that starts this site's engine, when it is one of PACKAGES."""
    if site.tool in ("xinference", "lighteval", "lm_eval", "triton", "openllm", "unsloth_zoo", "smolagents"):
        return site.tool
    if site.kind.startswith("python -m fastchat.serve.vllm_worker"):
        return "fastchat"
    if site.tool == "ray-serve" and site.kind.startswith("ray.serve.llm"):
        return "ray"
    # KServe's huggingfaceserver builds one argparse parser for its own options and vLLM's engine
    # arguments (huggingfaceserver/__main__.py), so a vLLM option it also defines breaks it (--task)
    if site.kind.startswith(("python -m huggingfaceserver", "kserve huggingfaceserver")):
        return "kserve"
    return None


def release_defaults(site, pin_of: Callable[[str], Any]):
    """`site` without the defaults its serving package's parser holds only from a later release than
    the project pins (knowledge/deploy/llm_wrappers.yaml `defaults_since`: FastChat's vllm_worker
    trusts remote code by default only from fschat 0.2.33; before, vLLM's own --trust-remote-code,
    False, decides). An unpinned or range-pinned package keeps them (the newest release)."""
    since = _defaults_since(site)
    drop = []
    for arg, spec in since.items():
        if arg not in (site.framework_defaults or {}):
            continue
        rel = getattr(pin_of(spec["package"]), "exact", None)
        if rel and try_parse(rel) is not None and parse(rel) < parse(spec["release"]):
            drop.append(arg)
    if not drop:
        return site
    return dataclasses.replace(site, framework_defaults={k: v for k, v in site.framework_defaults.items() if k not in drop})


def _defaults_since(site) -> dict:
    kind = str(getattr(site, "kind", "") or "")
    for e in deploy_tools.load("llm_wrappers").get("entry_points", []):
        if e.get("defaults_since") and isinstance(e.get("module"), str) and kind.startswith(f"python -m {e['module']}"):
            return e["defaults_since"]
    return {}


def _used(row: compat.Row, site) -> bool:
    """A feature-scope row holds only where the site's launch keys take one of its values."""
    when = row.raw.get("when") or {}
    launch = site.launch or {}
    return bool(when) and all(str(launch.get(k, "")).lower() in [str(x).lower() for x in vals] for k, vals in when.items())


def _engine_ok(row: compat.Row, vllm: str, facts: dict, env_written: bool) -> bool:
    """The row's `needs` (framework_compat), and for v1-unset no VLLM_USE_V1 written in the site's file."""
    return engine_needed(row, vllm, facts) and not (row.raw.get("needs") == "v1-unset" and env_written)


def _breaks(host: str, rel: str, vllm: str, site, facts: dict, env_written: bool, cat=None) -> list[compat.Row]:
    # the engine arguments the package's own code passes (engine_kwargs.yaml: lighteval, lm-eval) first
    rows = framework_kwargs.breaks(host, rel, vllm, site, facts, cat) if cat is not None else []
    rows += [r for r in compat.problems(host, rel, vllm, "install") if r.kind == "known_break"]
    # the vLLM names its own modules import when they load (vllm_imports.yaml: Triton's vLLM backend)
    # (what fails only once the model serves is host_request's, not a failed start)
    rows += [r for r in framework_imports.breaks(host, rel, vllm, site) if not r.raw.get("after_start")]
    rows += [r for r in compat.problems(host, rel, vllm, "feature") if r.kind == "known_break" and _used(r, site)]
    return [r for r in rows if r.effect == "error" and _engine_ok(r, vllm, facts, env_written)]


def pair_breaks(host: str, rel: str, vllm: str, site, facts: dict) -> list[compat.Row]:
    """The error-level breaks of this package release with this vLLM for the site (upgrade plans)."""
    return _breaks(host, rel, vllm, site, facts, False)


def _fits(host: str, rel: str, vllm: str, site, facts: dict, env_written: bool, cat=None) -> bool:
    """No break, and inside the range the release declares (a pair pip would refuse is no proposal)."""
    declared = [r for r in compat.rows() if r.framework == host and r.kind == "declared" and r.covers(rel)]
    # a release whose requests all fail (scope `request`, host_request) is no pair to propose either
    requests = [r for r in compat.problems(host, rel, vllm, "request") if r.kind == "known_break" and r.effect == "error"]
    return (not declared or any(r.allows(vllm) for r in declared)) and not requests and \
        not _breaks(host, rel, vllm, site, facts, env_written, cat)


def host_compat(site, facts: dict, cat, pin_of: Callable[[str], Any], text: str | None = None) -> dict[str, Any]:
    """`host_*` launch facts for a site a serving package starts, when its pinned release breaks
    with the pinned vLLM. `text`: the site file's text — a VLLM_USE_V1 written anywhere in it
    (a Ray runtime_env, os.environ) counts as set."""
    host = host_of(site)
    v = facts.get("vllm") or {}
    vllm = v.get("version")
    if host is None or not vllm or not v.get("pinned"):
        return {}
    # huggingfaceserver is released with KServe under the same version (its pyproject.toml)
    pin = pin_of(PACKAGES[host]) or (pin_of("huggingfaceserver") if host == "kserve" else None)
    rel = getattr(pin, "exact", None)
    if not rel or try_parse(rel) is None:
        return {}
    written = "VLLM_USE_V1" in (text or "")
    rows = _breaks(host, rel, vllm, site, facts, written, cat)
    if not rows:
        # VLLM_USE_V1=0 is what keeps this pair working: removing it (A4) would bring the break back
        env = {k: val for k, val in (facts.get("env") or {}).items() if k != "VLLM_USE_V1"}
        if str((facts.get("env") or {}).get("VLLM_USE_V1", "")).strip() == "0" and _breaks(host, rel, vllm, site, {**facts, "env": env}, False):
            return {"host": host, "host_needs_v0": True}
        return {}
    r = rows[0]
    out: dict[str, Any] = {"host": host, "host_package": PACKAGES[host], "host_release": rel,
                           "host_problem_text": str(r.raw.get("error", "")).rstrip("."),
                           "host_problem_source": str((r.raw.get("source") or {}).get("url") or "")}
    # the engine switch that avoids the break with this very pair (V1 for Ray's V0 default, V0 for FastChat)
    for value in ("1", "0"):
        if not _breaks(host, rel, vllm, site, {**facts, "env": {**(facts.get("env") or {}), "VLLM_USE_V1": value}}, True):
            out["host_env_fix"] = value
            break
    versions = [str(x) for x in cat.versions]
    here = str(cat.index_version(vllm))
    ok = [x for x in versions if _fits(host, rel, x, site, facts, written, cat)]
    if ok and here in versions:
        at = versions.index(here)
        best = min(ok, key=lambda x: (abs(versions.index(x) - at), versions.index(x) < at))
        out["host_fit_vllm"] = "==" + best
    fixed = [str(x.raw["fixed_in"]) for x in rows if x.raw.get("fixed_in")]
    if fixed and len(fixed) == len(rows):
        cand = max(fixed, key=lambda x: parse(x))
        if _fits(host, cand, vllm, site, facts, written, cat):
            out["host_fit_release"] = "==" + cand
    if "host_fit_release" not in out:
        near = _nearest_release(host, rel, vllm, site, facts, written, cat)
        if near:
            out["host_fit_release"] = "==" + near
    return out


def _nearest_release(host: str, rel: str, vllm: str, site, facts: dict, written: bool, cat) -> str | None:
    """The package release nearest this one (the newer on a tie) that works with this vLLM, among
    the releases whose code the tables read (compat.releases: Xinference's, from its wheels) — the
    release before an upgrade that brought an engine argument the installed vLLM lacks."""
    listed = sorted(compat.releases(host), key=parse)
    if not listed:
        return None
    here = parse(rel)
    at = sum(1 for x in listed if parse(x) < here)
    ok = [(i, x) for i, x in enumerate(listed) if x != rel and _fits(host, x, vllm, site, facts, written, cat)]
    if not ok:
        return None
    return min(ok, key=lambda p: abs(p[0] - at) + (0.5 if p[0] < at else 0))[1]



def host_request(site, facts: dict, pin_of: Callable[[str], Any]) -> dict[str, Any]:
    """`host_request_*` facts: the package release builds a vLLM class with a keyword the pinned
    release dropped, or imports a name it removed, where each request runs (compat.yaml rows of
    scope `request`: FastChat's vllm_worker and SamplingParams(use_beam_search=…) from vLLM 0.6.3,
    Xinference's GuidedDecodingParams from 0.12.0). The server starts and
    every request that reaches the call fails: a P1. `host_request_fit`: the nearest vLLM that
    takes the keyword and starts with this package release."""
    from vllm_kb.engine.check.project_kwargs import nearest
    from vllm_kb.engine.kb import vllm_classes

    host = host_of(site)
    vllm = (facts.get("vllm") or {}).get("version")
    if host is None or not vllm:
        return {}
    rel = getattr(pin_of(PACKAGES[host]), "exact", None)
    if not rel or try_parse(str(rel)) is None:
        return {}
    rows = [r for r in compat.problems(host, str(rel), str(vllm), "request") if r.kind == "known_break" and r.effect == "error"
            and (r.raw.get("call") or _used(r, site) or not r.raw.get("when"))]
    if not rows:
        return {}
    row = rows[0]
    out: dict[str, Any] = {"host": host, "host_package": PACKAGES[host], "host_release": str(rel),
                           "host_request_text": str(row.raw.get("error", "")).rstrip(".")}

    def starts(x: str) -> bool:
        return not any(r.kind == "known_break" and r.effect == "error" for r in compat.problems(host, str(rel), x, "install"))

    if row.raw.get("call"):  # a keyword the package passes: the nearest release whose class takes it
        cls, kw = row.raw["call"]["class"], row.raw["call"]["keyword"]
        fit = nearest(vllm_classes.read_releases(), str(vllm), lambda x: bool(vllm_classes.takes(cls, kw, x)) and starts(x))
    else:  # a name the package imports per request (Xinference's GuidedDecodingParams): a release outside the row
        fit = nearest(vllm_classes.read_releases(), str(vllm), lambda x: not row.allows(x) and starts(x))
    if fit:
        out["host_request_fit"] = fit
    return out
