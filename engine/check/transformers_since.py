"""A transformers older than the names the pinned vLLM release's model module imports from it.

The other side of engine/check/transformers_gone.py: vLLM's support for a new architecture is often
written against transformers' main branch, so the release's model module (or a processor or config
module it imports) imports a name that only a later transformers release has — or that no release
ever had (vLLM 0.7.2's Qwen2_5_VLImageProcessor, renamed before transformers 4.49.0 shipped). The
registry imports that module while it inspects the architecture at start-up, and vLLM stops with
"Model architectures ['…'] failed to be inspected" ("ImportError: cannot import name 'X' from
'transformers…'" in the log above it). knowledge/vllm/transformers_since.yaml
(tools/vllm_transformers_since.py) lists, per release and architecture, each such name and the
transformers releases that have it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from vllm_kb.engine.check.transformers_fit import _allows_from, release_requires
from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, in_spans, parse, try_parse, written_versions


@lru_cache(maxsize=1)
def _table() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "transformers_since.yaml")).data


@lru_cache(maxsize=1)
def _registered() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "architectures.yaml")).data.get("registered") or {}



def _floor(since: str) -> str:
    """The X.Y.0 of the first release that has the name: a patch release of its minor may have it
    already (only the X.Y.0 and the last patch of each minor are read), so nothing below is claimed."""
    major, minor = since.split(".")[:2]
    return f"{major}.{minor}.0"


def _rows(table: dict, release: str, arch: str) -> list[dict]:
    return [r for r in table.get("models") or [] if arch in r["architectures"] and in_spans(release, r["vllm"])]


def _lacks(row: dict, spec: str | None) -> bool:
    """Whether every transformers release `spec` allows (None: any release) lacks the row's name."""
    spans = row.get("has") or []
    if not spans:
        return True  # no release has it: only transformers built from source does
    if spec is None:
        return False
    since = _floor(str(spans[0][0]))
    later = [v for v in _table().get("transformers_scanned") or [] if parse(str(v)) > parse(since)]
    return not _allows_from(spec, since, [str(v) for v in later])


def _allows_some(spec: str, requires: str | None, scanned: list[str]) -> bool:
    """Whether vLLM's requirement admits some release the pin allows (pip would refuse otherwise)."""
    if not requires:
        return True
    try:
        both = SpecifierSet(f"{spec},{requires}")
    except InvalidSpecifier:
        return True
    return any(both.contains(v) for v in [*scanned, *written_versions(spec)] if try_parse(v) is not None)


def _next_release(table: dict, release: str, arch: str, spec: str | None, requires: dict) -> str | None:
    """The first vLLM release after `release` that registers the architecture and whose model module
    imports nothing the same transformers lacks (and whose requirement admits that transformers)."""
    cur = try_parse(release)
    spans = _registered().get(arch) or []
    for r in table.get("vllm_releases") or []:
        v = try_parse(r)
        if v is None or cur is None or v <= cur or ".post" in r or not in_spans(r, spans):
            continue
        if spec and not _allows_some(spec, requires.get(r), table.get("transformers_scanned") or []):
            continue
        if not spec and not requires.get(r):
            continue  # what pip resolves beside a release of unknown requirement is not known
        # without a pin, the later release's own requirement is what pip resolves within
        if not any(_lacks(row, spec or requires.get(r)) for row in _rows(table, r, arch)):
            return r
    return None


def transformers_since(facts: dict, pin: Any, requires: dict, image: bool = False) -> dict[str, Any]:
    """launch.tf_yet* for the first name the site's architecture's vLLM module imports that every
    transformers release the project can have lacks: the pin's (its spec), else — a pip installation,
    not an image — what vLLM's own requirement (`requires`: release → requirement) lets pip resolve,
    which lacks it only when no release has the name or the requirement excludes every one that
    does. A transformers installed from its repository has every name: nothing is said."""
    release = str((facts.get("vllm") or {}).get("version") or "")
    arch = (facts.get("model") or {}).get("architecture")
    if not release or not isinstance(arch, str) or facts.get("model_alternatives"):
        return {}
    if pin is not None and getattr(pin, "source", "") == "git":
        return {}
    spec = getattr(pin, "spec", None) if pin is not None else None
    if not spec and (image or not (facts.get("vllm") or {}).get("pinned")):
        return {}  # an image's transformers (or an unpinned vLLM's) is not known here
    table = _table()
    if spec:
        try:
            SpecifierSet(spec)
        except InvalidSpecifier:
            return {}
    own = release_requires(requires, release)
    if spec and not _allows_some(spec, own, [str(v) for v in table.get("transformers_scanned") or []]):
        return {}  # a pin vLLM's own requirement refuses: pip stops before anything starts (not this check's)
    allowed = spec or own
    for row in _rows(table, release, arch):
        since = str(row["has"][0][0]) if row.get("has") else ""
        if not _lacks(row, allowed):
            continue
        what = str(row["import"])
        mod, _, name = what.rpartition(".")
        error = f"ModuleNotFoundError: No module named '{what}'" if row.get("name") is None else \
            f"ImportError: cannot import name '{name}' from '{mod}'"
        out: dict[str, Any] = {"tf_yet": what, "tf_yet_at": f"{row['file']}:{row['line']}", "tf_yet_error": error,
                               "tf_yet_since": since, "tf_yet_never": not since}
        if since:
            out["tf_yet_fix"] = f">={since}"
        if spec:
            out.update(tf_pin=pin.text, tf_pin_at=f"{pin.file}:{pin.line}")
        else:
            out.update(tf_yet_requires=True, tf_pin=f"transformers{own}", tf_pin_at="")
        first = _next_release(table, release, arch, spec, requires)
        if first:
            out.update(tf_yet_vllm_first=first, tf_yet_vllm_fix=f">={first}")
        return out
    return {}


def own_import(facts: dict, pin: Any, requires: dict, image: bool = False) -> dict[str, Any]:
    """launch.tf_own_import* where the transformers pin is older than the checkpoint's model_type
    (L52, launch.tf_too_old) and the architecture's own vLLM module imports a name from that same
    transformers that the pin lacks (Qwen3-VL in 0.11.0-0.23.0: `from transformers.models.qwen3_vl
    import …`, vllm/model_executor/models/qwen3_vl.py:41). trust_remote_code cannot help there: a
    repository config class would parse config.json, but the registry's import of the module still
    fails. Named apart from tf_yet* so that L125 does not say the same cause a second time."""
    got = transformers_since(facts, pin, requires, image)
    if not got.get("tf_yet"):
        return {}
    return {"tf_own_import": got["tf_yet"], "tf_own_import_at": got["tf_yet_at"]}
