"""The rank of the LoRA adapters a launch names (facts.launch.lora_rank and lora_adapter), for the
check that an adapter fits max_lora_rank (L62), and the adapter features vLLM refuses
(lora_refused: modules_to_save, DoRA; L284). vLLM reads each adapter's adapter_config.json (peft's
`r`) and refuses an adapter above
max_lora_rank ("LoRA rank r is greater than max_lora_rank m"). The adapters are the folders
`--lora-modules` names (name=path, or the JSON form with "path") and the adapter a framework hands
its engine (LLaMA-Factory's adapter_name_or_path); only folders inside the project are read, as
JSON — an adapter on the Hub or elsewhere on the machine is not known. A folder the project does not
hold (the training writes it) takes the rank of the project's training config whose output_dir it is."""
from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any, Callable

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


# a training config of the project: LLaMA-Factory's YAML (`lora_rank: 64`, `output_dir: saves/…`) or
# an ms-swift command line (`--lora_rank 64 --output_dir output`); only an explicit rank counts (the
# frameworks' default, 8, fits every max_lora_rank)
_TRAIN_SUFFIXES = (".yaml", ".yml", ".sh")
_YAML_RANK = re.compile(r"^\s*[\"']?lora_rank[\"']?\s*:\s*(\d+)\s*,?\s*$", re.M)
_YAML_OUT = re.compile(r"^\s*[\"']?output_dir[\"']?\s*:\s*[\"']?([^\"'#\s,]+)", re.M)
_CLI_RANK = re.compile(r"--lora_rank[= ]+(\d+)")
_CLI_OUT = re.compile(r"--output_dir[= ]+[\"']?([^\"'\s\\;]+)")


def training_ranks(files: list[str], read: Callable[[str], str | None]) -> dict[str, tuple[int, str]]:
    """output_dir → (lora_rank, file) of the project's training configs that name exactly one of
    each; read once per audit (engine/audit.py keeps it), from the texts the scan already read."""
    out: dict[str, tuple[int, str]] = {}
    for rel in files:
        if not rel.endswith(_TRAIN_SUFFIXES):
            continue
        text = read(rel)
        if not text or "lora_rank" not in text or "output_dir" not in text:
            continue
        shell = rel.endswith(".sh")
        ranks = set((_CLI_RANK if shell else _YAML_RANK).findall(text))
        outs = set((_CLI_OUT if shell else _YAML_OUT).findall(text))
        if len(ranks) == 1 and len(outs) == 1:
            out.setdefault(_norm(outs.pop()), (int(ranks.pop()), rel))
    return out


def _norm(path: str) -> str:
    p = path.strip().replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p.rstrip("/")


def _trained(path: str, trained: dict[str, tuple[int, str]]) -> tuple[int, str] | None:
    """The training config whose output_dir is the adapter's folder or holds it (ms-swift writes
    output/vN-date/checkpoint-K below its output_dir)."""
    p = _norm(path)
    hits = [(len(out), v) for out, v in trained.items() if out and (p == out or p.startswith(out + "/"))]
    return max(hits)[1] if hits else None


# the modules_to_save PEFTHelper lets through from 0.31.0 (a classification head); every other
# entry, and any entry before 0.31.0, is refused (vllm/lora/peft_helper.py _validate_features)
_HEADS = ("classifier", "score")


def _refused(name: str, cfg: dict, out: dict[str, Any]) -> None:
    """The features of one adapter that PEFTHelper refuses (0.6.5+), kept for the first adapter
    that has them: `lora_refused` as releases before 0.31.0 judge it, `lora_refused_031` from 0.31.0
    (a classifier/score head is taken there)."""
    saves = cfg.get("modules_to_save")
    saves = [m for m in saves if isinstance(m, str)] if isinstance(saves, list) else []
    dora = cfg.get("use_dora") is True
    old = ([f"modules_to_save: {', '.join(saves)}"] if saves else []) + (["use_dora"] if dora else [])
    other = [m for m in saves if m not in _HEADS]
    new = ([f"modules_to_save: {', '.join(other)}"] if other else []) + (["use_dora"] if dora else [])
    if old and "lora_refused" not in out:
        out["lora_refused"] = f"{name} ({', '.join(old)})"
    if new and "lora_refused_031" not in out:
        out["lora_refused_031"] = f"{name} ({', '.join(new)})"


# a tensor name vLLM's parse_fine_tuned_lora_name takes: lora_A/lora_B weights, the embedding pair
# (lora_embedding_A/B); biases and a classifier/score head are left to the releases that take them
_LORA_PARTS = ("lora_A", "lora_B")
_EMBED_PAIR = ("lora_embedding_A", "lora_embedding_B")
# the layers PEFT (EMBEDDING_LAYER_NAMES) saves whole when target_modules name one of them and
# save_embedding_layers is left "auto": the adapter then holds `….base_layer.weight`
_EMBEDDING_LAYERS = ("embed_tokens", "lm_head")
_HEADER_MAX = 16 << 20


def _tensor_names(top: Path, path: Path) -> list[str] | None:
    """The tensor names of a safetensors file inside `top`: its JSON header only, never the tensors."""
    try:
        real = path.resolve()
        real.relative_to(top.resolve())
        if not real.is_file():
            return None
        with real.open("rb") as f:
            head = f.read(8)
            if len(head) != 8:
                return None
            (size,) = struct.unpack("<Q", head)
            if not 0 < size <= _HEADER_MAX:
                return None
            header = json.loads(f.read(size).decode("utf-8"))
    except (OSError, ValueError, RuntimeError, RecursionError):
        return None
    return [k for k in header if isinstance(k, str) and k != "__metadata__"] if isinstance(header, dict) else None


def unsupported_tensor(names: list[str]) -> str | None:
    """The first tensor name vLLM's LoRA loader refuses ("… is unsupported LoRA weight"): a whole
    layer's weight (PEFT's saved embedding layers, `lm_head.base_layer.weight`) rather than a LoRA pair."""
    for name in names:
        parts = name.split(".")
        if parts[-1] in _EMBED_PAIR or parts[-1] == "bias":
            continue
        if parts[-1] == "weight" and len(parts) >= 2 and (parts[-2] in _LORA_PARTS or parts[-2] in _HEADS):
            continue
        return name
    return None


def _embedding_targets(cfg: dict) -> list[str]:
    targets = cfg.get("target_modules")
    items = [targets] if isinstance(targets, str) else [t for t in targets if isinstance(t, str)] if isinstance(targets, list) else []
    return [t for t in items if any(re.search(rf"(?<![A-Za-z_]){layer}(?![A-Za-z_])", t) for layer in _EMBEDDING_LAYERS)]


def _weights(name: str, folder: Path, top: Path, cfg: dict, out: dict[str, Any]) -> None:
    """`lora_weight_refused`: an adapter whose safetensors header names a tensor vLLM refuses (certain);
    `lora_weight_embed`: one whose target_modules name an embedding layer, which PEFT saves whole by
    default, and whose weights the project does not hold."""
    names = _tensor_names(top, folder / "adapter_model.safetensors")
    if names is not None:
        bad = unsupported_tensor(names)
        if bad and "lora_weight_refused" not in out:
            out["lora_weight_refused"] = f"{name} (tensor {bad})"
        return
    embed = _embedding_targets(cfg)
    if embed and "lora_weight_embed" not in out:
        out["lora_weight_embed"] = f"{name} (target_modules: {', '.join(embed)})"


def hub_adapter(name: str, path: str, row: dict | None, out: dict[str, Any]) -> None:
    """An adapter named by its Hub id, from its knowledge/hub_uploads.yaml row (`adapter_tensors`)."""
    bad = unsupported_tensor(list((row or {}).get("adapter_tensors") or []))
    if bad and "lora_weight_refused" not in out:
        out["lora_weight_refused"] = f"{name} ({path}: tensor {bad})"


def lora_facts(args: dict, framework_keys: dict, root: Path | None, base: Path | None,
               trained: Callable[[], dict[str, tuple[int, str]]] | None = None,
               hub_row: Callable[[str], dict | None] | None = None) -> dict[str, Any]:
    """`lora_rank`: the largest rank among the adapters whose config the project holds (else the
    rank the project's training config gives the folder, `trained`), and `lora_adapter`: the one
    that has it; `lora_refused`/`lora_refused_031`: an adapter with features vLLM refuses
    (modules_to_save, DoRA); `lora_weight_refused`/`lora_weight_embed`: an adapter whose tensors vLLM's
    loader refuses, or may (its safetensors header, its Hub row, its target_modules); empty when none is readable."""
    if root is None:
        return {}
    top = Path(root).resolve()
    best: tuple[int, str] | None = None
    refused: dict[str, Any] = {}
    for name, path in _paths(args, framework_keys):
        if "://" in path or "$" in path:
            continue
        rel = Path(path)
        r = None
        for folder in [rel] if rel.is_absolute() else [Path(b) / rel for b in (base, root) if b is not None]:
            cfg = read_json_inside(top, folder / "adapter_config.json")
            if cfg is not None:
                r = _rank(cfg)
                _refused(name, cfg, refused)
                _weights(name, folder, top, cfg, refused)
                break
        else:
            if hub_row is not None:
                hub_adapter(name, path, hub_row(path), refused)
            hit = _trained(path, trained()) if trained is not None else None
            if hit is not None:
                r, name = hit[0], f"{name} (lora_rank {hit[0]} in {hit[1]})"
        if r is not None and (best is None or r > best[0]):
            best = (r, name)
    return ({"lora_rank": best[0], "lora_adapter": best[1]} if best else {}) | refused
