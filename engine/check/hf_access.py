"""Whether a gated Hugging Face repository can reach the process that loads it.

vLLM reads a Hub model's config.json through huggingface_hub at start-up (get_config in
vllm/transformers_utils/config.py, every release); for a gated repository (models.yaml
`gated_repos`, from the model cards) that request needs a token of an account that accepted the
licence — `HF_TOKEN` / `HUGGING_FACE_HUB_TOKEN`, or the token file `huggingface-cli login` writes
under HF_HOME — or the model already in a mounted cache. The answer (`launch.hf_access`):

- `token`: the launch sets a token variable (its value is never read or shown), the deployment
  declares one for the process (BentoML's `envs`), a container's `envFrom` Secret holds one, or an
  operator gives it from its own setting (KAITO's `presetOptions.modelAccessSecret`);
- `cache`: a container mounts a Hugging Face cache, a home's `.cache` or the download folder;
- `none`: a container whose environment and volumes are read in full (docker run, compose,
  Kubernetes) from vLLM's own image: nothing can bring a token or the model;
- `host`: a launch on a machine whose login and cache no file shows;
- `server`: a tool that downloads the model itself with its server's token setting (GPUStack);
- `unknown`: a container with environment the audit cannot read (an env file it could not read,
  `envFrom`, a chart or operator that renders it) or a custom image (its build may log in or
  download the model).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from vllm_kb.engine.scan.site import Site

TOKEN_VARS = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACE_HUB_TOKEN", "HF_API_TOKEN", "HF_TOKEN_PATH")
CACHE_VARS = ("HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "TRANSFORMERS_CACHE", "XDG_CACHE_HOME")
# vLLM's own images: nothing in them logs in or holds a model
_OFFICIAL = re.compile(r"^(?:docker\.io/)?vllm/vllm-openai(?:[:@]|$)")
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
# where a container keeps Hugging Face's cache when nothing moves it (root's home or another user's)
_CACHE_PATH = re.compile(r"(^|/)\.cache(/|$)|huggingface")
_HERMETIC_TOOLS = ("docker run", "compose", "kubernetes")


@lru_cache(maxsize=8)
def _patterns(rows: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern, str], ...]:
    return tuple((re.compile(m), src) for m, src in rows)


def gated(name: str | None, table: list[dict]) -> str | None:
    """The model card that says `name` (a Hub id, not a local path) is gated, or None."""
    if not isinstance(name, str) or not _HUB_ID.match(name):
        return None
    for rx, src in _patterns(tuple((str(r["match"]), str(r["source"])) for r in table)):
        if rx.search(name):
            return src
    return None


# the launch's own code takes a token from its environment (`os.getenv("HF_TOKEN")`, `os.environ["HF_TOKEN"]`,
# `${HF_TOKEN}`): whoever runs it is asked for one (eval81 bobduru/vllm-deployment raises without it)
_READS = re.compile(r"""(?:getenv|environ(?:\.get)?)\s*[(\[]\s*["'](%s)["']|\$\{?(%s)\b""" % (("|".join(TOKEN_VARS),) * 2))


def reads_token(text: str | None) -> str | None:
    """The token variable the file reads from its environment, or None."""
    m = _READS.search(text or "")
    return (m.group(1) or m.group(2)) if m else None


# BentoML's `envs` entry (`@service(envs=[{"name": "HF_TOKEN"}])`, bentofile.yaml `envs: - name: HF_TOKEN`,
# pyproject's [tool.bentoml.build] or the build.args a service reads with bentoml.use_arguments): the
# deployment asks for the variable and BentoML sets it in the service's process, the one that runs vLLM
_BENTO_ENV = re.compile(r"""["']?\bname["']?\s*[:=]\s*["']?(%s)\b""" % "|".join(TOKEN_VARS))
_TOML_HEADER = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+", re.M)


def _bento_section(text: str) -> str:
    """pyproject.toml's [tool.bentoml…] tables only, other tables blanked (their line numbers kept)."""
    out, keep = [], False
    for line in text.splitlines():
        m = _TOML_HEADER.match(line)
        if m:
            keep = m.group(1).startswith("tool.bentoml")
        out.append(line if keep else "")
    return "\n".join(out)


def bentoml_token(root: Path | None, rel: str, text: str | None) -> str | None:
    """The token variable a BentoML service declares in its `envs` (the service's file, its folder's
    bentofile.yaml or pyproject.toml), as `NAME (file:line)`, or None."""
    if root is None or not text or "bentoml" not in text:
        return None
    folder = Path(rel).parent
    for name in (rel, str(folder / "bentofile.yaml"), str(folder / "pyproject.toml")):
        try:
            body = text if name == rel else (root / name).read_text(encoding="utf-8", errors="replace") if (root / name).is_file() else ""
        except OSError:
            continue
        if name.endswith("pyproject.toml"):
            body = _bento_section(body)
        if "envs" in body and (m := _BENTO_ENV.search(body)):
            return f"{m.group(1)} (BentoML envs, {name.removeprefix('./')}:{body.count(chr(10), 0, m.start()) + 1})"
    return None


def access(site: Site, download_dir: Any = None, reads: str | None = None) -> tuple[str, str | None]:
    """(`launch.hf_access`, the name or path that decided it); `reads`: a token variable the site's file
    reads from its environment (a launch on a host or platform that gives it: not one a container spec drops)."""
    if site.tool == "gpustack":
        # GPUStack's worker downloads the files itself with the server's huggingface_token (HF_TOKEN;
        # gpustack/schemas/config.py:44, worker/model_file_manager.py) and starts vLLM on the local copy
        return "server", "huggingface_token"
    if given := (site.launch or {}).get("hf_token"):  # an operator's own token setting (KAITO's modelAccessSecret)
        return "token", str(given)
    names = set(site.env) | set((site.container or {}).get("env_names") or ())
    if reads and not (site.container or {}).get("tool"):
        names.add(reads)
    token = next((n for n in TOKEN_VARS if n in names), None)
    if token:
        return "token", token
    c = site.container
    if not c or not c.get("tool"):
        return "host", None
    mounts = [t for t in (c.get("mounts") or {}) if isinstance(t, str)]
    targets = [str(s.value) for n, s in site.env.items() if n in CACHE_VARS and s.resolved and s.value]
    if isinstance(download_dir, str):
        targets.append(download_dir)
    for m in mounts:
        if _CACHE_PATH.search(m) or any(t == m or t.startswith(m.rstrip("/") + "/") for t in targets):
            return "cache", m
    if c.get("env_opaque") or site.tool or str(c["tool"]) not in _HERMETIC_TOOLS:
        return "unknown", None
    if not site.image or not _OFFICIAL.match(site.image):
        return "unknown", site.image
    return "none", site.image


def apply(facts: dict, site: Site, model_name: str | None, table: list[dict], text: str | None = None,
          declared: str | None = None) -> None:
    """`model.gated_source` and `launch.hf_access` / `launch.hf_access_by` for a gated Hub model.
    `declared`: a token variable the deployment declares for the process (BentoML's envs)."""
    src = gated(model_name, table)
    if src is None or "model" not in facts or (site.launch or {}).get("model_hub") == "modelscope":
        return  # a ModelScope id (GPUStack's `source: model_scope`) is fetched from ModelScope, not the Hub
    facts["model"]["gated"] = True
    # the model's own page (where its licence is accepted); the table's source is the evidence of the rule
    parts = str(model_name).strip("/").split("/")
    facts["model"]["gated_source"] = f"https://huggingface.co/{parts[0]}/{parts[1]}" if len(parts) == 2 else src
    how, by = ("token", declared) if declared and not (site.container or {}).get("tool") else \
        access(site, (facts.get("args") or {}).get("download_dir"), reads_token(text))
    facts["launch"]["hf_access"] = how
    if by:
        facts["launch"]["hf_access_by"] = by
