"""Which framework release works with which vLLM (knowledge/frameworks/compat.yaml), and what
each framework release has (knowledge/frameworks/catalog.json): the statements that apply to a
pair, and the framework releases that would work with a vLLM version."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from vllm_kb.engine.kb import resources, versions, yamlio
from vllm_kb.engine.kb.versions import SpecifierSet, parse, try_parse


@dataclass(frozen=True)
class Row:
    framework: str
    releases: str
    vllm: str
    kind: str  # declared | runtime_check | known_break
    raw: dict

    @property
    def effect(self) -> str:
        return self.raw.get("effect") or ("error" if self.kind != "declared" else "warning")

    @property
    def scope(self) -> str:
        return self.raw.get("scope") or "install"

    def covers(self, fw_version: str) -> bool:
        return versions.contains(self.releases, fw_version) if type(fw_version) is str else SpecifierSet(self.releases).contains(fw_version)

    def allows(self, vllm_version: str) -> bool:
        return not self.vllm or (versions.contains(self.vllm, vllm_version) if type(vllm_version) is str
                                  else SpecifierSet(self.vllm).contains(vllm_version))


@lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    data = yamlio.load_cached(resources.read_text("knowledge", "frameworks", "compat.yaml")).data or {}
    return tuple(Row(r["framework"], r["releases"], r.get("vllm") or "", r["kind"], r) for r in data.get("rows", []))


@lru_cache(maxsize=1)
def framework_catalog() -> dict:
    return json.loads(resources.read_text("knowledge", "frameworks", "catalog.json"))


def releases(fid: str) -> list[str]:
    """The framework's final releases the catalog has read, oldest first (for a package the catalog
    does not read, the list compat.yaml keeps by hand)."""
    got = (framework_catalog()["frameworks"].get(fid) or {}).get("releases")
    if got:
        return list(got)
    data = yamlio.load_cached(resources.read_text("knowledge", "frameworks", "compat.yaml")).data or {}
    return [str(v) for v in ((data.get("releases") or {}).get(fid) or {}).get("list") or []]


def problems(fid: str, fw_version: str, vllm_version: str, scope: str = "install") -> list[Row]:
    """What says this framework release and this vLLM do not go together: the declared range
    (only when the release declares one) and install-scope runtime gates it misses, and known
    breaks it falls in. Runtime gates of one kind are alternatives: one that allows is enough."""
    if try_parse(fw_version) is None or try_parse(vllm_version) is None:
        return []
    here = [r for r in rows() if r.framework == fid and r.covers(fw_version)]
    out = []
    declared = [r for r in here if r.kind == "declared"]
    if declared and not any(r.allows(vllm_version) for r in declared):
        out += declared
    gates = [r for r in here if r.kind == "runtime_check" and r.scope == scope]
    by_error: dict[str, list[Row]] = {}
    for r in gates:
        by_error.setdefault(str(r.raw.get("where", "")).split(":")[0] + r.effect, []).append(r)
    for group in by_error.values():
        if not any(r.allows(vllm_version) for r in group):
            out.append(group[0])
    out += [r for r in here if r.kind == "known_break" and r.scope == scope and r.allows(vllm_version)]
    return out


def installs_beside(fid: str, release: str, vllm_version: str, extras: set[str] | frozenset[str]) -> bool:
    """Whether the release's own metadata lets pip install it beside this vLLM: a Requires-Dist on vLLM, under an
    extra (`extra == "vllm"`) only where the pin names that extra; a release that declares none, yes."""
    binding = []
    for r in rows():
        where = str(r.raw.get("where", ""))
        if r.framework != fid or r.kind != "declared" or not r.covers(release):
            continue
        if "Requires-Dist" in where:
            m = _EXTRA.search(where)
            extra = m.group(1) if m else None
        elif (m := _PYPROJECT_EXTRA.search(where)) is not None:  # a source install's own pyproject (NeMo-RL)
            extra = m.group(1)
        elif _SOURCE_REQUIRES.search(where):  # install_requires of a source install (EasyR1, NeMo-RL 0.1)
            extra = None
        else:  # a README table, an example requirements file: nothing pip reads
            continue
        if extra is None or extra in extras:
            binding.append(r)
    return not binding or any(r.allows(vllm_version) for r in binding)


# both quotings occur in wheels' METADATA: `extra == "vllm"`, and `extra == 'vllm'` (verl 0.4, LLaMA-Factory 0.9.1)
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
_PYPROJECT_EXTRA = re.compile(r"\[project\.optional-dependencies\]\s*([\w.-]+)\s*=")
# EasyR1's setup.py reads requirements.txt into install_requires (get_requires), with no vllm extra
_SOURCE_REQUIRES = re.compile(r'setup\.py get_requires reads it|^requirements\.txt at v|pyproject\.toml[^:]*:\s*dependencies "vllm')


def supporting(fid: str, vllm_version: str, at_least: str | None = None) -> list[str]:
    """Framework releases (at or above `at_least`) that declare or check for a range holding
    this vLLM and have no error-level problem with it."""
    floor = try_parse(at_least) if at_least else None
    out = []
    for v in releases(fid):
        if floor is not None and parse(v) < floor:
            continue
        stated = [r for r in rows() if r.framework == fid and r.covers(v) and r.kind in ("declared", "runtime_check") and r.scope == "install"]
        if not any(r.allows(vllm_version) for r in stated):
            continue
        if not any(r.effect == "error" or r.kind == "declared" for r in problems(fid, v, vllm_version)):
            out.append(v)
    return out


def key_history(fid: str, key: str) -> dict[str, Any] | None:
    """A framework key's spans and default history in the framework catalog."""
    return ((framework_catalog()["frameworks"].get(fid) or {}).get("keys") or {}).get(key)


@lru_cache(maxsize=1)
def _engine_kwarg_rows() -> tuple[dict, ...]:
    data = yamlio.load_cached(resources.read_text("knowledge", "frameworks", "engine_kwargs.yaml")).data or {}
    return tuple(data.get("rows", []))


def engine_kwargs(fid: str, fw_version: str) -> list[dict]:
    """The engine calls (with the arguments they pass) of this framework release's vLLM adapter
    (knowledge/frameworks/engine_kwargs.yaml, read from its wheel)."""
    if try_parse(fw_version) is None:
        return []
    return [r for r in _engine_kwarg_rows() if r["framework"] == fid and versions.contains(r["releases"], str(fw_version))]


def code_release(fw_version: str) -> str:
    """The release whose code a version's compatibility facts are read from: a pre-release
    (0.9.2.dev0, 1.0.0rc1) is the development line of its final release, so it is read as that
    release (the code it installs is the newest on that line; a release's known breaks and the
    engine arguments it passes land there first)."""
    v = try_parse(fw_version)
    if v is None or v._key[1] == (9, 0) or v._key[2] != -1:
        return fw_version  # a final or a post release
    return v.public


def code_releases(fid: str, fw_version: str) -> list[str]:
    """The releases whose adapter code a version may run: its own (code_release), and for a
    pre-release also the final release before it — a dev build is cut from the development line
    that starts at that release, and reports from dev builds come mostly from before the line
    adapted to a vLLM change (LLaMA-Factory 0.9.4.dev0 still passed what 0.9.3 passed)."""
    code = code_release(fw_version)
    if code == fw_version:
        return [code]
    pc = try_parse(code)
    before = [v for v in releases(fid) if try_parse(v) is not None and pc is not None and parse(v) < pc]
    return [code] + before[-1:]


@lru_cache(maxsize=None)
def _table(name: str) -> dict:
    return yamlio.load_cached(resources.read_text("knowledge", "frameworks", name)).data or {}


def vllm_imports() -> dict:
    """knowledge/frameworks/vllm_imports.yaml (tools/framework_vllm_imports.py)."""
    return _table("vllm_imports.yaml")


def vllm_uses() -> dict:
    """knowledge/frameworks/vllm_uses.yaml (tools/framework_vllm_uses.py): the imports inside the
    functions each run of a framework's adapter calls."""
    return _table("vllm_uses.yaml")


def _covering(table: dict, fid: str, fw_version: str) -> list[dict]:
    if try_parse(fw_version) is None:
        return []
    return [r for r in table.get("rows") or [] if r["framework"] == fid and versions.contains(r["releases"], str(fw_version))]


def vllm_import_rows(fid: str, fw_version: str) -> list[dict]:
    """The rows of vllm_imports.yaml that cover this framework release."""
    return _covering(vllm_imports(), fid, fw_version)


def vllm_use_rows(fid: str, fw_version: str) -> list[dict]:
    """The rows of vllm_uses.yaml that cover this framework release."""
    return _covering(vllm_uses(), fid, fw_version)


@lru_cache(maxsize=1)
def accepted_args() -> dict:
    """knowledge/frameworks/accepted_args.json (tools/framework_args.py): per framework release and
    parser, the vLLM-facing keys its argument parser accepts."""
    return json.loads(resources.read_text("knowledge", "frameworks", "accepted_args.json"))


def not_in_code(fid: str, text_of) -> frozenset[str]:
    """The ids of the known breaks (`in_code`) whose cause a copy of the framework does not hold: it has
    the file, without the pattern. A fork that keeps an old version file while its code moved on (eval89
    yyht/openrlhf_async_pipline: version.txt 0.6.0.post2, vllm_engine.py passes worker_extension_cls)
    runs its code, not the release its version names. `text_of(path)`: the copy's file, None if absent."""
    out = set()
    for r in rows():
        where = r.raw.get("in_code")
        if r.framework != fid or not where:
            continue
        text = text_of(where["file"])
        if text is not None and not re.search(where["pattern"], text, re.M):
            out.add(str(r.raw.get("id")))
    return frozenset(out)
