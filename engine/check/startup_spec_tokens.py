"""Speculative decoding asked for without the number of tokens to draft (L124).

vLLM takes num_speculative_tokens from the user, or else from the draft's config (`n_predict`,
which only IBM's MLP speculators and the MTP rewrites of SpeculativeConfig.hf_config_override
carry; from 0.11.1 suffix decoding takes its tree depth, from 0.31 a DSpark draft its block size). An EAGLE or
EAGLE-3 head, a Medusa head, n-gram lookup and an ordinary draft model have none, so the config
is refused before any worker starts, with words that changed with the releases:
  0.4.1–0.5.0   "Expected both speculative_model and num_speculative_tokens to be provided …"
                (SpeculativeConfig.maybe_create_spec_config, the flat --speculative-model flags)
  0.5.1–0.8.1   "num_speculative_tokens must be provided with speculative_model unless the draft
                model config contains an n_predict parameter." (same function)
  0.8.2 on      the same words with "speculative model" (SpeculativeConfig._verify_args, the
                speculative_config dict; 0.8.2 turns the flat flags into one) — except on a draft
                checkpoint's path (not n-gram), where the token chain is built first:
                0.10.1–0.16.x range(None) raises TypeError, 0.17.0–0.20.x "A speculative model
                was provided, but neither `speculative_token_tree` nor `num_speculative_tokens`
                was provided".
An MTP method with no draft named (`{"method": "mtp"}`, `deepseek_mtp`, `qwen3_next_mtp` …) is
refused too, although the target's MTP layers carry n_predict: SpeculativeConfig points the draft
at the target only when num_speculative_tokens is given (`if self.model is None and
self.num_speculative_tokens is not None`), so no draft config is built and _verify_args raises
the "must be provided" words (0.8.2 through 0.34.0; vLLM #55323, the fix #55362 unreleased). With
the target itself named as the draft, 0.11.0 on compare the missing number with 1 before reading
n_predict (the method detection's warning; 0.34.0 MTPSpeculatorConfig.adapt_draft_model_config):
TypeError.
A speculative_token_tree, a method that derives the number, an MLP speculator ("accelerator"
checkpoints) or a draft a release refuses for another reason (G3's refused_draft) is left alone,
and so is a separate draft model the catalog does not know as a family without MTP layers
(hf_config_override turns a DeepSeek-V3 or MiMo checkpoint into an MTP draft with n_predict)."""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.check.startup_draft import plain_draft, refused_draft
from vllm_kb.engine.kb.models import model_facts
from vllm_kb.engine.kb.versions import Version, try_parse

_NGRAM = ("ngram", "[ngram]")
# methods whose draft has no n_predict: the number must be given
_NEEDS_NUMBER = ("eagle", "eagle3", "medusa", "draft_model")
# the number proposed: n-gram lookups are cheap; MTP checkpoints ship one layer (DeepSeek-V3's
# num_nextn_predict_layers, the n_predict vLLM would have taken); heads and drafts 3
_VALUE = {"ngram": 5, "mtp": 1}

WORDS_BOTH = "Expected both speculative_model and num_speculative_tokens to be provided"
WORDS_FLAT = ("num_speculative_tokens must be provided with speculative_model unless the draft model config "
              "contains an n_predict parameter.")
WORDS = ("num_speculative_tokens must be provided with speculative model unless the draft model config "
         "contains an n_predict parameter.")
WORDS_TREE = ("A speculative model was provided, but neither `speculative_token_tree` nor "
              "`num_speculative_tokens` was provided")
WORDS_RANGE = "TypeError: 'NoneType' object cannot be interpreted as an integer"
WORDS_COMPARE = "TypeError: '>' not supported between instances of 'NoneType' and 'int'"


def _missing(value: object) -> bool:
    return value is None or value == ""


def _plain_known(name: object, families: list[dict] | Callable[[str], dict]) -> bool:
    """A draft model the catalog knows, of a family without MTP layers (so no n_predict); one whose
    config.json was read must name no n_predict and keep the family its name matched."""
    if not plain_draft(name):
        return False
    facts = families(name) if callable(families) else model_facts(name, families, [])
    if facts.get("draft_config") and facts.get("n_predict") is not None:
        return False
    return bool(facts.get("family")) and facts.get("mtp") is False


def _mtp_undrafted(method: object, model: object, version: Version) -> bool:
    """An MTP method with no draft named, in a release that takes the method: deepseek_mtp from
    0.8.2 (a plain dataclass field up to 0.10.x), `mtp` and the other `<model>_mtp` names from
    0.11.0, which folds them into `mtp`."""
    if not isinstance(method, str) or not _missing(model):
        return False
    if method == "deepseek_mtp":
        return version >= Version("0.8.2")
    return (method == "mtp" or method.endswith("_mtp")) and version >= Version("0.11.0")


def _mtp_on_target(method: object, model: object, version: Version, target: dict) -> bool:
    """An MTP method whose draft is the target itself, a checkpoint with MTP layers (0.11.0 on)."""
    if not isinstance(method, str) or not (method == "mtp" or method.endswith("_mtp")) or not isinstance(model, str):
        return False
    name = str(target.get("name") or "").strip().rstrip("/")
    return version >= Version("0.11.0") and target.get("mtp") is True and bool(name) and model.strip().rstrip("/") == name


def _dict_method(spec: dict, version: Version, families, target: dict) -> str | None:
    """The method vLLM settles on for a speculative_config without the number, where that method
    needs the number; None where it derives it, or the method is not known here."""
    method, model = spec.get("method"), spec.get("model")
    if method in _NGRAM or (method is None and model in _NGRAM):
        return "ngram"
    if _mtp_undrafted(method, model, version) or _mtp_on_target(method, model, version, target):
        return "mtp"
    if method in _NEEDS_NUMBER:
        if method == "draft_model" and not _plain_known(model, families):
            return None  # a draft named like a head may carry n_predict in its config
        return method
    if method is None and isinstance(model, str):
        low = model.lower()
        # SpeculativeConfig's detection by name ("eagle-" since 0.8.2, "eagle3" since 0.10.1)
        if "eagle-" in low or "eagle3-" in low or (version >= Version("0.10.1") and "eagle3" in low):
            return "eagle3" if "eagle3" in low else "eagle"
        # a model with no method: V0's draft-model path (0.8.2–0.9.x), draft_model from 0.17
        if _plain_known(model, families) and (version < Version("0.10.0") or version >= Version("0.17.0")):
            return "draft_model"
    return None


def _dict_words(method: str, version: Version, drafted: bool) -> str:
    if method == "mtp" and drafted:
        return WORDS_COMPARE
    if method not in ("ngram", "mtp"):  # neither builds a draft config: _verify_args raises
        if Version("0.10.1") <= version < Version("0.17.0"):
            return WORDS_RANGE
        if Version("0.17.0") <= version < Version("0.21.0"):
            return WORDS_TREE
    return WORDS


def _flat(engine: dict, version: Version, families) -> dict[str, Any]:
    model = engine.get("speculative_model")
    if not isinstance(model, str) or not model or not _missing(engine.get("num_speculative_tokens")):
        return {}
    if model == "[ngram]":
        # 0.5.1–0.8.1 refuse a missing ngram_prompt_lookup_max first, in other words
        if Version("0.5.1") <= version < Version("0.8.2") and _missing(engine.get("ngram_prompt_lookup_max")):
            return {}
        method = "ngram"
    elif "accelerator" in model.lower() or "speculator" in model.lower():
        return {}  # IBM's MLP speculators carry n_predict
    else:
        method = "eagle" if "eagle" in model.lower() else "medusa" if "medusa" in model.lower() else "draft_model"
        if method == "draft_model" and not _plain_known(model, families):
            return {}
    words = WORDS_BOTH if version < Version("0.5.1") else WORDS_FLAT if version < Version("0.8.2") else WORDS
    return {"spec_tokens_missing": method, "spec_tokens_form": "flags", "spec_tokens_words": words,
            "spec_tokens_value": 5 if method == "ngram" else 3}


def spec_tokens_facts(engine: dict, families: list[dict] | Callable[[str], dict], version: str | None,
                      target: dict | None = None) -> dict[str, Any]:
    """`spec_tokens_missing` (the method that needs the number), `spec_tokens_form` (`config`: a
    speculative_config; `flags`: --speculative-model), `spec_tokens_words` (what the release
    raises) and `spec_tokens_value` (a number to set), where the release refuses."""
    v = try_parse(version) if version else None
    if v is None or v < Version("0.4.1"):
        return {}
    spec = engine.get("speculative_config")
    if isinstance(spec, dict) and spec:
        if v < Version("0.8.2") or not _missing(spec.get("num_speculative_tokens")) or spec.get("speculative_token_tree"):
            return {}
        method = _dict_method(spec, v, families, target or {})
        if method is None or (method == "draft_model" and refused_draft(engine, version) is not None):
            return {}
        words = _dict_words(method, v, not _missing(spec.get("model")))
        return {"spec_tokens_missing": method, "spec_tokens_form": "config", "spec_tokens_words": words,
                "spec_tokens_value": _VALUE.get(method, 3)}
    if spec is None and v < Version("0.8.3"):
        return _flat(engine, v, families)
    return {}
