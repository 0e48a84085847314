"""Whether the release's fused-MoE LoRA finds an expert mapping on the model's class (knowledge/vllm/
lora_moe.yaml, tools/vllm_lora_moe.py). With LoRA on a mixture-of-experts model, 0.11.1–0.24.0 ask the
model or one of its direct children for get_expert_mapping while the engine starts and raise
"To support LoRA for MoE model, 'get_expert_mapping' must be implemented" when none has it; 0.25.0
walks every module and finds the routed-experts layer's. The class is the table's; whether the model
is a mixture of experts is the model facts' (config.json's num_experts, the catalog, an `-A3B` name):
a class shared by dense and MoE sizes (Gemma 4) raises only for the MoE ones."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import Version, in_spans, try_parse


def lora_moe_facts(model: dict, arch: str | None, table: dict, version: str | None) -> dict[str, Any]:
    """`lora_moe_unmapped` (true: the launch meets the raise), `lora_moe_fixed` and `lora_moe_pin` (the
    first release after it whose class has the mapping, or the first without the raise). Absent where the model is not known to be a mixture of experts, the class
    could not be followed, or the release is outside the table."""
    v = try_parse(version) if version else None
    if v is None or not table or model.get("moe") is not True or not isinstance(arch, str):
        return {}
    v = Version(v.public)  # a .postN release patches its base
    if str(v) not in (table.get("releases") or []):
        return {}
    if in_spans(v, (table.get("unresolved") or {}).get(arch) or []) \
            or not in_spans(v, (table.get("unmapped") or {}).get(arch) or []):
        return {}
    out: dict[str, Any] = {"lora_moe_unmapped": True}
    # the class's own fix where it gained the method inside the raising releases (Nemotron-H in 0.14.0), else the walk's
    end = next(b for a, b in table["unmapped"][arch] if Version(a) <= v <= Version(b))
    later = [r for r in table["releases"] if Version(r) > Version(end)]
    fixed = later[0] if later else table.get("fixed")
    if fixed:
        out.update({"lora_moe_fixed": fixed, "lora_moe_pin": ">=" + fixed})
    return out
