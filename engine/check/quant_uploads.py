"""Which quantized upload L75 (quant-tp-alignment) judges from its name alone, and where the widths it
judges were read (engine/check/startup_quant_tp.py)."""
from __future__ import annotations


def config_read(model: dict, named: bool) -> str:
    """Where the quantization_config (and the widths) were read: the local folder's config.json, the Hub
    config.json the catalog row records, or for a name-only upload the base checkpoint's."""
    source = str((model.get("dims_from") if named else None) or model.get("arch_source") or "")
    name = str(model.get("name") or ".").rstrip("/")
    if source == "config.json" or (not source and name.startswith((".", "/", "~"))):
        return f"{name}/config.json"
    return source or f"https://huggingface.co/{name}/blob/main/config.json"  # the catalog's row for that upload


def name_only_method(model: dict) -> bool:
    """AWQ, or compressed-tensors integer weights with 16-bit activations (W4A16 / W8A16 by the name):
    the quantizers (AutoAWQ, llm-compressor) keep the widths they are given, no padding."""
    method = model.get("quant_method")
    return method == "awq" or (method == "compressed-tensors" and model.get("quant_scheme") == "wna16")


def third_party_upload(model: dict, publishers: list[str] | None) -> bool:
    """An AWQ or compressed-tensors WNA16 upload only its name says is quantized, by an organisation
    other than the base model's publishers, of a model whose widths the catalog gives exactly (the
    model's own entry, or a fine-tune of it, which keeps them). AutoAWQ and llm-compressor quantize the
    widths as they are; only a publisher pads its own uploads for TP (Qwen's 72B: 29568 → 29696, which
    the catalog lists), so these uploads carry the base model's widths. GPTQ is left out: an asymmetric
    GPTQ upload with a small group is not Marlin's and the plain kernel takes the width."""
    name = model.get("name")
    if publishers is None or model.get("quant_source") != "name" or not name_only_method(model) \
            or model.get("dims_family") or not str(model.get("arch_source") or "").startswith("https://") \
            or not isinstance(name, str) or name.startswith((".", "/", "~")) or name.count("/") != 1:
        return False
    return name.split("/")[0].lower() not in {p.lower() for p in publishers}
