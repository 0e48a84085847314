"""An oumi training config with `training.trainer_type: TRL_GRPO` and `training.grpo.use_vllm: true`: oumi
hands training.grpo's fields to TRL's GRPOConfig (src/oumi/core/configs/params/grpo_params.py
`to_hf_trainer_kwargs`: use_vllm, vllm_mode when set, vllm_gpu_memory_utilization — its own default 0.9,
not TRL's — num_generations, the prompt and completion budgets, …) together with training.trainer_kwargs
(training_params.py: the two merged, a key in both refused) and trains `model.model_name`, so the site is
TRL's with the keys read under those two blocks (knowledge/frameworks/trl.yaml)."""
from __future__ import annotations

from vllm_kb.engine.kb import frameworks, yamlio
from vllm_kb.engine.scan import framework_site
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.framework_site import Entry, mapping_entries
from vllm_kb.engine.scan.site import Setting, Site

_BASE = ("training", "grpo")
_OUMI_SHARE = 0.9  # GrpoParams.vllm_gpu_memory_utilization


def is_trl_grpo(data: dict) -> bool:
    training = data.get("training")
    return isinstance(training, dict) and training.get("trainer_type") == "TRL_GRPO" and isinstance(training.get("grpo"), dict) \
        and training["grpo"].get("use_vllm") is True and isinstance(data.get("model"), dict)


def scan(ctx: ScanContext, rel: str, doc: yamlio.Document) -> list[Site]:
    fw = frameworks.get("trl")
    prefix = ".".join(_BASE) + "."
    entries = []
    for e in mapping_entries(doc.data, doc, rel, flatten=True):
        if (block := next((p for p in (prefix, "training.trainer_kwargs.") if e.written.startswith(p)), None)) is not None:
            entries.append(Entry(e.written[len(block):], e.setting, e.lines))
        elif e.written == "model.model_name":
            entries.append(Entry("model_name_or_path", e.setting, e.lines))
    if not any(e.written == "vllm_gpu_memory_utilization" for e in entries):
        line = doc.line_of(_BASE + ("use_vllm",))
        entries.append(Entry("vllm_gpu_memory_utilization", Setting(
            "vllm_gpu_memory_utilization", _OUMI_SHARE, True, rel, line, prefix + "vllm_gpu_memory_utilization", str(_OUMI_SHARE),
            "framework-config", note="oumi's own default (GrpoParams), passed whenever use_vllm is on", implied=True)))
    site = framework_site.build_site(fw, entries, file=rel, line=doc.line_of(_BASE + ("use_vllm",)), syntax="framework-config",
                                     kind="oumi TRL_GRPO config", version=ctx.framework_version(rel, fw.package),
                                     source={"yaml_doc": doc.index, "flatten": True, "key_base": list(_BASE)},
                                     commit=ctx.framework_commit(rel, fw.package))
    if site is None:
        return []
    site.config_key_style = "snake"
    site.launch["framework_gpu_share"] = _OUMI_SHARE  # what leaving the key out gives here (B1)
    return [site]
