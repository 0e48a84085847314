"""The torch.distributed world ms-swift's rollout engine lives in (checks L70 and swift-grpo-device-map).

`NPROC_PER_NODE=N swift rlhf …` makes swift start its trainer through torchrun with N processes,
and the trainer initialises torch.distributed before it builds the colocated vLLM engine in each
rank. vLLM up to 0.7.2 builds its model-parallel groups from that world and stops with
"world_size (N) is not equal to tensor_model_parallel_size (t) x pipeline_model_parallel_size (p)"
(modelscope/ms-swift#3739: NPROC_PER_NODE=8, tensor parallel 4, vLLM 0.7.2); 0.7.3 builds groups
of any size. Only a tensor-parallel engine is judged: with one GPU per engine swift builds it in
each rank on its own, and no report shows that path failing.

Without NPROC_PER_NODE swift runs one plain process, which spreads the model over every GPU it
sees (device_map); its GRPO and GKD arguments refuse that beside a vLLM rollout (swift_processes).
ms-swift 3.2.2 … 3.4.1 instead assert that the GPUs a GRPO trainer sees are its processes per node
(colocate, num_infer_workers equal to that count) or those plus num_infer_workers (async)."""
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


def swift_processes(site) -> dict[str, Any]:
    """`launch.swift_rl_vllm` (grpo or gkd) and `launch.swift_local_procs` of `swift rlhf` with a
    vLLM rollout: the processes per node swift starts, NPROC_PER_NODE through torchrun, else one
    (swift/cli/main.py use_torchrun; utils/env.py get_dist_setting reads LOCAL_WORLD_SIZE, 1 when
    unset). is_mp() (utils/env.py) is visible GPUs // processes >= 2, and rlhf_args.py _check_grpo
    (3.6.0 on) and _check_gkd (3.10.0 on) refuse it with use_vllm in either vllm_mode. Nothing when
    the count is written with a value the audit cannot read."""
    keys = site.framework_keys or {}
    algo = str(keys.get("rlhf_type") or "").lower()
    if site.framework != "ms-swift" or site.framework_command != "rlhf" or algo not in ("grpo", "gkd") \
            or str(keys.get("use_vllm")).lower() != "true":
        return {}
    single = site.env.get("SWIFT_SINGLE_DEVICE_MODE")
    if single is not None and (not single.resolved or str(single.value).strip() == "1"):
        return {}  # 4.x: is_mp() is off in single-device mode
    n = site.env.get("NPROC_PER_NODE")
    if n is not None and (not n.resolved or not str(n.value).strip().isdigit() or int(str(n.value).strip()) < 1):
        return {}
    out = {"swift_rl_vllm": algo, "swift_local_procs": int(str(n.value).strip()) if n is not None else 1}
    # 3.2.2-3.4.1 _check_grpo (rlhf_args.py) counts the rollout workers beside the trainer's processes;
    # an external rollout server (vllm_server_host, 3.3.1 on) skips it
    workers = str(keys.get("num_infer_workers", 1)).strip()
    if algo == "grpo" and workers.isdigit() and not keys.get("vllm_server_host"):
        out["swift_infer_workers"] = int(workers)
    return out
