"""A sentence-transformers embedding upload that names a *ForCausalLM class in config.json and keeps
its tensors at the top level — `layers.*`, `embed_tokens.*`, `norm.*`, no `model.` prefix and no
lm_head (Qwen3-Embedding) — served by vLLM 0.10.0 with no task (check L141).

0.10.0 chose the runner from the architecture's suffix alone (config.py `_resolve_runner`:
*ForCausalLM → generate) and read the sentence-transformers pooling config only once a pooling runner
was chosen (`_get_preferred_pooling_task`). The generative class then loads the weights and its
AutoWeightsLoader stops at the first top-level name it has no child for: "There is no module or
parameter named 'layers' in Qwen3ForCausalLM" (models/utils.py:275). 0.6.6–0.9.2 preferred the embed
task for a model with a modules.json (`_get_preferred_task`, 0.9.2 config.py:778), and 0.10.1 on pick
the pooling runner for it (`_get_default_runner_type`, 0.10.1 config/__init__.py:901), so only 0.10.0
is refused. `--task embed` converts the class, whose load_weights takes names with or without the
`model.` prefix (0.10.0 models/adapters.py:77-89).

Known only from a knowledge/hub_uploads.yaml row (`weights_unprefixed`) whose evidence shows the
layout, by the Hub id or a folder named as the upload; hf_overrides (which may rename the
architecture) and another model implementation are not judged."""
from __future__ import annotations

from typing import Any

from vllm_kb.engine.kb.versions import try_parse

REFUSED = "0.10.0"                  # the one release whose auto runner ignores modules.json
LOADER = ("vllm/model_executor/models/utils.py", 275)
_MISSING = {"layers", "embed_tokens", "norm"}


def _row(name: str, table: dict | None) -> dict | None:
    key = name.rstrip("/").lower()
    local = key.startswith((".", "/", "~"))
    for row in (table or {}).get("uploads") or []:
        repo = str(row.get("repo", "")).lower()
        if row.get("weights_unprefixed") and (repo == key or (local and repo.split("/")[-1] == key.split("/")[-1])):
            return row
    return None


def st_weights_fit(facts: dict, table: dict | None) -> dict[str, Any]:
    """launch.st_generate_arch (the generative class 0.10.0 builds), launch.st_generate_name (the
    first top-level tensor name it refuses) and launch.st_generate_from (the row's evidence)."""
    model, engine = facts.get("model") or {}, facts.get("engine") or {}
    name = model.get("name")
    v = try_parse(str((facts.get("vllm") or {}).get("version") or ""))
    if not isinstance(name, str) or v is None or str(v.public) != REFUSED:
        return {}
    if engine.get("task") not in (None, "auto") or engine.get("hf_overrides") \
            or engine.get("model_impl") not in (None, "auto", "vllm"):
        return {}
    row = _row(name, table)
    if row is None:
        return {}
    arch = (row.get("architectures") or [None])[0]
    if not isinstance(arch, str) or not arch.endswith("ForCausalLM"):
        return {}
    first = str(row.get("weights_unprefixed"))
    return {"st_generate_arch": arch, "st_generate_name": first if first in _MISSING else "layers",
            "st_generate_from": str(row.get("source") or row.get("repo"))}
