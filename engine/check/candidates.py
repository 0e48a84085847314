"""A model known only by the names around it (engine/kb/model_resolve.py): its facts, and — when
the names fit more than one catalogued checkpoint — every candidate evaluated, so that a check
says "vLLM will not start" (P0) only when it fails for each of them; when only some fail it is
P1 and names the ambiguity."""
from __future__ import annotations

import copy
import json
from typing import Any, Callable, Sequence

from vllm_kb.engine.kb import model_resolve
from vllm_kb.engine.kb.knowledge import Knowledge, Text
from vllm_kb.engine.kb.models import family_of, model_facts
from vllm_kb.engine.scan import model_downloads

def hints(args: dict) -> list[str]:
    """Other names a launch gives its model: the tokenizer's, then the served names."""
    served = args.get("served_model_name")
    served = served if isinstance(served, list) else [served]
    return [h for h in [args.get("tokenizer"), *served] if isinstance(h, str) and h.strip()]


# what the original name's quantization marker says wins over the candidate's (a local
# "MiniMax-M3-4bit-W4A16" is a quantized copy of whatever model it is)
_QUANT_KEYS = ("quantized", "quant_method", "quant_source", "quant_scheme", "quant_unquantized")
# identities read from a name that is not the checkpoint's own: its dtype is the uploader's
_LOOSE = ("words", "derivative", "hint")
_PRIORITY = {"P0": 0, "P1": 1, "P2": 2}


def _short(name: str) -> str:
    parts = name.rstrip("/").replace("___", ".").rsplit("/", 2)
    return "/".join(parts[-2:]) if len(parts) > 1 else parts[0]


def resolve(name: str, own: dict, mounts: dict | None, kb: Knowledge, facts_of: Callable[[str], dict],
            hints: Sequence[str] = ()) -> list[dict]:
    """The candidate model facts for `name` when its own facts (`own`) name no family; [] when the
    names around it say nothing more. `facts_of(n)`: model facts for another name; `hints`: the
    launch's other names for the model (engine/kb/model_resolve.py)."""
    if own.get("family") or own.get("derived_from") or own.get("architecture") or own.get("quant_source") == "config":
        return []
    data = kb.doc("models.yaml").data
    how, names = model_resolve.resolve(name, mounts, kb.models, data.get("derivatives") or [],
                                       lambda n: family_of(_short(n), kb.models) is not None, hints)
    out: list[dict] = []
    seen: set[str] = set()
    for n in names:
        cf = facts_of(n)
        if not cf.get("family") and not cf.get("derived_from"):
            continue
        if own.get("quant_source") == "name":
            for k in _QUANT_KEYS:
                cf.pop(k, None)
                if k in own:
                    cf[k] = own[k]
            cf.pop("unquantized", None)
            cf.pop("torch_dtype", None)
        if how in _LOOSE:
            cf.pop("torch_dtype", None)
            cf.pop("unquantized", None)
        key = json.dumps({k: v for k, v in cf.items() if k not in ("name", "arch_source")}, sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        cf.update(name=name, identity=how, resolved_as=n)
        out.append(cf)
    if len(out) > model_resolve.MAX_CANDIDATES:
        return []  # too many different models fit: the name says too little
    if len(out) > 1:
        for cf in out:
            cf["candidates"] = [c["resolved_as"] for c in out]
    return out


def linked(name: Any, downloads: Callable[[], list] | None, mounts: dict | None) -> model_downloads.Download | None:
    """The download that fills the local folder `name` (engine/scan/model_downloads.py): vLLM reads
    that repository's config.json there, so its facts are certain, not a reading of the name."""
    if downloads is None or not isinstance(name, str) or not model_resolve.is_local(name):
        return None
    return model_downloads.link(name, downloads(), mounts)


def mark_linked(mf: dict, found: model_downloads.Download | None) -> None:
    if mf and found is not None:
        mf.update(identity="download", resolved_as=found.repo, linked_by=found.where)


def path_basis(name: str, own: dict, kb: Knowledge) -> None:
    """A local path read by its own name (`/models/huggingface/Phi-3-small-128k-instruct/`): the
    report says which part of the path named the model (`identity` path-last: its last component,
    path: an earlier one past generic folders and revisions). A part that names no catalogued family
    by itself (a generic word, a bare size) claims nothing."""
    path = name.replace("\\", "/")
    if not own.get("family") or own.get("identity") or "/" not in path.strip("/") or not model_resolve.is_local(path):
        return  # a bare name is the model's name as written, not a path to read
    part = model_resolve.own_part(path)
    if part is None or family_of(_short(part), kb.models) is None:
        return
    last = [p for p in path.split("/") if p][-1]
    own.update(identity="path-last" if part == last else "path", resolved_as=part)


def model_of(name: str, kb: Knowledge, markers: list, version: str | None) -> dict[str, Any]:
    data = kb.doc("models.yaml").data
    return model_facts(name, kb.models, markers, version=version, publishers=data.get("publishers"), identity=data)


def revisions(mf: dict) -> tuple[dict, list[dict]]:
    """A repository republished under the same name with other shapes (Qwen's 72B AWQ/GPTQ uploads:
    intermediate_size 29568 at first, padded to 29696 later so that TP 8 splits whole groups) may be
    either on the machine: the catalog entry's shapes and each earlier revision's are all evaluated
    (models.yaml `upload_revisions`), so a check that reads those shapes is P0 only when every
    revision fails it. (facts, [the other revisions' facts])."""
    revs = mf.get("upload_revisions") or []
    if not revs:
        return mf, []
    labels = [str(mf.get("revision_label") or "the current upload"), *(str(r["label"]) for r in revs)]
    first = {**mf, "revisions": labels}
    others = []
    for r in revs:
        alt = copy.deepcopy(first)
        alt.update(r["arch"])
        alt["arch_source"] = r["source"]
        others.append(alt)
    return first, others


def merge(results: list, alternatives: list[list], names: list[str], kb: Knowledge,
          key: str = "reason.model_candidates") -> None:
    """`results` (the first candidate's) takes, check by check, what every candidate says: a
    P0 stays P0 only when each candidate gets it; otherwise the most urgent recommendation of any
    candidate is kept at P1 at most, with the candidates named."""
    for i, r in enumerate(results):
        every = [r, *(alt[i] for alt in alternatives)]
        rec = [x for x in every if x.status == "recommended"]
        if not rec:
            continue
        if len(rec) == len(every) and len({x.priority for x in rec}) == 1:
            continue  # every candidate says the same: it holds whichever model this is
        best = copy.copy(min(rec, key=lambda x: _PRIORITY.get(x.priority or "P2", 3)))
        if best.priority == "P0":
            best.priority = "P1"
        which = ", ".join(names)
        best.reason = Text(en=best.reason.en + " " + kb.t(key, "en", names=which),
                           zh=best.reason.zh + " " + kb.t(key, "zh", names=which))
        results[i] = best


# the facts that follow from the model: what an alternative candidate replaces
_MODEL_PARTS = ("model", "startup", "memory", "host", "engine")


def parts(facts: dict) -> dict:
    return {k: facts[k] for k in _MODEL_PARTS if k in facts}


def with_parts(facts: dict, alt: dict) -> dict:
    out = {k: v for k, v in facts.items() if k not in _MODEL_PARTS}
    out.update(alt)
    return out
