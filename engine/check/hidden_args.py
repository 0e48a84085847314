"""Engine arguments a site may pass where the audit cannot read them, so that what depends on them
is unknown rather than judged at vLLM's default.

- Several GPUs given to a deployment whose command is partly unreadable (`"$@"`, an unresolved
  word): the tensor parallel size it does not write may be in that part.
- A Python launch that spreads what it cannot resolve into vLLM (`LLM(model=m, **engine_kwargs)`,
  `LLM(**cfg)`, `subprocess.run([*BASE, *extra, "--port", p])`, `[..., *sys.argv[1:]]`): any
  argument it does not write may be in there, so no verdict says one is missing or left at its
  default (a dtype the spread may set, a max_model_len it may cap). What it writes itself is read.
"""
from __future__ import annotations

from typing import Iterable

from vllm_kb.engine.scan.site import Site

# Engine arguments that move the memory estimate: when one is written but cannot be read (a
# variable set elsewhere, a command substitution), the estimate is unknown rather than made
# with vLLM's default in its place.
SIZING = frozenset({"tensor_parallel_size", "pipeline_parallel_size", "gpu_memory_utilization", "max_model_len",
                    "kv_cache_dtype", "quantization", "dtype", "cpu_offload_gb", "kv_cache_memory_bytes",
                    "num_gpu_blocks_override", "kv_cache_memory"})


def hidden_parallelism(site: Site) -> dict[str, str]:
    """A deployment that gives the engine several GPUs while part of its command cannot be read
    (`*bento_args.additional_cli_args`, `"$@"`): the tensor parallel size it does not write may
    well be in that part, so what depends on it is unknown rather than judged at TP 1."""
    hidden = [o["what"] for o in site.opaque if o.get("code") in ("unresolved", "forwards-args", "run-time-args")]
    if not hidden or (site.gpu_request or 0) < 2 or "tensor_parallel_size" in site.settings:
        return {}
    return {"tensor_parallel_size": f"{site.gpu_request} GPUs given; {hidden[0]}"}


def python_spread(site: Site) -> dict | None:
    """The first unresolved `**mapping` / `*sequence` a Python launch hands vLLM, if any."""
    if not site.syntax.startswith("python"):
        return None
    for o in site.opaque:
        if o.get("code") in ("spread", "run-time-args") or (o.get("code") == "unresolved" and str(o.get("what", "")).startswith("*")):
            return o
    return None


def hidden_args(site: Site, names: Iterable[str]) -> dict[str, str]:
    """{argument: why it is unknown} for those of `names` the site may pass unseen."""
    out = hidden_parallelism(site)
    spread = python_spread(site)
    if spread is not None:
        where = f"{spread['what']} ({spread['where']})"
        out.update({n: f"{n}: {where}" for n in names if n not in site.settings and n not in out and n != "model"})
    return out
