"""A local folder known only by what it is called (`./merged/qwen2.5-72b-instruct-sft`): the audit
reads the catalogued model its name resembles, but vLLM reads the folder's config.json, which the
project does not hold. A training run names its output after the model it started from, not after
the size or generation it ended with, so a verdict that rests on those guessed facts says what
*would* happen to the catalogued model: a P1, not "vLLM will refuse to start".

Which verdicts rest on the guess is decided by evaluating the site once more with the model known
by its name only (`control`): a P0 that the launch's own arguments give with no model facts at all
stays P0; any other is lowered. A folder named as the model it holds (`/models/Qwen2.5-72B-Instruct`,
the name `hf download X --local-dir` leaves) is that download by convention, as a Hub id is: it keeps
its verdicts."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import model_resolve
from vllm_kb.engine.check.lowered import lower, note
from vllm_kb.engine.kb.knowledge import Knowledge

# identities that do not come from the folder's own name (engine/check/candidates.py)
_CERTAIN = ("download", "hf-cache")
# the words a training run adds to the folder it writes (LLaMA-Factory's saves/…/sft, a merged LoRA,
# verl's global_step_100)
_TRAINED = re.compile(r"(?i)(?<![a-z])(sft|merged?|lora|qlora|finetuned?|ft|dpo|grpo|ppo|orpo|kto|rlhf|ckpt|"
                      r"checkpoints?|global_step|custom|tuned|trained|export(ed)?)(?![a-z])")
# a part that writes a model's size (`72b`, `0.5B`, `8x7b`)
_SIZED = re.compile(r"(?i)(?<![a-z0-9.])(?:\d+x)?\d+(?:\.\d+)?b(?![a-z])")


def named_only(mf: dict) -> bool:
    """Whether the model facts `mf` of a local folder come from its name alone (no config.json of it
    read, no download that fills it, no Hugging Face cache path) and that name is a training run's
    output: the catalogued model's name followed by a run's word (`-sft`, `merged/`, `checkpoint-500`,
    `lora`), or a folder the launch knows only by its tokenizer's or served name."""
    name = mf.get("name")
    if not isinstance(name, str) or not name.strip() or not model_resolve.is_local(name) or model_resolve.hf_cache_repo(name):
        return False
    how = mf.get("identity")
    if how in _CERTAIN or mf.get("linked_by") or mf.get("arch_source") == "config.json" or mf.get("toy"):
        return False
    if not (mf.get("family") or mf.get("derived_from") or mf.get("params_b") or mf.get("architecture")):
        return False  # nothing is claimed of it
    if how == "hint":
        return True  # the folder's own name says nothing; another name of the launch was read for it
    if how == "mount" and _TRAINED.search(_tail(str(mf.get("resolved_as") or ""))):
        return True  # the volume mounted there is a run's output (`-v /data/qwen-72b-sft:/model`)
    return _TRAINED.search(_tail(name)) is not None


def _tail(path: str) -> str:
    """The path from the part that names the model on (the last that writes a size, `qwen2.5-72b`, else
    the last that is no generic folder): a run's words may follow it as folders (`…/global_step_100/actor`)."""
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    at = next((i for i in range(len(parts) - 1, -1, -1) if _SIZED.search(parts[i])), None)
    if at is None:
        own = model_resolve.own_part("/".join(parts))
        if own is None:
            return ""
        at = len(parts) - 1 - parts[::-1].index(own)
    return "/".join(parts[at:])


def control(mf: dict) -> dict:
    """The model as vLLM would know it before reading the folder: its name."""
    return {"name": mf["name"], "name_only": True}


def certain(results: list) -> frozenset[str]:
    """The checks whose verdict `settle` may lower: the P0s (none: the control need not be evaluated)."""
    return frozenset(r.check.id for r in results if r.status == "recommended" and r.priority == "P0")


def settle(results: list, controls: list, kb: Knowledge, name: str) -> None:
    """Lower each P0 of `results` that the same check does not give at P0 with the model unknown
    (`controls`, in the same order)."""
    for r, c in zip(results, controls):
        if r.status == "recommended" and r.priority == "P0" and not (c.status == "recommended" and c.priority == "P0"):
            lower(r, "P1", note(kb, "priority.model_from_folder", name=name))
