"""Framework config files no command in the project points at: verl Hydra YAML
(actor_rollout_ref.rollout…), EasyR1 (worker.rollout…), NeMo-RL (policy.generation.vllm_cfg, with
its `defaults:` parents), TRL recipes (use_vllm), LLaMA-Factory (infer_backend: vllm) and
ms-swift YAML/JSON, ROLL pipelines (strategy_name: vllm), oumi inference configs (engine: VLLM) and TRL GRPO
training configs. Which framework a file belongs to is decided by keys only it uses."""
from __future__ import annotations

from vllm_kb.engine.kb import frameworks, yamlio
from vllm_kb.engine.scan import areal_config, framework_site, nemo_rl_config, oumi_grpo, roll_config, swift_adapters, trl_parsers
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.fw_launch import mapping_entries
from vllm_kb.engine.scan.entry_modules import SIZED_BY_COMMAND
from vllm_kb.engine.scan.site import Setting, Site

SWIFT_ONLY = {"rlhf_type", "sleep_level", "train_type", "vllm_engine_kwargs", "vllm_use_async_engine", "offload_model"}
LLAMAFACTORY_ONLY = {"vllm_maxlen", "vllm_gpu_util", "vllm_config", "template", "finetuning_type", "stage"}


def framework_of(data: dict) -> str | None:
    if isinstance(data.get("actor_rollout_ref"), dict) and isinstance(data["actor_rollout_ref"].get("rollout"), dict):
        return "verl"
    if isinstance(data.get("worker"), dict) and isinstance(data["worker"].get("rollout"), dict):
        return "easyr1"  # EasyR1's PPOConfig: worker.rollout / worker.actor (verl's is actor_rollout_ref)
    if nemo_rl_config.generation_command(data):
        return "nemo-rl"
    if data.get("engine") == "VLLM" and isinstance(data.get("model"), dict) and "model_name" in data["model"]:
        return "oumi"  # an oumi InferenceConfig (`oumi infer -c`): its VLLM engine builds LLM(...)
    keys = set(map(str, data))
    if keys & SWIFT_ONLY:
        return "ms-swift"
    if "infer_backend" in keys and keys & LLAMAFACTORY_ONLY:
        return "llamafactory"
    if "infer_backend" in keys and "model" in keys:
        return "ms-swift"
    if keys & {"use_vllm", "vllm_mode"}:
        return "trl"
    return None


def swift_sections(data: dict) -> list[str]:
    """The sections of a project's own config that hold ms-swift's arguments (`model: {model: …}`,
    `rlhf: {rlhf_type: grpo, use_vllm: true, vllm_mode: colocate, …}`), which the project's loader
    hands to swift's RLHFArguments: read as ms-swift where the sections' plain keys together are
    ms-swift's (framework_of) and turn its vLLM rollout on; [] otherwise."""
    sections = [k for k, v in data.items() if isinstance(k, str) and isinstance(v, dict) and v]
    merged: dict = {}
    for k in sections:
        for kk, v in data[k].items():
            merged.setdefault(str(kk), v)
    if framework_of(merged) != "ms-swift" or framework_of({k: v for k, v in merged.items() if not isinstance(v, dict)}) != "ms-swift":
        return []
    if merged.get("use_vllm") is not True:  # a training run's rollout (an infer config is read only with its command)
        return []
    return sections


def scan(ctx: ScanContext, rel: str, docs: list[yamlio.Document]) -> list[Site]:
    if rel in ctx.referenced:
        return []
    out: list[Site] = []
    for doc in docs:  # a bug met on one document costs that document, not the file's others
        out += ctx.one_launch(rel, doc.start_line, _doc_sites, ctx, rel, doc, failed=[])
    return out


def _doc_sites(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    """The framework site of one document (a ROLL or AReaL config: a site per engine)."""
    if not isinstance(doc.data, dict):
        return []
    if roll_config.is_roll(doc.data):  # ROLL: one engine per role with a vLLM strategy
        return roll_config.scan(ctx, rel, doc)
    if oumi_grpo.is_trl_grpo(doc.data):  # oumi's TRL GRPO trainer: TRL's keys under training.grpo
        return oumi_grpo.scan(ctx, rel, doc)
    fid = framework_of(doc.data)
    sections = swift_sections(doc.data) if fid is None else None
    if sections:
        fid = "ms-swift"
    command = _swift_command(doc.data) if fid == "ms-swift" and "rlhf_type" in doc.data else \
        "rlhf" if sections and any("rlhf_type" in doc.data[k] for k in sections) else None
    if fid is None and doc.index == 0 and "defaults" in doc.data:
        # a NeMo-RL recipe that inherits its generation block (`defaults: grpo_math_1B.yaml`)
        command = nemo_rl_config.generation_command(nemo_rl_config.composed(ctx, rel))
        fid = "nemo-rl" if command else None
    if fid is None:
        # AReaL: its launcher starts the vLLM servers
        return areal_config.scan(ctx, rel, doc) if doc.index == 0 and areal_config.is_areal(doc.data) else []
    fw = frameworks.get(fid)
    verl = fid in ("verl", "easyr1", "nemo-rl", "oumi")  # nested keys read as dotted paths
    if fid == "nemo-rl":
        command = command or nemo_rl_config.generation_command(doc.data)
        entries = nemo_rl_config.entries(ctx, rel, [], command, referenced=False) if doc.index == 0 else []
    elif sections:  # only the keys ms-swift declares: the rest are the project's own loader's
        entries = [e for k in sections for e in mapping_entries(doc.data[k], doc, rel, False, (k,), 1) if fw.key(e.written) is not None]
        entries = list({e.written: e for e in reversed(entries)}.values())[::-1]  # a key in two sections: the first
    else:
        entries = mapping_entries(doc.data, doc, rel, flatten=verl)
    if fid == "trl":
        # a file a project script's own dataclass reads (TrlParser(dataclass_types=[MyArguments])):
        # its keys are the project's fields, not TRL's (engine/scan/trl_parsers.py)
        keys = {str(k) for k in doc.data}
        own = trl_parsers.own_keys(ctx, keys, {k for k in keys if fw.key(k) is not None}, current=trl_parsers.current_keys(fw, keys))
        if own is not None and own >= keys:
            return []
        entries = [e for e in entries if own is None or e.written not in own]
    line = _selector_line(fw, [e for e in entries if e.setting.file == rel]) or doc.start_line
    if fid == "verl":
        line = _selector_line(fw, entries) or doc.line_of(("actor_rollout_ref", "rollout"))
    site = framework_site.build_site(fw, entries, file=rel, line=line,
                                     syntax="framework-config", kind=f"{fw.name} config", version=ctx.framework_version(rel, fw.package),
                                     command=command, source={"yaml_doc": doc.index, "flatten": verl},
                                     commit=ctx.framework_commit(rel, fw.package))
    if site is not None and sections:
        for name in SIZED_BY_COMMAND:  # the project's loader may derive what the file leaves out (a length of its own)
            if name not in site.settings:
                site.settings[name] = Setting(name, None, False, rel, line, "", "", "framework-config",
                                              "not written: the project's own loader may set it", implied=True)
    if site is not None:
        swift_adapters.resolve(ctx, rel, site)
        site.config_key_style = "snake"
        framework_site.device_tp(site)
    return [site] if site is not None else []


def _swift_command(data: dict) -> str:
    """`rlhf`, or `megatron-rlhf` for a config of ms-swift's Ray launcher (`megatron rlhf --use_ray true
    --config X.yaml`): its own keys are colocate_groups and a section per role with the GPUs it gets
    (`rollout: {gpus: 4, …}`; swift/ray/megatron/driver_utils.py _RAY_ONLY_KEYS), and the rollout
    replicas it builds need no vllm_mode (swift rlhf's RLHFArguments refuses use_vllm without one)."""
    if "colocate_groups" in data or any(isinstance(v, dict) and "gpus" in v for v in data.values()):
        return "megatron-rlhf"
    return "rlhf"


def _selector_line(fw, entries) -> int | None:
    """The site is anchored on the key that turns vLLM on (`infer_backend: vllm`, `use_vllm: true`)."""
    for e in entries:
        k = fw.key(e.written)
        if k is not None and k.role in ("enable", "backend", "enable_count"):
            return e.setting.line
    return None
