"""What a popular Hub upload's own config.json and tokenizer_config.json say, for a launch that
names it by its Hub id without the project holding a copy (knowledge/hub_uploads.yaml). vLLM
reads those files when it starts; the audit, which downloads nothing, reads the row written from
them instead: the dtype the upload was saved in (`--dtype auto` keeps it), its quantization_config
(method, bits, group size, zero point …) and its tokenizer class. A row is a fact about that
repository as its source shows it, read the way engine/kb/model_config.py reads the files
themselves; what a row does not say stays what the name and the catalog say."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.model_config import config_scalars

# the facts a row's files decide (the rest of config.json — shapes, context — is the catalog's)
_TAKEN = ("torch_dtype", "quantized", "quant_method", "quant_source", "quant_scheme", "quant_group_size", "quant_block",
          "quant_bits", "quant_zero_point", "quant_sym", "quant_packing", "quant_unquantized", "tokenizer_class")
_NAME_GUESSES = ("quant_scheme", "quant_group_size", "quant_block", "quant_bits", "quant_zero_point", "quant_sym", "quant_packing",
                 "quant_unquantized")


def row_for(name: str | None, table: dict | None) -> dict | None:
    """The row of the Hub id `name` (`org/name`, as the Hub matches it: case aside), or None."""
    if not name or not table or name.count("/") != 1 or name.startswith((".", "/", "~")):
        return None
    key = name.strip().lower()
    for row in table.get("uploads") or []:
        if str(row.get("repo", "")).lower() == key:
            return row
    return None


def config_of(row: dict) -> tuple[dict, dict | None]:
    """The parts of config.json and tokenizer_config.json the row records."""
    cfg: dict[str, Any] = {}
    if row.get("torch_dtype"):
        cfg["torch_dtype"] = row["torch_dtype"]
    quant = row.get("quantization_config")
    if isinstance(quant, dict):
        cfg["quantization_config"] = dict(quant)
    tok = {"tokenizer_class": row["tokenizer_class"]} if row.get("tokenizer_class") else None
    return cfg, tok


def apply(facts: dict[str, Any], row: dict) -> dict[str, Any]:
    """`facts` (engine/kb/models.py model_facts) with what the row's files say in place of what
    the name guessed."""
    cfg, tok = config_of(row)
    said: dict[str, Any] = {}
    config_scalars(said, cfg, tok)
    if "quantization_config" not in cfg:
        # the row records the dtype (or the tokenizer) only: whether it is quantized stays the name's
        for k in ("quantized", "quant_source"):
            said.pop(k, None)
    out = dict(facts)
    if "quantization_config" in cfg:
        for k in _NAME_GUESSES:
            out.pop(k, None)
    out.update({k: said[k] for k in _TAKEN if k in said})
    if "torch_dtype" in said:
        out["torch_dtype_source"] = "upload"
    if cfg or tok:  # a row of weight formats alone says nothing of config.json
        out["upload_facts"] = str(row.get("source") or "")
    if row.get("tokenizer_format"):  # only mistral_common reads it: which tokenizer_mode starts it is L166's
        out["tokenizer_format"] = row["tokenizer_format"]
    if row.get("params_json") is False:  # an HF-format upload: --config-format mistral finds no params.json (L165)
        out["params_json"] = False
    if row.get("quant_nested"):  # the upload's layout as its evidence shows it, not the catalog's guess (L23)
        out["quant_nested"] = out["quant_nested_known"] = True
    if row.get("weight_formats"):
        out["weight_formats"], out["weights_seen"] = list(row["weight_formats"]), "upload"
    if isinstance(shared := row.get("kv_shared_without_k_norm"), dict):  # L153 reads a folder's index the same way
        out["kv_shared_k_norm_missing"], out["kv_shared_first"] = shared["count"], shared["first"]
    return out
