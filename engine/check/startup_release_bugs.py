"""The loader bug of the site's release its launch meets (L133), the model class of that release that
fails on every launch of its architecture (L133, model_bugs), and the start-up bug of what the
release sets up on the GPUs (L144), from knowledge/vllm/release_bugs.yaml.

A row holds where the table's code reading shows the bug (the affected releases) and what a launch
must do to meet it: go through that loader (`load`) and load a repository that holds the files the
bug trips on (`checkpoint`). A Hub id of a listed repository is certain — vLLM downloads every
*.safetensors of it —; a local folder named like one (its last path part) is only likely, since a
copy may leave the consolidated file out."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.json_arg import UNREADABLE, json_arg
from vllm_kb.engine.kb.versions import in_spans, parse, try_parse

_DEFAULT_FORMATS = (None, "", "auto", "safetensors")


def _load(engine: dict) -> str | None:
    fmt, quant = engine.get("load_format"), engine.get("quantization")
    if "bitsandbytes" in (fmt, quant):
        return "bitsandbytes"
    if fmt in _DEFAULT_FORMATS and isinstance(quant, (str, type(None))):
        return "default"
    return None


def _repo(name: str, repos: list[dict]) -> tuple[str, bool] | None:
    """(repository, certain) of a model name: the Hub id itself, or a local folder named like one."""
    low = name.strip().rstrip("/").lower()
    for r in repos:
        repo = str(r["repo"])
        if low == repo.lower():
            return repo, True
    last = low.rsplit("/", 1)[-1]
    if "/" in low or low.startswith("."):
        for r in repos:
            repo = str(r["repo"])
            if last == repo.rsplit("/", 1)[-1].lower() and low != repo.lower():
                return repo, False
    return None


def release_bug_facts(model: dict, engine: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`release_bug` (the row's id), `release_bug_repo`, `release_bug_certain`, `release_bug_fixed`
    (the release to move to) and `release_bug_words` (what the release prints, where specific); for a
    BitsAndBytes checkpoint that keeps linear layers in 16 bits (`quant_bnb_skip`), `release_bug_skips`."""
    v = try_parse(version) if version else None
    name = model.get("name")
    if v is None or not isinstance(name, str) or not table:
        return {}
    load = _load(engine)
    skips = model.get("quant_bnb_skip")
    if load == "bitsandbytes" and skips:  # a checkpoint that keeps linear layers in 16 bits
        for bug in table.get("bugs") or []:
            if bug["load"] == load and bug["checkpoint"] == "bnb_skip_modules" and bug.get("fixed") and in_spans(v, bug["affected"]):
                return {"release_bug": bug["id"], "release_bug_fixed": bug["fixed"],
                        "release_bug_skips": ", ".join(skips[:5]) if isinstance(skips, list) else str(skips),
                        **({"release_bug_words": bug["error"]} if bug.get("error") else {})}
    found = _repo(name, table.get("consolidated_repos") or [])
    if load is None or found is None:
        return {}
    for bug in table.get("bugs") or []:
        if bug["load"] != load or bug["checkpoint"] != "consolidated_and_shards" or not bug.get("fixed"):
            continue
        if in_spans(v, bug["affected"]):
            out: dict[str, Any] = {"release_bug": bug["id"], "release_bug_repo": found[0], "release_bug_certain": found[1],
                                   "release_bug_fixed": bug["fixed"]}
            if bug.get("error"):
                out["release_bug_words"] = bug["error"]
            return out
    return {}


def model_bug_facts(arch: str | None, engine: dict, table: dict, version: str | None,
                    model: dict | None = None, fallback: str | None = None) -> dict[str, Any]:
    """`release_bug` (the row's id), `release_bug_arch`, `release_bug_fixed`, `release_bug_fix` (the
    pull request) and `release_bug_words`: the class vLLM builds for the launch (`arch`, under the
    config format the launch asks for) is broken in the site's release — every launch of it fails.
    A row with `config_lacks: visual` holds only for a text checkpoint: the model facts say it is not
    multimodal (config.json's `visual`/`vision_config`, or the catalog); a vision model sharing the
    class (Qwen-VL) starts. A row with `config_has: visual` is the mirror: it holds only for the
    vision model (Qwen-VL: `visual` in config.json, or a catalog Qwen-VL name) launched without
    hf_overrides naming another class; it has no fixed release (`release_bug_fixed` absent). A row with
    `load` holds only through that loader (bitsandbytes), one with `ignore_unfused` only where the
    checkpoint's ignore list names that fused layer's shards but not the layer (quant_ignore_unfused), one
    with `min_pp` only from that pipeline-parallel size (`release_bug_pp`: the launch's)."""
    v = try_parse(version) if version else None
    if v is not None:
        for bug in (table or {}).get("model_bugs") or []:
            if bug.get("hf_overrides_any") and (got := _override_bug(bug, arch, engine, v)) is not None:
                return got
    if v is not None and (got := _backend_bug(arch, engine, table, v, model or {}, fallback)):
        return got
    if v is not None and (got := _format_bug(arch, engine, table, v, model or {})):
        return got
    if v is None or not isinstance(arch, str) or not arch or engine.get("model_impl") == "transformers":
        return {}  # --model-impl transformers builds the Transformers backend's class, not the broken one
    for bug in (table or {}).get("model_bugs") or []:
        if bug.get("hf_overrides_any") or bug.get("backend") or bug.get("config_format"):
            continue  # read above, whatever the architecture
        if bug.get("quant_none") and ((model or {}).get("quantized") is not False or engine.get("quantization")):
            continue  # only a checkpoint the facts say is unquantized (config.json, or a catalogued BF16 upload)
        if bug.get("quant") and bug["quant"] not in ((model or {}).get("quant_method"), engine.get("quantization")):
            continue  # only a checkpoint packed by that method (InternLM2's wqkv split: GPTQ, AWQ)
        if bug.get("config_lacks") == "visual" and (model or {}).get("multimodal") is not False:
            continue
        if bug.get("model_type") and (model or {}).get("model_type") != bug["model_type"]:
            continue  # a class two checkpoint layouts share (DeciLM-7B, Nemotron NAS): only the one the code misreads
        if bug.get("kv_scales") == "modelopt" and not _modelopt_kv_scales(model or {}):
            continue  # only a checkpoint whose files hold ModelOpt's per-projection KV-cache scales
        if bug.get("rope_key") == "type" and (model or {}).get("rope_legacy_key") is False:
            continue  # config.json writes the rope type as `rope_type` alone, which transformers does not rename
        if bug.get("load") and _load(engine) != bug["load"]:
            continue  # a loader bug: only launches through that loader meet it
        if bug.get("ignore_unfused") and bug["ignore_unfused"] not in ((model or {}).get("quant_ignore_unfused") or []):
            continue  # only a checkpoint whose ignore list names the fused layer's shards, not the layer
        pp = engine.get("pipeline_parallel_size")
        if bug.get("min_pp") and (not isinstance(pp, int) or isinstance(pp, bool) or pp < bug["min_pp"]):
            continue  # a class that breaks only on the placeholder layers of other pipeline stages
        if bug.get("config_has") == "visual":
            over = json_arg(engine.get("hf_overrides"))
            # overrides that name the architectures (or cannot be read) may build the vision class
            if (model or {}).get("multimodal") is not True or over is UNREADABLE \
                    or (isinstance(over, dict) and "architectures" in over):
                continue
            if bug["arch"] == arch and in_spans(v, bug["affected"]):
                return {"release_bug": bug["id"], "release_bug_arch": arch,
                        **({"release_bug_words": bug["error"]} if bug.get("error") else {})}
            continue
        # a row no release fixes yet (DBRX, GraniteMoeHybrid under PP) still holds: `release_bug_since`, the first
        # release of the span the site's release is in, says which older release still loads it
        if bug["arch"] == arch and in_spans(v, bug["affected"]):
            since = next((str(a) for a, b in bug["affected"] if parse(str(a)) <= v <= parse(str(b))), None)
            return {"release_bug": bug["id"], "release_bug_arch": arch,
                    **({"release_bug_fixed": bug["fixed"]} if bug.get("fixed") else {"release_bug_since": since}),
                    **({"release_bug_pp": pp} if bug.get("min_pp") else {}),
                    **({"release_bug_kv_scales": bug["kv_scales"]} if bug.get("kv_scales") else {}),
                    **({"release_bug_fix": bug["fix"]} if bug.get("fix") else {}),
                    **({"release_bug_words": bug["error"]} if bug.get("error") else {})}
    return {}


def _modelopt_kv_scales(model: dict) -> bool:
    """A ModelOpt checkpoint with an FP8 KV cache (config.json's kv_cache_quant_algo / kv_cache_scheme, or NVIDIA's
    own -FP8/-NVFP4 uploads, which ModelOpt's export writes with it): its files hold the calibrated KV-cache scales
    under the projections' names (self_attn.k_proj.k_scale, v_proj.v_scale). Another method's scales (llm-compressor's
    self_attn.k_scale) or a KV cache the launch alone makes FP8 (--kv-cache-dtype fp8) hold no such tensors."""
    return str(model.get("quant_method") or "").startswith("modelopt") and model.get("quant_kv_cache") == "fp8"


def _backend_bug(arch: str | None, engine: dict, table: dict, v, model: dict, fallback: str | None) -> dict[str, Any]:
    """A row with `backend` (transformers): the launch builds that backend's class — --model-impl transformers, the
    fallback for an architecture vLLM lacks (`fallback`), or an architecture the release's registry serves through
    it (`via`) — for a checkpoint quantized with the row's `quant` (config.json's or the --quantization given)."""
    impl = engine.get("model_impl")
    for bug in (table or {}).get("model_bugs") or []:
        if not bug.get("backend") or not bug.get("fixed") or not in_spans(v, bug["affected"]):
            continue
        builds = impl == bug["backend"] or (impl in (None, "auto") and (fallback == bug["backend"] or arch in (bug.get("via") or [])))
        if builds and bug["quant"] in (model.get("quant_method"), engine.get("quantization")):
            return {"release_bug": bug["id"], "release_bug_arch": arch if isinstance(arch, str) and arch else bug["arch"],
                    "release_bug_backend": bug["backend"], "release_bug_fixed": bug["fixed"],
                    **({"release_bug_words": bug["error"]} if bug.get("error") else {})}
    return {}


def _format_bug(arch: str | None, engine: dict, table: dict, v, model: dict) -> dict[str, Any]:
    """A row with `config_format` (mistral): the launch asks for that config format (--config-format: params.json
    is read, whatever config.json says) and the checkpoint is quantized with the row's `quant` (config.json's
    method, or --quantization): the release refuses the quantization block while the model config is built,
    before any class (`arch: "*"`). Under `auto` the format depends on the repository's files, which are not read."""
    fmt = engine.get("config_format")
    if not isinstance(fmt, str):
        return {}
    for bug in (table or {}).get("model_bugs") or []:
        if bug.get("config_format") != fmt.lower() or not bug.get("fixed") or not in_spans(v, bug["affected"]):
            continue
        if bug.get("quant") in (model.get("quant_method"), engine.get("quantization")):
            return {"release_bug": bug["id"], "release_bug_format": bug["config_format"], "release_bug_quant": bug["quant"],
                    "release_bug_fixed": bug["fixed"], **({"release_bug_fix": bug["fix"]} if bug.get("fix") else {}),
                    **({"release_bug_words": bug["error"]} if bug.get("error") else {})}
    return {}


def _override_bug(bug: dict, arch: str | None, engine: dict, v) -> dict[str, Any] | None:
    """A row that holds where hf_overrides sets one of its keys (the loader the override selects, whatever
    config.json's class): the facts, or None. The class named is the override's `architectures`, else `arch`.
    The keys act only on a sequence-classification class: 0.9.2's model loader wraps no other class for the
    score task (model_loader/utils.py:247); `method` is read by every such class (adapters.py:296), any other
    key only by the row's own class's config hook (is_original_qwen3_reranker: models/config.py:153-168, for
    Qwen3ForSequenceClassification alone) — the original reranker's config.json names Qwen3ForCausalLM, so
    without `architectures` in the override the two-way head is never built."""
    over = json_arg(engine.get("hf_overrides"))
    if not isinstance(over, dict) or engine.get("model_impl") == "transformers":
        return None
    archs = over.get("architectures")
    built = archs[0] if isinstance(archs, list) and archs and isinstance(archs[0], str) else arch
    if not isinstance(built, str) or not built.endswith("ForSequenceClassification"):
        return None
    hit = [k for k, val in bug["hf_overrides_any"].items() if over.get(k) == val]
    if not hit or ("method" not in hit and built != bug["arch"]):
        return None
    tp = engine.get("tensor_parallel_size")
    if bug.get("min_tp") and (not isinstance(tp, int) or isinstance(tp, bool) or tp < bug["min_tp"]):
        return None
    if not bug.get("fixed") or not in_spans(v, bug["affected"]):
        return None
    return {"release_bug": bug["id"], "release_bug_arch": built, "release_bug_fixed": bug["fixed"],
            **({"release_bug_fix": bug["fix"]} if bug.get("fix") else {}),
            **({"release_bug_words": bug["error"]} if bug.get("error") else {})}


# the site kinds the scanner gives each module run with python -m (engine/scan/launchers.py)
_MODULE_KINDS = {"vllm.entrypoints.api_server": "legacy api_server"}


def entrypoint_bug_facts(site: dict, table: dict, version: str | None) -> dict[str, Any]:
    """`runtime_bug` (the row's id), `runtime_bug_module`, `runtime_bug_fixed` and `runtime_bug_words`: the
    server module the site runs cannot start in its release, whatever it serves (entrypoint_bugs). A post
    release is read as its base release while it is older than the fixed one (0.8.5.post1 is 0.8.5's code)."""
    v = try_parse(version) if version else None
    if v is None:
        return {}
    base = try_parse(v.public)
    for bug in (table or {}).get("entrypoint_bugs") or []:
        if site.get("kind") != _MODULE_KINDS.get(bug["module"]) or not bug.get("fixed"):
            continue
        if in_spans(v, bug["affected"]) or (base is not None and base < v < parse(bug["fixed"]) and in_spans(base, bug["affected"])):
            return {"runtime_bug": bug["id"], "runtime_bug_module": bug["module"], "runtime_bug_fixed": bug["fixed"],
                    **({"runtime_bug_words": bug["error"]} if bug.get("error") else {}),
                    **({"runtime_bug_fix": bug["fix"]} if bug.get("fix") else {})}
    return {}


def framework_worker(site: dict) -> tuple[dict[str, str], bool]:
    """(the environment the site's framework release sets for the processes that run vLLM, whether
    each tensor-parallel rank runs in a process that sees only its own GPU), from the framework's
    `worker_env` and `rank_gpu` (knowledge/frameworks/*.yaml). Only for a known release: an
    unpinned framework may be one that sets the variable or one that does not."""
    from vllm_kb.engine.kb import frameworks

    fid, release = site.get("framework"), site.get("framework_version")
    if fid in (None, "none") or not release or try_parse(str(release)) is None:
        return {}, False
    try:
        raw = frameworks.get(fid).raw
    except KeyError:
        return {}, False
    env = {e["env"]: e["value"] for e in raw.get("worker_env") or [] if frameworks.version_matches(e.get("versions"), str(release))}
    return env, site.get("mode") in ((raw.get("rank_gpu") or {}).get("modes") or [])


def runtime_bug_facts(engine: dict, env: dict, gpu: dict, table: dict, version: str | None,
                      site: dict | None = None) -> dict[str, Any]:
    """`runtime_bug` (the row's id), `runtime_bug_env` (the switch), `runtime_bug_fixed` and
    `runtime_bug_words`: a release that sets up, for the site's tensor-parallel group on its GPU,
    something whose failure on some machines it does not catch — with the switch on, by default or
    by the launch's own environment (`0` turns it off; a value the audit cannot read says nothing),
    or by the framework's for its workers (verl 0.6.1+ turns it off) where the launch leaves it unset.
    `runtime_bug_one_gpu`: the framework runs each rank in a process that sees one GPU, where the
    failure is certain (the symmetric-memory rendezvous refuses ranks on one device index)."""
    fw_env, one_gpu = framework_worker(site or {})
    env = {**fw_env, **env}
    v = try_parse(version) if version else None
    cc, tp = gpu.get("compute_capability"), engine.get("tensor_parallel_size")
    if v is None or not isinstance(cc, (int, float)) or not isinstance(tp, int) or isinstance(tp, bool) or tp < 2:
        return {}
    for bug in (table or {}).get("runtime_bugs") or []:
        if not bug.get("fixed") or not in_spans(v, bug["affected"]):
            continue
        asked = env.get(bug["env"])
        if asked is None:
            on = in_spans(v, bug["default_on"])
        elif str(asked).strip() in ("0", "1"):
            on = str(asked).strip() == "1"
        else:
            continue
        sizes = (bug.get("sizes") or {}).get(str(v)) or {}
        if on and tp in sizes.get(f"{float(cc):.1f}", []):
            return {"runtime_bug": bug["id"], "runtime_bug_env": bug["env"], "runtime_bug_fixed": bug["fixed"],
                    "runtime_bug_default": asked is None, **({"runtime_bug_words": bug["error"]} if bug.get("error") else {}),
                    **({"runtime_bug_one_gpu": True} if one_gpu else {})}
    return {}


def release_before_bug(bug: dict, table: dict, archs: dict, version: str | None, passed: dict, cat: Any) -> dict[str, Any]:
    """`release_bug_before`: the last scanned release before the affected span the site's release is in,
    the release reporters of a model-class regression go back to (vllm#23320 ran 0.10.0 for Qwen2.5-VL's
    merged vision MLP of 0.10.1, vllm#30969 0.11.0 for 0.11.1's Transformers-backend targets). Only where
    that release registers the class (knowledge/vllm/architectures.yaml: a span that begins with the
    class's arrival has nothing older to go back to) and has every engine argument the launch passes (a
    newer option would stop the older release's argparse instead)."""
    row = next((b for b in (table or {}).get("model_bugs") or [] if b.get("id") == bug.get("release_bug")), None)
    v = try_parse(version) if version else None
    arch = bug.get("release_bug_arch")
    if row is None or v is None or not row.get("fixed") or not isinstance(arch, str):
        return {}
    first = next((str(a) for a, b in row["affected"] if parse(str(a)) <= v <= parse(str(b))), None)
    releases = [str(r) for r in (table or {}).get("releases") or []]
    if first not in releases or releases.index(first) == 0:
        return {}
    prev = releases[releases.index(first) - 1]
    if not in_spans(prev, ((archs or {}).get("registered") or {}).get(arch) or []):
        return {}
    for name in passed or {}:
        entry = cat.arg(name)
        if entry is None or not entry.exists(prev):
            return {}
    return {"release_bug_before": prev}
