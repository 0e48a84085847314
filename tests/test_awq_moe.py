"""L7: an AWQ mixture-of-experts model that vLLM 0.5.1-0.9.1 builds with the plain AWQ method, which
has no method for FusedMoE ("assert self.quant_method is not None"): the CPU backend and a certain
plain kernel on CUDA (engine/check/startup_awq_moe.py)."""
import pytest

from vllm_kb.engine.check.startup_awq_moe import awq_moe_facts
from vllm_kb.engine.kb.knowledge import load

TABLE = load().doc("vllm", "startup.yaml").data
AWQ = {"quantized": True, "quant_method": "awq", "quant_source": "config", "quant_bits": 4,
       "quant_zero_point": True, "quant_group_size": 128, "moe": True}


def _facts(version, arch="DeepseekV3ForCausalLM", platform="cuda", cc=8.0, flag=None, **model):
    return {"model": {**AWQ, "architecture": arch, **model}, "engine": {"quantization": flag} if flag else {},
            "gpu": {"compute_capability": cc} if cc else {}, "site": {"platform": platform},
            "vllm": {"version": version}}


@pytest.mark.parametrize("version,kw,where", [
    ("0.8.2", {"platform": "cpu", "cc": None, "quant_source": "name"}, "cpu"),  # the CPU build (gitcode report)
    ("0.6.3", {"platform": "cpu", "cc": None, "arch": "Qwen2MoeForCausalLM"}, "cpu"),  # awq_marlin refuses off CUDA from 0.6.3
    ("0.6.2", {"platform": "cpu", "cc": None, "arch": "Qwen2MoeForCausalLM"}, None),  # earlier CPU builds stop at the dtype (L120)
    ("0.9.2", {"platform": "cpu", "cc": None}, None),   # awq.py's FusedMoE branch
    ("0.8.2", {"flag": "awq"}, "cuda"),                 # --quantization awq keeps the plain method
    ("0.8.2", {"cc": 7.5}, "cuda"),                     # AWQ-Marlin needs 8.0 up to 0.13
    ("0.8.2", {}, None),                                # AWQ-Marlin, which has an MoE method
    ("0.8.2", {"cc": None}, None),                      # the GPU decides: unknown
    ("0.8.2", {"arch": "MixtralForCausalLM", "flag": "awq"}, None),  # QuantMixtral: no FusedMoE
    ("0.6.5", {"arch": "DeepseekV3ForCausalLM", "flag": "awq"}, None),  # deepseek_v3 builds FusedMoE from 0.6.6
    ("0.8.2", {"arch": "Qwen2MoeForCausalLM", "flag": "awq"}, "cuda"),
    ("0.8.2", {"platform": "cpu", "cc": None, "flag": "gptq"}, None),  # another method
])
def test_the_plain_awq_method_for_an_moe(version, kw, where):
    got = awq_moe_facts(_facts(version, **kw), TABLE, version)
    assert got.get("awq_moe_where") == where
