"""The architecture a model's name says where the catalog (knowledge/models.yaml) names no family
in it: knowledge/vllm/arch_names.yaml lists, per architecture vLLM registers, the name its
family's checkpoints start with (tools/vllm_arch_names.py reads them from vLLM's own
supported-models page and tests). A Hub id's name, a Hugging Face cache folder's repository or a
local folder's own name (`/data/AI-ModelScope/dbrx-instruct`) that starts with such a family name
and adds only tuning, size, version and format words (`-instruct`, `-7B`, `-v2`, `-AWQ`, `-sft`)
is a checkpoint of that class. A word that makes it another model (Reward, Embedding, -VL:
models.yaml derived_markers) or another name of its own (`internlm-xcomposer2` is not InternLM)
says nothing. Only the class is known (`architecture_from: name-family`), with `multimodal` where
the releases place the class among multimodal or text-only models; shapes stay unknown. A name that
is one of the table's `checkpoints` (a repository vLLM lists under one class transformers has, so
its config.json names it) gets that class (`architecture_from: name-checkpoint`)."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import model_identity, model_resolve

# words a checkpoint's name adds without changing its class: tuning, size, version, date, format,
# and what a training run writes into the folder it saves
_KEEP = frozenset("""instruct chat it base hf pt sft dpo rl rlhf grpo ppo orpo kto merged merge lora qlora ft finetune
finetuned tuned trained ckpt checkpoint export exported final latest preview tiny mini small medium large xl xxl nano
awq gptq gguf bnb nf mlx exl marlin quantized dynamic unsloth autoround fp bf int bit turbo thinking v""".split())
_KEEP_TOKEN = re.compile(r"(?i)^(?:v?\d+(?:\.\d+)*[a-z]?|\d+(?:\.\d+)?[bmkt]|\d+x\d+(?:\.\d+)?b|a\d+(?:\.\d+)?b|"
                         r"\d+b\d+|w\d+a\d+|int\d+|fp\d+|bf\d+|nf\d+|q\d\w*|\d+bit|\d+k|\d{4,8})$")


def _own_name(name: str) -> str | None:
    """The part of `name` that names the checkpoint: a cache folder's repository, else the last
    path part that is not a generic folder or a revision."""
    repo = model_resolve.hf_cache_repo(name)
    if repo:
        return repo.split("/", 1)[1]
    path = name.replace("\\", "/").rstrip("/")
    return model_resolve.own_part(path) if "/" in path else path


def _plain(rest: str) -> bool:
    return all(w in _KEEP or _KEEP_TOKEN.match(w) for w in re.split(r"[-_.\s]+", rest.lower()) if w)


def family(name: str, table: dict | None, markers: list[dict]) -> dict | None:
    """The table's family row the name belongs to (the longest family name it starts with), or None."""
    own = _own_name(name) if name else None
    rows = (table or {}).get("families") or []
    if not own or not rows:
        return None
    low = own.lower().replace("_", "-")
    best = None
    for row in rows:
        stem = row["stem"]
        if low.startswith(stem) and (len(low) == len(stem) or low[len(stem)] in "-.") and (
                best is None or len(stem) > len(best["stem"])):
            best = row
    if best is None:
        return None
    rest = own[len(best["stem"]):]
    if not _plain(rest) or any(re.search(mk["match"], rest) for mk in markers):
        return None
    return best


def checkpoint(name: str, table: dict | None) -> str | None:
    """The class of the very checkpoint the name is (the table's `checkpoints`: a Hub id, a cache
    folder's repository, or a local folder named exactly as one such repository, unique by that name)."""
    rows = (table or {}).get("checkpoints") or {}
    if not name or not rows:
        return None
    path = name.replace("\\", "/").rstrip("/")
    repo = model_resolve.hf_cache_repo(path) or (path if path.count("/") == 1 and not path.startswith(_LOCAL) else None)
    by_id = {r.lower(): a for r, a in rows.items()}
    if repo:
        return by_id.get(repo.lower())
    own = _own_name(path)
    if not own or "/" not in path:
        return None
    hits = {a for r, a in rows.items() if r.rsplit("/", 1)[-1].lower() == own.lower()}
    return hits.pop() if len(hits) == 1 else None


_LOCAL = ("/", "./", "../", "~")


def apply(facts: dict, name: str, table: dict | None, markers: list[dict]) -> None:
    """Set `architecture` from the checkpoint's own name, else its family's, where nothing else named it."""
    if not facts or facts.get("architecture") or facts.get("family") or facts.get("derived_from") or facts.get("toy"):
        return
    arch = checkpoint(name, table)
    if arch is not None:
        facts.update(architecture=arch, architecture_from="name-checkpoint")
        return
    row = family(name, table, markers)
    if row is None:
        return
    facts.update(architecture=row["architecture"], architecture_from="name-family")
    if row.get("kind") in ("text", "multimodal"):
        facts["multimodal"] = row["kind"] == "multimodal"


def resolve(facts: dict, name: str, families: dict | None, examples: dict | None, markers: list[dict]) -> None:
    """The class of a model the catalog does not place: its name's family (firm: the family's
    checkpoints name it in their config.json), else a checkpoint of that very name vLLM's own
    tests load (engine/kb/model_identity.example_architecture: the class, not a refusal)."""
    apply(facts, name, families, markers)
    model_identity.example_architecture(facts, name, examples or {})
