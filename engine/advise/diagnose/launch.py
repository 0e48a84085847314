"""A launch failure recognised by its error text: which launch check (or catalog finding) says
why vLLM refused to start, and — for each site of the audited project — that check's verdict and
the change that makes the launch start, in the site's own syntax."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from vllm_kb.engine.advise.diagnose import closest as closest_mod
from vllm_kb.engine.advise.diagnose import framework_lines
from vllm_kb.engine.kb import error_text, traceback_text
from vllm_kb.engine.kb.knowledge import Knowledge

# Findings recognised by argparse's and Python's words (engine/check/catalog_findings.py,
# engine/scan/site.py). argparse says "unrecognized arguments" both for an option the release
# lacks and for a stray positional, so one wording stands for a family of codes.
# A framework that hands vLLM an engine argument the release removed meets Python's words too
# (ms-swift's EngineArgs(task=…) on vLLM 0.13+).
POSITIONAL = "stray-positional"
_UNRECOGNIZED = re.compile(r"unrecognized arguments:[ \t]*([^\n]*)")
FAMILIES = {POSITIONAL: (POSITIONAL,),
            "not-in-version": ("not-in-version", "unknown-option", "stray-positional", "entrypoint-option", "ms-swift-task-removed"),
            "framework-key-not-in-release": ("framework-key-not-in-release", "ms-swift-removed-flag", "trl-legacy-key"),
            "value-not-in-version": ("value-not-in-version", "value-unknown", "value-unlisted")}
# argparse's and Python's words: every release from 0.1.0 (the catalog's first)
FINDING_TEXTS: dict[str, list[dict]] = {
    "not-in-version": [
        {"text": "unrecognized arguments: {args}", "vllm": ">=0.1.0", "origin": "argparse"},
        {"text": "__init__() got an unexpected keyword argument {name}", "vllm": ">=0.1.0", "origin": "python"},
        # Ray Serve LLM (ray/llm/_internal/serve/…, LLMConfig.engine_kwargs): a key the installed vLLM's
        # EngineArgs does not have
        {"text": "Unknown engine argument: {name}", "vllm": ">=0.4.0", "origin": "ray"},
        # argparse (allow_abbrev) taking a flag the release lacks for the start of several it has
        {"text": "ambiguous option: {flag} could match {flags}", "vllm": ">=0.1.0", "origin": "argparse"},
    ],
    "value-not-in-version": [
        {"text": "argument {flag}: invalid choice: {value} (choose from {choices})", "vllm": ">=0.1.0", "origin": "argparse"},
        # the KV-transfer factory on a connector name the release does not register (a renamed
        # LMCacheConnector): vllm/distributed/kv_transfer/kv_connector/factory.py 0.6.5–0.34.0
        {"text": "Unsupported connector type: {name}", "vllm": ">=0.6.5", "origin": "vllm"},
    ],
    # a JSON configuration key the release's config class forbids (engine/check/config_keys.py):
    # pydantic's words for a dataclass with extra="forbid" (CompilationConfig 0.13.0+, every config 0.16.0+)
    "config-key-unknown": [
        {"text": "Unexpected keyword argument [type=unexpected_keyword_argument, input_value={value}, input_type={type}]", "vllm": ">=0.13.0", "origin": "pydantic"},
    ],
    # a JSON-valued option whose text is not JSON (engine/check/json_values.py): parse_type's words
    # (vllm/engine/arg_utils.py 0.8.5+, the type printed as `<function loads at 0x…>`), printed for
    # every option vLLM parses with json.loads, so `generic`: a check that words the same line with
    # its option (L32's --limit-mm-per-prompt) names the cause alone
    "option-not-json": [
        {"text": "Value {value} cannot be converted to {type}.", "vllm": ">=0.8.5", "origin": "vllm", "generic": True},
        # the CORS lists keep argparse's plain type=json.loads (openai/cli_args.py, every release)
        {"text": "argument {flag}: invalid loads value: {value}", "vllm": ">=0.1.0", "origin": "argparse", "generic": True},
    ],
    # an option whose value expanded to nothing (engine/check/empty_values.py): argparse's own words
    "option-without-value": [
        {"text": "argument {flag}: expected one argument", "vllm": ">=0.1.0", "origin": "argparse"},
    ],
    # --chat-template as a path the server cannot open (engine/check/chat_template_path.py): the serve command
    # line's check (chat_utils.validate_chat_template, 0.6.3:321 … 0.34.0 renderers/chat_utils/chat_template.py:44)
    # and the loader's own words (load_chat_template, 0.4.1+; LLM.chat and the server before 0.6.3)
    "chat-template-path": [
        {"text": "The supplied chat template string ({value}) appears path-like, but doesn't exist!", "vllm": ">=0.6.3", "origin": "vllm"},
        {"text": "The supplied chat template ({value}) looks like a file path, but it failed to be opened.", "vllm": ">=0.4.1", "origin": "vllm"},
    ],
    # `python -m vllm.entrypoints.api_server` on a release without the demo server
    # (engine/check/entrypoint_findings.py, knowledge/vllm/entrypoints.yaml removed_in)
    "entrypoint-removed": [
        {"text": "No module named {quote}vllm.entrypoints.api_server{quote}", "vllm": ">=0.25.0", "origin": "python"},
        {"text": "No module named vllm.entrypoints.api_server", "vllm": ">=0.25.0", "origin": "python"},
    ],
    # TRL's CLI before 0.16.0 (knowledge/frameworks/trl.yaml › findings no-vllm-serve)
    "trl-no-vllm-serve": [
        {"text": "argument command: invalid choice: 'vllm-serve'", "vllm": ">=0.4.0", "origin": "argparse"},
    ],
    # ms-swift < 3.11.0 `megatron rlhf --rlhf_type grpo` (knowledge/frameworks/ms-swift.yaml › findings
    # megatron-no-grpo): HfArgumentParser makes the Literal['dpo', 'kto', 'rm'] argparse choices, so
    # argparse's words; the choices are left out (Python 3.12.8+/3.13 print them without quotes)
    "ms-swift-megatron-no-grpo": [
        {"text": "argument --rlhf_type: invalid choice: 'grpo'", "vllm": ">=0.4.0", "origin": "argparse"},
    ],
    # LLaMA-Factory get_train_args/get_eval_args on infer_backend vllm (llamafactory.yaml › findings infer-backend)
    "llamafactory-infer-backend": [
        {"text": "vLLM backend is only available for API, CLI and Web.", "vllm": ">=0.3.0", "origin": "framework"},
        {"text": "vLLM/SGLang backend is only available for API, CLI and Web.", "vllm": ">=0.3.0", "origin": "framework"},
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
        # TrlParser (0.19+) on a config file's key no dataclass of the parser takes, and a TRL config
        # class given a keyword it dropped (trl.yaml › findings legacy-key)
        {"text": "Unknown arguments from config file: {args}", "vllm": ">=0.4.0", "origin": "framework"},
        {"text": "GRPOConfig.__init__() got an unexpected keyword argument {name}", "vllm": ">=0.4.0", "origin": "framework"},
        {"text": "Could not override {key}.", "vllm": ">=0.4.0", "origin": "framework"},
        {"text": "Key {key} is not in struct", "vllm": ">=0.4.0", "origin": "framework"},
    ],
    # verl 0.1 … 0.4.1 vLLMRollout (knowledge/frameworks/verl.yaml › findings eager-free-cache)
    "verl-eager-free-cache": [
        {"text": "disable CUDA graph (enforce_eager = False) if free cache engine", "vllm": ">=0.3.1", "origin": "framework"},
    ],
    # EasyR1's vLLMRollout and its rollout mesh (knowledge/frameworks/easyr1.yaml › findings)
    "easyr1-batched-tokens": [
        {"text": "max_num_batched_tokens should be greater than prompt_length + response_length.", "vllm": ">=0.7.3", "origin": "framework"},
    ],
    "easyr1-tp-world": [
        {"text": "rollout world size {world} is not divisible by tp size {tp}.", "vllm": ">=0.7.3", "origin": "framework"},
        {"text": "rollout world size: {world} is not divisible by tp size: {tp}", "vllm": ">=0.7.3", "origin": "framework"},
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
    # a registered architecture whose model module failed to import in the registry's subprocess
    # (ModelRegistry._raise_for_unsupported, 0.6.4+: raised only when the architecture IS supported):
    # the import failure above it (an extension built for another torch, a missing package) is the
    # cause, not the architecture L21 judges — by its words the line would go to L21
    {"text": "Model architectures {archs} failed to be inspected. Please check the logs for more details.", "vllm": ">=0.6.4", "origin": "vllm"},
    # a LoRA adapter trained on modules vLLM does not wrap (a vision tower, a projector): the adapter, not
    # the launch (vllm/lora/models.py, lora_model.py from 0.34)
    {"text": "While loading {lora_dir}, expected target modules in {expected} but received {unexpected}. Please verify that the loaded LoRA module is correct", "vllm": ">=0.4.1", "origin": "vllm"},
    # a hybrid (Mamba / linear-attention) model's state pool smaller than max_num_seqs with full CUDA
    # graphs (CompilationConfig, 0.20.0+): the pool needs a hybrid-aware KV estimate no check has yet,
    # and by its words alone the line would go to L16, whose advice does not fit
    {"text": "max_num_seqs ({max_num_seqs}) exceeds available Mamba cache blocks ({blocks}). Each decode sequence requires one Mamba cache block, so CUDA graph capture cannot proceed. Please lower max_num_seqs to at most {blocks} or increase gpu_memory_utilization.", "vllm": ">=0.20.0", "origin": "vllm"},
    # a hybrid model whose attention and Mamba page sizes cannot be unified (v1/core/kv_cache_utils.py,
    # 0.12.0-0.23.0): the model's layer shapes against the block size, not a launch setting; its
    # "is not divisible by" is not divide()'s (L2, L67)
    {"text": "The page size of the layer is not divisible by the maximum page size. Cannot unify by adjusting block_size.", "vllm": ">=0.12.0,<0.24.0", "origin": "vllm"},
    # the process that builds the engine sees no GPU: a Ray actor or task started without GPUs (Ray sets
    # the variable to "" there) or a launcher that clears it — the runtime's environment, not the project's
    # (vllm/platforms/cuda.py device_id_to_physical_device_id, 0.6.0-0.8.5; vLLM #8402)
    {"text": "CUDA_VISIBLE_DEVICES is set to empty string, which means GPU support is disabled.", "vllm": ">=0.6.0,<0.9.0", "origin": "vllm"},
    # V1's model runner refuses prefix caching on Mamba-style layers when it collects the KV-cache specs
    # (v1/worker/gpu_model_runner.py, 0.9.2-0.11.0); some of those releases turn prefix caching off for
    # hybrid models themselves, which model classes they reach changed per release
    {"text": "Prefix caching is not supported for Mamba yet.", "vllm": ">=0.9.2,<0.11.1", "origin": "vllm"},
]

# What an uncovered wording means and the change that usually gets past it, where one is known: the
# diagnosis prints it instead of the bare "no check covers this" (keyed by the wording above).
UNCOVERED_WHY: dict[str, dict[str, str]] = {
    "CUDA_VISIBLE_DEVICES is set to empty string, which means GPU support is disabled.": {
        "en": "The process that builds the engine sees CUDA_VISIBLE_DEVICES set to an empty string, so no GPU is "
              "visible to it (vLLM 0.6.0–0.8.5 stop here when they map a device). Most often it is a Ray actor or task "
              "started without GPUs — Ray sets the variable to an empty string for those — or a launcher or container "
              "that clears it. Give that actor or task its GPUs (num_gpus), or unset CUDA_VISIBLE_DEVICES inside it; a "
              "container needs its GPU request (--gpus, nvidia.com/gpu).",
        "zh": "构建引擎的进程看到 CUDA_VISIBLE_DEVICES 被设为空字符串，因此看不到任何 GPU（vLLM 0.6.0–0.8.5 在映射设备时于此停止）。"
              "最常见的是未分配 GPU 的 Ray actor 或 task —— Ray 会为它们把该变量设为空字符串 —— 或是清空了该变量的启动器或容器。"
              "请为该 actor 或 task 分配 GPU（num_gpus），或在其中取消设置 CUDA_VISIBLE_DEVICES；容器需要申请 GPU（--gpus、nvidia.com/gpu）。",
    },
    "Prefix caching is not supported for Mamba yet.": {
        "en": "vLLM 0.9.2–0.11.0's V1 model runner refuses prefix caching once the model has Mamba-style layers (Mamba, "
              "Mamba2, and hybrids such as Jamba, Bamba, Nemotron-H, Granite 4.0-H, Falcon-H1), after the model is "
              "built. Pass --no-enable-prefix-caching (enable_prefix_caching=False), or use vLLM 0.11.1 or later, which "
              "caches Mamba2 prefixes and turns prefix caching off by itself for the models that cannot.",
        "zh": "vLLM 0.9.2–0.11.0 的 V1 model runner 在模型构建完成后，若模型含 Mamba 类层（Mamba、Mamba2，以及 Jamba、Bamba、"
              "Nemotron-H、Granite 4.0-H、Falcon-H1 等混合模型）就拒绝前缀缓存。请传 --no-enable-prefix-caching"
              "（enable_prefix_caching=False），或使用 vLLM 0.11.1 及以后：它支持 Mamba2 的前缀缓存，并会为不支持的模型自行关闭前缀缓存。",
    },
}


def closest(kb: Knowledge, text: str, limit: int = 3) -> list[LaunchHit]:
    """The launch checks (or argparse's finding) whose subject the text's words and the
    traceback's vLLM frames name, most evidence first (engine/advise/diagnose/closest.py), as
    `closest` hits — for an error no check's wording matches."""
    from vllm_kb.engine.check.rules import rules

    reg = rules(kb)
    known = {n for n in closest_mod.FAMILIES if n in FINDING_TEXTS or reg.find(n) is not None}
    known |= {n for names in closest_mod.FRAMES.values() for n in names if reg.find(n) is not None}
    out = []
    for name, m in closest_mod.rank(text, known, limit):
        rule = None if name in FINDING_TEXTS else reg.find(name)
        cid = rule.id if rule is not None else name
        out.append(LaunchHit(cid, "closest", error_text.Match(cid, m.text, None, "keywords", m.score, False)))
    return out


def shared(kb: Knowledge, text: str, matches: list[error_text.Match], limit: int = 3) -> list[LaunchHit]:
    """Words several causes print (error_text `shared`: PyTorch's "CUDA out of memory"): the checks
    that print them are candidates (kind `shared`), ranked with the checks the rest of the text and
    the traceback's vLLM frames name — another process's memory named in the same message, the
    function it was raised under — most evidence first; a candidate alone keeps the first place."""
    context = {h.id: h for h in closest(kb, text, limit=8)}
    ranked = []
    for m in matches:
        got = context.pop(m.check_id, None)
        ranked.append((max(got.match.score if got else 0, 1), 0, LaunchHit(m.check_id, "shared", m)))
    ranked += [(h.match.score, 1, h) for h in context.values()]
    ranked.sort(key=lambda r: (-r[0], r[1]))
    return [h for _, _, h in ranked[:limit]]


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
    kind: str  # check | finding | closest (named by the error's keywords, not by vLLM's wording) | shared (a
    # wording several causes print, ranked with what the rest of the text names) | uncovered
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
    if "L43" not in {x.check_id for x in matches} and "not-in-version" in {x.check_id for x in matches} \
            and (pf := closest_mod.plugin_flags(parsed.text)) is not None:
        matches.append(pf)  # argparse refusing a plugin's flags: the plugin did not load into this vLLM
    if "L52" not in {x.check_id for x in matches} and (key := _model_type_key(kb, text)) is not None:
        # transformers' CONFIG_MAPPING[model_type] raising bare (its "does not recognize" line not pasted)
        matches.append(error_text.Match("L52", key, None, "transformers", len(key), True))
    if any(not m.generic for m in matches):
        matches = [m for m in matches if not m.generic]  # a wording marked `generic` gives way (error_text)
    matches = [_positional(m, text) for m in matches]
    if matches and all(m.shared for m in matches):
        return shared(kb, text, matches)
    if matches and (win := closest_mod.windows_frame(parsed)) is not None and "L28" not in {x.check_id for x in matches}:
        matches.append(error_text.Match("L28", win, None, "keywords", 0, False))  # whatever it raised, it ran on Windows
    if not matches:
        gap = error_text.match(_UNCOVERED_POOL, text, version)
        if gap:
            return [LaunchHit("uncovered", "uncovered", gap[0])]
        return closest(kb, text)
    return [LaunchHit(m.check_id, "closest" if m.origin == "keywords" else "finding" if m.check_id in FINDING_TEXTS
                      or m.check_id == POSITIONAL else "check", m) for m in matches]


_KEY_ERROR = re.compile(r"KeyError: '([a-z][a-z0-9_]*)'")


def _model_type_key(kb: Knowledge, text: str) -> str | None:
    """`KeyError: 'qwen2_5_omni'`: a key that is a model type some transformers release maps
    (knowledge/vllm/model_types.yaml) — the lookup of an older transformers that lacks it."""
    known = kb.doc("vllm", "model_types.yaml").data.get("transformers_first") or {}
    return next((m.group(0) for m in _KEY_ERROR.finditer(text) if m.group(1) in known), None)


def _positional(m: error_text.Match, text: str) -> error_text.Match:
    """argparse's "unrecognized arguments" naming only words without leading dashes
    (`trust_remote_code=True`, a second model name): no option the release lacks, a stray positional."""
    got = _UNRECOGNIZED.findall(text) if m.check_id == "not-in-version" and m.origin == "argparse" else []
    words = [w for line in got for w in line.split()]
    return replace(m, check_id=POSITIONAL) if words and not any(w.startswith("-") for w in words) else m


def verdicts(hit: LaunchHit, reports: list) -> None:
    """Fill `hit.sites` from each site's audit: the check's result, or the site's findings of that
    code, with the changes credited to it."""
    if hit.kind == "uncovered":
        return
    for sr in reports:
        if hit.kind in ("check", "shared") or (hit.kind == "closest" and hit.id not in FINDING_TEXTS):
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
