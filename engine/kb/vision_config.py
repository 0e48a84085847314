"""The vision encoder a multimodal checkpoint's config.json describes, read as the catalog's
`tiled_vision` (Mllama) and `vision` (the Qwen2-VL family) entries are, so that a local copy of
the checkpoint gets the encoder's part of vLLM's profile run (engine/check/memory/encoder.py)
the way its Hub id does; and the parameters of the tower and projector, which the text model's
dims leave out of params_b. Defaults are those of the transformers config classes
(MllamaVisionConfig, Qwen2VLVisionConfig, Qwen2_5_VLVisionConfig), for a trimmed config."""
from __future__ import annotations

from typing import Any

# Qwen2VLImageProcessor's max_pixels (the preprocessor_config.json of Qwen's uploads says the same);
# what vLLM's dummy image is sized to unless mm_processor_kwargs says otherwise
_QWEN_MAX_PIXELS = 12845056
# MllamaVisionConfig.intermediate_layers_indices: the hidden states kept for the projector
_MLLAMA_KEPT = (3, 7, 15, 23, 30)
# MllamaVisionConfig.supported_aspect_ratios has 8 entries; the embeddings take one more id (padding)
_MLLAMA_ASPECT_IDS = 9


def vision_from_config(config: dict) -> dict[str, Any]:
    """Facts from config.json's vision_config: `multimodal`, `tiled_vision` or `vision`, and the
    tower's parameters in billions (`vision_params_b`). Empty when there is no vision_config."""
    vc = config.get("vision_config")
    if not isinstance(vc, dict):
        # Qwen-VL (QWenLMHeadModel, like the text Qwen) keeps its vision tower's settings under `visual`
        return {"multimodal": True} if isinstance(config.get("visual"), dict) else {}
    out: dict[str, Any] = {"multimodal": True}
    kind = str(config.get("model_type") or "")
    if kind == "minicpmv" and _version(config.get("version")) >= 2.5:
        # 2.5 and later: a SigLIP tower (vLLM's Idefics2VisionTransformer); 2.0's timm tower is not read.
        # Its widths as given (no default): startup_quant_vision judges them against the quantization
        h, i = _dim(vc.get("hidden_size")), _dim(vc.get("intermediate_size"))
        if h and i:
            out["vision_mlp"] = {"hidden_size": h, "intermediate_size": i}
    inner = config.get("text_config")
    text: dict = inner if isinstance(inner, dict) else config
    out_width = _dim(text.get("hidden_size")) or 0
    if kind == "mllama":
        h, i = _get(vc, "hidden_size", 1280), _get(vc, "intermediate_size", 5120)
        side, patch, tiles = _get(vc, "image_size", 560), _get(vc, "patch_size", 14), _get(vc, "max_num_tiles", 4)
        kept = vc.get("intermediate_layers_indices")
        stored = len(kept) if isinstance(kept, list) and kept else len(_MLLAMA_KEPT)
        out["tiled_vision"] = {"hidden_size": h, "intermediate_size": i, "image_size": side, "patch_size": patch,
                               "max_num_tiles": tiles, "stored_layers": stored}
        layers = _get(vc, "num_hidden_layers", 32) + _get(vc, "num_global_layers", 8)
        patches = (side // patch) ** 2 + 1
        params = (layers * (4 * h * h + 2 * h * i) + _MLLAMA_ASPECT_IDS * tiles * patches * h
                  + 3 * patch * patch * h + _get(vc, "vision_output_dim", 7680) * out_width)
        out["vision_params_b"] = round(params / 1e9, 2)
    elif kind in ("qwen2_vl", "qwen2_5_vl"):
        swiglu = kind == "qwen2_5_vl"
        h = _get(vc, "hidden_size" if swiglu else "embed_dim", 1280)
        i = _get(vc, "intermediate_size", 3420) if swiglu else h * _get(vc, "mlp_ratio", 4)
        patch, merge, frames = _get(vc, "patch_size", 14), _get(vc, "spatial_merge_size", 2), _get(vc, "temporal_patch_size", 2)
        out["vision"] = {"hidden_size": h, "intermediate_size": i, "mlp": "swiglu" if swiglu else "gelu",
                         "patch_size": patch, "spatial_merge_size": merge, "temporal_patch_size": frames,
                         "max_pixels": _QWEN_MAX_PIXELS, "source": "config.json"}
        merged = h * merge * merge
        projected = _dim(vc.get("out_hidden_size")) or (_dim(vc.get("hidden_size")) if not swiglu else None) or out_width
        params = (_get(vc, "depth", 32) * (4 * h * h + (3 if swiglu else 2) * h * i)
                  + merged * merged + merged * projected + 3 * frames * patch * patch * h)
        out["vision_params_b"] = round(params / 1e9, 2)
    return out


def _dim(v) -> int | None:
    """A positive whole width, or None (a project's file may say anything)."""
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 1 << 24 else None


def _version(v) -> float:
    """MiniCPM-V's config.json `version` (2.5, 2.6, "4.0" …), 0 when absent or not a number."""
    try:
        return float(v) if isinstance(v, (int, float, str)) and not isinstance(v, bool) else 0.0
    except ValueError:
        return 0.0


def _get(cfg: dict, key: str, default: int) -> int:
    return _dim(cfg.get(key)) or default
