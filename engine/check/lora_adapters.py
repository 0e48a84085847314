"""The rank of the LoRA adapters a launch names (facts.launch.lora_rank and lora_adapter), for the
check that an adapter fits max_lora_rank. vLLM reads each adapter's adapter_config.json (peft's
`r`) and refuses an adapter above
max_lora_rank ("LoRA rank r is greater than max_lora_rank m"). The adapters are the folders
`--lora-modules` names (name=path, or the JSON form with "path") and the adapter a framework hands
its engine (LLaMA-Factory's adapter_name_or_path); only folders inside the project are read, as
JSON — an adapter on the Hub or elsewhere on the machine is not known."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb.checkpoint import read_json_inside

# framework keys that name the adapter the framework's engine loads
_FRAMEWORK_KEYS = ("adapter_name_or_path", "adapters")  # LLaMA-Factory; ms-swift infer/deploy


def _paths(args: dict, framework_keys: dict) -> list[tuple[str, str]]:
    """(name, path) of each adapter the launch names."""
    out: list[tuple[str, str]] = []
    modules = args.get("lora_modules")
    for item in modules if isinstance(modules, list) else [modules] if isinstance(modules, str) else []:
        if isinstance(item, dict):
            name, path = item.get("name"), item.get("path")
        elif isinstance(item, str) and item.lstrip().startswith("{"):
            try:
                obj = json.loads(item)
            except ValueError:
                continue
            name, path = (obj.get("name"), obj.get("path")) if isinstance(obj, dict) else (None, None)
        elif isinstance(item, str) and "=" in item:
            name, _, path = item.partition("=")
        else:
            continue
        if isinstance(path, str) and path:
            out.append((str(name or path), path))
    for key in _FRAMEWORK_KEYS:
        value = (framework_keys or {}).get(key)
        items = value.split(",") if isinstance(value, str) else [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
        for path in items:
            path = path.rpartition("=")[2] if "=" in path else path  # ms-swift's name=path form
            if path.strip():
                out.append((path.strip(), path.strip()))
    return out


def _rank(cfg: dict) -> int | None:
    """peft's `r`: the rank every release checks (0.34 also takes the largest of rank_pattern,
    which earlier releases do not, so it is not counted)."""
    r = cfg.get("r")
    return int(r) if isinstance(r, (int, float)) and not isinstance(r, bool) and r > 0 else None


def lora_facts(args: dict, framework_keys: dict, root: Path | None, base: Path | None) -> dict[str, Any]:
    """`lora_rank`: the largest rank among the adapters whose config the project holds, and
    `lora_adapter`: the one that has it; empty when none is readable."""
    if root is None:
        return {}
    top = Path(root).resolve()
    best: tuple[int, str] | None = None
    for name, path in _paths(args, framework_keys):
        if "://" in path or "$" in path:
            continue
        rel = Path(path)
        for folder in [rel] if rel.is_absolute() else [Path(b) / rel for b in (base, root) if b is not None]:
            cfg = read_json_inside(top, folder / "adapter_config.json")
            if cfg is None:
                continue
            r = _rank(cfg)
            if r is not None and (best is None or r > best[0]):
                best = (r, name)
            break
    return {"lora_rank": best[0], "lora_adapter": best[1]} if best else {}
