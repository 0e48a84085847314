"""Whether the release's BitsAndBytes model loader can load the checkpoint's architecture, from
knowledge/vllm/bnb_support.yaml (tools/vllm_bnb_support.py reads each release's loader and model
classes). The loader — the path of in-flight `--quantization bitsandbytes` and of checkpoints saved
quantized with bitsandbytes alike — raises "Model <class> does not support BitsAndBytes
quantization yet." when the model class lacks the attribute it tests
(`bitsandbytes_stacked_params_mapping` 0.5.0–0.6.6, `packed_modules_mapping` 0.7.0–0.27.1), after
the engine is built and the GPUs are claimed, when the weights start to load."""
from __future__ import annotations

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
        return {"bnb_arch_ok": True}
    if not (no and _known(no, releases, v)):
        return {}  # not registered here (L21), or between two scanned releases that differ
    out: dict[str, Any] = {"bnb_arch_ok": False}
    later = [Version(a) for a, _ in yes if Version(a) > v]
    if later:
        out["bnb_arch_since"] = str(min(later))
        out["bnb_arch_pin"] = f">={out['bnb_arch_since']},<={releases[-1]}"
    return out
