"""Whether the release splits the checkpoint's vision-tower heads across TP ranks with no fallback,
from knowledge/vllm/vision_tp.yaml (tools/vllm_vision_tp.py reads each release's model modules).
Qwen2-VL's or GLM-4.1V's vision attention calls divide(num_heads, tp_size) and fails the launch when
TP does not divide the heads (vLLM #24004: GLM-4.5V's 12 heads at TP 8); InternViT never split in
0.5.x and from 0.6.0 builds an unsplit attention when the heads do not divide, so there it starts.
`--mm-encoder-tp-mode data` replicates the vision tower on every rank: nothing is split."""
from __future__ import annotations

from vllm_kb.engine.check.startup_arch import _known
from vllm_kb.engine.kb.versions import parse, try_parse


def vision_split(model: dict, engine: dict, table: dict, version: str | None) -> bool:
    """True only where the table says the release splits the catalogued vision module strictly."""
    module = model.get("vision_module")
    v = try_parse(version) if version else None
    if not isinstance(module, str) or v is None or not table or not model.get("vision_num_heads"):
        return False
    if str(engine.get("mm_encoder_tp_mode") or "").strip().lower() == "data":
        return False
    row = (table.get("modules") or {}).get(module) or {}
    releases = [parse(r) for r in table["releases"]]
    return bool(row.get("strict")) and _known(row["strict"], releases, v) is True


def vision_unsplit(model: dict, engine: dict, table: dict, version: str | None, tp: int | None) -> str | None:
    """Why TP leaves a vision tower whose heads it does not divide alone, so L2 can say so:
    `data` (--mm-encoder-tp-mode data), `fallback` (the release builds an unsplit attention), or
    `none` (the release's module does not split the heads). None where the heads divide or the
    release splits them strictly (then tp_vision_ok decides)."""
    heads, module = model.get("vision_num_heads"), model.get("vision_module")
    v = try_parse(version) if version else None
    if not isinstance(heads, int) or not isinstance(module, str) or not tp or tp <= 1 or heads % tp == 0 or v is None:
        return None
    if not table or vision_split(model, engine, table, version):
        return None
    if str(engine.get("mm_encoder_tp_mode") or "").strip().lower() == "data":
        return "data"
    row = (table.get("modules") or {}).get(module) or {}
    releases = [parse(r) for r in table["releases"]]
    return "fallback" if row.get("fallback") and _known(row["fallback"], releases, v) is True else "none"
