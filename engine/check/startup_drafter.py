"""What a release asks of the speculative draft and of an EAGLE-3 target, beyond the target model
(L150–L151), from knowledge/vllm/spec_decode.yaml (tools/vllm_spec_decode.py); the missing
num_speculative_tokens is L124's (engine/check/startup_spec_tokens.py).
- L150: the draft's architecture as vLLM asks the registry for it. Method "eagle" renames the
  draft checkpoint's class X to EagleX (transformers_utils/configs/eagle.py, 0.9.0 on); the class is
  read from the draft's name the way the target's is (EAGLE-1 checkpoints copy their base model's
  config.json). Registered or not, and under pipeline parallelism whether that class implements
  SupportsPP (the draft's ModelConfig is verified against the target's PP size) — the same
  architectures.yaml the target is judged by (L21, L3).
- L151: EAGLE-3 on a target whose text model_type the release's SpeculativeConfig does not take
  ("Eagle3 is only supported for [...] models", 0.8.5–0.21)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_arch import _known, arch_facts
from vllm_kb.engine.check.startup_draft import plain_draft
from vllm_kb.engine.kb.versions import Version, try_parse

NGRAM = ("ngram", "[ngram]")
AUTO_EAGLE_UNTIL = Version("0.34.0")  # the name-based detection ("eagle-" in the draft's name) ends here


def _row(table: dict, version: str | None) -> tuple[Version | None, dict]:
    v = try_parse(version) if version else None
    rows = table.get("per_release") or {}
    if v is None:
        return None, {}
    row = rows.get(str(v)) or rows.get(v.public)
    return v, row or {}


def _speculators(name: str) -> bool:
    return "speculator" in name.lower()


def _method(spec: dict, v: Version) -> str | None:
    """The method vLLM settles on for a speculative config, as far as the config tells."""
    method, name = spec.get("method"), spec.get("model")
    if isinstance(method, str) and method:
        return "ngram" if method in NGRAM else method
    if not isinstance(name, str) or not name:
        return None
    low = name.lower()
    if name in NGRAM:
        return "ngram"
    if v < AUTO_EAGLE_UNTIL:
        if "eagle3" in low and v >= Version("0.10.2"):
            return "eagle3"
        if "eagle-" in low or "eagle3-" in low:
            return "eagle"
    return "draft_model" if plain_draft(name) else None


def _mtp(method: str | None) -> bool:
    return isinstance(method, str) and (method == "mtp" or method.endswith("_mtp"))


def _match(cond: dict, mt: str, arch: str, initial: str) -> bool:
    return any(mt in c.get("model_type", ()) or any(x in mt for x in c.get("model_type_contains", ()))
               or arch in c.get("arch", ()) or initial in c.get("initial_arch", ()) for c in [cond])


def mtp_draft(steps: list[dict], model_type: str, arch: str) -> str | None:
    """The class SpeculativeConfig.hf_config_override makes of the target's config for its MTP
    draft, following the release's steps; None where no step changes it or one cannot be followed."""
    mt, now = model_type, arch
    for step in steps:
        if not any(_match(c, mt, now, arch) for c in step.get("if") or []):
            continue
        if step.get("unsure"):
            return None
        picked = (step.get("by_model_type") or {}).get(mt)  # read off the model_type the step met
        mt = step.get("model_type", mt)
        now = step.get("architecture") or picked or (step.get("map") or {}).get(now, now)
        if step.get("stop"):
            break
    return now if now != arch else None


def _drafts(engine: dict, model: dict, families_facts, row: dict, v: Version) -> tuple[list[str], str, str] | None:
    """(the classes the draft may be built as, the draft's own class, the source line) of a
    speculative config, or None where they are not known."""
    spec = engine.get("speculative_config")
    if not isinstance(spec, dict):
        return None
    method, name = _method(spec, v), spec.get("model")
    if method == "eagle" and "eagle_prefix" in row:
        if not isinstance(name, str) or not name or _speculators(name) or "eagle3" in name.lower():
            return None  # an EAGLE-3 head under method eagle is named for neither class
        base = families_facts(name).get("architecture")
        if not isinstance(base, str) or not base:
            return None
        at = row["eagle_prefix"]
        return [base if base.startswith("Eagle") else "Eagle" + base], base, f'{at["file"]}:{at["line"]}'
    if name not in (None, model.get("name")):
        return None  # a draft of its own: its class is not the target's
    target, mt = model.get("architecture"), model.get("model_type")
    ds = row.get("dspark_default")
    if method == "dspark" and ds and target not in ds["unless"]:
        # the target's checkpoint is the draft, and a full model is none of the DSpark drafts named
        return list(ds["architectures"]), str(target or model.get("name") or "the target"), f'{ds["file"]}:{ds["line"]}'
    if _mtp(method) and row.get("mtp_steps") and spec.get("num_speculative_tokens") is not None \
            and isinstance(target, str) and isinstance(mt, str):
        got = mtp_draft(row["mtp_steps"], mt, target)
        return ([got], target, "hf_config_override") if got else None
    return None


def drafter_arch(engine: dict, model: dict, families_facts, arch_table: dict, table: dict,
                 version: str | None) -> dict[str, Any]:
    """`spec_draft_arch` with `spec_draft_arch_refused` (the rename's file:line) where the release
    registers no such class (method eagle: EagleX), or `spec_draft_pp_refused` (the draft check's
    file:line) where no class the draft may be built as implements pipeline parallelism and the
    launch asks for it (an EAGLE draft, an MTP head made from the target's config, DSpark).
    `families_facts(name)` gives a model's facts by its name."""
    v, row = _row(table, version)
    if v is None:
        return {}
    got = _drafts(engine, model, families_facts, row, v)
    if got is None:
        return {}
    archs, base, at = got
    facts = [arch_facts({"architecture": a, "multimodal": False}, arch_table, str(v)) for a in archs]
    out: dict[str, Any] = {"spec_draft_arch": " / ".join(archs), "spec_draft_base": base}
    if len(archs) == 1 and archs[0].startswith("Eagle") and facts[0].get("arch_registered") is False:
        return {**out, "spec_draft_arch_refused": at}
    pp = engine.get("pipeline_parallel_size")
    if isinstance(pp, int) and pp > 1 and "draft_pp" in row and all(f.get("arch_pp") is False for f in facts):
        return {**out, "spec_draft_pp_refused": f'{row["draft_pp"]["file"]}:{row["draft_pp"]["line"]}'}
    return {}


def _interface(table: dict, arch: str, v: Version) -> tuple[bool, str | None] | None:
    """(whether the release's class for `arch` implements SupportsEagle3, the first checked
    release after `v` whose class does), None where the reading cannot tell."""
    checked = [Version(r) for r in table.get("eagle3_checked") or []]
    if not checked or v < checked[0]:
        return None
    if _known((table.get("eagle3_interface_unresolved") or {}).get(arch) or [], checked, v) is not False:
        return None
    spans = (table.get("eagle3_interface") or {}).get(arch) or []
    got = _known(spans, checked, v) if spans else (False if v <= checked[-1] else None)
    if got is None:
        return None
    later = [Version(a) for a, _ in spans if Version(a) > v]
    return got, (str(min(later)) if later else None)


def eagle3_target(engine: dict, model: dict, table: dict, version: str | None, arch: str | None = None) -> dict[str, Any]:
    """EAGLE-3 on a target the release refuses: `spec_eagle3_refused` (file:line),
    `spec_eagle3_targets` and `spec_eagle3_method` where the method is one the release's model_type
    list applies to (0.8.5–0.21) and the text-only target's model_type holds none of its entries;
    else `spec_eagle3_interface_refused` (file:line) with `spec_eagle3_arch` (and
    `spec_eagle3_since`, the first release whose class has it) where the model runner asks the
    target's registered class `arch` for SupportsEagle3 and it lacks it (0.10.1 on)."""
    v, row = _row(table, version)
    spec = engine.get("speculative_config")
    if v is None or not isinstance(spec, dict):
        return {}
    method = _method(spec, v)
    e3 = row.get("eagle3_targets")
    mt = model.get("model_type")
    if e3 and method in e3["methods"] and model.get("multimodal") is False and isinstance(mt, str) and mt \
            and not any(m in mt for m in e3["models"]):
        return {"spec_eagle3_refused": f'{e3["file"]}:{e3["line"]}', "spec_eagle3_targets": ", ".join(e3["models"]),
                "spec_eagle3_method": method}
    runner = row.get("eagle3_runner")
    if method != "eagle3" or not runner or not isinstance(arch, str) or not arch:
        return {}
    got = _interface(table, arch, v)
    if got is None or got[0]:
        return {}
    out = {"spec_eagle3_interface_refused": f'{runner["file"]}:{runner["line"]}', "spec_eagle3_arch": arch}
    if got[1]:
        out.update(spec_eagle3_since=got[1], spec_eagle3_pin=">=" + got[1])
    return out
