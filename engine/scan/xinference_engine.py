"""Which engine an Xinference launch runs on, and how many GPUs Xinference gives it
(knowledge/deploy/xinference.yaml `engine_auto`, `n_gpu_auto`). Before 0.11.0 a launch names no
engine: Xinference takes vLLM by itself where vLLM is installed and its vLLM classes accept the
model (a listed name, format pytorch/gptq/awq), so `xinference launch --model-name qwen1.5-chat …`
is a vLLM launch. `--n-gpu` defaults to "auto", one GPU of the worker, in every release: a tensor
parallel size above the GPUs the model is given cannot place its workers."""
from __future__ import annotations

from vllm_kb.engine.kb import deploy_tools, versions
from vllm_kb.engine.kb.knowledge import FixOp
from vllm_kb.engine.scan.site import Finding, Setting, Site

CODE = "xinference-n-gpu"
UNREAD = object()  # an option the launch writes whose value is not known here (`--n-gpu "$N"`)


def _vllm_installed(ctx, rel: str, pin) -> bool:
    """vLLM is in the project beside Xinference: a vLLM pin for the file's folder (or --vllm-version),
    or an Xinference extra that installs it (`xinference[vllm]`, `xinference[all]`)."""
    if getattr(ctx, "forced_version", None):
        return True
    extras = set(deploy_tools.load("xinference")["engine_auto"]["extras"])
    if pin is not None and extras & {e.lower() for e in getattr(pin, "extras", ()) or ()}:
        return True
    parts = rel.split("/")[:-1]
    return any("/".join(parts[:d]) in ctx.versions_by_dir for d in range(len(parts) + 1))


def auto_vllm(ctx, rel: str, version: str, name: object, fmt: object, quant: object, lora: bool,
              model_type: object) -> str | None:
    """Why a launch without --model-engine runs on vLLM (the pinned release's selection), else None."""
    if ctx is None or lora or not isinstance(name, str) or (isinstance(model_type, str) and model_type.upper() != "LLM"):
        return None
    spec = deploy_tools.load("xinference")["engine_auto"]
    pin = ctx.framework_pin(rel, "xinference")
    release = ctx.framework_version(rel, "xinference")
    if release is None or versions.try_parse(release) is None or not versions.contains(spec["releases"], release):
        return None  # unpinned, or a release that asks for --model-engine (0.11.0+)
    if not _vllm_installed(ctx, rel, pin):
        return None
    form = str(fmt or "pytorch").lower()  # the registry's first spec: pytorch for the listed families
    q = str(quant).lower() if quant is not None else None
    if form not in spec["formats"] or (form == "pytorch" and q not in (None, "none")) or (form != "pytorch" and q is not None and "4" not in q):
        return None
    for row in spec["models"]:
        if name in row["names"] and versions.parse(release) >= versions.parse(row["since"]):
            if row.get("vllm") and versions.try_parse(version) is not None and not versions.contains(row["vllm"], version):
                return None
            return (f"Xinference {release} picks vLLM itself (no --model-engine before 0.11.0): vLLM is installed "
                    f"and its vLLM engine lists `{name}` ({form})")
    return None


def gpus_given(n_gpu: object, gpu_idx: object, replica_config: bool = False) -> tuple[int | None, str]:
    """(GPUs Xinference gives the model, the option that says so): --gpu-idx's count, an integer
    --n-gpu, else one ("auto", the default); None for "none" (CPU), what is not read (UNREAD), or a
    --replica-config (each replica's own n_gpu / gpu_idx, 4.1.0 launch.rst)."""
    if gpu_idx is UNREAD or replica_config:
        return None, "gpu_idx"
    if isinstance(gpu_idx, (list, tuple)):
        return len(gpu_idx), "gpu_idx"
    if isinstance(gpu_idx, str) and gpu_idx.strip():
        return len([x for x in gpu_idx.split(",") if x.strip()]), "gpu_idx"
    if isinstance(gpu_idx, int) and not isinstance(gpu_idx, bool):
        return 1, "gpu_idx"
    if isinstance(n_gpu, int) and not isinstance(n_gpu, bool):
        return n_gpu, "n_gpu"
    if isinstance(n_gpu, str) and n_gpu.isdigit():
        return int(n_gpu), "n_gpu"
    if n_gpu is None or (isinstance(n_gpu, str) and n_gpu.lower() == "auto"):
        return int(deploy_tools.load("xinference")["n_gpu_auto"]["gpus"]), "auto"
    return None, "n_gpu"


def gpu_remark(site: Site, gpus: int, by: str) -> Finding | None:
    """A tensor × pipeline parallel size the project writes above the GPUs Xinference gives the
    model: vLLM cannot place its workers (Ray: "The number of required GPUs exceeds the total number
    of available GPUs"; mp: world size larger than the GPUs). The change is Xinference's own option."""
    tp, pp = site.settings.get("tensor_parallel_size"), site.settings.get("pipeline_parallel_size")
    if tp is None or tp.implied or not tp.resolved or not isinstance(tp.value, int) or isinstance(tp.value, bool):
        return None
    ppv = pp.value if pp is not None and pp.resolved and isinstance(pp.value, int) and not pp.implied else 1
    need = tp.value * ppv
    if need <= gpus:
        return None
    cli = site.syntax not in ("python-call", "kwargs-json")  # a keyword, or a key of a REST launch body
    opt = ("--n-gpu" if cli else "n_gpu") if by != "gpu_idx" else ("--gpu-idx" if cli else "gpu_idx")
    given = {"auto": ("--n-gpu auto (the default) gives the model one GPU", "--n-gpu 默认 auto，只给模型 1 张 GPU"),
             "n_gpu": (f"{opt} gives the model {gpus} GPU(s)", f"{opt} 只给模型 {gpus} 张 GPU"),
             "gpu_idx": (f"{opt} gives the model {gpus} GPU(s)", f"{opt} 只给模型 {gpus} 张 GPU")}[by]
    change = (f"{opt} {need}" if cli else f"{opt}={need}") if by != "gpu_idx" else f"{need} GPUs in {opt}"
    en = (f"Xinference: {given[0]}, but tensor_parallel_size {tp.value}" + (f" × pipeline {ppv}" if ppv > 1 else "")
          + f" needs {need}: vLLM cannot place its workers (\"The number of required GPUs exceeds the total number of "
          f"available GPUs\") and the model does not start. Give it {need} GPUs ({change}) on a worker that has them, "
          f"or lower tensor_parallel_size to {gpus}.")
    zh = (f"Xinference：{given[1]}，但 tensor_parallel_size {tp.value}" + (f" × 流水线 {ppv}" if ppv > 1 else "")
          + f" 需要 {need} 张：vLLM 无法放置 worker（\"The number of required GPUs exceeds the total number of available "
          f"GPUs\"），模型无法启动。请在有足够 GPU 的 worker 上给它 {need} 张 GPU（{change}），或把 tensor_parallel_size 降到 {gpus}。")
    fix = [(FixOp("set", "n_gpu"), need)] if by != "gpu_idx" else []
    return Finding(CODE, {"en": en, "zh": zh}, tp.file or site.file, tp.line or site.line, "P0", fix=fix, safe=True,
                   subject="tensor_parallel_size")


def place_gpus(site: Site, gpus: int | None, by: str, rel: str, line: int, key: str, multi_worker: bool = False) -> None:
    """tensor_parallel_size as Xinference sets it (the GPUs it gives the model) where the launch
    does not write it, and the finding where what it writes does not fit those GPUs."""
    if multi_worker:  # --n-worker > 1: the model spans workers, each with its own GPUs
        gpus = None
    if "tensor_parallel_size" not in site.settings:
        if gpus is not None:
            why = "Xinference uses every GPU it gives the model" if by != "auto" else \
                "Xinference's --n-gpu auto gives the model one GPU"
            site.settings["tensor_parallel_size"] = Setting("tensor_parallel_size", gpus, True, rel, line, key, str(gpus), site.syntax,
                                                            why, implied=True)
        else:
            site.settings["tensor_parallel_size"] = Setting("tensor_parallel_size", None, False, rel, line, key, "", site.syntax,
                                                            "the number of GPUs of the Xinference worker (a fact of the machine)",
                                                            implied=True)
            site.device_args = (*site.device_args, "tensor_parallel_size")
    if gpus is None:
        return
    site.gpu_request = gpus
    site.launch["gpus_by_tool"] = gpus
    remark = gpu_remark(site, gpus, by)
    if remark is not None:
        site.remarks = [*site.remarks, remark]


def note_gpu_ids(site: Site, gpu_idx: object, endpoint: object) -> None:
    """The worker GPUs a launch names (--gpu-idx 0,1 / gpu_idx=[0, 1]) and the server it goes to: two
    launches that name one GPU share it, as the worker only warns (core/worker.py
    allocate_devices_with_gpu_idx: "GPU index 0 has been occupied", refused only where
    XINFERENCE_ALLOW_MULTI_REPLICA_PER_GPU=0; the default lets it through)."""
    ids: list = []
    if isinstance(gpu_idx, bool):
        return
    if isinstance(gpu_idx, int):
        ids = [gpu_idx]
    elif isinstance(gpu_idx, (list, tuple)):
        ids = list(gpu_idx)
    elif isinstance(gpu_idx, str):
        ids = [x.strip() for x in gpu_idx.split(",")]
        ids = [int(x) for x in ids if x.isdigit()] if all(x.isdigit() for x in ids) else []
    if ids and all(isinstance(x, int) and not isinstance(x, bool) for x in ids):
        site.launch["tool_gpu_ids"] = sorted(set(ids))
    if isinstance(endpoint, str):
        site.launch["tool_endpoint"] = endpoint


def note_other(ctx, rel: str, endpoint: object, line: int, model: object, kind: object, gpu_idx: object) -> None:
    """Remember an Xinference launch of a model vLLM does not run (an embedding or rerank model, another
    engine): the worker may put it on the GPU a later vLLM launch takes."""
    if ctx is None:
        return
    ctx.xinference_others.setdefault((rel, endpoint if isinstance(endpoint, str) else None), []).append(
        (line, model if isinstance(model, str) else "?", kind if isinstance(kind, str) else "?", gpu_idx))


def others_before(ctx, rel: str, endpoint: object, line: int, gpu_idx: object) -> str | None:
    """The models launched earlier in the same file to the same endpoint that may share this launch's
    GPU: with neither naming --gpu-idx (the worker places both), or both naming the same one. Whether
    they do share it is the machine's question (one GPU: they must); None when there are none."""
    if ctx is None:
        return None
    rows = [r for r in ctx.xinference_others.get((rel, endpoint if isinstance(endpoint, str) else None), ())
            if r[0] < line and r[3] == gpu_idx and (gpu_idx is None or isinstance(gpu_idx, str))]
    return ", ".join(f"{name} ({kind}, {rel}:{at})" for at, name, kind, _ in rows) or None
