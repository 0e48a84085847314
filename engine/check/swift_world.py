"""The torch.distributed world ms-swift's colocated rollout engine is built in (check L70).

`NPROC_PER_NODE=N swift rlhf …` makes swift start its trainer through torchrun with N processes,
and the trainer initialises torch.distributed before it builds the colocated vLLM engine in each
rank. vLLM up to 0.7.2 builds its model-parallel groups from that world and stops with
"world_size (N) is not equal to tensor_model_parallel_size (t) x pipeline_model_parallel_size (p)"
(modelscope/ms-swift#3739: NPROC_PER_NODE=8, tensor parallel 4, vLLM 0.7.2); 0.7.3 builds groups
of any size. Only a tensor-parallel engine is judged: with one GPU per engine swift builds it in
each rank on its own, and no report shows that path failing."""
from __future__ import annotations

from typing import Any


def swift_world(site, facts: dict) -> dict[str, Any]:
    """`launch.dist_first` and `launch.launcher_processes` of a colocated ms-swift rollout whose
    engine spans several GPUs; nothing for any other site."""
    if site.framework != "ms-swift" or (facts.get("site") or {}).get("mode") != "rlhf_colocate":
        return {}
    n = site.env.get("NPROC_PER_NODE")
    tp = (facts.get("engine") or {}).get("tensor_parallel_size")
    if n is None or not n.resolved or not str(n.value).isdigit() or not isinstance(tp, int) or tp <= 1:
        return {}
    return {"dist_first": True, "launcher_processes": int(n.value)}
