"""startup facts of lengths and the scheduler: the context length the release derives and the one
asked, the override vLLM accepts, max_num_batched_tokens as passed, whether chunked prefill is
on; and the model as a release that turns sliding windows off sizes it."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.memory.runtime import human_int
from vllm_kb.engine.check.startup_common import as_int, since
from vllm_kb.engine.check.startup_window import flag_caps_window, release_turns_window_off


def window_capped(model: dict, table: dict, version: str, flag_off: bool = False) -> dict:
    """The model as the release sizes it: V0 releases that cannot run interleaved sliding-window
    attention turn it off and cap the context to the window, and so does --disable-sliding-window
    (`flag_off`) from 0.4.3 (knowledge/vllm/startup.yaml lengths)."""
    if not release_turns_window_off(model, table, version) and not (flag_off and flag_caps_window(model, table, version)):
        return model
    window, limit = model["sliding_window_size"], as_int(model.get("max_context"))
    return {**model, "max_context": window, "max_len_key": "sliding_window"} if limit and limit > window else model


def length_facts(model: dict, engine: dict, env: dict, facts: dict, version: str, v1: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    limit = as_int(model.get("max_context"))
    if limit:
        out["max_len_limit"] = limit
        out["max_len_key"] = model.get("max_len_key") or "max_position_embeddings"
        if model.get("max_context_family"):
            out["max_len_family"] = True
        elif _local_copy(str(model.get("name") or "")) and model.get("arch_source") != "config.json":
            # a local folder whose config.json is not read: the limit is the upload's, and a local
            # copy is where users add rope_scaling (L14 says P1)
            out["max_len_unread"] = True
    # vLLM 0.4.0+ accepts a max_model_len above the derived length up to the config's own
    # model_max_length (_get_and_verify_max_len; vllm#3727 for Command-R); the derived length never
    # exceeds it, so a larger value is refused even where the derived one is unknown
    override = as_int(model.get("model_max_length"))
    if override and since(version, "0.4.0"):
        out["max_len_override"] = override
        if not limit:
            out["max_len_limit"], out["max_len_key"] = override, "model_max_length"
    given = human_int(engine.get("max_model_len"))
    if given and given > 0:
        out["max_len"] = given
    elif limit:
        out["max_len"] = limit
    out["long_len_allowed"] = (since(version, "0.5.4")
                               and str(env.get("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "")).strip().lower() in ("1", "true"))
    # only a value the project or its framework passes: the one vLLM picks itself is kept ≥ max_model_len without
    # chunked prefill (and capped at max_num_seqs × max_model_len), so it never trips L17
    mnbt = human_int((facts.get("passed") or facts.get("args") or {}).get("max_num_batched_tokens"))
    if mnbt:
        out["max_num_batched_tokens"] = mnbt
    chunked = _chunked_prefill(engine, version, v1, out.get("max_len"), bool((facts.get("site") or {}).get("pooling")))
    if chunked is not None:
        out["chunked_prefill"] = chunked
    return out


def _local_copy(name: str) -> bool:
    """A folder of the user's own (not a Hugging Face cache snapshot, not a single GGUF file, which
    are the upload as published)."""
    low = name.lower()
    return (name.startswith(("/", "./", "../", "~")) and not low.endswith(".gguf")
            and not any(k in low for k in ("/huggingface/", "models--", "/hub/")))


def _chunked_prefill(engine: dict, version: str, v1: bool, max_len: int | None, pooling: bool) -> bool | None:
    """Whether vLLM runs with chunked prefill: V1 always for generative models up to 0.11.0 (it
    overrides the flag), as set from 0.11.1; V0 as set, else on by itself above a 32K context
    (0.5.3+, when nothing in the way) — that case is left undecided."""
    asked = engine.get("enable_chunked_prefill")
    asked = asked if isinstance(asked, bool) else None
    if v1 and not pooling and not since(version, "0.11.1"):
        return True
    if v1:
        return asked if asked is not None else not pooling
    if asked is not None:
        return asked
    if max_len is None:
        return None
    if max_len > 32768 and since(version, "0.5.3"):
        return None
    return False
