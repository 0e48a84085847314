"""`startup.smem_*`: the longest sequence vLLM 0.2.0–0.2.1's attention kernel holds in one thread block's
shared memory. Worker.init_cache_engine (after memory profiling) calls _check_if_can_support_max_seq_len with
max_seq_len = min(max_model_len, the config's sliding_window) and raises RuntimeError("vLLM cannot currently
support max_model_len=… with block_size=… on GPU with compute capability …") when
(max_seq_len + block_size − 1) × 4 bytes (float32 logits; `(x + b − 1) / b * b` is true division there) exceed
cudaDevAttrMaxSharedMemoryPerBlockOptin (vllm/worker/worker.py 0.2.0:147/370, 0.2.1:149/372). 0.2.2's
partitioned PagedAttention V2 dropped the check.

Present only for those releases, a GPU whose opt-in shared memory per block is known, a known length and a
model whose sliding window is known (a window the catalog does not know would shorten what is checked)."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.check.startup_common import as_int
from vllm_kb.engine.kb.versions import SpecifierSet

RELEASES = SpecifierSet(">=0.2.0,<0.2.2")
# maximum shared memory per thread block, opt-in, by compute capability (CUDA C++ Programming Guide,
# "Technical Specifications per Compute Capability"): the architectures 0.2.x builds for (7.0–9.0)
OPTIN_BYTES = {7.0: 96 * 1024, 7.5: 64 * 1024, 8.0: 163 * 1024, 8.6: 99 * 1024, 8.7: 163 * 1024,
               8.9: 99 * 1024, 9.0: 227 * 1024}
FLOAT32 = 4


def smem_facts(model: dict, engine: dict, gpu: dict, version: str, max_len: int | None) -> dict[str, Any]:
    if not RELEASES.contains(version) or not isinstance(max_len, int) or not isinstance(model.get("sliding_window"), bool):
        return {}
    cc = gpu.get("compute_capability")
    have = OPTIN_BYTES.get(round(float(cc), 1)) if isinstance(cc, (int, float)) and not isinstance(cc, bool) else None
    if have is None:
        return {}
    block = as_int(engine.get("block_size")) or 16
    window = as_int(model.get("sliding_window_size")) if model["sliding_window"] else None
    if model["sliding_window"] and not window:
        return {}  # a window of unknown size shortens what is checked: not judged
    seq = min(max_len, window) if window else max_len
    fit = have // FLOAT32 - (block - 1)  # the longest max_seq_len the check lets through
    return {"smem_seq_len": seq, "smem_bytes": have, "smem_fit": fit, "smem_block": block,
            "smem_refused": (seq + block - 1) * FLOAT32 > have,
            # a max_model_len to propose: the fit, rounded down to whole 1024s
            "smem_fit_len": fit // 1024 * 1024}
