"""A checkpoint's own files, read as JSON and never executed: config.json (the architecture,
torch_dtype, quantization_config) and tokenizer_config.json (model_max_length, which vLLM 0.10+
also caps max_model_len with). Two places are looked at, in order:

- a folder inside the audited project (relative to the file naming it, or to the project root);
  a path or link leading out of the project is refused;
- the local Hugging Face cache, for a Hub id (`org/name`): `$HF_HUB_CACHE`, else `$HF_HOME/hub`,
  else `~/.cache/huggingface/hub`, laid out as `models--org--name/snapshots/<rev>/config.json`
  (the revision `refs/main` names first). Nothing is ever downloaded; a model that is not in the
  cache simply yields nothing. `VLLM_KB_HF_CACHE=0` turns the cache look-up off."""
from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

CONFIG_MAX_BYTES = 4 * 2**20  # a config.json is a few KiB; anything bigger is not one
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]{0,95}/[\w.-]{1,95}$")


# vLLM's weight loaders glob the checkpoint folder by suffix (*.safetensors, *.bin, *.pt) and drop
# what a Trainer writes beside the weights (weight_utils.filter_files_not_needed_for_inference)
_WEIGHT_SUFFIXES = {".safetensors": "safetensors", ".bin": "bin", ".pt": "pt", ".pth": "pth", ".gguf": "gguf"}
_TRAINING_FILES = {"training_args.bin", "optimizer.bin", "optimizer.pt", "scheduler.pt", "scaler.pt"}


@dataclass(frozen=True)
class Checkpoint:
    config: dict
    tokenizer: dict | None  # tokenizer_config.json, when present
    where: str              # "folder" (inside the project) or "hf-cache"
    weights: tuple[str, ...] = ()  # a project folder's weight file formats (names listed, never read)
    json_files: tuple[str, ...] | None = None  # a project folder's *.json names (vLLM's get_quant_config globs them)
    chat_template_file: bool = False  # a project folder holds chat_template.jinja (transformers reads it beside the tokenizer)


def read_local_config(root: str | Path, model: str | None, base: str | Path | None = None) -> dict | None:
    """The parsed config.json of a model given as a local folder inside the audited project
    (relative to `base`, the folder of the file that names it, or to the project root).
    Only a plain JSON file under `root` is read; a link out of the project, a Hub id that is
    not also a folder here, or a malformed file gives None."""
    ck = _folder(root, model, base)
    return ck.config if ck else None


def read_checkpoint(root: str | Path | None, model: str | None, base: str | Path | None = None,
                    env: dict | None = None) -> Checkpoint | None:
    """The checkpoint's files: from a folder inside the project, else from the local Hugging
    Face cache when `model` is a Hub id it holds."""
    if not model or "://" in model or "$" in model:
        return None
    if root is not None:
        ck = _folder(root, model, base)
        if ck is not None:
            return ck
    return read_hub_cache(model, env)


def _folder(root, model, base) -> Checkpoint | None:
    if root is None or not model or "://" in model or "$" in model:
        return None
    top = Path(root).resolve()
    rel = Path(model)
    candidates = [rel] if rel.is_absolute() else [Path(b) / rel for b in (base, root) if b is not None]
    for folder in candidates:
        cfg = read_json_inside(top, folder / "config.json")
        if cfg is not None:
            cfg = _with_quant_file(cfg, lambda: read_json_inside(top, folder / "hf_quant_config.json"))
            return Checkpoint(cfg, read_json_inside(top, folder / "tokenizer_config.json"), "folder", weight_formats(folder),
                              json_names(folder), _is_file(folder / "chat_template.jinja"))
    return None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def _with_quant_file(cfg: dict, read) -> dict:
    """config.json with ModelOpt's hf_quant_config.json as its quantization_config where it has none
    (ModelOpt before 0.31 wrote it apart; vLLM 0.10.1+ reads it there, transformers_utils/config.py)."""
    if cfg.get("quantization_config") is not None:
        return cfg
    quant = read()
    return {**cfg, "quantization_config": quant} if isinstance(quant, dict) else cfg


def weight_names(root: str | Path | None, model: str | None, base: str | Path | None = None) -> frozenset[str] | None:
    """The tensor names a checkpoint folder inside the project lists in model.safetensors.index.json
    (its weight_map's keys, read as JSON: the weights themselves are never opened); None without one."""
    if root is None or not model or "://" in model or "$" in model:
        return None
    top = Path(root).resolve()
    rel = Path(model)
    for folder in [rel] if rel.is_absolute() else [Path(b) / rel for b in (base, root) if b is not None]:
        index = read_json_inside(top, folder / "model.safetensors.index.json")
        if index is not None and isinstance(index.get("weight_map"), dict):
            return frozenset(str(k) for k in index["weight_map"])
    return None


def weight_formats(folder: Path) -> tuple[str, ...]:
    """The weight formats of the files directly in `folder`, by suffix, sorted."""
    try:
        names = [e.name for e in os.scandir(folder) if e.is_file()]
    except OSError:
        return ()
    found = {_WEIGHT_SUFFIXES[Path(n).suffix.lower()] for n in names
             if Path(n).suffix.lower() in _WEIGHT_SUFFIXES and n.lower() not in _TRAINING_FILES}
    return tuple(sorted(found))


def json_names(folder: Path) -> tuple[str, ...] | None:
    """The names of the *.json files directly in `folder`, sorted; None when it cannot be listed."""
    try:
        return tuple(sorted(e.name for e in os.scandir(folder) if e.is_file() and e.name.lower().endswith(".json")))
    except OSError:
        return None


def hub_cache_dir(env: Mapping[str, str] | None = None) -> Path | None:
    env = os.environ if env is None else env
    if str(env.get("VLLM_KB_HF_CACHE", "1")).strip().lower() in ("0", "false", "no", "off"):
        return None
    if env.get("HF_HUB_CACHE"):
        return Path(env["HF_HUB_CACHE"]).expanduser()
    if env.get("HF_HOME"):
        return Path(env["HF_HOME"]).expanduser() / "hub"
    xdg = env.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "huggingface" / "hub"


def read_hub_cache(model: str, env: dict | None = None) -> Checkpoint | None:
    """config.json (and tokenizer_config.json) of `org/name` from the local Hugging Face cache."""
    if not _HUB_ID.match(model) or ".." in model:
        return None
    cache = hub_cache_dir(env)
    if cache is None:
        return None
    repo = cache / ("models--" + model.replace("/", "--"))
    for snap in _snapshots(repo):
        cfg = read_json_inside(repo, snap / "config.json")
        if cfg is not None:
            cfg = _with_quant_file(cfg, lambda: read_json_inside(repo, snap / "hf_quant_config.json"))
            return Checkpoint(cfg, read_json_inside(repo, snap / "tokenizer_config.json"), "hf-cache")
    return None


def _snapshots(repo: Path) -> list[Path]:
    """The revision refs/main names first, then the others, newest first."""
    try:
        snaps = [p for p in (repo / "snapshots").iterdir() if p.is_dir()]
    except OSError:
        return []
    try:
        main = (repo / "refs" / "main").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        main = ""

    def key(p: Path):
        try:
            mtime = p.stat().st_mtime
        except OSError:
            mtime = 0.0
        return (p.name != main, -mtime)

    return sorted(snaps, key=key)


def read_json_inside(top: Path, path: Path) -> dict | None:
    """A JSON object from `path`, only if it (after links) lies under `top` and is small."""
    try:
        real = path.resolve()
        real.relative_to(top.resolve())  # ValueError for a path (or link) leading out
        if not real.is_file() or real.stat().st_size > CONFIG_MAX_BYTES:
            return None
        data = json.loads(real.read_text(encoding="utf-8"))
    except (OSError, ValueError, RuntimeError, RecursionError):  # RuntimeError: a loop of links
        return None
    return data if isinstance(data, dict) else None
