"""A transformers pin newer than the names the pinned vLLM release imports from it.

Most vLLM releases declare only a floor on transformers, so a project may pin (or install after
vLLM) a transformers that has since removed or moved a name vLLM imports at module level: importing
vLLM then stops with "ImportError: cannot import name 'X' from 'transformers…'" before any model is
read — or, for a name only the model's own vLLM module imports, when the registry inspects the
architecture. knowledge/vllm/transformers_imports.yaml (tools/vllm_transformers_imports.py) lists,
per release, the names imported at start and the transformers release from which each is gone.
Only a pin whose every allowed release is at or past that one is judged: no pin, or a pin that
still allows an older transformers, says nothing.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from vllm_kb.engine.kb import resources, yamlio
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, allows_any, in_spans, parse, try_parse, written_versions

# the sites that run `vllm serve` (the OpenAI server's imports) and those that import LLM
_SERVE_MODES = frozenset({"standalone_serve", "rlhf_server"})


@lru_cache(maxsize=1)
def _table() -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "vllm", "transformers_imports.yaml")).data


def _allows_before(spec: str, gone: str, scanned: list[str]) -> bool:
    """Whether the project's pin allows any transformers release older than `gone`, both read as pip
    reads a requirement (PEP 440): a development build or release candidate of `gone` itself
    (5.0.0.dev0, a source build of transformers' main on the way to 5.0.0) is not older — the `<5` this
    check proposes excludes it (vLLM #27505)."""
    below = SpecifierSet(f"<{gone}", pip=True)
    return allows_any(spec, scanned, below.contains, pip=True)


def _allows_from(spec: str, ceiling: str, scanned: list[str]) -> bool:
    """Whether the pin allows `ceiling` or any release after it — or a pre-release of it, which
    `<ceiling` excludes as pip reads it and which carries that release's changes up to its date."""
    below = SpecifierSet(f"<{ceiling}", pip=True)
    return allows_any(spec, [ceiling, *scanned], lambda pv: not below.contains(pv), pip=True)


def _only_pre(spec: str, gone: str, scanned: list[str]) -> bool:
    """Whether the pin, which allows nothing older than `gone`, allows no `gone` or later either: only a
    pre-release or development build of it (==5.0.0.dev0), which has its changes up to its date."""
    floor = parse(gone)
    return not allows_any(spec, [gone, *scanned], lambda pv: pv >= floor, pip=True)


def _allows_any(spec: str, scanned: list[str]) -> bool:
    try:
        ss = SpecifierSet(spec)
    except InvalidSpecifier:
        return False
    written = written_versions(spec)
    return any(ss.contains(p) for p in [*scanned, *written] if try_parse(p) is not None)



def _candidates(facts: dict, release: str, table: dict) -> list[tuple[dict, bool]]:
    """(row, only the model's module imports it) of what the site's launch imports in `release`."""
    mode = (facts.get("site") or {}).get("mode")
    entry = "serve" if mode in _SERVE_MODES else "offline"
    out = [(r, False) for r in (table.get("imports") or {}).get(release) or [] if entry in (r.get("entries") or [])]
    arch = (facts.get("model") or {}).get("architecture")
    if isinstance(arch, str) and not facts.get("model_alternatives"):
        out += [(r, True) for r in table.get("models") or [] if arch in r["architectures"] and in_spans(release, r["vllm"])]
    return out


def _what(row: dict) -> tuple[str, str]:
    """(what vLLM does, the error Python prints) for one row of the table."""
    if "attribute" in row:
        return row["attribute"], f"AttributeError: <tokenizer class> has no attribute {row['attribute'].rpartition('.')[2]}"
    if "register" in row:
        return (f"AutoConfig.register('{row['register']}')",
                f"ValueError: '{row['register']}' is already used by a Transformers config, pick another name.")
    mod, _, name = row["import"].rpartition(".")
    if row.get("name") is None and "module" in row:
        return row["import"], f"ModuleNotFoundError: No module named '{row['import']}'"
    return row["import"], f"ImportError: cannot import name '{name}' from '{mod}'"


def newest_allowed(spec: str, scanned: list[str]) -> str | None:
    """The newest of `scanned` the specifier allows (None: none, or unreadable)."""
    try:
        ss = SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    allowed = [v for v in scanned if ss.contains(v)]
    return max(allowed, key=parse) if allowed else None


def _below(gone: str) -> str:
    """The bound that keeps transformers before `gone` (<5 for 5.0.0, <4.54 for 4.54.1)."""
    major, minor = gone.split(".")[:2]
    return f"<{major}" if minor == "0" and gone.split(".")[2:3] in (["0"], []) else f"<{major}.{minor}"


def transformers_gone(facts: dict, pin: Any, requires: str | None = None, image: bool = False,
                      build: Callable[[], str | None] | None = None) -> dict[str, Any]:
    """launch.tf_gone* for the first name the site's vLLM release imports (or attribute it reads) that
    every transformers release the project's pin allows no longer has. Without a pin (and outside
    vLLM's own image, whose transformers was fixed the day it was built), `requires` — the release's
    own requirement — stands for what a fresh install resolves: its newest allowed release
    (`tf_gone_fresh`); a pin open above past that release is `tf_gone_open`. `build()` names the image
    build that certainly resolves the newest (`tf_gone_build`, engine/check/transformers_resolve.py)."""
    release = (facts.get("vllm") or {}).get("version")
    if pin is not None and getattr(pin, "source", "") == "git" and not getattr(pin, "spec", None):
        return {}  # transformers from a commit of its repository: a pin, of a release the audit cannot name
    spec = getattr(pin, "spec", None) if pin is not None else None
    if not release or (not spec and not requires):
        return {}
    # an image's transformers was fixed the day it was built — unless the project builds it here, from
    # a bare base, where pip resolves the newest (an image of vLLM's own stays as it was)
    built = build() if build is not None and not spec and image else None
    if not spec and image and not built:
        return {}
    table = _table()
    scanned = [str(v) for v in table.get("transformers_scanned") or []]
    if spec and not _allows_any(spec, scanned):
        return {}  # a pin of a release the table never read (or none at all): not judged
    # what an install resolves where the pin (or, without one, vLLM's requirement) leaves it open
    newest = newest_allowed(",".join(s for s in (spec, requires) if s), scanned) if spec and requires else \
        (None if spec else newest_allowed(str(requires), scanned))
    if not spec and newest is None:
        return {}
    # an import is known absent only in the 4.x wheels (transformers 5 serves legacy paths through an
    # import hook the table's static read cannot follow): judged only where every release allowed is 4.x
    ceiling = str(table.get("imports_read_below") or "5.0.0")
    past = _allows_from(spec, ceiling, scanned) if spec else parse(str(newest)) >= parse(ceiling)
    for row, model_only in _candidates(facts, str(release), table):
        gone = str(row["removed"])
        is_import = "register" not in row and "attribute" not in row
        if is_import and past:
            continue
        open_above = bool(spec) and _allows_before(str(spec), gone, scanned)
        if open_above and (is_import or newest is None or parse(str(newest)) < parse(gone)):
            continue
        if not spec and parse(str(newest)) < parse(gone):
            continue
        what, error = _what(row)
        out = {"tf_gone": what, "tf_gone_from": gone, "tf_gone_at": f"{row['file']}:{row['line']}",
               "tf_gone_error": error, "tf_gone_fix": _below(gone), "tf_gone_model": model_only,
               "tf_gone_attr": "attribute" in row}
        if spec:
            out.update(tf_pin=pin.text, tf_pin_at=f"{pin.file}:{pin.line}")
            if not open_above and _only_pre(str(spec), gone, scanned):
                out["tf_gone_pre"] = True
            if open_above:
                out.update(tf_gone_open=True, tf_gone_fix=f"{spec},{_below(gone)}")
        else:
            out.update(tf_gone_fresh=True, tf_pin=f"transformers{requires}", tf_pin_at="")
        if (open_above or not spec) and build is not None and (where := built or build()):
            out["tf_gone_build"] = where
        return out
    return {}
