"""The quantization method vLLM resolves a ModelOpt checkpoint's quantization config to.

ModelOpt writes quant_method "modelopt" for every format and names the format in quant_algo (at
the top level from ModelOpt 0.31, config.json's quantization_config); before 0.31 it wrote
hf_quant_config.json beside config.json, with no quant_method at all: `producer.name` modelopt and
`quantization.quant_algo`, which vLLM reads when config.json has no quantization_config (0.10.1+,
vllm/transformers_utils/config.py) and turns into a method (vllm/config/__init__.py 0.10.1,
vllm/config/model.py 0.11.0:865-875, model_arch_config_convertor.py 0.15.0:145-160). Either way an
NVFP4 export is modelopt_fp4 (ModelOptNvFp4Config.override_quantization_method, 0.15.0
modelopt.py:1050-1079), sized at 4 bits and judged by the FP4 kernels' checks, not FP8's."""
from __future__ import annotations

_FP8_ALGOS = frozenset({"FP8", "FP8_PER_CHANNEL_PER_TOKEN", "FP8_PB_WO"})


def modelopt_config(quant: dict) -> dict:
    """hf_quant_config.json's layout read as vLLM reads it: the method set from the producer's
    quant_algo, and the nested `quantization` keys (exclude_modules, group_size, the KV-cache
    algorithm) lifted to the top where the other readers look. Any other config as it is."""
    producer, inner = quant.get("producer"), quant.get("quantization")
    if "quant_method" in quant or not isinstance(producer, dict) or producer.get("name") != "modelopt" \
            or not isinstance(inner, dict):
        return quant
    algo = str(inner.get("quant_algo") or "").upper()
    method = "modelopt_fp4" if algo == "NVFP4" else "modelopt" if algo in _FP8_ALGOS else None
    return {**quant, **inner, "quant_method": method} if method else quant


def resolved_method(quant: dict, method: str) -> str:
    """The method vLLM resolves a config's quant_method (`method`, normalised) to: a ModelOpt
    "modelopt" whose quant_algo names FP4 (under `quantization` only NVFP4) is modelopt_fp4."""
    if method != "modelopt":
        return method
    nested = quant.get("quantization")
    algo = (nested if isinstance(nested, dict) else quant).get("quant_algo")
    if isinstance(algo, str) and ("NVFP4" in algo.upper() if isinstance(nested, dict) else "FP4" in algo.upper()):
        return "modelopt_fp4"
    return method
