"""How far the memory estimate can be trusted, from the start-up logs of docs/estimator.md
(benchmarks/estimator_accuracy.py --bands): the error band on the KV pool that decides between "may
refuse" (P1) and "refuses" (P0) in L15 and L16."""
from __future__ import annotations

from vllm_kb.engine.check.memory.runtime import runtime
from vllm_kb.engine.check.memory.site import Site, numeric_args
from vllm_kb.engine.kb.versions import parse, try_parse

# Headroom a suggested value keeps for the estimate's own error (docs/estimator.md: within 10%).
SUGGEST_MARGIN = 0.10
# The estimate's error on the KV pool in GiB, as a share of the requested budget: the 51 positive
# logged pools of docs/estimator.md come within 2.5% (the widest, -2.1%, a pipeline-parallel run on
# L4s; benchmarks/estimator_accuracy.py --bands). A pool closer to zero than that is "nothing
# or a few blocks".
KV_ERROR_FRACTION = 0.025
# The same on the side that calls a launch short, where the logs bound it tighter: V1 text models
# at PP 1 without LoRA or a KV connector estimate the pool within 1% of the budget on that side
# (worst -0.39% of the 43 such rows of tests/data/kv_startup_logs.yaml and heldout36's blind table;
# the others worst -0.78%, against the lighter sampler where the installation picks it:
# benchmarks/estimator_accuracy.py --bands).
KV_TIGHT_FRACTION = 0.015
# The logged V1 start-ups run from 0.8.2 to 0.19.0; from 0.20 vLLM subtracts its CUDA-graph memory
# before sizing the cache, which the estimate predicts and no log has checked yet.
TIGHT_BEFORE = "0.20.0"


def error_band(budget: dict[str, float], share: float = KV_ERROR_FRACTION) -> float:
    """The estimate's own error on the KV cache, in bytes: a share of the profiled terms or of the
    budget, and what the release's unknown buffers may take."""
    terms = budget["activation_peak"] + budget["non_torch"] + budget["cudagraph"]
    return max(SUGGEST_MARGIN * terms, share * budget["requested"]) + budget["unknown"]


def deficit_band(budget: dict[str, float]) -> float:
    """L16's band where the estimate leaves no cache at all: error_band, plus the CUDA-graph term where
    the release subtracts it before sizing the cache (vLLM 0.20+, v1/worker/gpu_worker.py
    determine_available_memory: `cudagraph_memory_estimate_applied`, 0.20.0 lines 399-424), which no
    logged start-up checks yet (TIGHT_BEFORE): the whole term may be off, so a deficit within it is P1."""
    return error_band(budget) + budget["cudagraph"]


def shortfall_share(model: dict, gpu: dict, engine: dict, vllm_version: str | None = None,
                    env: dict | None = None) -> float | None:
    """The share of the budget L15 allows the estimate's error where it calls one request short, for
    one site (benchmarks/estimator_accuracy.py --bands measures the logs against it)."""
    engine = numeric_args(engine)
    rt = runtime(vllm_version, env, gpu.get("compute_capability"), None, model.get("architecture"))
    return _shortfall_share(Site(model, gpu, engine, rt, int(engine.get("tensor_parallel_size") or 1),
                                 int(engine.get("pipeline_parallel_size") or 1)))


def shortfall_band(site: Site, budget: dict[str, float]) -> float | None:
    """That error in bytes (error_band at the site's share); None where the logs do not bound it."""
    share = _shortfall_share(site)
    return None if share is None else error_band(budget, share)


def _shortfall_share(site: Site) -> float | None:
    """The estimate's error on the pool where it says one request does not fit, as a share of the
    requested budget; None where the logs do not bound it: pipeline stages (-2.1% of the budget at
    0.9.2, PP 2), a multimodal profile (+5.6% to +46% in V0), shapes borrowed from the family. The
    tighter share holds for the V1 releases the logs cover."""
    model, engine = site.model, site.engine
    if site.pp > 1 or model.get("multimodal") or model.get("dims_family"):
        return None
    version = try_parse(site.rt.version) if site.rt.version else None
    logged = version is not None and version < parse(TIGHT_BEFORE)
    if not logged and (version is None or version >= parse(TIGHT_BEFORE)):
        return None  # from 0.20 the cache is sized after CUDA-graph memory, a term no logged start-up checks yet
    tight = site.rt.v1 and logged and not engine.get("enable_lora") and not engine.get("kv_transfer_config")
    return KV_TIGHT_FRACTION if tight else KV_ERROR_FRACTION
