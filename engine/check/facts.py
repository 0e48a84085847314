"""The facts a check predicate reads for one site (see schema/facts.schema.json): what the
user set (`args`), the effective configuration (`engine` = version defaults ⊕ args), env,
GPU, model, memory estimate and vLLM version."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any, Callable

from vllm_kb.engine.check import candidates, hf_access, host_memory, memory, name_guess, quant_stripped, site_gpu
from vllm_kb.engine.check.adapter_model import adapter_facts
from vllm_kb.engine.check.chat_template import no_chat_template
from vllm_kb.engine.check.draft_config import read_drafts
from vllm_kb.engine.check.engine_defaults import effective_defaults, scheduler_batched
from vllm_kb.engine.check.hidden_args import SIZING as _SIZING, hidden_args
from vllm_kb.engine.check.json_arg import json_arg
from vllm_kb.engine.check.launch_facts import framework_nodes, gpu_layout, launch_facts, parser_facts
from vllm_kb.engine.check.lora_adapters import lora_facts
from vllm_kb.engine.check.memory.sampler_range import range_sampler
from vllm_kb.engine.check.site_platform import cpu_build, cuda_ids_beyond, platform, visible_gpus
from vllm_kb.engine.check.startup_arch import registers
from vllm_kb.engine.check.startup_dtype import device_picked_dtype
from vllm_kb.engine.check.startup_facts import startup_facts
from vllm_kb.engine.check.startup_lengths import window_capped
from vllm_kb.engine.check.startup_task import pooling_keeps_kv, pools_natively
from vllm_kb.engine.check.tool_caps import passed_by_tool, sized_by_tool
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.hardware import Hardware, is_amd
from vllm_kb.engine.kb.knowledge import Knowledge
from vllm_kb.engine.kb.checkpoint import read_checkpoint
from vllm_kb.engine.kb import arch_names, hub_uploads, model_resolve, plugins
from vllm_kb.engine.kb.mla import mla_at
from vllm_kb.engine.kb.models import model_facts
from vllm_kb.engine.scan.deploy.dockerfile import is_dockerfile
from vllm_kb.engine.scan.deploy.image_files import copied_paths
from vllm_kb.engine.scan.registered_models import ANY
from vllm_kb.engine.scan.python_callers import is_test_module
from vllm_kb.engine.scan.site import Site


# Site kinds that put vLLM behind an HTTP (OpenAI-compatible) endpoint.
# Sites that run vLLM's own OpenAI-compatible HTTP server (a framework's own server around an
# engine — swift deploy/rollout, llamafactory-cli api, TRL's FastAPI vllm-serve — is not one).
# a KAITO preset's pod runs vLLM's OpenAI server (presets/workspace/inference/vllm/inference_api.py
# calls api_server.run_server, v0.7.0-v0.12.0)
SERVES_HTTP = frozenset({"vllm serve", "api_server", "legacy api_server", "kaito workspace"})


def serves_http(site: Site) -> bool:
    if site.kind in SERVES_HTTP:
        return True
    if site.kind == "trl vllm-serve":
        from vllm_kb.engine.kb.frameworks import get, version_matches

        return version_matches(get("trl").raw["serve"].get("vllm_http"), site.framework_version)
    return False

# Names vLLM accepts for compilation levels (≤0.11.0) and modes (0.11.1+), as numbers.
_COMPILE_NAMES = {"NONE": 0, "NO_COMPILATION": 0, "STOCK_TORCH_COMPILE": 1, "DYNAMO_AS_IS": 1,
                  "DYNAMO_TRACE_ONCE": 2, "DYNAMO_ONCE": 2, "VLLM_COMPILE": 3, "PIECEWISE": 3}


def _normalise(name: str, value: Any) -> Any:
    """One spelling per value, so predicates compare numbers with numbers."""
    if name == "optimization_level" and isinstance(value, str):
        v = value.strip().upper().removeprefix("O")
        return int(v) if v.isdigit() else value
    if name == "compilation_config" and isinstance(value, dict):
        out = dict(value)
        for key in ("level", "mode"):
            given = out.get(key)
            if isinstance(given, str):
                name_ = given.strip().upper().split(".")[-1]
                out[key] = int(name_) if name_.isdigit() else _COMPILE_NAMES.get(name_, given)
        return out
    return value


_WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]")
def site_facts(site: Site, hardware: Hardware, version: str, pinned: bool, kb: Knowledge, cat: Catalog,
               root: Path | None = None, basis: str | None = None, model: dict | None = None,
               trained: Any = None, install: str | None = None, registered: dict | None = None,
               downloads: Callable[[], list] | None = None, pin_text: str | None = None) -> dict[str, Any]:
    """`root`: the project folder, so a model given as a local checkpoint folder is sized from its
    config.json (read as JSON, never imported); `basis`: where the version was read (a pin, an image tag …).
    `model`: the model facts to use instead of those the name gives (one candidate of an ambiguous
    local path, engine/check/candidates.py); when the name fits several, the others are listed in
    `model_alternatives` for the audit to evaluate too. `registered`: architectures the project
    registers with vLLM itself (engine/scan/registered_models.py); `downloads`: the project's
    downloads into local folders (engine/scan/model_downloads.py), asked for only where needed.
    `pin_text`: the pin the release was read from (a `+cpu` label is vLLM's CPU build)."""
    lookup = cat.resolve(version).version
    args = {n: _normalise(n, s.value) for n, s in site.settings.items() if s.resolved}
    facts: dict[str, Any] = {
        "site": {
            "mode": site.mode, "syntax": site.syntax, "kind": site.kind, "framework": site.framework,
            "serves_http": serves_http(site),
            "has_config_file": site.config_file is not None,
            "cli_flag_count": float(sum(1 for s in site.settings.values() if s.syntax == "cli")),
            "passes_extra_args": any(o["code"] in ("forwards-args", "run-time-args") for o in site.opaque),
            **({"command": site.framework_command} if site.framework_command else {}),
            **({"framework_version": site.framework_version} if site.framework and site.framework_version else {}),
            **({"image": site.image} if site.image else {}),
            **({"tool": site.tool} if site.tool else {}),
            # the image whose build the release was read from (GPUStack's server image names no site image)
            **({"release_image": pin_text} if pin_text and (basis or "").startswith("image") else {}),
        },
        "vllm": {"version": version, "pinned": pinned, **({"basis": basis} if basis else {})},
        "args": args,
        "env": {n: str(s.value) for n, s in site.env.items() if s.resolved and s.value is not None},
    }
    facts.update(hardware.facts())
    facts["site"]["platform"] = platform(args, facts["env"], site.image, (site.launch or {}).get("framework_device"), site.plugins)
    if facts["site"]["platform"] == "cuda" and site.platform_near:
        facts["site"]["platform"] = site.platform_near[0]  # the vendor image the folder's README runs it in
    if facts["site"]["platform"] == "cuda" and (node := (site.container or {}).get("device_platform")):
        facts["site"]["platform"] = node[0]  # a device node only that platform's driver makes (/dev/kfd: ROCm)
    if facts["site"]["platform"] == "cuda" and (cpu := cpu_build(pin_text, facts["env"])):
        facts["site"]["platform"] = "cpu"  # vLLM's CPU backend (platforms/cpu.py, cpu_executor.py before 0.6.4)
        # VLLM_CPU_KVCACHE_SPACE alone: its start-up refusals stay P1 (evaluate.py), unless the
        # target is said to have no GPU (`--gpu none`), where only the CPU build starts at all
        if cpu == "hint" and hardware.reason != "spec_none":
            facts["site"]["platform_hint"] = True
    if is_amd(facts.get("gpu")) and facts["site"]["platform"] == "cuda":
        facts["site"]["platform"] = "rocm"  # an AMD Instinct GPU runs vLLM's ROCm platform
    site_gpu.apply(facts, site.gpu_types, kb.gpus, site.gpu_per_node)  # the GPU the deployment itself names
    # the AMD GPU of --gpu stays on ROCm: its memory, count and FP8 hold there (no compute capability)
    if facts["site"]["platform"] != "cuda" and not (facts["site"]["platform"] == "rocm" and is_amd(facts.get("gpu"))):
        # another accelerator (Ascend NPU, AWS Neuron, TPU, ROCm …): not the NVIDIA GPUs of --gpu
        facts.pop("gpu", None)
    facts["launch"] = launch_facts(site)
    visible = visible_gpus(facts["env"], site.container if site.gpu_request is None else None)
    if (beyond := cuda_ids_beyond(facts["env"], site.container, site.gpu_request)) is not None:
        facts["launch"].update({"cuda_ids_beyond": beyond["ids"], "cuda_ids_mounted": beyond["mounted"],
                                "cuda_ids_shown": beyond["shown"]})
    if site.gpu_request is not None:
        # a container gets the GPUs its manifest asks for, not the whole machine
        visible = min(visible, site.gpu_request) if visible is not None else site.gpu_request
    if facts["launch"].get("gpu_cotenant") and "gpu" in facts:  # shared for sure only on a one-GPU machine
        facts["launch"]["gpu_cotenant_machine_gpus"] = facts["gpu"]["count"]
    if visible is not None or site.gpu_per_node:
        # the project itself says how many GPUs this process sees (else the count is --gpu's machine,
        # which others may share: C3's idle GPUs are then a P2)
        facts["launch"]["gpus_said"] = True
    if visible is not None and "gpu" in facts:
        # CUDA_VISIBLE_DEVICES narrows what this site can use on the machine
        facts["gpu"]["count"] = min(facts["gpu"]["count"], visible)
    elif site.gpu_request is None and "gpu" in facts and ((site.container or {}).get("tool") == "kubernetes" or site.tool == "kserve"):
        # a pod that requests no GPU (nvidia.com/gpu absent; a KServe hardware profile gives it its GPUs): how many
        # it sees is the cluster's (device plugin, default runtime), not the --gpu machine's count (eval70)
        facts["gpu"] = {k: v for k, v in facts["gpu"].items() if k != "count"}
    # a list or mapping where a model name goes (ROLL's `pretrain: [a, b]`) names no checkpoint to read
    model_name = site.model.value if site.model and site.model.resolved and isinstance(site.model.value, str) else None
    windows = next((p for p in (model_name, args.get("download_dir"), args.get("tokenizer"))
                    if isinstance(p, str) and _WINDOWS_PATH.match(p)), None)
    if windows:  # a drive-letter path only a native Windows process opens (WSL sees /mnt/<drive>/)
        facts["site"]["windows_path"] = windows
    # --hf-config-path: vLLM reads the architecture (and quantization_config) from that repository
    config_name = args.get("hf_config_path") if isinstance(args.get("hf_config_path"), str) else model_name
    ck = read_checkpoint(root, config_name, base=(root / site.file).parent if root is not None else None) if config_name else None
    if ck is None and root is not None and isinstance(config_name, str) and config_name.startswith("/"):
        ck = _mounted_checkpoint(root, site, config_name)
    if ck is None and config_name == model_name and (adapter := adapter_facts(root, site, model_name)):
        # a PEFT adapter folder as the model (L282): its base model is the one to judge, and to serve
        facts["launch"].update(adapter)
        config_name = adapter["model_adapter_base"] if adapter["model_adapter_base"] != "?" else config_name
    link = candidates.linked(model_name, downloads, (site.container or {}).get("mounts")) if ck is None and config_name == model_name else None
    if link is not None:  # the project downloads a Hub repository into that folder: its facts are the repository's
        config_name, ck = link.repo, read_checkpoint(None, link.repo)
    markers = kb.doc("models.yaml").data.get("quantized_markers", [])
    mf = model_facts(config_name, kb.models, markers,
                     config=ck.config if ck else None, tokenizer=ck.tokenizer if ck else None, version=lookup,
                     publishers=kb.doc("models.yaml").data.get("publishers"), identity=kb.doc("models.yaml").data)
    if mf and ck is None:  # the name's family, or a name vLLM's own tests load, gives its class where the catalog does not
        arch_names.resolve(mf, str(config_name), kb.doc("vllm", "arch_names.yaml").data, kb.doc("vllm", "example_models.yaml").data, kb.doc("models.yaml").data.get("derived_markers") or [])
    if mf and ck is None and isinstance(config_name, str):
        # a Hub id named without a copy here: what its config.json says, from the curated table
        row = hub_uploads.row_for(model_resolve.hf_cache_repo(config_name) or config_name, kb.doc("hub_uploads.yaml").data)
        if row is not None:
            mf = hub_uploads.apply(mf, row)
    if mf and config_name != model_name:  # (a .gguf file is GGUF weights, unless the config names a method: L9 judges that)
        mf = {**mf, "name": model_name, **({"quantized": True, "quant_method": "gguf", "quant_source": "name"}
                                          if str(model_name).lower().endswith(".gguf") and not mf.get("quant_method") else {})}
    others: list[dict] = []
    if model is not None:
        mf = model
    elif mf and ck is None and config_name == model_name and model_name:
        found = candidates.resolve(model_name, mf, (site.container or {}).get("mounts"), kb,
                                   lambda n: candidates.model_of(n, kb, markers, lookup), candidates.hints(args))
        if found:
            mf, others = found[0], found[1:]
        else:
            candidates.path_basis(model_name, mf, kb)
    if mf and model is None and ck is None and mf.get("upload_revisions"):
        mf, others = candidates.revisions(mf)  # one repository name, published with other shapes before
    candidates.mark_linked(mf, link)
    if mf and model is None and ck is None and name_guess.named_only(mf):
        mf = {**mf, "name_only": True}  # a verdict resting on what it is called is no certainty (engine/check/name_guess.py)
    if mf and (mf.get("quantized") or mf.get("quant_method")) and (stripped := quant_stripped.stripped_at(root, site.file)):
        # the script edits config.json first
        mf = quant_stripped.strip(mf, stripped)
    if mf and ck is not None and ck.weights:  # the project's folder: the weight files the loader globs
        mf = {**mf, "weight_formats": list(ck.weights), "weights_seen": "folder"}
    if mf and ck is not None and ck.json_files is not None:  # …and the *.json files get_quant_config globs
        mf = {**mf, "checkpoint_json": list(ck.json_files)}
    if no_chat_template(ck, args):
        facts["launch"]["no_chat_template"] = True
    if others:
        facts["model_alternatives"] = others
    if mf:
        mf = window_capped(mf, kb.doc("vllm", "startup.yaml").data, lookup, args.get("disable_sliding_window") is True)
        if registered and mf.get("architecture") in registered:
            mf = {**mf, "registered_by": registered[mf["architecture"]]}
        elif registered and ANY in registered:  # code the project loads into vLLM may register it
            mf = {**mf, "plugin_code": registered[ANY]}
        elif (via := plugins.model_registrar(site.plugins)) is not None:  # an installed plugin's own model classes
            mf = {**mf, "plugin_code": via}
        # kv_lora_rank is MLA only for the model types the release's is_deepseek_mla lists
        archs = kb.doc("vllm", "architectures.yaml").data
        mf = mla_at(mf, lookup, kb.doc("vllm", "mla_types.yaml").data, lambda a, v: registers(archs, a, v))
        facts["model"] = mf
    # which engine runs decides the start-up defaults (V0 below compute capability 8.0 up to 0.10.1)
    cc = (facts.get("gpu") or {}).get("compute_capability")
    arch = (mf or {}).get("architecture")  # Mllama and the other encoder-decoders fall back to V0 in 0.8–0.10.2
    facts["vllm"]["engine"] = "v1" if memory.runtime(lookup, facts["env"], cc, architecture=arch).v1 else "v0"
    engine = {k: v for k, v in cat.defaults(lookup).items() if v is not None}
    engine.update(effective_defaults(kb, facts, lookup))
    engine.update(site.framework_defaults)
    fixed = device_picked_dtype(site.fixed, mf, facts.get("gpu"), lookup)
    engine.update(fixed)
    engine.update(args)
    engine.update(tool := passed_by_tool(site.launch, mf, args))  # GPUStack's cap on a longer model's length
    hidden = set(hidden_args(site, _SIZING))
    for name in site.unresolved | hidden:
        engine.pop(name, None)
    facts["site"]["unread"] = sorted(site.unresolved | hidden)
    facts["site"]["framework_fixed"] = sorted(n for n in site.fixed if n not in args)
    # what the framework turns on by its own default: a fix writes the framework's key, not a vLLM flag to drop
    facts["site"]["framework_defaulted"] = sorted(n for n in site.framework_defaults if n not in args and n not in site.fixed)
    if (q := site.settings.get("quantization")) is not None and q.implied:
        facts["site"]["quant_implied"] = True
    count = (facts.get("gpu") or {}).get("count")
    for name in site.device_args:  # sized by the GPUs the process sees: those of --gpu, else unknown
        if name not in args and isinstance(count, int) and count > 0:
            engine[name] = count
    facts["engine"] = engine
    # what reaches vLLM's EngineArgs as given, not as vLLM's own default: the project's arguments and
    # those its framework passes itself (verl hands max_num_batched_tokens=8192 over explicitly)
    facts["passed"] = {k: v for k, v in {**site.framework_defaults, **fixed, **tool, **args}.items()
                       if k not in site.unresolved and v is not None}
    facts["launch"].update(gpu_layout(engine, visible, (facts.get("gpu") or {}).get("count"), framework_nodes(site),
                                      facts["launch"]))
    if facts["launch"].get("engine_shares_trainer_gpu") and site.mode == "standalone_offline" and site.framework != "none":
        # the engine a trainer builds in its own process on the one GPU it sees holds memory the
        # trainer needs (ms-swift 3.2-3.4 calls this its colocate mode: device count == num_infer_workers)
        site.mode = facts["site"]["mode"] = "rlhf_colocate"
    elif facts["launch"].get("rl_rollout") and site.mode == "standalone_offline" and site.framework == "none":
        # an engine the project's own RL loop samples from and pushes weights into is a rollout engine, not
        # a batch job (R1-V/VLM-R1's TRL-0.14 GRPOTrainer copies): on the trainer's GPU it is colocated,
        # else on GPUs of its own, as verl's and OpenRLHF's own-GPU rollouts
        shared = facts["launch"].get("engine_shares_trainer_gpu")
        site.mode = facts["site"]["mode"] = "rlhf_colocate" if shared else "rlhf_server"
        site.mode_evidence = f"{site.mode_evidence}; RL rollout: {facts['launch']['rl_rollout']}"
    facts["launch"].update(parser_facts(engine, lookup, cat, model_name))
    if engine.get("enable_lora"):
        uploads = kb.doc("hub_uploads.yaml").data
        facts["launch"].update(lora_facts(args, site.framework_keys, root, (root / site.file).parent if root is not None else None,
                                          trained, lambda repo: hub_uploads.row_for(repo, uploads)))
        if "lora_rank" not in facts["launch"] and facts["launch"].get("lora_trained_rank"):
            # no adapter folder to read: the rank the same script trains with (engine/scan/python_lora.py)
            facts["launch"]["lora_rank"] = facts["launch"]["lora_trained_rank"]
            facts["launch"]["lora_adapter"] = f"trained at {facts['launch']['lora_trained_at']}"
    if ck is None:  # a folder the project holds is read from disk, not the Hub
        own = _text(root, site.file)
        hf_access.apply(facts, site, model_name, kb.doc("models.yaml").data.get("gated_repos") or [], own,
                        hf_access.bentoml_token(root, site.file, own))
    facts["site"]["pooling"] = _pooling(engine) or pools_natively(
        mf or {}, engine, kb.doc("vllm", "runners.yaml").data, kb.doc("vllm", "architectures.yaml").data, lookup)
    facts["site"]["pooling_kv"] = facts["site"]["pooling"] and pooling_keeps_kv(mf or {}, engine)
    # a pooling model's scheduler default follows its pooler (32768 or more): not EngineArgs()'s 2048
    if facts["site"]["pooling"] and "max_num_batched_tokens" not in facts["passed"] and scheduler_batched(facts, lookup):
        engine.pop("max_num_batched_tokens", None)
    # a pytest module's engine runs a tiny model for a test, not a training job (H1; eval81 CODE-GRPO's TRL tests)
    facts["site"]["test_module"] = site.file.endswith((".py", ".ipynb")) and is_test_module(site.file)
    # an estimate at TP 1 for `--tensor-parallel-size $TP` would be a confident wrong answer
    unread = {n for n in site.unresolved | hidden if n not in engine}  # less those the GPU count sized
    sized, unread = sized_by_tool(site.launch or {}, engine, unread, cc)
    if mf and mf.get("ssm"):
        # a hybrid Mamba model gets prefix caching only when asked for (before 0.26.0): the state
        # sizing needs what was passed, not the generic default (engine/check/memory/ssm.py)
        sized = {**sized, "enable_prefix_caching": facts["passed"].get("enable_prefix_caching")}
    if mf and facts.get("gpu") and not (unread & _SIZING) and not _encoder_only(engine):
        lighter = range_sampler(pin_text, pinned, basis, [str(v) for v in cat.versions])
        est = memory.estimate(mf, facts["gpu"], sized, vllm_version=lookup, env=facts["env"], install=install,
                              range_sampler=lighter)
        if est:
            facts["memory"] = est
            # idle visible GPUs: a larger TP that holds the request is L15's alternative change
            if (raised := memory.tp_raise(est, mf, facts["gpu"], sized, facts["launch"].get("visible_gpus"),
                                          vllm_version=lookup, env=facts["env"], install=install)):
                est["tp_raise"] = raised
    if "memory" not in facts:  # why the KV checks stay unknown, in words a report can give (evaluate.py)
        # "site_gpu": the audit has a GPU (--gpu or the probe), but not this site's (check/site_gpu.py, another platform)
        facts["memory_unknown"] = (("site_gpu" if hardware.gpu else "spec_none" if hardware.reason == "spec_none" else "gpu") if not facts.get("gpu") else "unread" if unread & _SIZING
                                   else "model" if not (mf or {}).get("params_b") else "other")
        if facts["memory_unknown"] == "unread":
            facts["memory_unread"] = sorted(unread & _SIZING)
    drafts = read_drafts(engine, root, (root / site.file).parent if root is not None else None, kb, lookup)
    if drafts:  # the drafts' own config.json, read like the target's (engine/check/draft_config.py)
        facts["drafts"] = drafts
    facts["startup"] = startup_facts(facts, kb, cat, lookup)
    host = host_memory.estimate(facts)
    if host:
        facts["host"] = {**facts.get("host", {}), **host}
    return facts


_POOLING_TASKS = frozenset({"embed", "embedding", "classify", "score", "reward"})


def _pooling(engine: dict[str, Any]) -> bool:
    return (engine.get("runner") == "pooling" or engine.get("task") in _POOLING_TASKS
            or engine.get("convert") in _POOLING_TASKS)


def _text(root: Path | None, rel: str) -> str | None:
    """The site's own file (what it reads from its environment), where the project holds it."""
    try:
        return (root / rel).read_text(encoding="utf-8", errors="replace") if root is not None and (root / rel).is_file() else None
    except OSError:
        return None


def _mounted_checkpoint(root: Path, site: Site, path: str):
    """The checkpoint at a container path whose volume is a folder of the project (compose
    `./:/models` beside the checkpoint, `docker run -v ./ckpt:/model`), or that the site's own
    Dockerfile copies in (`COPY models /app/models`): read where it lies here."""
    mounts = (site.container or {}).get("mounts") or {}
    if not mounts and is_dockerfile(site.file) and (root / site.file).is_file():
        here = posixpath.dirname(site.file) or "."
        copies = copied_paths(site.file, (root / site.file).read_text(encoding="utf-8", errors="replace"),
                              lambda p: (root / p).is_dir())
        mounts = {t: ["./" + posixpath.relpath(src or ".", here) for src in srcs] for t, srcs in copies.items()}
    for target in sorted(mounts, key=len, reverse=True):
        t = target.rstrip("/")
        if path != t and not path.startswith(t + "/"):
            continue
        for src in mounts[target]:
            if isinstance(src, str) and (src in (".", "..") or src.startswith(("./", "../"))):
                ck = read_checkpoint(root, src.rstrip("/") + path[len(t):], base=(root / site.file).parent)
                if ck is not None:
                    return ck
        return None
    return None


def _encoder_only(engine: dict) -> bool:
    """An encoder-cache producer of disaggregated multimodal serving (`--ec-transfer-config
    '{"ec_connector": …, "ec_role": "ec_producer"}'`, vLLM 0.11.1+) runs only the vision encoder
    and allocates no KV cache (gpu_model_runner.get_kv_cache_spec returns nothing, and
    check_enough_kv_cache_memory returns at once): vLLM's own examples start it at
    gpu_memory_utilization 0.01, so the KV estimate says nothing about it."""
    ec = json_arg(engine.get("ec_transfer_config"))
    return isinstance(ec, dict) and bool(ec.get("ec_connector")) and ec.get("ec_role") == "ec_producer"
