"""A GGUF checkpoint's model type against the release's own GGUF weight loader (check L135, its
second half; the first is engine/check/gguf_fit.py, transformers reading the file's config).

GGUFModelLoader maps the config's model_type — renamed as the release renames it — to a value of the
`gguf` package's MODEL_ARCH_NAMES and raises "Unknown gguf model_type: X" for none
(knowledge/vllm/gguf_loader.yaml, tools/vllm_gguf_loader.py). The model_type is the config's that
vLLM read: --hf-config-path's checkpoint (0.8.0+; the audit's model facts come from it), else the
GGUF file's own through transformers, which names most architectures' model type after them but
renames a few (qwen2moe → qwen2_moe, qwen3moe → qwen3_moe, gemma3 → gemma3_text) — judged only where
that transformers reads the architecture at all (L135's first half, launch.gguf_tf_ok). The gguf
package: a release that pins one (`==`) runs that one; one that admits a range refuses for certain
only where no scanned release has the name, and asks for a floor where only newer ones have it."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import Version, try_parse


def _run(table: dict, release: str) -> dict | None:
    v = try_parse(release)
    if v is None:
        return None
    for run in table.get("loader") or []:
        if Version(run["first"]) <= v <= Version(run["last"]):
            return run
    return None


def _maps(run: dict, model_type: str, first: dict) -> tuple[str, bool | None]:
    """(the name the loader looks up, whether the release's gguf package has it: None = some allowed do)."""
    name = (run.get("renames") or {}).get(model_type, model_type)
    since = first.get(name)
    spec = str(run["gguf"])
    if spec.startswith("=="):
        return name, since is not None and Version(since) <= Version(spec[2:])
    if since is None:
        return name, False
    floor = spec[2:] if spec.startswith(">=") else None
    return name, True if floor is None or Version(since) <= Version(floor) else None


def _gguf(value: object) -> bool:
    return isinstance(value, str) and value.lower().endswith(".gguf")


def _model_type(facts: dict, table: dict, preread: str | None) -> tuple[str, str] | None:
    """(the model_type of the config vLLM reads, where it comes from), or None. `preread`: the first
    release that reads the GGUF file through transformers whatever --hf-config-path says."""
    model, args, launch = facts.get("model") or {}, facts.get("args") or {}, facts.get("launch") or {}
    config = args.get("hf_config_path")
    if isinstance(config, str) and config.strip() and not _gguf(config):
        mt = model.get("model_type")
        release = try_parse(str((facts.get("vllm") or {}).get("version") or ""))
        # transformers still reads the file (the tokenizer without --tokenizer; every config from
        # `preread` on) and its refusal comes first where it refuses
        untouched = isinstance(args.get("tokenizer"), str) and not _gguf(args.get("tokenizer")) \
            and release is not None and (preread is None or release < Version(preread))
        if launch.get("gguf_tf_ok") is False and not untouched:
            return None
        return (mt, "--hf-config-path") if isinstance(mt, str) and mt else None
    arch = launch.get("gguf_arch")
    if not isinstance(arch, str) or launch.get("gguf_tf_ok") is not True:
        return None  # transformers' own refusal (or an unknown transformers) comes first
    return (table.get("transformers_model_type") or {}).get(arch, arch), "gguf"


def loader_fit(facts: dict, table: dict, preread: str | None = None) -> dict[str, Any]:
    """launch.gguf_loader_type / _from / _name / _pkg / _ok (+ _since, _fix, _vllm_first).
    `preread`: knowledge/vllm/gguf.yaml's vllm.preread_since."""
    name = (facts.get("model") or {}).get("name")
    if not isinstance(name, str) or not name.lower().endswith(".gguf") or facts.get("model_alternatives"):
        return {}
    got = _model_type(facts, table, preread)
    if got is None:
        return {}
    model_type, source = got
    release = str((facts.get("vllm") or {}).get("version") or "")
    run = _run(table, release)
    if run is None:
        return {}
    first = table.get("gguf_first") or {}
    looked, ok = _maps(run, model_type, first)
    out: dict[str, Any] = {"gguf_loader_type": model_type, "gguf_loader_from": source, "gguf_loader_name": looked,
                           "gguf_loader_pkg": f"gguf{run['gguf']}", "gguf_loader_ok": ok is not False}
    if first.get(looked):
        out["gguf_loader_since"] = first[looked]
    if ok is None:
        out["gguf_loader_fix"] = f">={first[looked]}"  # older gguf releases the requirement admits lack it
        return out
    if ok is False:
        for later in table.get("loader") or []:
            if Version(later["first"]) > Version(release) and _maps(later, model_type, first)[1] is not False:
                out["gguf_loader_vllm_first"] = later["first"]
                break
    return out
