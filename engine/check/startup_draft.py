"""The separate draft model of speculative decoding against the target: their vocabularies (L90).

vLLM needs a draft model with the target's vocabulary size. The V0 SpecDecodeWorker asserts it
while the workers start (`assert all(vocab_sizes[0] == vocab_size …)`, vllm/spec_decode/
spec_decode_worker.py 0.4.1–0.9.2: `--speculative-model`, then a `speculative_config` model without
a method, both on the V0 engine); from 0.15.0 SpeculativeConfig raises "Target and draft model
should have the same vocabulary size" for method `draft_model` (0.10–0.14 refuse draft models
altogether: G3). Families pad the embedding differently per size (Qwen2/2.5: 151936 up to 3B,
152064 from 7B), so a small draft of the same family often differs.

The draft is looked up like the target: by its own config.json where the project's folder or the
local Hub cache holds it (engine/check/draft_config.py), else in the catalog by its name; a size the
catalog gives only the family's shapes for is left unknown, never guessed."""
from __future__ import annotations

import re
from typing import Any, Callable, TypeGuard

from vllm_kb.engine.kb.models import model_facts
from vllm_kb.engine.kb.versions import Version, try_parse

# methods whose draft is not a separate model of the target's family, or reuses its vocabulary
_NOT_DRAFT_MODEL = re.compile(r"(?i)eagle|medusa|mtp|speculator|dflash|dspark|ngram|suffix")
# names of drafts vLLM takes as another method by their config's model_type (IBM's MLP speculators)
_HEAD_NAME = re.compile(r"(?i)accelerator")


def plain_draft(name: object) -> TypeGuard[str]:
    """A draft named like a model of its own, not an EAGLE/Medusa/MTP/speculator head or n-gram."""
    return isinstance(name, str) and bool(name) and not _NOT_DRAFT_MODEL.search(name) and not _HEAD_NAME.search(name)


def draft_name(engine: dict, version: str | None) -> str | None:
    """The separate draft model vLLM loads in that release, or None (no draft model, or another
    method, or a release without the check)."""
    v = try_parse(version) if version else None
    if v is None:
        return None
    spec = engine.get("speculative_config")
    if isinstance(spec, dict):
        method, name = spec.get("method"), spec.get("model")
        if not isinstance(name, str) or not name:
            return None
        if v >= Version("0.17.0") and method is None and plain_draft(name):
            return name  # SpeculativeConfig takes a model without a method as draft_model from 0.17
        if v >= Version("0.15.0"):
            return name if method == "draft_model" else None
        if Version("0.8.2") <= v < Version("0.10.0"):
            # V0's draft-model path: no method (the name then decides) or draft_model
            if method == "draft_model" or (method is None and plain_draft(name)):
                return name
        return None
    name = engine.get("speculative_model")
    if Version("0.4.1") <= v < Version("0.8.2") and plain_draft(name):
        return name
    return None


# the draft configs SpeculativeConfig turns into another method before it falls back to draft_model
# (0.10.0 config.py:2705-2733 and :2829-2846, 0.14.1 config/speculative.py:170-240 and :359-380,
# 0.16.0 :182-280): medusa and MLP-speculator heads, and the checkpoints hf_config_override rewrites
# into their MTP module — a union over the releases, so a draft of these types is never called refused
_METHOD_TYPES = frozenset({"medusa", "mlp_speculator", "deepseek_v3", "deepseek_v32", "deepseek_mtp", "mimo",
                           "mimo_mtp", "glm4_moe", "glm4_moe_lite", "glm4_moe_mtp", "glm_moe_dsa", "ernie4_5_moe",
                           "ernie_mtp", "qwen3_next", "qwen3_next_mtp", "longcat_flash", "longcat_flash_mtp",
                           "pangu_ultra_moe", "pangu_ultra_moe_mtp", "exaone_moe", "exaone_moe_mtp", "step3p5"})
_METHOD_ARCHS = frozenset({"MiMoForCausalLM", "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM",
                           "GlmOcrForConditionalGeneration"})


def _may_be_method(draft: dict | None, name: str, target: dict | None) -> bool:
    """Whether a draft named without a method may be one SpeculativeConfig detects as MTP, Medusa or an
    MLP speculator from its config: its known type says so, or it is the target itself (a model that
    drafts for itself is how MTP is asked for) whose type says so or is not known."""
    def typed(f: dict | None) -> bool:
        if not f:
            return False
        return f.get("mtp") is True or str(f.get("model_type")) in _METHOD_TYPES or str(f.get("architecture")) in _METHOD_ARCHS
    if typed(draft):
        return True
    if target and name == target.get("name"):
        return typed(target) or not (target.get("family") or target.get("model_type"))
    return False


def refused_draft(engine: dict, version: str | None, draft: dict | None = None, target: dict | None = None) -> str | None:
    """The separate draft model a V1-only release without draft models refuses (0.10.0–0.14.x, G3):
    method `draft_model`, or a model with no method that SpeculativeConfig takes as one (a name
    that is not an EAGLE/Medusa/MTP/speculator head or n-gram), which SpeculativeConfig then
    refuses with NotImplementedError "Speculative decoding with draft model is not supported yet"
    (0.10.0 config.py:2852, 0.14.1 config/speculative.py:389) — unless its config may name another
    method (`draft`: the draft's facts, `target`: the target's; _may_be_method); the method written out is refused
    by 0.10's engine arguments (arg_utils.py:1398) and by 0.11–0.14's V1 model runner ("Unknown
    speculative decoding method", gpu_model_runner.py:293 … :454)."""
    v = try_parse(version) if version else None
    spec = engine.get("speculative_config")
    if v is None or not Version("0.10.0") <= v < Version("0.17.0") or not isinstance(spec, dict):
        return None
    method, name = spec.get("method"), spec.get("model")
    if v >= Version("0.15.0"):
        # 0.15–0.16 run draft models only when the method says so; without it the auto-detection
        # finds no head type and raises "Unsupported speculative method: 'None'"
        return name if method is None and plain_draft(name) and not _may_be_method(draft, name, target) else None
    if method == "draft_model":
        return name if isinstance(name, str) and name else "draft_model"
    if method is None and plain_draft(name) and not _may_be_method(draft, name, target):
        return name
    return None


def forced_v1_refusal(engine: dict, env: dict, v1_methods: list | None, version: str | None) -> bool:
    """VLLM_USE_V1=1 with a speculative config the V1 oracle of 0.8.3–0.9.2 does not take (a
    method outside spec_decode.v1_methods, or a model other than n-gram without a method):
    _raise_or_fallback raises "VLLM_USE_V1=1 is not supported with Speculative Decoding." where it
    would otherwise fall back to V0 (0.9.2 arg_utils.py:1441, :1727)."""
    v = try_parse(version) if version else None
    spec = engine.get("speculative_config")
    if v is None or not Version("0.8.3") <= v < Version("0.10.0") or not isinstance(spec, dict) or v1_methods is None:
        return False
    if str(env.get("VLLM_USE_V1", "")).strip().lower() not in ("1", "true"):
        return False
    method = spec.get("method")
    if method:
        return method not in v1_methods and method != "[ngram]"
    return spec.get("model") not in ("ngram", "[ngram]")


def _vocab(facts: dict) -> int | None:
    v = facts.get("vocab_size")
    if not isinstance(v, int) or isinstance(v, bool) or facts.get("dims_family"):
        return None
    return v


def draft_facts(engine: dict, model: dict, families: list[dict], version: str | None,
                lookup: Callable[[str], dict] | None = None) -> dict[str, Any]:
    """`spec_draft_model`, and where both are known for this very size `spec_draft_vocab` and
    `spec_target_vocab`. `lookup(name)`: the draft's facts (its config.json's where read)."""
    name = draft_name(engine, version)
    if name is None:
        return {}
    out: dict[str, Any] = {"spec_draft_model": name}
    facts = lookup(name) if lookup else model_facts(name, families, [])
    draft, target = _vocab(facts), _vocab(model)
    if draft is not None and target is not None:
        out.update(spec_draft_vocab=draft, spec_target_vocab=target)
        other = same_vocab_draft(name, facts, target, model, families) if draft != target else None
        if other is not None:
            out["spec_vocab_draft"] = other
            spec = engine.get("speculative_config")
            if isinstance(spec, dict) and spec.get("model") == name:
                out["spec_vocab_config"] = {**spec, "model": other}
    return out


# a size written in a checkpoint's name (`-0.5B-`, `_7b`), and the sizes a catalog family's entries match
_SIZE = re.compile(r"(?<=[-_])(\d+(?:\.\d+)?)([bB])(?![a-zA-Z0-9])")
_ENTRY_SIZE = re.compile(r"\[-_\](\d+(?:\\\.\d+)?)b")


def same_vocab_draft(name: str, facts: dict, vocab: int, model: dict, families: list[dict]) -> str | None:
    """The draft's own name at the smallest other size of its catalog family whose vocab_size is
    the target's (Qwen2.5's 0.5B-3B have 151936, 7B+ 152064: `…-0.5B-…` becomes `…-7B-…`), no
    larger than the target; None when the name holds no single size or no such size is catalogued."""
    fam = next((f for f in families if f.get("id") == facts.get("family")), None)
    found = _SIZE.findall(name.rsplit("/", 1)[-1])
    if fam is None or len(found) != 1:
        return None
    sizes = {m.replace("\\.", ".") for e in fam.get("sizes") or [] for m in _ENTRY_SIZE.findall(str(e.get("match") or ""))}
    limit = model.get("params_b") if isinstance(model.get("params_b"), (int, float)) else None
    best: tuple[float, str] | None = None
    for size in sizes:
        if size == found[0][0]:
            continue
        head, _, tail = name.rpartition("/")
        cand = (head + "/" if head else "") + _SIZE.sub(size + found[0][1], tail, count=1)
        got = model_facts(cand, families, [])
        params = got.get("params_b")
        if got.get("family") != fam.get("id") or _vocab(got) != vocab or not isinstance(params, (int, float)):
            continue
        if limit is not None and params >= limit:
            continue
        if best is None or params < best[0]:
            best = (float(params), cand)
    return best[1] if best else None


def mm_refused_draft(engine: dict, model: dict, version: str | None) -> str | None:
    """The draft model (or "parallel drafting") a multimodal target refuses in 0.15.0–0.20.x: the
    proposer's _raise_if_multimodal raises NotImplementedError "Speculative Decoding with draft
    models or parallel drafting does not support multimodal models yet" while the model runner is
    built (0.15.0 v1/spec_decode/draft_model.py:35, 0.16.0 eagle.py:179, 0.20.2
    llm_base_proposer.py:196; gone in 0.21.0) — unless the target runs text-only
    (--language-model-only, or every modality's limit 0)."""
    v = try_parse(version) if version else None
    spec = engine.get("speculative_config")
    if v is None or not Version("0.15.0") <= v < Version("0.21.0") or not isinstance(spec, dict) or model.get("multimodal") is not True:
        return None
    if engine.get("language_model_only") is True:
        return None
    limits = engine.get("limit_mm_per_prompt")
    if isinstance(limits, dict) and limits and all((x.get("count") if isinstance(x, dict) else x) == 0 for x in limits.values()):
        return None
    if spec.get("parallel_drafting") is True and v >= Version("0.16.0"):
        return "parallel drafting"
    return draft_name(engine, version)
