"""Whether the release's BitsAndBytes model loader can load the checkpoint's architecture, from
knowledge/vllm/bnb_support.yaml (tools/vllm_bnb_support.py reads each release's loader and model
classes). The loader — the path of in-flight `--quantization bitsandbytes` and of checkpoints saved
quantized with bitsandbytes alike — raises "Model <class> does not support BitsAndBytes
quantization yet." when the model class lacks the attribute it tests
(`bitsandbytes_stacked_params_mapping` 0.5.0–0.6.6, `packed_modules_mapping` 0.7.0–0.27.1), after
the engine is built and the GPUs are claimed, when the weights start to load. Up to 0.6.4 a class
with the attribute still fails when its checkpoint stores projections fused (the table's `fused`)."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check.startup_arch import _known
from vllm_kb.engine.kb.versions import Version, parse, try_parse


def bnb_facts(model: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`bnb_arch_ok` for a registered architecture in a release with the loader, and the first
    scanned release after `version` whose class has the attribute (`bnb_arch_since`, and
    `bnb_arch_pin` up to the last release with BitsAndBytes). Absent where the table cannot tell."""
    arch = model.get("architecture")
    v = try_parse(version) if version else None
    if not isinstance(arch, str) or not arch or v is None or not table or not table.get("releases"):
        return {}
    releases = [parse(r) for r in table["releases"]]
    if not releases[0] <= v <= releases[-1]:
        return {}
    if _known(table.get("unresolved", {}).get(arch) or [], releases, v) is not False:
        return {}
    yes = table.get("supported", {}).get(arch) or []
    no = table.get("unsupported", {}).get(arch) or []
    if yes and _known(yes, releases, v):
        fused = table.get("fused", {}).get(arch) or []
        if not (fused and _known(fused, releases, v)):
            return {"bnb_arch_ok": True}
        if not _own_config(model):
            # the architecture comes from the family's config, not this upload's: re-uploads may
            # store the projections apart (Unsloth's Phi-3 -bnb-4bit loaded on 0.5.4, vllm#7624)
            return {}
        # the class has the mapping, but the name-matching loader (up to 0.6.4) cannot load the
        # projections the checkpoint stores fused (Phi-3's qkv_proj / gate_up_proj)
        fine = next((r for r in releases if r > v and _known(yes, releases, r) and not _known(fused, releases, r)), None)
        pin = {"bnb_arch_since": str(fine), "bnb_arch_pin": f">={fine},<={releases[-1]}"} if fine is not None else {}
        return {"bnb_arch_ok": False, "bnb_fused": True, **pin}
    if not (no and _known(no, releases, v)):
        return {}  # not registered here (L21), or between two scanned releases that differ
    out: dict[str, Any] = {"bnb_arch_ok": False}
    later = [Version(a) for a, _ in yes if Version(a) > v]
    if later:
        out["bnb_arch_since"] = str(min(later))
        out["bnb_arch_pin"] = f">={out['bnb_arch_since']},<={releases[-1]}"
    return out


def _own_config(model: dict) -> bool:
    """Whether the architecture was read from this checkpoint's own config.json (a local one) or from
    its publisher's (microsoft/Phi-3-mini-128k-instruct judged by microsoft/Phi-3.5-mini-instruct:
    a publisher keeps its format), not from another publisher's family it was matched to by name."""
    src = str(model.get("arch_source") or "")
    if src == "config.json":
        return True
    m = re.match(r"^https://huggingface\.co/([^/]+/[^/]+?)(?:/(?:blob|tree|resolve)/.*)?/?$", src)
    name = str(model.get("name") or "").strip("/").lower()
    if m is None or name.count("/") != 1:
        return False
    return m.group(1).lower().split("/")[0] == name.split("/")[0]

