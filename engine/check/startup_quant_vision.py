"""The vision tower's part of check L75 `quant-tp-alignment`: a multimodal checkpoint quantized
whole, vision encoder included, whose tower vLLM builds with the checkpoint's quantization config.
The same kernel checks then meet the tower's own widths, which were never padded for them:
MiniCPM-V 2.6's SigLIP MLP is 4304 wide (67.25 × 64), so AWQ-Marlin refuses its fc1
("Weight output_size_per_partition = 4304 is not divisible by  min_thread_n = 64", vllm#11128) and
the AWQ kernel its fc2 (4304 is not whole 128-groups) — at tensor_parallel_size 1 already.

Judged only where config.json decides it: the release builds the tower quantized
(knowledge/vllm/quant_alignment.yaml `minicpmv_vision_quant`), the quantization config leaves no
module of the tower out (AWQ's modules_to_not_convert, matched as a substring of the layer's
prefix as is_layer_skipped_awq does; a GPTQ `dynamic` rule set is not read), and the release does
not yet read the weight files' dtypes to find the layers stored unquantized (`awq_stored_dtypes`,
`gptq_stored_dtypes`: from then on the weight files decide). Only the full widths are judged: a
width that fails unsplit fails at every TP, whether the release splits the tower or replicates it."""
from __future__ import annotations

from vllm_kb.engine.kb.versions import Version, try_parse

MIN_THREAD_N, MIN_THREAD_K = 64, 128  # GPTQ_MARLIN_MIN_THREAD_N / _K (marlin_utils.py, every release)

# architecture → (the tower's module prefix in vLLM, the rule whose releases build it quantized)
TOWERS = {"MiniCPMV": ("vpm", "minicpmv_vision_quant")}
_STORED = {"awq": "awq_stored_dtypes", "gptq": "gptq_stored_dtypes"}


def in_span(table: dict, rule: str, version: str) -> bool:
    v = try_parse(version)
    if v is None or rule not in table.get("rules", {}):
        return False
    return any(not v < Version(a) and not Version(b) < v for a, b in table["rules"][rule]["spans"])


def _layers(prefix: str, widths: dict) -> list[tuple[str, int, int]]:
    """(layer, input width, output width) of one encoder layer, in the order vLLM builds them
    (Idefics2EncoderLayer: self_attn's qkv_proj and out_proj, then the MLP's fc1 and fc2)."""
    h, i = widths["hidden_size"], widths["intermediate_size"]
    return [(f"{prefix}.encoder.layers.0.{name}", k, n) for name, k, n in LAYERS(h, i)]


def LAYERS(h: int, i: int) -> list[tuple[str, int, int]]:  # noqa: N802 (a table)
    return [("self_attn.qkv_proj", h, 3 * h), ("self_attn.out_proj", h, h), ("mlp.fc1", h, i), ("mlp.fc2", i, h)]


def tower(model: dict, table: dict, version: str) -> tuple[str, list[tuple[str, int, int]]] | None:
    """The tower's prefix and layers where this release builds them quantized for certain."""
    arch, widths = model.get("architecture"), model.get("vision_mlp")
    method = model.get("quant_method")
    if arch not in TOWERS or not isinstance(widths, dict) or method not in _STORED:
        return None
    prefix, rule = TOWERS[arch]
    if not in_span(table, rule, version) or in_span(table, _STORED[method], version):
        return None
    layers = _layers(prefix, widths)
    skips = model.get("quant_skip_modules") or []
    if any(s == "*" or any(s in name for name, _, _ in layers) for s in skips):
        return None  # some of the tower is left unquantized (or a rule set not read here may leave it)
    return prefix, layers


def _marlin(k: int, n: int, group: int) -> tuple[str, int, int] | None:
    """verify_marlin_supports_shape's first refusal: output, then input, then the group."""
    if n % MIN_THREAD_N:
        return "min_thread_n", MIN_THREAD_N, n
    if k % MIN_THREAD_K:
        return "min_thread_k", MIN_THREAD_K, k
    if 0 < group < k and k % group:
        return "group_size", group, k
    return None


def vision_hit(model: dict, kernel: str, table: dict, version: str):
    """(layer, width, 'vision', (unit name, unit, shard, rule, certain)) of the first tower layer the
    kernel refuses, in the shape of startup_quant_tp._first; None when it takes them all or the
    tower is not judged. `kernel`: awq, gptq, awq_marlin or gptq_marlin (startup_quant_tp._kernel)."""
    got = tower(model, table, version)
    if got is None or kernel not in ("awq", "gptq", "awq_marlin", "gptq_marlin"):
        return None
    group = model.get("quant_group_size") or -1
    for full, k, n in got[1]:
        name = full.split(".", 4)[-1]  # the layer within an encoder layer: self_attn.qkv_proj … mlp.fc2
        plain = kernel in ("awq", "gptq")
        if kernel == "awq_marlin" or kernel == "gptq_marlin":
            refused = _marlin(k, n, group)
            if refused is None:
                continue
            if kernel == "awq_marlin" and in_span(table, "awq_marlin_fallback", version):
                plain = True  # the layer goes to the AWQ kernel, which checks the groups only
            else:
                certain = kernel == "awq_marlin" or not in_span(table, "gptq_mp_fallback", version)
                unit_name, unit, shard = refused
                return name, shard, "vision", (unit_name, unit, shard, "marlin_tiles", certain)
        if plain and group > 0 and k % group:
            rule = "awq_group" if kernel.startswith("awq") else "gptq_group"
            return name, k, "vision", ("group_size", group, k, rule, in_span(table, rule, version))
    return None
