"""Model facts from a model name or path: family, size, MoE / MLA / MTP, multimodal,
pre-quantized checkpoint, and the architecture dimensions the memory estimator needs.
Catalog in knowledge/models.yaml; a size written in the name (`-8B`, `-30B-A3B`) fills in what
the catalog does not say; a checkpoint folder inside the audited project can say more through
its config.json (read as JSON, never executed: see read_local_config)."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

_SIZE = re.compile(r"(?<![\dA-Za-z.])(\d+(?:\.\d+)?)\s*[bB](?![A-Za-z])")
_ACTIVE = re.compile(r"[-_]A(\d+(?:\.\d+)?)B(?![A-Za-z])", re.I)
_MOE_SIZE = re.compile(r"(\d+)x(\d+(?:\.\d+)?)[bB]", re.I)
FLAGS = ("moe", "mla", "mtp", "multimodal", "sliding_window", "quantized")

# Architecture dimensions, named as in config.json (sliding_window_size/_pattern and
# first_k_dense_replace are normalised names, see knowledge/models.yaml). They become model
# facts under the same names, plus the derived num_sliding_layers.
ARCH_KEYS = (
    "num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim",
    "vocab_size", "intermediate_size", "moe_intermediate_size", "num_experts", "num_experts_per_tok",
    "n_shared_experts", "first_k_dense_replace", "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim",
    "qk_nope_head_dim", "v_head_dim", "num_nextn_predict_layers", "sliding_window_size",
    "sliding_window_pattern", "tie_word_embeddings", "max_position_embeddings",
)
CONFIG_MAX_BYTES = 4 * 2**20  # a config.json is a few KiB; anything bigger is not one


@lru_cache(maxsize=256)
def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def model_facts(name: str | None, families: list[dict], markers: list[dict],
                config: dict | None = None) -> dict[str, Any]:
    """Facts for `name`. `config` is a parsed config.json (read_local_config); what it says
    about the architecture and quantization wins over the catalog."""
    if not name:
        return {}
    short = _short_name(name)
    facts: dict[str, Any] = {"name": name}
    arch: dict[str, Any] = {}
    fam = next((f for f in families if _rx(f["match"]).search(short)), None)
    if fam:
        _apply_family(facts, arch, fam, short)
    if config:
        _apply_config(facts, arch, config)
    _size_from_name(facts, short)
    _markers(facts, short, markers, config)
    _add_arch(facts, arch)
    for k in FLAGS:
        facts.setdefault(k, False)
    return facts


def _short_name(name: str) -> str:
    base = name.rstrip("/").rsplit("/", 2)
    return "/".join(base[-2:]) if len(base) > 1 else base[0]


def _apply_family(facts: dict, arch: dict, fam: dict, short: str) -> None:
    facts["family"] = fam["id"]
    _take(facts, arch, fam)
    for size in fam.get("sizes", []):
        if _rx(size["match"]).search(short):
            _take(facts, arch, size)
    for e in fam.get("eagle", []):
        if _rx(e["match"]).search(short):
            facts["eagle_draft"] = e["draft"]
            facts["eagle_method"] = e["method"]
            break


def _take(facts: dict, arch: dict, entry: dict) -> None:
    """One catalog entry (family or size): scalar facts, arch dims, its source."""
    for k, v in entry.items():
        if k in ("match", "id", "name", "sizes", "eagle"):
            continue
        if k == "arch":
            arch.update(v)
        elif k == "source":
            facts["arch_source"] = v
        else:
            facts[k] = v


def _apply_config(facts: dict, arch: dict, config: dict) -> None:
    dims = arch_from_config(config)
    if not dims:
        return
    arch.update(dims)
    facts["arch_source"] = "config.json"
    quant = config.get("quantization_config")
    if isinstance(quant, dict) and quant.get("quant_method"):
        facts["quantized"] = True
        facts["quant_method"] = str(quant["quant_method"])
    if dims.get("max_position_embeddings"):
        facts["max_context"] = derived_max_len(config)
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
            facts["params_b"] = total
            if dims.get("num_experts"):
                facts["active_params_b"] = active


def _size_from_name(facts: dict, short: str) -> None:
    if "params_b" not in facts:
        m = _MOE_SIZE.search(short)
        sizes = [float(x) for x in _SIZE.findall(short)]
        if m:
            facts["params_b"] = round(int(m.group(1)) * float(m.group(2)) * 0.8, 1)
            facts.setdefault("moe", True)
        elif sizes:
            facts["params_b"] = max(sizes)
    act = _ACTIVE.search(short)
    if act:
        facts.setdefault("active_params_b", float(act.group(1)))
        facts["moe"] = True


def _markers(facts: dict, short: str, markers: list[dict], config: dict | None) -> None:
    if config and isinstance(config.get("quantization_config"), dict):
        return  # the checkpoint says how it is quantized; the name only guesses
    for mk in markers:
        if _rx(mk["match"]).search(short):
            facts["quantized"] = True
            facts["quant_method"] = mk["method"]
            break


def _add_arch(facts: dict, arch: dict) -> None:
    """Flatten the known dims into the facts, with the derived local-layer count."""
    for k in ARCH_KEYS:
        if arch.get(k) is not None:
            facts[k] = arch[k]
    if "num_sliding_layers" in arch:
        facts["num_sliding_layers"] = arch["num_sliding_layers"]
    elif facts.get("sliding_window_size") and facts.get("num_hidden_layers"):
        facts["num_sliding_layers"] = sliding_layers(facts["num_hidden_layers"], facts.get("sliding_window_pattern"))


def sliding_layers(layers: int, pattern: int | None) -> int:
    """Local-attention layers when every `pattern`-th layer is global (None: all local)."""
    if not pattern:
        return layers
    return layers - layers // pattern


# --- config.json ------------------------------------------------------------------------

_CONFIG_NAMES = {
    # config.json spelling → catalog name; the first one present wins
    "num_experts": ("num_experts", "n_routed_experts", "num_local_experts"),
    "num_experts_per_tok": ("num_experts_per_tok", "experts_per_token", "moe_topk"),
    "num_hidden_layers": ("num_hidden_layers", "n_layer", "num_layers"),
    "num_attention_heads": ("num_attention_heads", "n_head"),
    "hidden_size": ("hidden_size", "n_embd", "d_model"),
}


def _text_config(config: dict) -> dict:
    """A multimodal checkpoint's language model config (text_config), else the config itself."""
    inner = config.get("text_config")
    return inner if isinstance(inner, dict) else config


def arch_from_config(config: dict) -> dict[str, Any]:
    """The catalog's arch dims from a Hugging Face config.json (its text_config for
    multimodal checkpoints). Empty when it does not describe a decoder."""
    cfg = _text_config(config)
    out: dict[str, Any] = {}
    for k in ARCH_KEYS:
        names = _CONFIG_NAMES.get(k, (k,))
        v = next((cfg[n] for n in names if _dim(cfg.get(n)) is not None), None)
        if v is not None:
            out[k] = v
    if not out.get("num_hidden_layers") or not out.get("hidden_size"):
        return {}
    _config_moe(cfg, out)
    _config_sliding(cfg, out)
    if "tie_word_embeddings" not in out and isinstance(config.get("tie_word_embeddings"), bool):
        out["tie_word_embeddings"] = config["tie_word_embeddings"]
    return out


def _dim(v):
    """A config.json dimension as the sizing can use it: a flag, or a whole number from 0 to 2**40
    (a project's file may say anything: "abc", -1, 1e30, a list)."""
    if isinstance(v, bool) or (isinstance(v, int) and 0 <= v <= 1 << 40):
        return v
    return None


def _config_moe(cfg: dict, out: dict) -> None:
    # Mixtral and gpt-oss give the expert width as intermediate_size
    if out.get("num_experts") and not out.get("moe_intermediate_size") and _dim(cfg.get("intermediate_size")):
        out["moe_intermediate_size"] = cfg["intermediate_size"]
    # Qwen2-MoE style: one shared expert of its own width
    if _dim(cfg.get("shared_expert_intermediate_size")) and not out.get("n_shared_experts") and out.get("moe_intermediate_size"):
        out["n_shared_experts"] = max(1, round(cfg["shared_expert_intermediate_size"] / out["moe_intermediate_size"]))


def _config_sliding(cfg: dict, out: dict) -> None:
    window = cfg.get("sliding_window")
    types = cfg.get("layer_types")
    if isinstance(types, list) and types:
        local = sum(1 for t in types if t == "sliding_attention")
        if local and _dim(window):
            out["sliding_window_size"] = window
            out["num_sliding_layers"] = local
        return
    # Qwen2-style configs carry a window they do not use
    if not _dim(window) or cfg.get("use_sliding_window") is False:
        return
    out["sliding_window_size"] = window
    pattern = cfg.get("sliding_window_pattern")
    if isinstance(pattern, int) and pattern > 1:
        out["sliding_window_pattern"] = pattern
    elif str(cfg.get("model_type", "")).startswith("gemma2"):
        out["sliding_window_pattern"] = 2


def derived_max_len(config: dict) -> int | None:
    """max_model_len as vLLM derives it: the position table, stretched by a YaRN/linear/dynamic
    rope_scaling factor (llama3/longrope scaling already sits in the table)."""
    cfg = _text_config(config)
    base = cfg.get("max_position_embeddings")
    if not isinstance(base, int):
        return None
    rs = cfg.get("rope_scaling")
    if not isinstance(rs, dict):
        return base
    kind = rs.get("rope_type") or rs.get("type")
    factor = rs.get("factor")
    if kind in ("su", "longrope", "llama3", "mrope", "default") or not isinstance(factor, (int, float)):
        return base
    if kind == "yarn" and isinstance(rs.get("original_max_position_embeddings"), int):
        base = rs["original_max_position_embeddings"]
    return int(base * factor)


def read_local_config(root: str | Path, model: str | None, base: str | Path | None = None) -> dict | None:
    """The parsed config.json of a model given as a local folder inside the audited project
    (relative to `base`, the folder of the file that names it, or to the project root).
    Only a plain JSON file under `root` is read; a link out of the project, a Hub id that is
    not also a folder here, or a malformed file gives None."""
    if not model or "://" in model or "$" in model:
        return None
    top = Path(root).resolve()
    rel = Path(model)
    candidates = [rel] if rel.is_absolute() else [Path(b) / rel for b in (base, root) if b is not None]
    for folder in candidates:
        cfg = _read_json_inside(top, folder / "config.json")
        if cfg is not None:
            return cfg
    return None


def _read_json_inside(top: Path, path: Path) -> dict | None:
    try:
        real = path.resolve()
        real.relative_to(top)  # ValueError for a path (or link) leading out of the project
        if not real.is_file() or real.stat().st_size > CONFIG_MAX_BYTES:
            return None
        data = json.loads(real.read_text(encoding="utf-8"))
    except (OSError, ValueError, RuntimeError, RecursionError):  # RuntimeError: a loop of links
        return None
    return data if isinstance(data, dict) else None


# --- parameter count from the dims ------------------------------------------------------

def head_dim(arch: dict) -> int:
    return int(arch.get("head_dim") or arch["hidden_size"] // max(1, arch.get("num_attention_heads") or 1))


def attention_params(arch: dict) -> int:
    """Weights of one attention block (q, k, v, o; MLA's low-rank projections)."""
    h = arch["hidden_size"]
    heads = arch.get("num_attention_heads") or 1
    if arch.get("kv_lora_rank"):
        nope, rope = arch.get("qk_nope_head_dim") or 128, arch.get("qk_rope_head_dim") or 64
        v, kvr, qr = arch.get("v_head_dim") or 128, arch["kv_lora_rank"], arch.get("q_lora_rank")
        q = (h * qr + qr * heads * (nope + rope)) if qr else h * heads * (nope + rope)
        return q + h * (kvr + rope) + kvr * heads * (nope + v) + heads * v * h
    hd = head_dim(arch)
    kv = arch.get("num_key_value_heads") or heads
    return 2 * h * heads * hd + 2 * h * kv * hd


def expert_params(arch: dict) -> int:
    """All routed-expert weights (gate, up, down of every expert in every MoE layer)."""
    if not arch.get("num_experts"):
        return 0
    return moe_layers(arch) * arch["num_experts"] * 3 * arch["hidden_size"] * (arch.get("moe_intermediate_size") or 0)


def moe_layers(arch: dict) -> int:
    if not arch.get("num_experts"):
        return 0
    return arch["num_hidden_layers"] - (arch.get("first_k_dense_replace") or 0)


def embedding_params(arch: dict) -> int:
    """Input embedding plus the LM head (one matrix when they are tied)."""
    return (arch.get("vocab_size") or 0) * arch["hidden_size"] * (1 if arch.get("tie_word_embeddings") else 2)


def params_from_arch(arch: dict) -> tuple[float | None, float | None]:
    """(total, active) parameters in billions from the dims; (None, None) when they are missing."""
    if not arch.get("num_hidden_layers") or not arch.get("hidden_size") or not arch.get("vocab_size"):
        return None, None
    h, layers = arch["hidden_size"], arch["num_hidden_layers"]
    moe = moe_layers(arch)
    dense_mlp = 3 * h * (arch.get("intermediate_size") or 0)
    per_expert = 3 * h * (arch.get("moe_intermediate_size") or 0)
    shared = (arch.get("n_shared_experts") or 0) * per_expert
    common = embedding_params(arch) + layers * attention_params(arch) + (layers - moe) * dense_mlp + moe * shared
    total = common + expert_params(arch)
    active = common + moe * (arch.get("num_experts_per_tok") or 0) * per_expert
    return round(total / 1e9, 2), round(active / 1e9, 2)


def kv_heads_per_gpu(arch: dict, tp: int) -> int:
    """vLLM splits KV heads across TP ranks and replicates them when TP exceeds their count."""
    kv = arch.get("num_key_value_heads") or arch.get("num_attention_heads") or 1
    return max(1, kv // max(1, tp))


def tp_divides(arch: dict, tp: int) -> bool:
    """Tensor parallelism must split the attention heads evenly; KV heads are split evenly or
    replicated a whole number of times."""
    heads = arch.get("num_attention_heads")
    if not heads:
        return True
    if heads % tp:
        return False
    kv = arch.get("num_key_value_heads") or heads
    return bool(arch.get("kv_lora_rank")) or kv % tp == 0 or tp % kv == 0


def ceil_div(a: int, b: int) -> int:
    return -(-a // b) if b else 0

