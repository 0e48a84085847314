"""`startup.eplb_*`: with expert parallelism and the expert load balancer both on
(--enable-expert-parallel, --enable-eplb from 0.9.2), every FusedMoE layer requires the physical
experts — the model's routed experts plus the redundant ones EPLB adds — to split evenly over the
EP ranks (tensor × data × prefill-context parallel): an assert in 0.9.2–0.21.0 and a ValueError
from 0.22.0, "EPLB currently only supports even distribution of experts across ranks", while the
model is built (vllm/model_executor/layers/fused_moe/layer.py 0.9.2:670, 0.22.0:207, 0.34.0:278).
Without EPLB the experts may split unevenly — except in DeepSeek-V4's MegaMoE path
(--moe-backend deep_gemm_mega_moe with expert parallelism, 0.23.0+), whose model class asserts
"n_physical_experts=… must be divisible by ep_size=…" (vllm/models/deepseek_v4/nvidia/model.py
0.23.0:584, 0.34.0:358; vllm#52435); `eplb_path` then says "mega_moe". Present only when every
number is known."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.json_arg import UNREADABLE, json_arg
from vllm_kb.engine.kb.versions import Version, in_spans, try_parse


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _redundant(engine: dict) -> int | None:
    """--num-redundant-experts (0.9.2+), or eplb_config's num_redundant_experts (0.10.2+); 0 unset."""
    cfg = json_arg(engine.get("eplb_config"))
    if cfg is UNREADABLE:
        return None
    if isinstance(cfg, dict) and "num_redundant_experts" in cfg:
        return _int(cfg["num_redundant_experts"])
    value = engine.get("num_redundant_experts")
    return 0 if value is None else _int(value)


# the model classes whose MegaMoE experts split by the EP group's size, and the backend naming it
# (EngineArgs lower-cases --moe-backend and turns "-" into "_")
_MEGA_MOE_ARCHS = {"DeepseekV4ForCausalLM"}
_MEGA_MOE = "deep_gemm_mega_moe"


def _mega_moe(model: dict, engine: dict, v: Version) -> bool:
    backend = str(engine.get("moe_backend") or "").lower().replace("-", "_")
    return v >= Version("0.23.0") and backend == _MEGA_MOE and model.get("architecture") in _MEGA_MOE_ARCHS


def eplb_facts(model: dict, engine: dict, version: str) -> dict[str, Any]:
    v = try_parse(version)
    if v is None or v < Version("0.9.2") or engine.get("enable_expert_parallel") is not True:
        return {}
    mega = _mega_moe(model, engine, v)
    if engine.get("enable_eplb") is not True and not mega:
        return {}
    experts, redundant = _int(model.get("num_experts")), _redundant(engine)
    ep = 1
    for k in ("tensor_parallel_size", "data_parallel_size", "prefill_context_parallel_size"):
        size = _int(engine.get(k) if engine.get(k) is not None else 1)
        if size is None or size < 1:
            return {}
        ep *= size
    if not experts or redundant is None:
        return {}
    if ep <= 1:
        return {}
    total = experts + redundant
    out: dict[str, Any] = {"eplb_experts": total, "ep_size": ep, "eplb_even": total % ep == 0}
    if mega:
        out["eplb_path"] = "mega_moe"
    if not out["eplb_even"]:
        out["eplb_redundant_fit"] = redundant + (-total) % ep  # the fewest redundant experts that split evenly
    return out


def eplb_moe_facts(model: dict, arch: str | None, engine: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`eplb_moe_missing`: --enable-eplb with expert parallelism on a mixture-of-experts model whose class lacks
    vLLM's MixtureOfExperts interface in a release whose eplb_step asserts it during the start-up dummy run
    (knowledge/vllm/eplb_moe.yaml, tools/vllm_eplb_moe.py; PhiMoEForCausalLM in 0.19.1, vllm#40740). Absent
    where the model is not known to be a mixture of experts or the release is outside the table."""
    v = try_parse(version) if version else None
    if v is None or not table or model.get("moe") is not True or not isinstance(arch, str):
        return {}
    if engine.get("enable_eplb") is not True or engine.get("enable_expert_parallel") is not True:
        return {}
    v = Version(v.public)  # a .postN release patches its base
    if str(v) not in (table.get("releases") or []) or not in_spans(v, (table.get("lacking") or {}).get(arch) or []):
        return {}
    return {"eplb_moe_missing": arch}
