"""The quantization-shape part of the `startup` facts (check L75 `quant-tp-alignment`): whether the
tensor-parallel split leaves every quantized layer's shard a whole number of quantization groups
(AWQ, GPTQ, compressed-tensors integer weights), FP8 weight blocks, or Marlin tiles, in the way the
release checks it while the model is built — and the TP (or expert parallelism) that does.
Only what the checkpoint itself says is judged: method, group or block, and widths from its config.json (or a
catalog entry for that very checkpoint); an upload may pad its widths (Qwen's 72B AWQ/GPTQ: intermediate_size
29568 → 29696 so that TP 8 splits whole groups), so the base model's widths never stand in.

The releases each refusal holds in: knowledge/vllm/quant_alignment.yaml (tools/vllm_quant_alignment.py); the layers:
  row-parallel MLP (down_proj, input = intermediate / TP): groups, block_k, Marlin's min_thread_k
  merged column (gate_up_proj, output = intermediate / TP): Marlin's min_thread_n
  fused MoE experts (intermediate / the MoE's TP, 1 with expert parallelism): FP8 block_n/block_k,
    a GPTQ MoE's fallback to the MoE WNA16 CUDA kernel (BLOCK_SIZE_K 128)
  an AutoRound gated-delta-net's in_proj_ba (Qwen3-Next, Qwen3.5/3.6: b and a, one output per value head each,
    output = 2 × value heads / TP): Marlin's min_thread_n
  a Mamba2 mixer's in_proj (x, z, B, C and dt: 2 × intermediate + 2 × groups × state + heads outputs, / TP),
    judged for NVFP4 on FP4 Marlin only (fp4_marlin: its repack's tile_n_size), unless a 16-bit list names it
An AutoRound checkpoint packed as GPTQ (auto_round:auto_gptq) runs on GPTQ Marlin (0.9.0-0.23.0). Attention
projections split whole heads, which the 128-wide blocks and groups of the common head sizes divide: not judged."""
from __future__ import annotations

import math
from typing import Any

from vllm_kb.engine.check.quant_uploads import config_read, third_party_upload
from vllm_kb.engine.check.startup_quant import min_capability
from vllm_kb.engine.check.startup_quant_vision import TOWERS, in_span, vision_hit
from vllm_kb.engine.kb.model_arith import has_dense_mlp
from vllm_kb.engine.kb.versions import Version, try_parse

MIN_THREAD_N, MIN_THREAD_K = 64, 128  # GPTQ_MARLIN_MIN_THREAD_N / _K (marlin_utils.py, every release)
FP8_MARLIN_TILE_N, FP8_MARLIN_TILE_K = 64, 16  # marlin::tile_n_size / tile_k_size (csrc marlin.cuh, every release)
_WNA16_BLOCK_K = 128  # get_moe_wna16_block_config's CUDA block_size_k (fused_moe.py, 0.8.0+)
_REFINE_MIN = 32  # refine_fp8_moe_block_shape: a finer block below 32 is not tried
_TP_LIMIT = 64
_in = in_span  # whether the release lies in one of the rule's spans


def _int(v) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


def layers(model: dict) -> list[tuple[str, int, str]]:
    """(layer, full width, kind) of the MLP layers TP splits: `dense` (down_proj / gate_up_proj of a
    dense MLP or of the shared experts) or `experts` (the fused MoE)."""
    out: list[tuple[str, int, str]] = []
    moe = _int(model.get("num_experts"))
    inter, expert = _int(model.get("intermediate_size")), _int(model.get("moe_intermediate_size"))
    if has_dense_mlp(model) and inter:
        out.append(("mlp", inter, "dense"))
    if moe and expert:
        shared = _int(model.get("n_shared_experts"))
        if shared:
            out.append(("shared_experts", shared * expert, "dense"))
        out.append(("experts", expert, "experts"))
    ssm = model.get("ssm")
    ssm = ssm if isinstance(ssm, dict) else {}
    if ssm.get("kind") == "gdn" and (heads := _int(ssm.get("v_heads"))) and model.get("quant_method") in ("auto-round", "inc") \
            and not model.get("quant_layers_listed"):
        # create_ba_proj: a MergedColumnParallelLinear of [v_heads] * 2 (or one 2 × v_heads) outputs over
        # the whole hidden size, built with the checkpoint's quant_config (gdn_linear_attn.py 0.19.1:396).
        # Judged for AutoRound, whose default recipe quantizes in_proj_a/in_proj_b; a GPTQ or
        # compressed-tensors upload's ignore rules (not read here) often keep the layer in 16 bits; nor is it
        # where the AutoRound config's extra_config may set in_proj_a/in_proj_b's own bits (quant_layers_listed)
        out.append(("in_proj_ba", 2 * heads, "column"))
    if ssm.get("kind") == "mamba2" and all(_int(ssm.get(k)) for k in ("intermediate", "groups", "state", "heads")) \
            and not model.get("quant_layers_listed"):
        # MambaMixer2.in_proj over the whole hidden size (mamba_mixer2.py); only FP4 Marlin judges it (_refusal)
        out.append(("in_proj", 2 * ssm["intermediate"] + 2 * ssm["groups"] * ssm["state"] + ssm["heads"], "mamba_in"))
    return out


def _kernel(method: str, flag: str | None, model: dict, table: dict, startup_table: dict,
            cc: float | None, version: str) -> str | None:
    """The kernel family vLLM builds the checkpoint's linear layers with."""
    if method == "fp8":
        return "fp8_block" if model.get("quant_block") else None
    if method == "compressed-tensors":
        if model.get("quant_block") and model.get("quant_scheme") == "fp8" and _in(table, "ct_block", version):
            return "fp8_block"
        if model.get("quant_scheme") == "wna16" and model.get("quant_group_size"):
            return "ct_wna16"
        return None
    if method in ("auto-round", "inc"):
        return _auto_round(flag, model, table, startup_table, cc, version)
    if method not in ("awq", "gptq") or not model.get("quant_group_size"):
        return None
    marlin = f"{method}_marlin"
    if flag and flag != marlin and flag != "marlin":
        return method  # --quantization awq/gptq keeps the plain kernel
    need = min_capability(startup_table, marlin, None, version)
    exists = _in(table, "awq_marlin" if method == "awq" else "marlin_tiles", version)
    if flag in (marlin, "marlin"):
        return marlin if exists else method
    if not exists or need is None or cc is None:
        return method if not exists else None  # the GPU decides between the two: unknown
    return marlin if round(cc * 10) >= need else method


def _auto_round(flag: str | None, model: dict, table: dict, startup_table: dict, cc: float | None, version: str) -> str | None:
    """AutoRoundConfig / INCConfig.apply_gptq_quant_layer on CUDA: a GPTQ-packed 4- or 8-bit symmetric
    layer goes to GPTQ Marlin where check_marlin_supported takes its group size and the GPU (8.0+, 7.5
    from 0.14), else to the plain GPTQ kernel; AWQ packing and other releases are not judged."""
    if flag and flag not in ("auto-round", "inc") or model.get("quant_packing", "gptq") != "gptq" \
            or not _in(table, "auto_round_gptq_marlin", version):
        return None
    group, need = model.get("quant_group_size"), min_capability(startup_table, "gptq_marlin", None, version)
    if model.get("quant_bits") not in (4, 8) or model.get("quant_sym") is not True or group not in (-1, 32, 64, 128) \
            or need is None or cc is None:
        return None
    return "gptq_marlin" if round(cc * 10) >= need else None


def _no_fallback(kernel: str | None, model: dict, engine: dict, cc: float | None, table: dict, version: str) -> bool:
    """Whether GPTQ Marlin's mixed-precision kernel chooser has nothing to take a shard Marlin refuses
    (wna16_cuda_six): Cutlass W4A8 and Machete need 9.0, AllSpark no group size but -1 on 8.x, Conch
    its own package (not a CUDA requirement of vLLM), Exllama float16 activations. So on an 8.x GPU
    with grouped weights and bfloat16 activations the refusal is certain ("Failed to find a kernel
    that can implement the WNA16 linear layer")."""
    if kernel not in ("gptq_marlin", "ct_wna16") or cc is None or not 8.0 <= cc < 9.0 or not _in(table, "wna16_cuda_six", version):
        return False
    if (model.get("quant_group_size") or -1) <= 0:
        return False
    dtype = str(engine.get("dtype") or "auto").lower()
    return dtype in ("bfloat16", "bf16") or (dtype == "auto" and model.get("torch_dtype") == "bfloat16")


def fp8_marlin(model: dict, out: dict, table: dict, cc: float | None, version: str) -> bool:
    """Whether vLLM runs the FP8 checkpoint's linear layers as weight-only FP8 through Marlin and
    refuses a partition the tiles do not divide: a GPU of compute capability 8.0-8.8 (no FP8 tensor
    cores; fp8.py `use_marlin = not has_device_capability(89)`, likewise compressed-tensors'
    W8A16Fp8 and fbgemm_fp8) in a release whose repack does not pad (fp8_marlin, not
    fp8_marlin_pads). A block-FP8 checkpoint skipped Marlin in 0.6.6-0.8.5 (fp8_block_no_marlin),
    so a checkpoint whose format only its name says ("-FP8") is judged outside those releases."""
    if cc is None or not 8.0 <= cc < 8.9 or not _in(table, "fp8_marlin", version) or _in(table, "fp8_marlin_pads", version):
        return False
    method, source = model.get("quant_method"), model.get("quant_source")
    if method == "compressed-tensors":
        return model.get("quant_scheme") == "fp8" and source in ("config", "catalog")
    if method not in ("fp8", "fbgemm_fp8") or out.get("quant_method") not in ("fp8", "fbgemm_fp8"):
        return False
    block = model.get("quant_block")
    known = source in ("config", "catalog")
    return not _in(table, "fp8_block_no_marlin", version) or (known and not block)


def fp4_marlin(model: dict, table: dict, cc: float | None, version: str, groups_split: bool) -> bool:
    """Whether ModelOpt's NVFP4 layers run on FP4 Marlin (fp4_marlin, 0.9.0+): below compute capability 10.0
    no CUTLASS FP4 GEMM runs (modelopt.py `use_marlin` to 0.16, the MARLIN NVFP4 backends after). NVFP4 keeps
    the base widths, so a family's shapes serve; `groups_split`: TP divides the Mamba2 groups (else replicated)."""
    if cc is None or not 7.5 <= cc < 10.0 or not _in(table, "fp4_marlin", version):
        return False
    return model.get("quant_method") in ("modelopt_fp4", "nvfp4") and groups_split


def _gptq_moe(kernel: str, shard: int, group: int, bits: int | None, table: dict, version: str):
    """A GPTQ MoE's expert shard Marlin MoE cannot take (check_moe_marlin_supports_layer: shard %
    max(64, group)) goes to the MoE WNA16 kernels (gptq_marlin.py, 0.8.5-0.21.0), whose CUDA kernel
    — taken for 4-bit groups of 32/64/128 at small batches, as in the CUDA graph captures — splits
    the down projection's input into blocks of 128 and raises "size_k must divisible by
    BLOCK_SIZE_K" (csrc/moe/moe_wna16.cu). Other integer MoE paths pad or fall back: not judged."""
    if kernel != "gptq_marlin" or bits != 4 or group not in (32, 64, 128) or not _in(table, "gptq_moe_wna16", version):
        return None
    if shard % max(64, group) == 0:
        return None
    return ("BLOCK_SIZE_K", _WNA16_BLOCK_K, shard, "gptq_moe_wna16", True)


def _refusal(kernel: str, kind: str, width: int, split: int, group: int, block: list[int] | None,
             table: dict, version: str, hidden: int | None, bits: int | None = None,
             sure: bool = False) -> tuple[str, int, int, str, bool] | None:
    """(unit name, unit, shard, rule, certain) of the first check the shard fails, else None; `sure`:
    no other mixed-precision kernel takes a shard Marlin refuses (_no_fallback)."""
    shard = width // split
    if width % split:
        return None  # an uneven split is divide()'s own assertion, not this check's
    if kernel == "fp4_marlin":
        # an expert shard splits the 16-value scale blocks: the repack's tile_k_size to 0.23, the padded GEMM's scales
        # after (vLLM #49949); linear partitions meet gptq_marlin_repack until it pads (fp4_marlin_pads, 0.24):
        # output % tile_n_size (64, the Mamba2 in_proj's, the merged gate_up's), down_proj's input % 16
        if kind == "experts":
            return ("group_size", FP8_MARLIN_TILE_K, shard, "fp4_marlin", True) if shard % FP8_MARLIN_TILE_K else None
        if _in(table, "fp4_marlin_pads", version):
            return None
        n = shard if kind == "mamba_in" else 2 * shard if kind == "dense" else None
        if n is not None and n % FP8_MARLIN_TILE_N:  # the in_proj certain only where known FP4 (alignment_facts: mixer4)
            return ("tile_n_size", FP8_MARLIN_TILE_N, n, "fp4_marlin", sure or kind != "mamba_in")
        return ("tile_k_size", FP8_MARLIN_TILE_K, shard, "fp4_marlin", True) if kind == "dense" and shard % FP8_MARLIN_TILE_K else None
    if kind == "mamba_in":
        return None  # judged for FP4 Marlin only
    if kind == "column":  # the input is whole: only the output shard meets Marlin's tile; other kernels not judged
        if kernel in ("gptq_marlin", "ct_wna16") and shard % MIN_THREAD_N:
            return ("min_thread_n", MIN_THREAD_N, shard, "marlin_tiles", not _in(table, "gptq_mp_fallback", version) or sure)
        return None
    if kernel == "fp8_block":
        n, k = block or (128, 128)
        if kind == "dense":
            if split > 1 and shard % k:
                return ("block_k", k, shard, "fp8_block_linear", _in(table, "fp8_block_linear", version))
            return None
        if shard % n or (split > 1 and shard % k):
            if _in(table, "fp8_moe_refine", version) and math.gcd(n, k, shard, hidden or 0) >= _REFINE_MIN:
                return None  # the MoE oracle refines the scales to a block that divides the shard
            unit, size = ("block_n", n) if shard % n else ("block_k", k)
            return (unit, size, shard, "fp8_block_moe", _in(table, "fp8_block_moe", version))
        return None
    if kernel == "fp8_marlin":
        # gptq_marlin_repack of each partition: down_proj's input shard % tile_k_size (16), the
        # merged gate_up's output (two shards) % tile_n_size (64); the MoE's Marlin path is not judged
        if kind != "dense":
            return None
        if (2 * shard) % FP8_MARLIN_TILE_N:  # gate_up is built (and repacked) before down_proj
            return ("tile_n_size", FP8_MARLIN_TILE_N, 2 * shard, "fp8_marlin", True)
        if shard % FP8_MARLIN_TILE_K:
            return ("tile_k_size", FP8_MARLIN_TILE_K, shard, "fp8_marlin", True)
        return None
    if kind != "dense":
        return _gptq_moe(kernel, shard, group, bits, table, version)
    grouped = 0 < group < width
    if kernel in ("awq_marlin", "gptq_marlin", "ct_wna16"):
        direct = (kernel == "awq_marlin" and not _in(table, "awq_marlin_fallback", version)) or \
                 (kernel != "awq_marlin" and (not _in(table, "gptq_mp_fallback", version) or sure))
        if kernel == "awq_marlin" and not direct:
            kernel = "awq"  # a layer Marlin cannot take runs on the AWQ kernel, which checks the groups
        else:
            if shard % MIN_THREAD_K:
                return ("min_thread_k", MIN_THREAD_K, shard, "marlin_tiles", direct)
            if shard % MIN_THREAD_N:
                return ("min_thread_n", MIN_THREAD_N, shard, "marlin_tiles", direct)
            if grouped and shard % group:
                return ("group_size", group, shard, "marlin_tiles", direct)
            return None
    if grouped and shard % group:
        rule = "awq_group" if kernel == "awq" else "gptq_group"
        return ("group_size", group, shard, rule, _in(table, rule, version))
    return None


def _first(model: dict, kernel: str, tp: int, ep: bool, table: dict, version: str, even: bool = False, sure: bool = False):
    """The first layer the split fails; `even`: an uneven split fails too (a TP to propose must
    split every layer evenly, which divide() asserts)."""
    group = model.get("quant_group_size") or -1
    block = model.get("quant_block")
    for name, width, kind in layers(model):
        split = 1 if (kind == "experts" and ep) else tp
        if even and width % split:
            return name, width, kind, ("uneven", split, width, "uneven", True)
        got = _refusal(kernel, kind, width, split, group, block, table, version, _int(model.get("hidden_size")),
                       _int(model.get("quant_bits")), sure)
        if got:
            # the merged gate_up's shard is of both projections: said against their joint width
            return name, width * 2 if got[0] == "tile_n_size" and kind == "dense" else width, kind, got
    return None


def _pp_runs(facts: dict, version: str) -> bool:
    """Whether proposing pipeline_parallel_size > 1 can start: vLLM refuses it before 0.5.1 ("Pipeline
    parallelism is not supported yet.", config.py), and V0's LLMEngine refuses it offline ("… only
    supported through AsyncLLMEngine"): an offline engine does not get it proposed."""
    v = try_parse(version)
    return v is not None and v >= Version("0.5.1") and (facts.get("site") or {}).get("mode") not in ("standalone_offline", "rlhf_colocate")


def _name_only(model: dict, flag: str | None, tp: int, ep: bool, table: dict, startup_table: dict,
               cc: float | None, version: str) -> dict[str, Any]:
    """A third-party AWQ upload's Marlin tiles (min_thread_k / min_thread_n need no group size): vLLM
    picks awq_marlin on compute capability 8.0+ for a 4-bit AutoAWQ upload with zero points and a
    group of 32, 64, 128 or none (is_awq_marlin_compatible) unless --quantization names the plain
    kernel (an upload outside that — no zero points, a group above 128 — is rare, and the AWQ kernel
    it runs on refuses such a shard for any group of 128 or more). Only a refusal is said: with the
    group unknown, a whole shard proves nothing of the groups. A compressed-tensors upload named W4A16 /
    W8A16 (llm-compressor) runs its integer weights on Marlin (CompressedTensorsWNA16); never certain
    from the name, which FP8 weight-only uploads share (Marlin's FP8 tiles are 64 × 16)."""
    method = model["quant_method"]
    ct = method == "compressed-tensors"
    marlin = "ct_wna16" if ct else f"{method}_marlin"
    if flag and flag not in (f"{method}_marlin", "marlin", "compressed-tensors" if ct else marlin):
        return {}
    kernel = _kernel(method, flag, {**model, "quant_group_size": -1}, table, startup_table, cc, version)
    if kernel != marlin:
        return {}
    hit = _first({**model, "quant_group_size": -1}, kernel, tp, ep, table, version)
    if hit is None or hit[3][0] not in ("min_thread_k", "min_thread_n"):
        return {}
    return {"kernel": kernel, "hit": (*hit[:3], (*hit[3][:4], False)) if ct else hit, "ct": ct}


def alignment_facts(facts: dict, table: dict, startup_table: dict, out: dict, version: str,
                    heads_ok, ep_known: bool, publishers: list[str] | None = None) -> dict[str, Any]:
    """`out`: the startup facts so far (tp, quant_method); `heads_ok(t)`: every head rule holds at
    TP t; `ep_known`: the release has --enable-expert-parallel; `publishers`: models.yaml's
    (whose uploads may pad their widths)."""
    model, engine, gpu = facts.get("model") or {}, facts.get("engine") or {}, facts.get("gpu") or {}
    tp = out.get("tp")
    method = out.get("quant_method")
    if not tp or not method or method == "none":
        return {}
    # FP8 weights keep the base model's widths (nothing is padded to a group), so a family's shapes
    # serve for the Marlin tiles where the name alone says FP8
    marlin8 = fp8_marlin(model, out, table, gpu.get("compute_capability"), version)
    ssm: dict = model["ssm"] if isinstance(model.get("ssm"), dict) else {}
    marlin4 = not marlin8 and fp4_marlin(model, table, gpu.get("compute_capability"), version, (_int(ssm.get("groups")) or tp) % tp == 0)
    # the checkpoint's own word on its method, group or block, and widths
    own = model.get("quant_source") in ("config", "catalog") and bool(model.get("quant_method"))
    # widths from the catalog's own entry for this checkpoint (a quantization the catalog or the named
    # upload's config.json gives, engine/kb/hub_uploads.py), not from its family's shapes
    listed = model.get("quant_source") == "catalog" or bool(model.get("upload_facts"))
    if own and model.get("arch_source") != "config.json" and (not listed or model.get("dims_family")):
        own = False
    flag = engine.get("quantization")
    flag = str(flag).strip().lower() if isinstance(flag, str) and flag.strip() else None
    named = {} if own or marlin8 or marlin4 or not third_party_upload(model, publishers) else \
        _name_only(model, flag, tp, bool(engine.get("enable_expert_parallel")), table, startup_table,
                   gpu.get("compute_capability"), version)
    if not own and not marlin8 and not marlin4 and not named:
        return {}
    if flag and method != model["quant_method"] and method not in (f"{model['quant_method']}_marlin", "marlin"):
        return {}  # another method forced (L9 speaks)
    dp = _int(engine.get("data_parallel_size")) or 1
    ep = bool(engine.get("enable_expert_parallel"))
    if dp > 1 and not ep and model.get("num_experts"):
        return {}  # the MoE's TP spans the DP ranks in some releases: not judged
    kernel = _kernel(model["quant_method"], flag, model, table, startup_table, gpu.get("compute_capability"), version) if own else None
    if named:
        kernel = named["kernel"]
    if own and kernel is None and gpu.get("compute_capability") is None and model["quant_method"] in ("awq", "gptq"):
        # the GPU picks Marlin or the plain kernel: judged only where both refuse for certain
        marlin = _kernel(model["quant_method"], f"{model['quant_method']}_marlin", model, table, startup_table, None, version)
        plain = _first(model, model["quant_method"], tp, ep, table, version)
        other = _first(model, marlin or model["quant_method"], tp, ep, table, version)
        if plain and other and plain[3][4] and other[3][4]:
            kernel = model["quant_method"]
        elif not plain and not other:  # the language model passes both: the vision tower may not
            plain = vision_hit(model, model["quant_method"], table, version)
            other = vision_hit(model, marlin or model["quant_method"], table, version)
            if plain and other and plain[3][4] and other[3][4]:
                kernel = model["quant_method"]
    sure = _no_fallback(kernel, model, engine, gpu.get("compute_capability"), table, version)
    hit = named["hit"] if named else _first(model, kernel, tp, ep, table, version, sure=sure) if kernel else None
    # a tower built quantized fails at its full width, so at every TP: no TP or kernel switch helps
    vision = vision_hit(model, kernel, table, version) if own and kernel else None
    if vision and hit is None:
        hit = vision
    if hit is None and marlin8:  # a block FP8 checkpoint's blocks first (create_weights), then the repack
        kernel, hit = "fp8_marlin", _first(model, "fp8_marlin", tp, ep, table, version)
    if hit is None and marlin4:
        # the Mamba2 in_proj is known FP4 where the own config.json was read (a 16-bit list naming it: quant_layers_listed)
        # or NVIDIA's ModelOpt upload (its defaults leave out only conv1d); another's, named only, may keep it in 16 bits
        mixer4 = model.get("quant_source") == "config" or str(model.get("name") or "").lower().startswith("nvidia/")
        kernel, hit = "fp4_marlin", _first(model, "fp4_marlin", tp, ep, table, version, sure=mixer4)
    if kernel is None:
        return {}
    if hit is None and not layers(model):  # no width known, nothing shown whole (vllm#54178: 320-wide experts unlisted)
        return {}
    res: dict[str, Any] = {"qtp_kernel": kernel, "qtp_ok": hit is None}
    if hit is None:
        return res
    name, width, kind, (unit_name, unit, shard, rule, certain) = hit
    res.update(qtp_layer=name, qtp_width=width, qtp_shard=shard, qtp_unit=unit, qtp_unit_name=unit_name,
               qtp_rule=rule, qtp_certain=certain)
    res["qtp_config"] = config_read(model, named=bool(named))  # said in the finding (eval89 docvqa-verl)
    if named.get("ct"):
        res["qtp_ct_name"] = True  # llm-compressor #57: only the name says W8A16
    if kind == "vision":
        res["qtp_vision"] = TOWERS[model["architecture"]][0]
    if vision:
        return res
    plain = model["quant_method"] if kernel in ("awq_marlin", "gptq_marlin") and model["quant_method"] in ("awq", "gptq") else None
    if plain and own and (model.get("quant_group_size") or 0) > 0 and str(engine.get("dtype") or "").lower() not in ("bfloat16", "bf16") \
            and _first(model, plain, tp, ep, table, version, even=True) is None:
        res["qtp_plain_fix"] = plain  # the plain kernel needs whole groups only, which the shard has
    if kind == "experts" and not ep and ep_known and _first(model, kernel, tp, True, table, version, even=True) is None:
        res["qtp_ep_fix"] = True
        return res
    pp = _int(engine.get("pipeline_parallel_size")) or 1
    for t in range(min(tp, _TP_LIMIT) - 1, 0, -1):
        if heads_ok(t) and _first(model, kernel, t, ep, table, version, even=True) is None:
            res["qtp_tp_fit"] = t
            if (tp * pp) % t == 0 and _pp_runs(facts, version):
                res["qtp_pp_fit"] = tp * pp // t
            break
    return res
