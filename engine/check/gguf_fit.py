"""A GGUF checkpoint's architecture against the transformers that reads its config (check L135).

vLLM 0.5.5 … 0.23.0 hands a local `.gguf` file to transformers (`gguf_file=`), whose
load_gguf_checkpoint refuses a `general.architecture` outside its GGUF table
(knowledge/vllm/gguf.yaml, tools/vllm_gguf.py). The architecture comes from the file's header when
the file is inside the project (engine/kb/gguf_header.py), else from the model's config model_type
(the catalog's, or --hf-config-path's) through the table's `arch_of_model_type`. The transformers
that runs is the project's pin, else vLLM's own image of the release (built the day the release
reached PyPI: no transformers minor release that came out more than a week later), else whatever
the release's requirement allows: the launch fails for certain only when none of those reads the
architecture (`gguf_tf_ok` false).
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Callable

from vllm_kb.engine.kb.gguf_header import read_architecture
from vllm_kb.engine.kb.model_resolve import hf_cache_repo
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, parse, try_parse

_IMAGE = re.compile(r"^(?:docker\.io/)?vllm/vllm-openai:v?(\d+\.\d+\.\d+(?:\.\w+)?)$")
_REBUILT_DAYS = 7
# llama.cpp's Qwen2 converter writes no `qwen2.vocab_size` key, and transformers before 4.45.0 then keeps the config
# class's default vocabulary (Qwen2Config: 151936); vLLM builds its embedding from that and asserts on token_embd's
# rows. 4.45.0 takes the size from the GGUF's token list (transformers #32526, fixed by #32551; read in the 4.44.2
# and 4.45.0 wheels' modeling_gguf_pytorch_utils.py).
_VOCAB_DEFAULT = {"qwen2": 151936}
_VOCAB_FROM_TOKENS = "4.45.0"


def _minor(v: str) -> str:
    return ".".join(v.split(".")[:2]) + ".0"


def _probes(scanned: str) -> list[str]:
    """The patch releases a scanned X.Y.Z stands for: X.Y.0 … X.Y.Z."""
    major, minor, patch = (int(x) for x in scanned.split(".")[:3])
    return [f"{major}.{minor}.{p}" for p in range(patch + 1)]


def _spec(text: str | None) -> SpecifierSet | None:
    try:
        return SpecifierSet(text) if text else None
    except InvalidSpecifier:
        return None


def _allowed(scanned: list[str], specs: list[SpecifierSet], built: date | None, released: dict) -> list[str]:
    """The transformers minor releases (X.Y.0) every spec admits (and, for an image, out by `built`)."""
    out = []
    for s in scanned:
        if not all(any(sp.contains(p) for p in _probes(s)) for sp in specs):
            continue
        came = released.get(_minor(s))
        if built is not None and (not came or date.fromisoformat(str(came)) > built + timedelta(days=_REBUILT_DAYS)):
            continue
        out.append(_minor(s))
    return out


def _named(model: dict, table: dict) -> str | None:
    return (table.get("arch_of_model_type") or {}).get(str(model.get("model_type"))) \
        or (table.get("arch_of_class") or {}).get(str(model.get("architecture")))


def _arch(facts: dict, root: Path | None, base: Path | None, table: dict,
          facts_of: Callable[[str], dict] | None) -> tuple[str, str] | None:
    model = facts.get("model") or {}
    name = model.get("name")
    if not isinstance(name, str) or not name.lower().endswith(".gguf"):
        return None
    head = read_architecture(root, name, base)
    if head:
        return head, "file header"
    arch = _named(model, table)
    repo = hf_cache_repo(name) if arch is None else None
    if repo and facts_of is not None:  # …/hub/models--Qwen--Qwen3-VL-30B-A3B-Instruct-GGUF/snapshots/…: the repository names it
        arch = _named(facts_of(repo), table)
    return (arch, "model name") if arch else None


def gguf_fit(facts: dict, root: Path | None, base: Path | None, pin: Any, table: dict, model_types: dict,
             image: str | None, vllm_released: dict, facts_of: Callable[[str], dict] | None = None) -> dict[str, Any]:
    """launch.gguf_arch / gguf_arch_from / gguf_tf_since / gguf_tf_ok / gguf_tf_by (+ the changes).
    `facts_of(name)`: the catalog's model facts for another name (a Hugging Face cache folder's repository)."""
    if facts.get("model_alternatives"):
        return {}
    got = _arch(facts, root, base, table, facts_of)
    release = str((facts.get("vllm") or {}).get("version") or "")
    lo, hi = (table.get("vllm") or {}).get("releases") or ["0", "0"]
    if got is None or try_parse(release) is None or not parse(lo) <= parse(release) <= parse(hi):
        return {}
    arch, where = got
    since = (table.get("transformers_first") or {}).get(arch)
    out: dict[str, Any] = {"gguf_arch": arch, "gguf_arch_from": where}
    if since:
        out["gguf_tf_since"] = since
    requires = (model_types.get("vllm_requires") or {}).get(release)
    released = model_types.get("released") or {}
    specs = [s for s in (_spec(requires),) if s is not None]
    built, by = None, f"vLLM {release}'s requirement transformers{requires}" if requires else f"vLLM {release}"
    own_pin = pin is not None and _spec(getattr(pin, "spec", None)) is not None
    m = _IMAGE.match(image or "")
    pinned = _spec(getattr(pin, "spec", None))
    if own_pin and pinned is not None:
        specs.append(pinned)
        by = f"{pin.text} ({pin.file}:{pin.line})"
    elif m and m.group(1) == release and vllm_released.get(release):
        built = date.fromisoformat(str(vllm_released[release]))
        by = f"{image} (built {built.isoformat()})"
    elif not requires:
        return {**out, "gguf_tf_by": by}  # what pip installs is not known: no verdict
    allowed = _allowed([str(v) for v in table.get("transformers_scanned") or []], specs, built, released)
    if not allowed:
        return {**out, "gguf_tf_by": by}
    reads = [v for v in allowed if since and parse(v) >= parse(since)]
    out.update(gguf_tf_by=by, gguf_tf_ok=bool(reads))
    out.update(_vocab_fit(arch, facts.get("model") or {}, allowed))
    if reads and len(reads) < len(allowed):
        out["gguf_tf_floor"] = True  # some allowed transformers do not read it: pin the floor
    req = _spec(requires)
    if since and not reads:
        if req is not None and any(req.contains(p) for s in table.get("transformers_scanned") or []
                                   if parse(_minor(str(s))) >= parse(since) for p in _probes(str(s))):
            out["gguf_tf_fix"] = f">={since}"
        first = _first_release(since, release, table, model_types, vllm_released, bool(m and not own_pin))
        if first:  # an exact release: a range would let pip pick 0.24+, which has no GGUF loader
            out.update(gguf_vllm_first=first, gguf_vllm_fix=f"=={first}")
    return out


def _vocab_fit(arch: str, model: dict, allowed: list[str]) -> dict[str, Any]:
    """launch.gguf_vocab_ok / gguf_vocab_floor: whether the transformers that may run sizes the embedding from the
    GGUF's tokens when the model's vocabulary is not the config class's default."""
    default, rows = _VOCAB_DEFAULT.get(arch), model.get("vocab_size")
    if default is None or not isinstance(rows, int) or rows == default:
        return {}
    sized = [v for v in allowed if parse(v) >= parse(_VOCAB_FROM_TOKENS)]
    out: dict[str, Any] = {"gguf_vocab": rows, "gguf_vocab_default": default, "gguf_vocab_ok": bool(sized)}
    if sized and len(sized) < len(allowed):
        out["gguf_vocab_floor"] = True
    return out


def _first_release(since: str, release: str, table: dict, model_types: dict, vllm_released: dict, image: bool) -> str | None:
    """The first GGUF-loading vLLM release at or after `release` whose requirement (and, for an
    image, build day) admits a transformers that reads the architecture."""
    hi = parse(((table.get("vllm") or {}).get("releases") or ["0", "0"])[1])
    released = model_types.get("released") or {}
    scanned = [str(v) for v in table.get("transformers_scanned") or []]
    for r in model_types.get("vllm_releases") or []:
        v = try_parse(r)
        if v is None or v <= parse(release) or v > hi or "post" in r:
            continue
        spec = _spec((model_types.get("vllm_requires") or {}).get(r))
        if spec is None:
            continue
        built = date.fromisoformat(str(vllm_released[r])) if image and vllm_released.get(r) else None
        if image and built is None:
            continue
        if any(parse(a) >= parse(since) for a in _allowed(scanned, [spec], built, released)):
            return r
    return None
