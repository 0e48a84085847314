"""What a release asks of the speculative settings themselves, beyond the target model (L149–L151),
from knowledge/vllm/spec_decode.yaml (tools/vllm_spec_decode.py):

- L149: no num_speculative_tokens for a method whose draft carries no n_predict (n-gram, EAGLE,
  EAGLE-3, a separate draft model): SpeculativeConfig raises while the engine arguments are built.
  MTP heads, Medusa and MLP speculators (n_predict in their config), suffix decoding (its tree
  depth), DFlash/DSpark (their block size) and drafts in the speculators format (the count is in
  their config) default it, so they are never judged.
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

from vllm_kb.engine.check.startup_arch import arch_facts
from vllm_kb.engine.check.startup_draft import plain_draft
from vllm_kb.engine.kb.versions import Version, try_parse

NGRAM = ("ngram", "[ngram]")
# methods that load a draft whose config has no n_predict (EAGLE checkpoints, a model of its own)
DRAFT_METHODS = ("eagle", "eagle3", "draft_model")
# 0.10–0.16 refuse a separate draft model or a model without a method first (G3): not judged here
_NO_PLAIN_DRAFT = (Version("0.10.0"), Version("0.17.0"))
_NO_DRAFT_MODEL = (Version("0.10.0"), Version("0.15.0"))
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


def tokens_missing(engine: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`spec_tokens_missing` (the raise's file:line) and `spec_tokens_text` where the launch gives
    no num_speculative_tokens and the release refuses that for its method."""
    v, row = _row(table, version)
    if v is None or "ngram" not in row:
        return {}
    spec = engine.get("speculative_config")
    if isinstance(spec, dict) and v >= Version("0.8.2"):
        if spec.get("num_speculative_tokens") is not None or spec.get("speculative_token_tree") is not None:
            return {}
        method, name = _method(spec, v), spec.get("model")
        if method == "ngram":
            at = row["ngram"]
        elif method in DRAFT_METHODS and isinstance(name, str) and name and not _speculators(name):
            if method == "draft_model" and (_NO_DRAFT_MODEL[0] <= v < _NO_DRAFT_MODEL[1]
                                            or (spec.get("method") is None and _NO_PLAIN_DRAFT[0] <= v < _NO_PLAIN_DRAFT[1])):
                return {}
            at = row["draft"]
        else:
            return {}
    elif v < Version("0.8.2") and engine.get("num_speculative_tokens") is None:
        name = engine.get("speculative_model")
        if name == "[ngram]" and engine.get("ngram_prompt_lookup_max"):
            at = row["ngram"]
        elif plain_draft(name) and not _speculators(name):
            at = row["ngram"]  # maybe_create_spec_config: one raise for every draft before 0.8.2
        else:
            return {}
    else:
        return {}
    text = (table.get("texts") or {}).get(at["text"])
    return {"spec_tokens_missing": f'{at["file"]}:{at["line"]}', "spec_tokens_text": text}


def drafter_arch(engine: dict, families_facts, arch_table: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`spec_draft_arch` (EagleX) with `spec_draft_arch_refused` (the rename's file:line) where the
    release registers no such class, or `spec_draft_pp_refused` (the draft check's file:line) where
    the class runs without pipeline parallelism and the launch asks for it. `families_facts(name)`
    gives a model's facts by its name."""
    v, row = _row(table, version)
    spec = engine.get("speculative_config")
    if v is None or "eagle_prefix" not in row or not isinstance(spec, dict):
        return {}
    name = spec.get("model")
    if _method(spec, v) != "eagle" or not isinstance(name, str) or not name or _speculators(name) or "eagle3" in name.lower():
        return {}  # an EAGLE-3 head under method eagle is named for neither class
    base = families_facts(name).get("architecture")
    if not isinstance(base, str) or not base:
        return {}
    arch = base if base.startswith("Eagle") else "Eagle" + base
    got = arch_facts({"architecture": arch, "multimodal": False}, arch_table, str(v))
    out: dict[str, Any] = {"spec_draft_arch": arch, "spec_draft_base": base}
    if got.get("arch_registered") is False:
        return {**out, "spec_draft_arch_refused": f'{row["eagle_prefix"]["file"]}:{row["eagle_prefix"]["line"]}'}
    pp = engine.get("pipeline_parallel_size")
    if got.get("arch_pp") is False and isinstance(pp, int) and pp > 1 and "draft_pp" in row:
        return {**out, "spec_draft_pp_refused": f'{row["draft_pp"]["file"]}:{row["draft_pp"]["line"]}'}
    return {}


def eagle3_target(engine: dict, model: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`spec_eagle3_refused` (file:line), `spec_eagle3_targets` and `spec_eagle3_method` where the
    method is one the release's model_type list applies to and the text-only target's model_type
    holds none of its entries."""
    v, row = _row(table, version)
    spec = engine.get("speculative_config")
    e3 = row.get("eagle3_targets")
    if v is None or not e3 or not isinstance(spec, dict):
        return {}
    method = _method(spec, v)
    mt = model.get("model_type")
    if method not in e3["methods"] or model.get("multimodal") is not False or not isinstance(mt, str) or not mt:
        return {}
    if any(m in mt for m in e3["models"]):
        return {}
    return {"spec_eagle3_refused": f'{e3["file"]}:{e3["line"]}', "spec_eagle3_targets": ", ".join(e3["models"]),
            "spec_eagle3_method": method}
