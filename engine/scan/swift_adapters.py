"""The base model of an ms-swift launch that names only its LoRA (`swift deploy --adapters ckpt`):
swift reads the training arguments saved beside the adapter (BaseArguments._init_ckpt_dir →
load_args_from_ckpt reads <adapter>/args.json and takes `model`, `rope_scaling` … for every key the
command line leaves unset; 3.0-3.10 swift/llm/argument/base_args/base_args.py). Where the adapter
folder is in the project its args.json (else peft's adapter_config.json `base_model_name_or_path`)
names the model vLLM loads; a RoPE scaling saved there is applied to that model's config too."""
from __future__ import annotations

import json

from vllm_kb.engine.scan.site import Setting, Site

_MAX_BYTES = 1 << 20


def _paths(value) -> list[str]:
    """`--adapters a b` or `name=path`: the folders, in order (swift's ckpt dir is the first that has args.json)."""
    items = value if isinstance(value, (list, tuple)) else str(value or "").split()
    return [str(v).split("=", 1)[-1].strip("'\"") for v in items if str(v).strip()]


def _json(ctx, rel: str, path: str) -> dict | None:
    found = ctx.resolve_ref(rel, path)
    text = ctx.read(found) if found else None
    if not text or len(text) > _MAX_BYTES:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def resolve(ctx, rel: str, site: Site) -> None:
    """Fills site.model from the adapter's saved arguments where the launch names no model."""
    if site.framework != "ms-swift" or (site.model is not None and site.model.resolved):
        return
    ad = (site.framework_written or {}).get("adapters")
    if ad is None or not ad.resolved:
        return
    for folder in _paths(ad.value):
        if "://" in folder or "$" in folder:
            continue
        args = _json(ctx, rel, f"{folder.rstrip('/')}/args.json")
        peft = _json(ctx, rel, f"{folder.rstrip('/')}/adapter_config.json")
        base, where = None, ""
        if args is not None:
            base = args.get("model") or args.get("model_id_or_path")  # 3.x; 2.x saved model_id_or_path
            where = f"{folder}/args.json"
        if not isinstance(base, str) and peft is not None:
            base, where = peft.get("base_model_name_or_path"), f"{folder}/adapter_config.json"
        if not isinstance(base, str) or not base:
            continue
        site.model = Setting("model", base, True, ad.file, ad.line, ad.key, ad.raw, ad.syntax,
                             note=f"the adapter's base model ({where}): swift loads it under --adapters", implied=True)
        written = site.framework_written or {}
        if args is not None and args.get("rope_scaling") and "rope_scaling" not in written:
            keys = list(site.launch.get("model_config_keys") or [])
            site.launch["model_config_keys"] = [*keys, "rope_scaling"]  # swift stretches the base's RoPE as in training
        return
