#!/usr/bin/env python3
"""Build knowledge/vllm/quant_alignment.yaml: in which vLLM releases a quantized linear or MoE
layer refuses a tensor-parallel split that leaves its shard a fraction of a quantization group,
block or kernel tile (check L75 `quant-tp-alignment`), with the line that raises.

Per release, each marker below is searched in the files named (vllm/model_executor/layers/…); a
release holds the rule when one file has it, and the rule cites the first line of the marker:
  awq_group        AWQMarlin → AWQ kernel: "The input size is not aligned with the quantized weight
                   shape" for a row-parallel shard that is not a whole number of groups
  gptq_group       the GPTQ (exllama) kernel's same words (gptq.py)
  marlin_tiles     verify_marlin_supports_shape: a shard not a multiple of min_thread_n (64, output)
                   or min_thread_k (128, input), or of the group ("not divisible by min_thread_k")
  awq_marlin       the AWQ Marlin config exists (awq checkpoints run on Marlin where the GPU allows)
  awq_marlin_fallback   AWQMarlinConfig.get_quant_method hands a layer Marlin cannot take to the AWQ
                   kernel (check_marlin_supports_layer) instead of raising in Marlin
  gptq_marlin_direct    GPTQMarlinLinearMethod.create_weights calls verify_marlin_supports_shape itself
  gptq_mp_fallback the mixed-precision kernel chooser lists a kernel after Marlin that can take a
                   shard Marlin cannot (ExllamaLinearKernel): a refusal there is not certain
  fp8_block_linear block-FP8 linear layers: "Weight input_size_per_partition = … is not divisible by
                   weight quantization block_k" (row-parallel shards)
  fp8_block_moe    block-FP8 fused MoE: "The output_size of gate's and up's weight = … is not
                   divisible by weight quantization block_n"
  fp8_moe_refine   the FP8 MoE oracle refines the checkpoint's block scales to a finer block that
                   divides the shard (refine_fp8_moe_block_shape) before it validates
  ct_block         compressed-tensors reads FP8 block strategies (QuantizationStrategy.BLOCK)
  fp8_marlin       weight-only FP8 through Marlin on GPUs without FP8 (compute capability 8.0-8.8):
                   prepare_fp8_layer_for_marlin repacks each partition with gptq_marlin_repack, whose
                   TORCH_CHECKs refuse size_k % 16 and size_n % 64 ("size_n = … is not divisible by
                   tile_n_size = 64")
  fp8_marlin_pads  the FP8 Marlin repack pads a partition up to the tile family (marlin_padded_nk)
                   instead: no refusal where it is
  fp4_marlin       NVFP4 weights through Marlin on GPUs without FP4 tensor cores (below compute
                   capability 10.0: ModelOpt's NVFP4 linear method, use_marlin / the MARLIN NVFP4 GEMM
                   backend): prepare_fp4_layer_for_marlin repacks each partition with gptq_marlin_repack,
                   whose TORCH_CHECKs refuse size_k % 16 and size_n % 64
  fp4_marlin_pads  the FP4 Marlin repack pads a partition up to the tile family (marlin_padded_nk)
  fp8_block_no_marlin   Fp8LinearMethod turns Marlin off for block-FP8 checkpoints ("Marlin doesn't
                   support block-wise fp8"): block FP8 takes Marlin on those GPUs only outside it
  minicpmv_vision_quant MiniCPM-V 2.5+ builds its SigLIP tower (Idefics2VisionTransformer, prefix vpm)
                   with the checkpoint's quant_config: the tower's layers meet the same checks
  awq_stored_dtypes     AWQ reads the safetensors' dtypes when modules_to_not_convert is empty and
                   leaves the layers stored in 16 bits unquantized (maybe_update_config): whether a
                   vision tower is quantized is then the weight files', not config.json's
  gptq_stored_dtypes    GPTQ Marlin likewise (modules_in_block_to_quantize from the stored dtypes)
  gptq_moe_wna16   GPTQMarlinConfig hands a fused MoE whose expert shard Marlin MoE cannot take
                   (check_moe_marlin_supports_layer: intermediate_size_per_partition % max(64, group))
                   to the MoE WNA16 kernels; for 4-bit groups of 32/64/128 their CUDA kernel (small
                   batches: the CUDA graph captures) has block_size_k 128 and csrc/moe/moe_wna16.cu
                   raises "size_k must divisible by BLOCK_SIZE_K" on the down projection's shard
  auto_round_gptq_marlin  an AutoRound checkpoint (quant_method auto-round: AutoRoundConfig, then INCConfig)
                   packed as GPTQ goes, 4- or 8-bit symmetric, to the GPTQ Marlin linear method
                   (apply_gptq_quant_layer's GPTQ_TYPE_MAP), whose layers meet marlin_tiles
  wna16_cuda_six   the CUDA mixed-precision kernels are exactly Cutlass W4A8, Machete (both compute
                   capability 9.0), AllSpark (no group size but -1 on 8.x), Marlin, Conch (its package,
                   not a CUDA requirement) and Exllama (float16 activations only): on an 8.x GPU with
                   bfloat16 activations and grouped weights no kernel takes a shard Marlin refuses

Usage:
  python tools/vllm_quant_alignment.py --source /work/sdists/src -o knowledge/vllm/quant_alignment.yaml
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

VERSION_DIR = re.compile(r"\d+(\.\d+)+$")
Q = "vllm/model_executor/layers/quantization"
MOE = "vllm/model_executor/layers/fused_moe"

MARKERS: dict[str, tuple[tuple[str, ...], str]] = {
    "awq_group": ((f"{Q}/awq.py", f"{Q}/auto_awq.py"), "The input size is not aligned with the quantized"),
    "gptq_group": ((f"{Q}/gptq.py",), "The input size is not aligned with the quantized"),
    "marlin_tiles": ((f"{Q}/utils/marlin_utils.py", f"{Q}/gptq_marlin.py"), "min_thread_k = {"),
    "awq_marlin": ((f"{Q}/awq_marlin.py", f"{Q}/auto_awq.py"), "def get_quant_method("),
    "awq_marlin_fallback": ((f"{Q}/awq_marlin.py", f"{Q}/auto_awq.py"), "if not check_marlin_supports_layer("),
    "gptq_marlin_direct": ((f"{Q}/gptq_marlin.py",), "verify_marlin_supports_shape("),
    "gptq_mp_fallback": ((f"{Q}/kernels/mixed_precision/__init__.py", f"{Q}/kernels/__init__.py",
                          "vllm/model_executor/kernels/linear/__init__.py"), "ExllamaLinearKernel,"),
    "fp8_block_linear": ((f"{Q}/fp8.py", f"{Q}/utils/fp8_utils.py"), "Weight input_size_per_partition = "),
    "fp8_block_moe": ((f"{Q}/fp8.py", f"{Q}/utils/fp8_utils.py"), "The output_size of gate's and up's weight"),
    "fp8_moe_refine": ((f"{MOE}/oracle/fp8.py",), "def refine_fp8_moe_block_shape("),
    "ct_block": ((f"{Q}/compressed_tensors/compressed_tensors.py",), "QuantizationStrategy.BLOCK"),
    "fp8_marlin": ((f"{Q}/utils/marlin_utils_fp8.py",), "def prepare_fp8_layer_for_marlin("),
    "fp8_marlin_pads": ((f"{Q}/utils/marlin_utils_fp8.py",), "marlin_padded_nk("),
    "fp4_marlin": ((f"{Q}/utils/marlin_utils_fp4.py",), "def prepare_fp4_layer_for_marlin("),
    "fp4_marlin_pads": ((f"{Q}/utils/marlin_utils_fp4.py",), "marlin_padded_nk("),
    "fp8_block_no_marlin": ((f"{Q}/fp8.py",), "Marlin doesn't support block-wise fp8"),
    "minicpmv_vision_quant": (("vllm/model_executor/models/minicpmv.py",),
                              r"Idefics2VisionTransformer\(\s*config\.vision_config,\s*quant_config=quant_config"),
    "awq_stored_dtypes": ((f"{Q}/awq_marlin.py", f"{Q}/auto_awq.py"), "def maybe_update_config("),
    "gptq_stored_dtypes": ((f"{Q}/gptq_marlin.py", f"{Q}/auto_gptq.py"), "def maybe_update_config("),
    "gptq_moe_wna16": ((f"{Q}/gptq_marlin.py",), "if not check_moe_marlin_supports_layer("),
    "auto_round_gptq_marlin": ((f"{Q}/auto_round.py", f"{Q}/inc.py"), "(4, True): scalar_types.uint4b8,"),
    "wna16_cuda_six": (("vllm/model_executor/kernels/linear/__init__.py", f"{Q}/kernels/mixed_precision/__init__.py"),
                       r"PlatformEnum\.CUDA: \[\s*CutlassW4A8LinearKernel,\s*MacheteLinearKernel,\s*AllSparkLinearKernel,"
                       r"\s*MarlinLinearKernel,\s*ConchLinearKernel,\s*ExllamaLinearKernel,\s*\]"),
}
# gptq_marlin_direct: the call inside create_weights, not the import (a line that is only a name)
_CALL_ONLY = {"gptq_marlin_direct"}
# markers that span lines (a call's arguments): a regular expression over the whole file
_MULTILINE = {"minicpmv_vision_quant", "wna16_cuda_six"}


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def find(root: Path, rule: str) -> tuple[str, int] | None:
    files, marker = MARKERS[rule]
    for rel in files:
        f = root / rel
        if not f.is_file():
            continue
        if rule in _MULTILINE:
            text = f.read_text(encoding="utf-8", errors="replace")
            m = re.search(marker, text)
            if m:
                return rel, text.count("\n", 0, m.start()) + 1
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if marker in line and (rule not in _CALL_ONLY or line.strip().startswith(marker)):
                return rel, i
    return None


def build(source: Path) -> dict:
    releases = sorted((d.name for d in source.iterdir() if d.is_dir() and VERSION_DIR.match(d.name)), key=vkey)
    releases = [r for r in releases if (source / r / Q).is_dir()]
    rules: dict[str, dict] = {}
    for rule in MARKERS:
        spans: list[list[str]] = []
        cites: list[dict] = []
        last_file = None
        prev_in = False
        for r in releases:
            got = find(source / r, rule)
            if got is None:
                prev_in = False
                continue
            if prev_in:
                spans[-1][1] = r
            else:
                spans.append([r, r])
            if not prev_in or got[0] != last_file:
                cites.append({"release": r, "file": got[0], "line": got[1]})
            last_file = got[0]
            prev_in = True
        for s in spans:  # the last release of each span too, so each end is cited
            if not any(c["release"] == s[1] for c in cites):
                got = find(source / s[1], rule)
                cites.append({"release": s[1], "file": got[0], "line": got[1]})
        cites.sort(key=lambda c: vkey(c["release"]))
        rules[rule] = {"spans": spans, "source": cites}
    return {"releases": releases, "rules": rules}


HEADER = """# Where each vLLM release refuses a quantized layer's tensor-parallel shard that is not a whole number
# of quantization groups, FP8 weight blocks or Marlin tiles (check L75 quant-tp-alignment), built by
# tools/vllm_quant_alignment.py from the sources. Do not edit by hand.
#   spans:  [first, last] releases whose sources hold the rule's marker (the tool's docstring)
#   source: the marker's line where a span starts, where it moves to another file, and where it ends
"""


def dump(data: dict) -> str:
    out = [HEADER, "version: 1", "releases: [" + ", ".join(f'"{r}"' for r in data["releases"]) + "]", "rules:"]
    for rule, body in data["rules"].items():
        out.append(f"  {rule}:")
        out.append("    spans: [" + ", ".join(f'["{a}", "{b}"]' for a, b in body["spans"]) + "]")
        out.append("    source:")
        for c in body["source"]:
            out.append(f'      - {{release: "{c["release"]}", file: {c["file"]}, line: {c["line"]}}}')
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, default=Path("/work/sdists/src"))
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args()
    text = dump(build(args.source))
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
