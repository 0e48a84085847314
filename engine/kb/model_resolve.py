"""Which catalogued model a local path holds when its own name does not say it the way a Hub id
does. vLLM reads the architecture from the folder's config.json; the audit, which never sees the
weights, can only read the names around it:

- a Hugging Face cache folder (`…/hub/models--Qwen--Qwen2.5-7B-Instruct/snapshots/<rev>`) names
  its repository;
- generic path parts (`/mnt/models/`, `snapshots/<hash>`, `checkpoint-500`) name nothing: the part
  before them does;
- a container path the deployment mounts (a Kubernetes volume and its PersistentVolumeClaim, a
  `docker run -v`/compose volume) is known by what is mounted there;
- a fine-tune whose name keeps none of its base model's words is known by the catalog's
  `derivatives` (models.yaml: name → base model, from the model card's base_model);
- otherwise the name's words and size (`Gemma-27B`: "gemma", 27B) are matched against the
  catalog's own checkpoints (the config.json sources it was read from). Every checkpoint whose
  words hold all the name's words and whose sizes hold its size is a candidate: one is the model;
  several (Gemma 2 27B and Gemma 3 27B) are all evaluated, and a check says "will not start" only
  when it fails for every one of them (engine/check/candidates.py).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Sequence

_HF_CACHE = re.compile(r"^models--([A-Za-z0-9][\w.-]*)--([\w.-]+)$")
_SOURCE_REPO = re.compile(r"^https://huggingface\.co/([^/]+/[^/]+?)(?:/(?:blob|tree|resolve)/.*)?/?$")
# path parts that name a place, not a model
_GENERIC = frozenset("""
models model weights weight checkpoints checkpoint ckpt ckpts hf huggingface hub snapshots snapshot
llm llms mnt data workspace home root opt srv cache .cache local pretrained final latest main
output outputs merged export exported volume volumes storage share shared files artifacts
model-cache models-cache model_cache models_cache app workdir work tmp disk nfs ssd
""".split())
_HASHLIKE = re.compile(r"^(?:[0-9a-f]{12,64}|checkpoint[-_]\d+|global[-_]step\d+|step[-_]?\d+|epoch[-_]?\d+|v\d+)$", re.I)
_SIZE = re.compile(r"^(?:a?\d+(?:\.\d+)?|\d+x\d+(?:\.\d+)?)b$")
_ALPHA = re.compile(r"[a-z]+")
# words a checkpoint's name adds that say nothing of its architecture: its kind of tuning, and
# how it was quantized (the quantization markers read those)
_SUFFIX_WORDS = frozenset({"instruct", "chat", "it", "hf", "base", "sft", "model", "awq", "gptq", "int", "fp", "bit",
                           "bnb", "gguf", "nvfp", "mxfp", "autoround", "round", "auto", "marlin", "exl", "quantized",
                           "dynamic", "unsloth", "mlx"})
MAX_CANDIDATES = 4


def hf_cache_repo(name: str) -> str | None:
    """`org/name` of a path inside a Hugging Face cache (`models--org--name`)."""
    for part in name.split("/"):
        m = _HF_CACHE.match(part)
        if m:
            return f"{m.group(1)}/{m.group(2)}"
    return None


def own_part(path: str) -> str | None:
    """The last path part that may name a model (generic folders, revisions, steps skipped)."""
    for part in reversed([p for p in path.split("/") if p]):
        if part.lower() in _GENERIC or _HASHLIKE.match(part) or part in (".", "..", "~"):
            continue
        return part
    return None


def mounted(path: str, mounts: dict[str, list[str]] | None) -> list[str]:
    """Names of what a deployment mounts where `path` points, when the path itself names nothing
    below the mount point (`/mnt/models/` on a volume whose claim is `nv-embed-v1`)."""
    path = path.rstrip("/") or "/"
    mounts = mounts or {}
    for target in sorted(mounts, key=len, reverse=True):
        if path == target or path.startswith(target.rstrip("/") + "/"):
            if own_part(path[len(target):]) is not None:
                return []
            out = []
            for src in mounts[target]:
                part = own_part(str(src))
                if part and part not in out:
                    out.append(part)
            return out
    return []


def is_local(name: str) -> bool:
    """A folder rather than a Hub id (`org/name`; `models/x` is a folder named models)."""
    return name.startswith(("/", "./", "../", "~")) or name.count("/") != 1 or name.endswith("/") \
        or name.split("/")[0].lower() in _GENERIC


def _tokens(text: str) -> tuple[set[str], set[str]]:
    """(words, sizes) of a name: `Gemma-2-27B-it` → ({gemma, it}, {27b}); `4bit` is no size."""
    words: set[str] = set()
    sizes: set[str] = set()
    for part in re.split(r"[-_./\s]+", text.lower()):
        if _SIZE.match(part):
            sizes.add(part)
            continue
        words.update(w for w in _ALPHA.findall(part) if len(w) > 1)
    return words, sizes


@lru_cache(maxsize=8)
def _repos_cached(key: int, repos: tuple[str, ...]) -> tuple[tuple[str, frozenset, frozenset], ...]:
    out = []
    for r in repos:
        w, s = _tokens(r.rsplit("/", 1)[-1])
        out.append((r, frozenset(w), frozenset(s)))
    return tuple(out)


def catalog_repos(families: list[dict]) -> tuple[str, ...]:
    """The Hub repositories the catalog's entries were read from (their config.json sources)."""
    out: list[str] = []
    for fam in families:
        for e in [fam, *fam.get("sizes", [])]:
            m = _SOURCE_REPO.match(str(e.get("source") or ""))
            if m and m.group(1) not in out:
                out.append(m.group(1))
    return tuple(out)


def by_words(part: str, repos: tuple[str, ...]) -> list[str]:
    """Catalogued checkpoints whose name holds every word and the size of `part`."""
    words, sizes = _tokens(part)
    words -= _SUFFIX_WORDS
    if not words or not sizes:
        return []  # a family word and a size at least: "7b" or "llama" alone names nothing
    return [r for r, w, s in _repos_cached(hash(repos), repos) if words <= w and sizes <= s]


def derivative(part: str, table: list[dict]) -> str | None:
    for d in table:
        if re.search(d["match"], part):
            return d["base"]
    return None


def resolve(name: str, mounts: dict[str, list[str]] | None, families: list[dict], derivatives: list[dict],
            knows: Callable[[str], bool], hints: Sequence[str] = ()) -> tuple[str, list[str]]:
    """(how the identity was found, the candidate names to read the model from); ("", []) when
    nothing says more than the name itself. `knows(n)`: whether a name names a catalogued family.
    `hints`: other names the launch gives the same model (--tokenizer, --served-model-name), tried
    when the path's own name says nothing."""
    repo = hf_cache_repo(name)
    if repo:
        return "hf-cache", [repo]
    part = own_part(name)
    base = derivative(part, derivatives) if part else None
    if base:
        return "derivative", [base]
    if not is_local(name):
        return "", []
    for src in mounted(name, mounts):
        if knows(src):
            return "mount", [src]
        base = derivative(src, derivatives)
        if base:
            return "derivative", [base]
    if part is not None and part != name.rstrip("/").rsplit("/", 1)[-1] and knows(part):
        return "path", [part]
    found = by_words(part, catalog_repos(families)) if part else []
    if not found:
        for h in hints:
            if isinstance(h, str) and h and knows(h):
                return "hint", [h]
    if found and len(found) <= MAX_CANDIDATES * 2:
        return "words", found
    return "", []
