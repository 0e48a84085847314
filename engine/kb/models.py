"""Model facts from a model name or path: family, size, MoE / MLA / MTP, multimodal,
pre-quantized checkpoint, and the architecture dimensions the memory estimator needs.
Catalog in knowledge/models.yaml; a size written in the name (`-8B`, `-30B-A3B`) fills in what
the catalog does not say; a checkpoint folder inside the audited project can say more through
its config.json (read as JSON, never executed: see read_local_config). How the name is read:
engine/kb/model_names.py."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.kb import model_identity
from vllm_kb.engine.kb.checkpoint import CONFIG_MAX_BYTES, read_local_config  # noqa: F401 — re-exported
from vllm_kb.engine.kb.model_arith import (attention_params, attention_params_total,  # noqa: F401 — re-exported
                                           ceil_div, embedding_params, expert_params, head_dim, kv_heads_per_gpu, moe_layers,
                                           params_from_arch, tp_divides)
from vllm_kb.engine.kb.model_config import (ARCH_KEYS, arch_from_config, config_scalars,  # noqa: F401
                                            derived_max_len)
from vllm_kb.engine.kb.quant_config import normalise_quant
from vllm_kb.engine.kb.catalog_context import (catalog_model_max_length, context_from_name, name_context,  # noqa: F401
                                               rope_scaled)
from vllm_kb.engine.kb.vision_config import vision_from_config
from vllm_kb.engine.kb.model_names import TOY as _TOY, exact_entry, family_of  # noqa: F401 — re-exported
from vllm_kb.engine.kb.model_names import knowledge_rx as _rx, org_joined as _org_joined, short_name as _short_name, sized_view as _sized  # noqa: F401

_SIZE = re.compile(r"(?<![\dA-Za-z.])(\d+(?:\.\d+)?)\s*[bB](?![A-Za-z])")
_ACTIVE = re.compile(r"[-_]A(\d+(?:\.\d+)?)B(?![A-Za-z])", re.I)
_MOE_SIZE = re.compile(r"(\d+)x(\d+(?:\.\d+)?)[bB]", re.I)
_EXPERTS = re.compile(r"[-_]\d+E(?![A-Za-z])", re.I)
_MOE_WORD = re.compile(r"(?<![A-Za-z])moe(?![A-Za-z])", re.I)
FLAGS = ("moe", "mla", "mtp", "multimodal", "sliding_window", "quantized", "attention_sinks")


def model_facts(name: str | None, families: list[dict], markers: list[dict],
                config: dict | None = None, tokenizer: dict | None = None,
                version: str | None = None, publishers: list[str] | None = None,
                identity: dict | None = None) -> dict[str, Any]:
    """Facts for `name`. `config` is a parsed config.json (engine/kb/checkpoint.py), `tokenizer`
    its tokenizer_config.json; what they say wins over the catalog. `version`: the vLLM release,
    for the context length it derives (its rules changed over releases). `publishers`: the
    organisations whose uploads keep the catalog's torch_dtype (models.yaml `publishers`); a
    fine-tune under another organisation may have been saved in any dtype, so the catalog's is
    not claimed for it (None: keep it). `identity`: models.yaml's `derived_markers` and
    `unquantized_checkpoints` (engine/kb/model_identity.py); None: neither is applied."""
    if not name:
        return {}
    short = _org_joined(_short_name(name), families, publishers)
    facts: dict[str, Any] = {"name": name}
    if not config and _TOY.search(name):
        # a test checkpoint named after the model it shrinks (tiny-random/qwen3-next-moe,
        # trl-internal-testing/tiny-Qwen2ForCausalLM-2.5): none of the family's shapes hold
        return {**facts, "toy": True, **{k: False for k in FLAGS}}
    arch: dict[str, Any] = {}
    fam = family_of(short, families)
    matched = [fam, *(e for e in fam.get("sizes", []) if _rx(e["match"]).search(_sized(short)))] if fam and config else []
    if fam and config and model_identity.foreign(matched, config):
        # a local folder whose name contains a catalog name (DeepSeek-R1-32B-FULL holding a Qwen2
        # config, vllm#15457): vLLM loads the class its config.json names, so the name's family says nothing
        fam = None
    if fam:
        spans = _apply_family(facts, arch, fam, short, families)
        if not config and _name_contradicts(facts, short):
            facts, arch, fam = {"name": name}, {}, None  # the name's own size says another model (DeepSeek-R1-32B)
    if fam:
        catalog_model_max_length(facts, arch, version)
        rope_scaled(facts, arch, version)
        context_from_name(facts, arch, short)
        _publisher(facts, name, publishers)
        if not exact_entry(short, families):
            facts["dims_family"] = True  # the shapes, too, are the family's, not this model's own
            if "max_context" in facts:
                facts["max_context_family"] = True
        if identity:
            rest = model_identity.covered(short, spans)
            model_identity.derived(facts, arch, rest, identity.get("derived_markers") or [])
            if not config:
                model_identity.inferred(facts, rest, name)
    if config:
        _apply_config(facts, arch, config, tokenizer, version)
        if facts.get("remote_code") and not config.get("auto_map"):
            facts["remote_code"] = False  # the checkpoint at hand carries no code of its own to need
        if tokenizer is not None and facts.get("remote_code"):
            facts["tokenizer_remote_code"] = bool(tokenizer.get("auto_map"))
    _size_from_name(facts, short)
    _markers(facts, short, markers, config, model_identity.keeps_dtype(_hub_org(name), identity))
    _add_arch(facts, arch)
    if identity and not config:
        repos = _repos(families, tuple(identity.get("unquantized_checkpoints") or ()))
        model_identity.unquantized(facts, name, repos)
        model_identity.folder_guess(facts, name, repos)
    if facts.get("quant_method"):
        facts["quant_method"] = normalise_quant(facts["quant_method"])
    for k in FLAGS:
        facts.setdefault(k, False)
    return facts


def _repos(families: list[dict], plain: tuple[str, ...]) -> frozenset[str]:
    key = (id(families[0]) if families else 0, plain)  # the loaded catalog's entries, not the list around them
    if _REPOS_CACHE.get("key") != key:
        _REPOS_CACHE.update(key=key, value=model_identity.catalogued_repos(families, list(plain)))
    return _REPOS_CACHE["value"]


_REPOS_CACHE: dict[str, Any] = {}


def _apply_family(facts: dict, arch: dict, fam: dict, short: str, families: list[dict]) -> list[tuple[int, int]]:
    """Take the family's and its matching sizes' facts; the spans of the name they matched."""
    facts["family"] = fam["id"]
    spans = [m.span() for m in _rx(fam["match"]).finditer(short)]
    _take(facts, arch, fam)
    backbone = fam.get("backbone")
    sized = _sized(short)
    for size in fam.get("sizes", []):
        m = _rx(size["match"]).search(sized)
        if m:
            spans.append(m.span())
            _take(facts, arch, size)
            backbone = size.get("backbone", backbone)
    if backbone:
        own = dict(arch)
        bf = model_facts(backbone, families, [])
        arch.update(model_identity.backbone_dims(bf, wrapper=bool(facts.get("multimodal"))))
        arch.update(own)
        facts["backbone"] = backbone
        if facts.get("remote_code"):
            facts.setdefault("tokenizer_remote_code", bool(bf.get("remote_code")))  # a wrapper ships its backbone's tokenizer
        if not facts.get("multimodal") and bf.get("params_b") and not bf.get("dims_family"):
            facts.setdefault("params_b", bf["params_b"])  # the same weights; a wrapper adds its encoder's
    for e in fam.get("eagle", []):
        if _rx(e["match"]).search(short):
            facts["eagle_draft"] = e["draft"]
            facts["eagle_method"] = e["method"]
            break
    return spans


def _hub_org(name: str) -> str | None:
    """The organisation of a Hub id (`org/name`), lower case; None for a local path or any other form."""
    parts = name.strip("/").split("/")
    if len(parts) != 2 or name.startswith((".", "/", "~")):
        return None  # a local path: its folder name is what it is a copy of
    return parts[0].lower()


def _publisher(facts: dict, name: str, publishers: list[str] | None) -> None:
    if publishers is None or "torch_dtype" not in facts:
        return
    org = _hub_org(name)
    if org is not None and org not in {p.lower() for p in publishers}:
        facts.pop("torch_dtype", None)


def _take(facts: dict, arch: dict, entry: dict) -> None:
    """One catalog entry (family or size): scalar facts, arch dims, its source."""
    for k, v in entry.items():
        if k in ("match", "id", "name", "sizes", "eagle", "generations", "backbone", "quant_method_unread"):
            continue
        if k == "arch":
            arch.update(v)
        elif k == "source":
            facts["arch_source"] = v
        else:
            facts[k] = v
            if k == "quant_method":
                # an upload known to be FP8 whose config.json was not read: the width sizes the weights, but
                # the method is no more certain than a name's marker (no mismatch verdict on --quantization)
                facts["quant_source"] = "name" if entry.get("quant_method_unread") else "catalog"


def _apply_config(facts: dict, arch: dict, config: dict, tokenizer: dict | None, version: str | None) -> None:
    config_scalars(facts, config, tokenizer)
    limit, key = derived_max_len(config, tokenizer, version)
    if limit:
        facts.pop("max_context_family", None)
        facts["max_context"] = limit
        facts["max_len_key"] = key
    dims = arch_from_config(config)
    if not dims:
        return
    vision = vision_from_config(config)
    facts.update({k: v for k, v in vision.items() if k != "vision_params_b"})
    if any(arch.get(k) not in (None, dims.get(k)) for k in ("num_hidden_layers", "hidden_size") if dims.get(k)):
        # the catalog's size entry is another model's shape (a folder named -72B holding a 7B):
        # count the parameters of the dims the checkpoint has
        facts.pop("params_b", None)
        facts.pop("active_params_b", None)
    arch.update(dims)
    facts.pop("dims_family", None)
    facts["arch_source"] = "config.json"
    if dims.get("num_experts"):
        facts["moe"] = True
    if dims.get("kv_lora_rank"):
        facts["mla"] = True
    if dims.get("sliding_window_size"):
        facts["sliding_window"] = True
    if dims.get("num_nextn_predict_layers"):
        facts["mtp"] = True
    if "params_b" not in facts:
        total, active = params_from_arch(dims)
        if total:
            tower = vision.get("vision_params_b") or 0.0  # the text dims leave the vision tower out
            facts["params_b"] = round(total + tower, 2)
            if tower:
                facts["vision_params_b"] = tower
            if dims.get("num_experts"):
                facts["active_params_b"] = active


def _name_contradicts(trial: dict, short: str) -> bool:
    """Whether the sizes written in the name rule out the model the family's facts (`trial`) describe."""
    sizes = [float(x) for x in _SIZE.findall(re.sub(r"(?<=\d)_(?=\d)", ".", _sized(short)))]  # 1_8b is 1.8B
    # a plain size is the total, except beside an expert count (Llama-4-Scout-17B-16E names the active 17B)
    active = trial.get("active_params_b") if _EXPERTS.search(short) else None
    return model_identity.size_contradicts(sizes, trial.get("params_b"), active)


def _size_from_name(facts: dict, short: str) -> None:
    if "params_b" not in facts:
        m = _MOE_SIZE.search(short)
        sizes = [float(x) for x in _SIZE.findall(short)]
        if m:
            facts["params_b"] = round(int(m.group(1)) * float(m.group(2)) * 0.8, 1)
            facts.setdefault("moe", True)
        elif sizes:  # with no family matched, a size read from a folder's name alone is a guess (params_from_name);
            # so is it where the name says MoE and the family matched is dense (docvqa-verl's /Qwen3-30B-MoE-merge:
            # the qwen3 dense shape at 30B, where the checkpoint is the 30B-A3B's experts)
            moe_word = _MOE_WORD.search(short) is not None and not facts.get("moe")
            facts.update(params_b=max(sizes), **({"params_from_name": True} if "family" not in facts or moe_word else {}))
            if moe_word:
                facts["moe"] = True  # experts it has, whatever the dense family says (no L19 "dense model")
    act = _ACTIVE.search(short)
    if act:
        facts.setdefault("active_params_b", float(act.group(1)))
        facts["moe"] = True


def _markers(facts: dict, short: str, markers: list[dict], config: dict | None, keeps: frozenset[str] = frozenset()) -> None:
    if config and (isinstance(config.get("quantization_config"), dict) or facts.get("quant_nested")):
        return  # the checkpoint says how it is quantized; the name only guesses
    for mk in markers:
        if _rx(mk["match"]).search(short):
            facts["quantized"] = True
            if facts.get("quant_source") == "catalog" and facts.get("quant_method") == mk["method"]:
                break  # the catalog's own entry for this upload says the same, with its group or block
            facts["quant_method"] = mk["method"]
            facts["quant_source"] = "name"
            facts.pop("quant_group_size", None)  # the family's checkpoint's, not this upload's
            facts.pop("quant_block", None)
            if mk.get("scheme"):
                facts["quant_scheme"] = mk["scheme"]
            if mk.get("block"):
                facts["quant_block"] = list(mk["block"])
            if mk.get("publisher_format"):
                facts["quant_source"] = "catalog"  # the publisher's own uploads of this name say so
            for key, fact in (("unquantized", "quant_unquantized"), ("kv_cache", "quant_kv_cache"), ("bnb_skip", "quant_bnb_skip"),
                              ("group", "quant_group_size")):
                if mk.get(key):  # the 16-bit layers, the KV-cache format, BitsAndBytes modules kept in 16 bits, the group
                    facts[fact] = dict(mk[key]) if isinstance(mk[key], dict) else mk[key]
            if not (config and (config.get("torch_dtype") or config.get("dtype"))) and mk["method"] not in keeps:
                # the base family's dtype says nothing of a quantized upload's (AWQ/GPTQ ones are mostly float16)
                facts.pop("torch_dtype", None)
            break


def _add_arch(facts: dict, arch: dict) -> None:
    """Flatten the known dims into the facts, with the derived local-layer count."""
    for k in ARCH_KEYS:
        if arch.get(k) is not None:
            facts[k] = arch[k]
    for k in ("num_attention_layers", "ssm"):  # hybrid state-space models (engine/kb/ssm_config.py)
        if arch.get(k) is not None:
            facts[k] = arch[k]
    if "num_chunked_layers" in arch:
        facts["num_chunked_layers"] = arch["num_chunked_layers"]
    elif facts.get("attention_chunk_size") and facts.get("num_hidden_layers"):
        facts["num_chunked_layers"] = sliding_layers(facts["num_hidden_layers"], 4)  # Llama 4: every 4th layer global
    if "num_sliding_layers" in arch:
        facts["num_sliding_layers"] = arch["num_sliding_layers"]
    elif facts.get("sliding_window_size") and facts.get("num_hidden_layers"):
        facts["num_sliding_layers"] = sliding_layers(facts["num_hidden_layers"], facts.get("sliding_window_pattern"))


def sliding_layers(layers: int, pattern: int | None) -> int:
    """Local-attention layers when every `pattern`-th layer is global (None: all local)."""
    if not pattern:
        return layers
    return layers - layers // pattern
