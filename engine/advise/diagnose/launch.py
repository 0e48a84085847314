"""A launch failure recognised by its error text: which launch check (or catalog finding) says
why vLLM refused to start, and — for each site of the audited project — that check's verdict and
the change that makes the launch start, in the site's own syntax."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.advise.diagnose import framework_lines
from vllm_kb.engine.kb import error_text, traceback_text
from vllm_kb.engine.kb.knowledge import Knowledge

# Findings recognised by argparse's and Python's words (engine/check/catalog_findings.py,
# engine/scan/site.py). argparse says "unrecognized arguments" both for an option the release
# lacks and for a stray positional, so one wording stands for a family of codes.
FAMILIES = {"not-in-version": ("not-in-version", "unknown-option", "stray-positional"),
            "framework-key-not-in-release": ("framework-key-not-in-release", "ms-swift-removed-flag", "trl-legacy-key"),
            "value-not-in-version": ("value-not-in-version", "value-unknown", "value-unlisted")}
FINDING_TEXTS = {
    "not-in-version": [
        {"text": "unrecognized arguments: {args}", "vllm": ">=0.4.0", "origin": "argparse"},
        {"text": "__init__() got an unexpected keyword argument {name}", "vllm": ">=0.4.0", "origin": "python"},
    ],
    "value-not-in-version": [
        {"text": "argument {flag}: invalid choice: {value} (choose from {choices})", "vllm": ">=0.4.0", "origin": "argparse"},
        # the KV-transfer factory on a connector name the release does not register (a renamed
        # LMCacheConnector): vllm/distributed/kv_transfer/kv_connector/factory.py 0.6.5–0.34.0
        {"text": "Unsupported connector type: {name}", "vllm": ">=0.6.5", "origin": "vllm"},
    ],
    # TRL's CLI before 0.16.0 (knowledge/frameworks/trl.yaml › findings no-vllm-serve)
    "trl-no-vllm-serve": [
        {"text": "argument command: invalid choice: 'vllm-serve'", "vllm": ">=0.4.0", "origin": "argparse"},
    ],
    # TRL's VLLMClient (0.16 … 1.10) on a route the server lacks: a plain `vllm serve` (trl.yaml › plain-vllm-server)
    "trl-plain-vllm-server": [
        {"text": "Request failed: 404, {detail}", "vllm": ">=0.4.0", "origin": "framework"},
    ],
    # a framework key the pinned framework release's parser refuses (engine/check/framework_args.py)
    "framework-key-not-in-release": [
        {"text": "remaining_argv: {args}", "vllm": ">=0.4.0", "origin": "framework"},
        {"text": "Some specified arguments are not used by the HfArgumentParser: {args}", "vllm": ">=0.4.0", "origin": "framework"},
        {"text": "Some keys are not used by the HfArgumentParser: {args}", "vllm": ">=0.4.0", "origin": "framework"},
        {"text": "Could not override {key}.", "vllm": ">=0.4.0", "origin": "framework"},
        {"text": "Key {key} is not in struct", "vllm": ">=0.4.0", "origin": "framework"},
    ],
    # verl 0.1 … 0.4.1 vLLMRollout (knowledge/frameworks/verl.yaml › findings eager-free-cache)
    "verl-eager-free-cache": [
        {"text": "disable CUDA graph (enforce_eager = False) if free cache engine", "vllm": ">=0.3.1", "origin": "framework"},
    ],
}


# vLLM wordings that belong to no check: recognised as such, never routed to the nearest check by
# their words (the BitsAndBytes line is a warning vLLM recovers from, not the failure).
UNCOVERED_ID = "uncovered"
UNCOVERED = [
    {"text": "CUDA graph is not supported on BitAndBytes yet, fallback to the eager mode.", "vllm": ">=0.5.4,<0.6.2", "origin": "warning"},
    {"text": "sliding_window must be set for sliding window attention", "vllm": ">=0.11.1", "origin": "python"},
    # an extension (flash-attn, xformers, vllm._C) built against another torch: what is installed, not the launch
    {"text": "undefined symbol: {symbol}", "vllm": ">=0.4.0", "origin": "kernel"},
]


# When no check's own wording occurs in the text (a release that words it differently, a
# framework's message, a paraphrase in a bug report), the words that name what a launch check is
# about route it to the closest checks — reported as "closest", never as recognised.
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "pp-in-release": (r"pipeline[ _-]?parallel", r"supports_?pp", r"\bpp\b"),
    "tp-attention-heads": (r"tensor[ _-]?parallel", r"attention heads", r"divisible"),
    "tp-kv-heads": (r"(kv|key[ _-]value) heads", r"divisible", r"tensor[ _-]?parallel"),
    "bfloat16-gpu": (r"bfloat16|\bbf16\b", r"compute capability|\bcapability\b"),
    "quant-capability": (r"quantiz", r"compute capability|\bcapability\b|current gpu|\bsm_?\d{2,3}\b"),
    "fp8-kv-cache": (r"\bfp8", r"kv[ _-]?cache|cache[ _-]dtype"),
    "quant-mismatch": (r"quantization method", r"does not match|quant_method"),
    "bitsandbytes-launch": (r"bitsandbytes|\bbnb\b",),
    "max-len-kv-capacity": (r"max[ _]?(seq|model)[ _]?len", r"kv[ _-]?cache", r"tokens"),
    "no-kv-memory": (r"no available memory|cache blocks|kv[ _-]?cache memory|out of memory|insufficient",),
    "max-len-model-limit": (r"max[ _]?model[ _]?len", r"max_position_embeddings|derived|model_max_length|rope"),
    "batched-tokens": (r"max_num_batched_tokens|batched[ _]tokens",),
    "model-architecture": (r"architecture",),
    "gpu-count": (r"(cuda|device).{0,40}(not available|invalid|ordinal)|world[ _]size|number of (available )?gpus",),
    "attention-backend-gpu": (r"attention backend|flash[_-]?attn|flashinfer|xformers",),
    "container-shm": (r"/dev/shm|shared memory|\bshm\b|bus error",),
    "gpu-memory-utilization-range": (r"gpu[ _]memory[ _]utilization",),
    "framework-vllm": (r"vllm.{0,20}version.{0,40}(not supported|requires?)|supported versions",),
    "expert-parallel-dense": (r"expert[ _-]?parallel",),
}
_KEYWORD_RX = {name: tuple(re.compile(p, re.I) for p in pats) for name, pats in _KEYWORDS.items()}


def closest(kb: Knowledge, text: str, limit: int = 3) -> list[LaunchHit]:
    """The launch checks whose subject the text's words name, most words first (ties: the order
    above), as `closest` hits — for an error no check's wording matches."""
    from vllm_kb.engine.check.rules import rules

    reg = rules(kb)
    scored = []
    for order, (name, rxs) in enumerate(_KEYWORD_RX.items()):
        found = [m.group(0) for m in (rx.search(text) for rx in rxs) if m]
        rule = reg.find(name)
        if found and rule is not None:
            scored.append((-len(found), order, rule.id, ", ".join(found)))
    scored.sort()
    return [LaunchHit(cid, "closest", error_text.Match(cid, words, None, "keywords", -n, False))
            for n, _, cid, words in scored[:limit]]


@dataclass
class SiteVerdict:
    site: Any  # report.results.SiteReport
    status: str
    priority: str | None
    reason: dict[str, str]
    changes: list  # fix.changes.Change, the ones this check or finding asks for


@dataclass
class LaunchHit:
    id: str  # a check id (L30) or a finding code (not-in-version)
    kind: str  # check | finding | closest (named by the error's keywords, not by vLLM's wording)
    match: error_text.Match
    sites: list[SiteVerdict] = field(default_factory=list)


class _Finding:
    """A finding code dressed as a check for the matcher (id + error_text)."""

    def __init__(self, code: str, texts: list[dict]):
        self.id, self.error_text = code, tuple(texts)


class _Pool:
    def __init__(self, kb: Knowledge):
        self.checks = list(kb.checks) + [_Finding(c, t) for c, t in FINDING_TEXTS.items()]


class _Uncovered:
    checks = [_Finding(UNCOVERED_ID, UNCOVERED)]


_UNCOVERED_POOL = _Uncovered()


_POOLS: dict[int, tuple[Knowledge, _Pool]] = {}


def recognise(kb: Knowledge, text: str, version: str | None = None) -> list[LaunchHit]:
    """Launch checks and findings whose vLLM wording occurs in `text`, best first: the whole
    wording before an opening, then the most literal text matched — so a check's own words
    ("unrecognized arguments: --enable-reasoning") outrank argparse's generic ones. With a
    project, diagnose() then puts first what fails at one of its sites. When no wording occurs,
    the closest checks by the text's keywords (kind `closest`)."""
    hit = _POOLS.get(id(kb))
    if hit is None or hit[0] is not kb:
        hit = _POOLS[id(kb)] = (kb, _Pool(kb))
    parsed = traceback_text.parse(text)
    # a traceback: the exception lines first, then the frames' source lines (a bare
    # AssertionError names nothing, its frame's `assert …` does), then the rest of the log
    parts = ["\n".join(parsed.exceptions), "\n".join(f.code for f in reversed(parsed.frames) if f.code), parsed.text]
    matches: list[error_text.Match] = []
    for part in parts:
        if part.strip():
            matches += [m for m in error_text.match(hit[1], part, version) if m.check_id not in {x.check_id for x in matches}]
    if "L43" not in {x.check_id for x in matches} and (fw := framework_lines.match(text)) is not None:
        matches.append(fw)  # after every check's own wording: a line another check words stays its
    if not matches:
        gap = error_text.match(_UNCOVERED_POOL, text, version)
        if gap:
            return [LaunchHit("uncovered", "uncovered", gap[0])]
        return closest(kb, "\n".join(parsed.exceptions) or parsed.text)
    return [LaunchHit(m.check_id, "finding" if m.check_id in FINDING_TEXTS else "check", m) for m in matches]


def verdicts(hit: LaunchHit, reports: list) -> None:
    """Fill `hit.sites` from each site's audit: the check's result, or the site's findings of that
    code, with the changes credited to it."""
    if hit.kind == "uncovered":
        return
    for sr in reports:
        if hit.kind in ("check", "closest"):
            r = next((x for x in sr.results if x.check.id == hit.id), None)
            if r is None:
                continue
            reason = {lang: r.reason_text(lang) for lang in ("en", "zh")}
            changes = [c for c in sr.changes if hit.id in c.checks]
            hit.sites.append(SiteVerdict(sr, r.status, r.priority, reason, changes))
            continue
        found = [f for f in sr.remarks if f.code in FAMILIES.get(hit.id, (hit.id,))]
        if not found:
            hit.sites.append(SiteVerdict(sr, "not_applicable", None, {"en": "", "zh": ""}, []))
            continue
        ids = {f.id for f in found}
        changes = [c for c in sr.changes if ids & set(c.checks)]
        reason = {lang: " ".join(f.message[lang] for f in found) for lang in ("en", "zh")}
        hit.sites.append(SiteVerdict(sr, "recommended", found[0].priority, reason, changes))
