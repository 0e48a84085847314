"""startup.awq_moe_*: an AWQ mixture-of-experts checkpoint that vLLM builds with the plain AWQ
method, in the releases whose plain method has nothing for the MoE layer (check L7).

In vLLM 0.5.1-0.9.1 `AWQConfig.get_quant_method` returns a method for linear layers only and None
for anything else (quantization/awq.py), and `FusedMoE.__init__` asserts that its method is not
None (fused_moe/layer.py): the model stops while it is built, with a bare
"AssertionError: assert self.quant_method is not None". AWQ's MoE method lived in awq_marlin only;
0.9.2 gave the plain method a FusedMoE branch (MoE WNA16 or AWQ-Marlin's MoE method).

The plain method is built (1) on vLLM's CPU backend, where awq_marlin refuses the conversion
(`is_awq_marlin_compatible`: `not current_platform.is_cuda()`, from 0.6.3; the CPU builds before
that stop earlier, at the activation dtype, L120), and (2) on CUDA where the kernel is certainly
the plain one (engine/check/startup_act_dtype.py awq_kernel: --quantization awq, a GPU below
AWQ-Marlin's capability, a checkpoint Marlin cannot take). Mixtral is left out: those releases
load a quantized Mixtral through QuantMixtralForCausalLM (mixtral_quant.py), which has no FusedMoE.
"""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_act_dtype import awq_kernel
from vllm_kb.engine.kb.versions import Version, try_parse

# the architectures whose module builds FusedMoE(…, quant_config=…), from the release that does
# (deepseek_v2.py 0.5.2, deepseek_v3.py 0.6.6, qwen2_moe.py 0.5.1, qwen3_moe.py 0.8.4)
_FUSED_MOE_FROM = {"DeepseekV2ForCausalLM": "0.5.2", "DeepseekV3ForCausalLM": "0.6.6",
                   "Qwen2MoeForCausalLM": "0.5.1", "Qwen3MoeForCausalLM": "0.8.4"}
_FIXED = "0.9.2"  # awq.py's FusedMoE branch
_CPU_FROM = "0.6.3"  # awq_marlin's is_cuda() refusal


def _within(version: str, first: str) -> bool:
    v = try_parse(version)
    return v is not None and Version(first) <= v < Version(_FIXED)


def awq_moe_facts(facts: dict, table: dict, version: str) -> dict[str, Any]:
    """startup.awq_moe_none (the architecture) and awq_moe_where ("cpu" or the CUDA kernel's
    reason) where the release builds the AWQ MoE layer with no method."""
    model, engine = facts.get("model") or {}, facts.get("engine") or {}
    arch = model.get("architecture")
    first = _FUSED_MOE_FROM.get(arch) if isinstance(arch, str) else None
    if not first or not _within(version, first):
        return {}
    flag = engine.get("quantization")
    flag = str(flag).strip().lower() if isinstance(flag, str) and flag.strip() else None
    ckpt = str(model.get("quant_method") or "").lower() if model.get("quantized") else ""
    if (flag or ckpt) != "awq" or (flag and ckpt and ckpt != flag):
        return {}  # another method, or a mismatch the loader reports first (L9)
    platform = (facts.get("site") or {}).get("platform") or "cuda"
    if platform == "cpu":
        if not _within(version, max(first, _CPU_FROM, key=Version)):
            return {}
        return {"awq_moe_none": arch, "awq_moe_where": "cpu"}
    if platform == "cuda" and awq_kernel(facts, table, version) == "awq":
        return {"awq_moe_none": arch, "awq_moe_where": "cuda"}
    return {}
