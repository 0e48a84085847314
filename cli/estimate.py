"""`vllm-kb estimate`: what a model needs on a GPU under vLLM's own memory sizing, without a
project to audit. main.py registers it with `estimate.add_parser(sub)`."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb.errors import EXIT_CLEAN, UsageError

# engine arguments the command line can set, as (flag, EngineArgs name, type)
_ENGINE_FLAGS = (
    ("--tp", "tensor_parallel_size", int),
    ("--pp", "pipeline_parallel_size", int),
    ("--max-model-len", "max_model_len", int),
    ("--kv-cache-dtype", "kv_cache_dtype", str),
    ("--quantization", "quantization", str),
    ("--gpu-memory-utilization", "gpu_memory_utilization", float),
    ("--max-num-seqs", "max_num_seqs", int),
    ("--max-num-batched-tokens", "max_num_batched_tokens", int),
    ("--dtype", "dtype", str),
)


def add_parser(subparsers) -> Any:
    p = subparsers.add_parser("estimate", help="estimate weights, KV cache and concurrency for a model on a GPU")
    p.add_argument("--model", required=True, help="Hugging Face id or a local checkpoint folder (its config.json is read)")
    p.add_argument("--gpu", required=True, help='"H100-80GB x8", "A100-40GB", "L40S:2" … (knowledge/gpus.yaml)')
    for flag, dest, kind in _ENGINE_FLAGS:
        p.add_argument(flag, dest=dest, type=kind, default=None)
    p.add_argument("--vllm-version", help="size as this vLLM release does (default: the newest the catalog knows)")
    p.add_argument("--offline", action="store_true", help="LLM() defaults instead of vllm serve's")
    p.add_argument("--lang", choices=("en", "zh"), default="en")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)
    return p


def run(ns) -> int:
    from vllm_kb.engine.kb import catalog, knowledge
    from vllm_kb.engine.check import memory

    kb = knowledge.load()
    cat = catalog.load()
    gpu = _gpu(kb, ns.gpu)
    version = _version(cat, ns.vllm_version)
    model = _model(kb, ns.model, version)
    engine = _engine(kb, cat, ns, model, gpu, version)
    est = memory.estimate(model, gpu, engine, vllm_version=version) if model.get("params_b") else {}
    if ns.format == "json":
        doc = {"estimated": True, "model": model, "gpu": gpu, "vllm_version": version,
               "engine": {k: engine.get(k) for _, k, _ in _ENGINE_FLAGS if engine.get(k) is not None},
               "estimate": est, "assumptions": _assumption_texts(kb, est, ns.lang)}
        from vllm_kb.engine.report import json_text  # every JSON output escaped one way

        sys.stdout.write(json_text.dumps(doc) + "\n")
    else:
        sys.stdout.write(render_text(kb, ns.lang, model, gpu, engine, version, est))
    return EXIT_CLEAN


def _gpu(kb, spec: str) -> dict:
    from vllm_kb.engine.kb import hardware

    hw = hardware.parse_spec(spec, kb.gpus)  # UsageError for a GPU the catalog lacks
    if not hw.gpu:
        raise UsageError(f"--gpu {spec!r} names no GPU; the estimate needs one")
    return dict(hw.gpu)


def _version(cat, wanted: str | None) -> str:
    from vllm_kb.engine.kb.versions import try_parse

    if wanted is None:
        return cat.newest
    if try_parse(wanted) is None:
        raise UsageError(f"--vllm-version {wanted!r} is not a version number")
    return wanted


def _model(kb, name: str, version: str | None = None) -> dict:
    """Catalog facts, completed by the checkpoint's config.json when --model is a folder or a Hub
    id in the local Hugging Face cache (never downloaded)."""
    from vllm_kb.engine.kb import checkpoint, models

    folder = Path(name)
    ck = checkpoint.read_checkpoint(folder, ".") if folder.is_dir() else checkpoint.read_hub_cache(name)
    markers = kb.doc("models.yaml").data.get("quantized_markers", [])
    return models.model_facts(name, kb.models, markers, config=ck.config if ck else None,
                              tokenizer=ck.tokenizer if ck else None, version=version,
                              publishers=kb.doc("models.yaml").data.get("publishers"))


def _engine(kb, cat, ns, model: dict, gpu: dict, version: str) -> dict:
    """Effective arguments as an audit builds them: the release's declared defaults, the
    defaults vLLM picks at start-up for this GPU and entry point, then the flags given."""
    from vllm_kb.engine.check.engine_defaults import effective_defaults

    lookup = cat.resolve(version).version
    engine = {k: v for k, v in cat.defaults(lookup).items() if v is not None}
    kind = "LLM()" if ns.offline else "vllm serve"
    site = {"mode": "standalone_offline" if ns.offline else "standalone_serve", "kind": kind, "serves_http": not ns.offline}
    engine.update(effective_defaults(kb, {"site": site, "gpu": gpu, "model": model,
                                                     "vllm": {"version": version, "pinned": True}}, lookup))
    engine.update({k: getattr(ns, k) for _, k, _ in _ENGINE_FLAGS if getattr(ns, k) is not None})
    return engine


def render_text(kb, lang: str, model: dict, gpu: dict, engine: dict, version: str, est: dict) -> str:
    t = lambda key, **kw: kb.t(key, lang, **kw)  # noqa: E731 - a short alias keeps the lines readable
    tag = t("estimate.label")
    gpu_name = gpu["name"] if gpu.get("devices_gib") else f"{gpu['name']} x {int(gpu.get('count') or 1)}"  # mixed: named card by card
    lines = [t("estimate.title", model=model.get("name", "?"), gpu=gpu_name), ""]
    if not est:
        lines.append(t("estimate.unknown_model", model=model.get("name", "?")))
        return "\n".join(lines) + "\n"
    tp, pp = int(engine.get("tensor_parallel_size") or 1), int(engine.get("pipeline_parallel_size") or 1)
    lines.append(t("estimate.engine", version=version, tp=tp, pp=pp, max_len=est.get("max_model_len", "?"),
                   gmu=engine.get("gpu_memory_utilization", memory_default()), kv_dtype=engine.get("kv_cache_dtype") or "auto"))
    if tp * pp > int(gpu.get("count") or 1) > 1:
        lines.append(t("estimate.gpus_short", tp=tp, pp=pp, need=tp * pp, count=int(gpu["count"])))
    lines.append(t("estimate.weights", total=est["weights_gib"], per_gpu=est.get("weights_per_gpu_gib", "?"),
                   width=_assumption(est, "weight_width")) + tag)
    if "requested_per_gpu_gib" in est:
        lines.append(t("estimate.budget", requested=est["requested_per_gpu_gib"], act=est["activation_peak_gib"],
                       non_torch=est["non_torch_gib"], graphs=est["cudagraph_gib"]) + tag)
    if "kv_tokens" in est:
        lines.extend(_kv_lines(t, est, tag))
    if "fits" in est:
        lines.append(t("estimate.fits" if est["fits"] else "estimate.not_fits", tp=tp) + tag)
        lines.append((t("estimate.min_tp", tp=est["min_tp"]) if "min_tp" in est else t("estimate.min_tp_none")) + tag)
    lines += _bar_lines(t, est, gpu)
    lines += ["", t("estimate.assumptions") + ":"]
    lines += [f"  - {s}" for s in _assumption_texts(kb, est, lang)]
    lines += ["", t("estimate.note")]
    return "\n".join(lines) + "\n"


def _bar_lines(t, est: dict, gpu: dict) -> list[str]:
    """One GPU's memory as a bar, weights | KV cache | reserve | free, with its legend."""
    from vllm_kb.engine.report import memory_bar

    parts = memory_bar.split(est, gpu.get("memory_gib"))
    if parts is None:
        return []
    return ["", t("memory_bar.heading"), "  " + memory_bar.bar(parts), "  " + memory_bar.legend(parts, t),
            "  " + t("memory_bar.reserve_note")]


def _kv_lines(t, est: dict, tag: str) -> list[str]:
    out = [t("estimate.kv_cache", gib=est["kv_cache_gib"], tokens=f"{est['kv_tokens']:,}",
             blocks=f"{est['kv_blocks']:,}", block=est["block_size"]) + tag,
           t("estimate.kv_per_token", per_gpu=f"{est['kv_bytes_per_token_per_gpu']:,}",
             total=f"{est['kv_bytes_per_token']:,}") + tag]
    if est.get("hybrid_kv_cache"):
        out.append(t("estimate.hybrid", groups=est["kv_groups"]))
    out.append(t("estimate.concurrency", max_len=f"{est['max_model_len']:,}", x=est["max_concurrency"]) + tag)
    if not est.get("fits_max_model_len", True):
        out.append(t("estimate.no_fit", max_len=f"{est['max_model_len']:,}", fit=f"{est['max_model_len_fit']:,}") + tag)
    return out


def _assumption(est: dict, key: str) -> Any:
    return next((a["value"] for a in est.get("assumptions", []) if a["key"] == key), "?")


def _assumption_texts(kb, est: dict, lang: str) -> list[str]:
    from vllm_kb.engine.report.model import memory_assumptions

    return memory_assumptions(kb, est, lang)


def memory_default() -> float:
    from vllm_kb.engine.check import memory

    return memory.DEFAULT_GMU
