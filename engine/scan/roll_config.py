"""ROLL (alibaba/ROLL) pipeline YAML: every worker role whose `strategy_args.strategy_name` is `vllm`
(actor_infer, rewards.llm_judge, student_infer, …) is a vLLM engine, its `strategy_config` copied into
AsyncEngineArgs (knowledge/frameworks/roll.yaml). The role's keys are read relative to its block, with
OmegaConf's `${a.b}` resolved over the whole file (`model_name_or_path: ${pretrain}`); a role the
pipeline fills from the top-level `pretrain` (roll/configs/base_config.py: actor_train, actor_infer,
reference) takes that model when its own is empty. A change to a key not written goes under the role.
A role whose device_mapping meets no other role's runs apart from the trainer (engine/scan/roll_devices.py):
mode rlhf_server, as verl's and OpenRLHF's own-GPU rollouts, instead of rlhf_colocate."""
from __future__ import annotations

from vllm_kb.engine.kb import frameworks, yamlio
from vllm_kb.engine.scan import framework_site, pin_alternatives, roll_devices
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.framework_site import Entry, mapping_entries
from vllm_kb.engine.scan.nemo_rl_config import resolve
from vllm_kb.engine.scan.site import Site

_PRETRAINED = {"actor_train", "actor_infer", "reference"}
_DEPTH = 3  # roles sit at the top (actor_infer) or one level down (rewards.llm_judge)


def _roles(node, path: tuple = ()) -> list[tuple]:
    out: list[tuple] = []
    if not isinstance(node, dict) or len(path) > _DEPTH:
        return out
    sa = node.get("strategy_args")
    if isinstance(sa, dict) and sa.get("strategy_name") == "vllm" and path:
        out.append(path)
    for k, v in node.items():
        if k != "strategy_args":
            out += _roles(v, path + (str(k),))
    return out


def is_roll(data: dict) -> bool:
    """A pipeline config: a role with a vLLM strategy, beside ROLL's own top-level keys."""
    return isinstance(data, dict) and ("pretrain" in data or "actor_infer" in data or "rewards" in data) and bool(_roles(data))


def scan(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    fw = frameworks.get("roll")
    every = mapping_entries(doc.data, doc, rel, flatten=True)
    resolve(every)
    top = {e.written: e for e in every}
    out = []
    alternatives = pin_alternatives.releases(ctx, pin_alternatives.files(ctx, rel))
    mappings = {e.written.removesuffix(".device_mapping"): e.setting.value for e in every
                if e.written.endswith(".device_mapping") and e.written.count(".") <= _DEPTH}
    for path in _roles(doc.data):
        prefix = ".".join(path) + "."
        entries = [Entry(e.written[len(prefix):], e.setting, e.lines) for e in every if e.written.startswith(prefix)]
        own = next((e for e in entries if e.written == "model_args.model_name_or_path"), None)
        if path[-1] in _PRETRAINED and len(path) == 1 and (own is None or own.setting.value in (None, "")) and "pretrain" in top:
            entries = [e for e in entries if e is not own] + [Entry("model_args.model_name_or_path", top["pretrain"].setting, {})]
        line = doc.line_of(path + ("strategy_args", "strategy_name"))
        site = framework_site.build_site(fw, entries, file=rel, line=line, syntax="framework-config",
                                         kind=f"{fw.name} config ({'.'.join(path)})", version=ctx.framework_version(rel, fw.package),
                                         source={"yaml_doc": doc.index, "flatten": True, "key_base": list(path)},
                                         commit=ctx.framework_commit(rel, fw.package))
        if site is not None:
            site.config_key_style = "snake"
            if site.mode == "rlhf_colocate" and (why := roll_devices.apart(mappings, ".".join(path))):
                # its own GPUs: the rollout engine beside the trainer, not sharing its memory (roll_devices.py)
                site.mode, site.mode_evidence = "rlhf_server", f"{site.mode_evidence} ({why})"
            if alternatives:  # requirements_torch260_vllm.txt / _torch280_ / _torch2100_: whichever the user installed
                site.launch["release_alternatives"] = alternatives
            out.append(site)
    return out
