"""An embedding checkpoint that declares a generative architecture but ships no output head (check
L141): Qwen3-VL-Embedding-8B names Qwen3VLForConditionalGeneration and unties its embeddings
(tie_word_embeddings false), yet its model.safetensors.index.json lists no lm_head.weight
(QwenLM/Qwen3-VL-Embedding #21, #48, #89). With no pooling runner vLLM builds the generative class,
whose untied ParallelLMHead the weights never fill, and DefaultModelLoader's strict check refuses the
unquantized checkpoint while the engine starts: "Following weights were not initialized from
checkpoint: {'language_model.lm_head.weight'}" (model_loader/default_loader.py, 0.6.5 on).

`--runner pooling` converts the model (models/adapters.py), and the conversion deletes the head —
from 0.13.0 also the language model's own (`language_model := getattr(self, "language_model", …)`);
0.11.0–0.12.0 delete only a top-level head, so the inner one stays unfilled and the pooling runner
is refused too. Read from a checkpoint folder inside the project (config.json and the index), or for
a Hub id — or a folder named as that upload — from its knowledge/hub_uploads.yaml row
(`index_without_lm_head`). A folder with a sentence-transformers modules.json, a quantized
checkpoint (the strict check is for unquantized ones), hf_overrides and another model
implementation are not judged."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from vllm_kb.engine.kb.checkpoint import read_checkpoint, weight_names
from vllm_kb.engine.kb.versions import Version, try_parse

# architecture → (first release with the class, the parameter vLLM names, release whose pooling
# conversion deletes it): checked in each release's model file (an untied ParallelLMHead, weights
# through AutoWeightsLoader, which reports what it loaded)
HEADS = {"Qwen3VLForConditionalGeneration": ("0.11.0", "language_model.lm_head.weight", "0.13.0")}
LAST = "0.34.0"  # the newest release read (default_loader.py: the strict check)
_HEAD = re.compile(r"(?:^|\.)lm_head\.weight$")
_POOLING = ("embed", "embedding", "classify", "score", "reward")


def _untied(config: dict | None) -> bool:
    """config.json unties the head: no `tie_word_embeddings: true` anywhere, one explicit false."""
    if not isinstance(config, dict):
        return True  # no copy here: the row speaks for the upload's config.json
    inner = config.get("text_config")
    said = [c.get("tie_word_embeddings") for c in (config, inner) if isinstance(c, dict)]
    return True not in said and False in said


def _row(name: str, table: dict | None, local: bool) -> dict | None:
    """The upload row that records the missing head: by the Hub id, or by a local folder's own name."""
    key = name.rstrip("/").lower()
    for row in (table or {}).get("uploads") or []:
        repo = str(row.get("repo", "")).lower()
        if row.get("index_without_lm_head") and (repo == key or (local and repo.split("/")[-1] == key.split("/")[-1])):
            return row
    return None


def _pooling_asked(engine: dict) -> bool:
    return engine.get("runner") == "pooling" or engine.get("task") in _POOLING \
        or engine.get("convert") not in (None, "auto", "none")


def lm_head_fit(facts: dict, root: str | Path | None, base: str | Path | None, table: dict | None) -> dict[str, Any]:
    """launch.lm_head_missing (the parameter vLLM leaves unfilled), launch.lm_head_fix (runner_pooling:
    --runner pooling starts it; upgrade: this release refuses the pooling runner too, 0.13.0 does not)
    and launch.lm_head_from (the index or the upload row that shows it)."""
    model, engine = facts.get("model") or {}, facts.get("engine") or {}
    name, arch = model.get("name"), model.get("architecture")
    v = try_parse(str((facts.get("vllm") or {}).get("version") or ""))
    if not isinstance(name, str) or v is None:
        return {}
    if arch is None and (got := _row(name, table, local=False)):
        arch = (got.get("architectures") or [None])[0]  # a Hub id the catalog knows only as a derivative
    if arch not in HEADS:
        return {}
    first, param, drops = HEADS[arch]
    base_v = Version(v.public)
    if not Version(first) <= base_v <= Version(LAST):
        return {}
    if model.get("quantized") is True or engine.get("quantization") or engine.get("hf_overrides") \
            or engine.get("model_impl") not in (None, "auto", "vllm") or engine.get("runner") not in (None, "auto", "generate", "pooling"):
        return {}
    ck = read_checkpoint(root, name, base, env={"VLLM_KB_HF_CACHE": "0"})
    if ck is not None and ck.where == "folder":
        folder = next((Path(b) / name for b in (base, root) if b is not None and (Path(b) / name / "config.json").is_file()), None)
        if folder is not None and (folder / "modules.json").is_file():
            return {}  # a sentence-transformers layout (a JSON list): vLLM's auto runner pools it
    if not _untied(ck.config if ck else None):
        return {}
    names = weight_names(root, name, base) if ck is not None and ck.where == "folder" else None
    if names:
        if any(_HEAD.search(n) for n in names) or not any("embed_tokens" in n for n in names):
            return {}
        source = "model.safetensors.index.json"
    else:
        row = _row(name, table, local=ck is not None or name.startswith((".", "/", "~")))
        if row is None:
            return {}
        source = str(row.get("source") or row.get("repo"))
    pooled = _pooling_asked(engine)
    if pooled and base_v >= Version(drops):
        return {}
    return {"lm_head_missing": param, "lm_head_arch": arch, "lm_head_fix": "upgrade" if base_v < Version(drops) else "runner_pooling",
            "lm_head_from": source, "lm_head_since": drops}
