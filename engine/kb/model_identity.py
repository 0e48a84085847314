"""What a model name says about the model's identity beyond its family: a model built on a
catalogued backbone (a wrapper VLM, a reward or embedding model) is not that backbone, and a plain
checkpoint name says the weights are not quantized.

- `backbone`: a catalog entry that wraps a language model (InternVL2.5-78B is InternViT-6B on
  Qwen2.5-72B-Instruct) takes the text dimensions vLLM checks and sizes — heads, KV heads, layers,
  widths — from the backbone's own catalog entry; its architecture, context and everything else
  stay its own (unknown when the catalog does not say them).
- `derived_markers` (models.yaml): a word the name adds to the family it matches (Reward, PRM,
  Embedding, -VL, -Audio …) makes it a different model on that backbone: the family's architecture
  and context are no longer this model's (and for another input modality neither are its shapes),
  so they are dropped — unknown, never the backbone's.
- `unquantized_checkpoints` (models.yaml) and the catalog's config.json sources: a path whose last
  component is exactly such a repository's name holds unquantized weights (`exact`); a name of a
  catalogued family with no quantization marker probably does (`family`).
- `foreign`: a checkpoint's config.json that names a class the name's family never has is another
  model in a folder whose name contains a catalog name: the name's catalog facts do not apply."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb.model_config import ARCH_KEYS

# a backbone lends the shapes of its weights, not its context or anything the wrapper's config sets
_BACKBONE_KEYS = tuple(k for k in ARCH_KEYS if k not in ("max_position_embeddings", "vocab_size", "tie_word_embeddings"))
# what a different head (reward, embedding, classifier) or domain variant changes
_HEAD_FACTS = ("architecture", "model_type", "max_context", "max_len_key", "max_position_embeddings",
               "max_context_family", "eagle_draft", "eagle_method")
_SOURCE_REPO = re.compile(r"^https://huggingface\.co/([^/]+/[^/]+)/blob/")


def backbone_dims(bf: dict, wrapper: bool) -> dict[str, Any]:
    """The backbone's text dimensions from its facts (its own catalog entry, not its family's); a
    wrapper's vocabulary may have grown (image tokens), a same-architecture variant's has not."""
    if not bf or bf.get("dims_family"):
        return {}
    keys = _BACKBONE_KEYS if wrapper else _BACKBONE_KEYS + ("vocab_size", "tie_word_embeddings")
    return {k: bf[k] for k in keys if bf.get(k) is not None}


def covered(short: str, spans: list[tuple[int, int]]) -> str:
    """The name's own part (after the organisation) with what the catalog entries matched blanked."""
    chars = list(short)
    for a, b in spans:
        for i in range(a, b):
            chars[i] = " "
    org_end = short.rfind("/") + 1
    return "".join(chars[org_end:])


def derived(facts: dict, arch: dict, rest: str, markers: list[dict]) -> str | None:
    """Drop what the family says but this model is not (see the module's doc); the kind of marker
    that matched, or None."""
    for mk in markers:
        if not re.search(mk["match"], rest):
            continue
        kind = mk["kind"]
        if kind == "modality" and facts.get("multimodal"):
            continue  # the family already takes that input: the word names one of its variants
        for k in _HEAD_FACTS:
            facts.pop(k, None)
        arch.pop("max_position_embeddings", None)
        if kind == "modality":
            for k in list(arch):
                arch.pop(k)
            for k in ("params_b", "active_params_b", "torch_dtype", "arch_source", "dims_family"):
                facts.pop(k, None)
            facts["multimodal"] = True
        facts["derived_from"] = facts.pop("family", None)
        return kind
    return None


def catalogued_repos(families: list[dict], plain: list[str]) -> frozenset[str]:
    """Lower-cased repository names (without the organisation) of unquantized checkpoints: the
    catalog's config.json sources of entries that are not quantized, and models.yaml's list."""
    out = {p.rsplit("/", 1)[-1].lower() for p in plain}
    for fam in families:
        for e in [fam, *fam.get("sizes", [])]:
            m = _SOURCE_REPO.match(str(e.get("source") or ""))
            if m and not (e.get("quantized") or fam.get("quantized")):
                out.add(m.group(1).rsplit("/", 1)[-1].lower())
    return frozenset(out)


def unquantized(facts: dict, name: str, repos: frozenset[str]) -> None:
    """`unquantized`: exact (the last path component is a catalogued unquantized checkpoint's
    name) or family (a catalogued family's name with no quantization marker)."""
    if facts.get("quantized") or facts.get("quant_source") or not facts.get("family"):
        return
    last = name.rstrip("/").rsplit("/", 1)[-1].lower()
    facts["unquantized"] = "exact" if last in repos else "family"



_PATH_START = ("/", "./", "../", "~", ".\\", "..\\")
# words a training run adds to the folder it writes (LLaMA-Factory's saves/…/sft, a merged LoRA)
_TRAINED = re.compile(r"(?i)(?<![a-z])(sft|merged?|lora|qlora|finetuned?|ft|dpo|grpo|ppo|orpo|kto|rlhf|ckpt|checkpoint|"
                      r"custom|tuned|trained|export(ed)?)(?![a-z])")


def folder_guess(facts: dict, name: str, repos: frozenset[str]) -> None:
    """A model given as a local folder whose config.json was not read, named as a training run
    names its output (`./merged/qwen-14b-sft`), is known only by what the folder is called: the
    catalog's context for the family it names is a guess, not this checkpoint's (the run may have
    started from another generation or size of that family), so it is marked as the family's."""
    if not facts.get("max_context") or not (name.startswith(_PATH_START) or name.count("/") >= 2):
        return
    last = name.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1]
    if last.lower() not in repos and _TRAINED.search(last):
        facts["max_context_family"] = True


def example_architecture(facts: dict, name: str, table: dict) -> None:
    """`architecture` for a model the catalog does not place, when its name is a checkpoint vLLM's
    own tests load (knowledge/vllm/example_models.yaml, tools/vllm_example_models.py): the Hub id
    itself, or a folder named exactly as one such repository (unique by that name). Only the class,
    marked `architecture_from: vllm-tests` (a release that does not register it says nothing: the
    checkpoint's config.json may have named another class then); shapes, context and quantization
    stay unknown."""
    models = (table or {}).get("models") or {}
    if not models or not name:
        return
    parts = name.rstrip("/\\").replace("\\", "/").split("/")
    short = "/".join(parts[-2:]).lower()
    by_id = {r.lower(): a for r, a in models.items()}
    if facts.get("architecture"):
        # an embedding model made from a decoder keeps its family's name but not its head
        # (intfloat/e5-mistral-7b-instruct: MistralModel, BAAI/bge-multilingual-gemma2: Gemma2Model)
        own, arch = by_id.get(short), str(facts["architecture"])
        if own and arch.endswith("ForCausalLM") and own == arch[:-len("ForCausalLM")] + "Model":
            facts.update(architecture=own, architecture_from="vllm-tests")
        return
    if short in by_id:
        facts.update(architecture=by_id[short], architecture_from="vllm-tests")
        return
    last = parts[-1].lower()
    hits = {a for r, a in models.items() if r.rsplit("/", 1)[-1].lower() == last}
    if len(hits) == 1 and (name.startswith(_PATH_START) or len(parts) > 2):
        facts.update(architecture=hits.pop(), architecture_from="vllm-tests")


# words a re-upload adds that keep its weights' shapes: the tuning kind Hub names carry, the format
# and quantization (the quantization markers read those), versions and dates
_KEEPS = frozenset("""instruct chat it base hf pt meta model awq gptq gguf bnb nf mlx exl marlin quantized dynamic
unsloth autoround auto round fp bf int bit w a v mistral ct compressed tensors nvfp mxfp turbo thinking""".split())
_KEEP_TOKEN = re.compile(r"^(?:v?\d+(?:\.\d+)*|q\d\w*|k|m|s|l|xl|xs|\d+bit|w\d+a\d+|int\d+|fp\d+|bf\d+|nf\d+|"
                         r"a\d+(?:\.\d+)?b|\d+(?:\.\d+)?[bkm]|e\d+b|\d+e)$")


def inferred(facts: dict, rest: str, name: str = "") -> None:
    """A name that adds words of its own to a catalogued checkpoint's (`org/xyz-Qwen2.5-7B-finetune`,
    `qwen2.5-7b-instruct-sft-v2`) is a model derived from it: its heads, KV heads, layers and widths
    are the base model's (a fine-tune or a merge keeps them), but its context is the base's only as a
    default (a fine-tune may ship a longer or shorter position table) — so the context is marked as
    the family's, and `dims_from` says the shapes are inferred from the name. `rest`: the name's own
    part with what the catalog entries matched blanked (covered)."""
    if facts.get("dims_family") or facts.get("derived_from") or not facts.get("arch_source"):
        return
    words = [w for w in re.split(r"[^a-z0-9]+", rest.lower()) if w]
    extra = [w for w in words if w not in _KEEPS and not _KEEP_TOKEN.match(w)]
    if not extra:
        return
    src = re.match(r"^https://huggingface\.co/([^/]+/[^/]+?)(?:/(?:blob|tree|resolve)/.*)?/?$", str(facts["arch_source"]))
    base = src.group(1) if src else str(facts["arch_source"])
    if name and name.rstrip("/").rsplit("/", 1)[-1].lower() == base.rsplit("/", 1)[-1].lower():
        return  # the catalogued checkpoint itself (or a copy of it under its own name)
    facts["dims_from"] = base
    if facts.get("max_context"):
        facts["max_context_family"] = True


def foreign(entries: list[dict], config: dict) -> bool:
    """Whether a checkpoint's config.json names a model class the catalog entries its name matched
    (the family and the sizes it matched) never have: neither its first architecture nor its
    model_type (a multimodal wrapper's, or its text model's) is one they list. Entries that list
    neither are never foreign (Moonlight-16B matches the Kimi-VL family, whose only class is its VL size's)."""
    archs = {e["architecture"] for e in entries if e.get("architecture")}
    types = {e["model_type"] for e in entries if e.get("model_type")}
    if not archs and not types:
        return False
    said_archs, said_types = set(), set()
    for c in (config, config.get("text_config"), config.get("llm_config")):
        if not isinstance(c, dict):
            continue
        a = c.get("architectures")
        if isinstance(a, list) and a and isinstance(a[0], str):
            said_archs.add(a[0])
        if isinstance(c.get("model_type"), str):
            said_types.add(c["model_type"])
    if not said_archs and not said_types:
        return False  # a config that names no class: the name is all there is to go on
    return not (said_archs & archs or said_types & types)


def size_contradicts(name_sizes: list[float], params_b: float | None, active_b: float | None) -> bool:
    """Whether the sizes written in a name (`32B`) rule out the one model the catalog entry it matched
    describes: none is within a factor 0.6–1.6 of the entry's total or active parameters. A folder or
    upload named `DeepSeek-R1-32B` is a 32B distill, never the 671B DeepSeek-R1 (vllm#15457): the
    family's shapes would size it 20 times too large and give a false "does not fit"."""
    if not name_sizes or not params_b:
        return False
    return not any(0.6 <= s / ref <= 1.6 for s in name_sizes for ref in (params_b, active_b) if ref)


def keeps_dtype(org: str | None, identity: dict | None) -> frozenset[str]:
    """The quantization methods whose uploads by this publisher (`org`, the name's Hub organisation)
    keep the base model's torch_dtype (models.yaml `quant_keeps_dtype`)."""
    if not identity or org is None:
        return frozenset()
    return frozenset(m for row in identity.get("quant_keeps_dtype") or [] if row["publisher"].lower() == org
                     for m in row["methods"])
