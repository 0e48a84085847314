"""The vLLM catalog: which engine args, CLI flags and env vars exist in which release, with
their types, defaults and allowed values; the fields inside JSON config arguments; defaults
decided at start-up by usage context and GPU; performance modes; engine and feature facts
(knowledge/vllm/catalog.json, built by tools/vllm_catalog.py; format in docs/catalog-crosscheck.md)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from vllm_kb.engine.kb import resources
from vllm_kb.engine.kb.versions import Version, parse, try_parse


# Arguments whose allowed values are a vLLM enum rather than a Literal on the EngineArgs field.
ENUM_FOR_PATH: dict[tuple[str, ...], str] = {
    ("quantization",): "quantization_methods",
    ("kv_cache_dtype",): "kv_cache_dtypes",
    ("attention_backend",): "attention_backends",
    ("speculative_config", "method"): "speculative_methods",
    ("kv_transfer_config", "kv_connector"): "kv_connectors",
    ("tool_call_parser",): "tool_call_parser",
    ("reasoning_parser",): "reasoning_parser",
    ("compilation_config", "level"): "compilation_levels",
    ("compilation_config", "mode"): "compilation_modes",
    ("optimization_level",): "optimization_levels",
}
# Keys inside a JSON argument whose enum vLLM checks only from a release on: SpeculativeConfig was a
# plain dataclass until 0.9.1 made the config classes pydantic dataclasses (vllm 0.9.1 config.py:27,
# :2347), so `speculative_config={"method": "eagle3"}` was taken (and an unknown method replaced by
# the one the draft model implies) in 0.8.x. kv_connector needs no entry: an unknown name fails in
# KVConnectorFactory in every release.
ENUM_CHECKED_FROM: dict[tuple[str, ...], str] = {("speculative_config", "method"): "0.9.1"}
# Usage contexts of the context-dependent defaults: LLM() and the OpenAI-compatible server;
# any other entry point (EngineArgs(), AsyncEngineArgs()) gets the entry's `other` value.
CONTEXTS = ("llm", "serve", "other")


@dataclass(frozen=True)
class Resolved:
    """A user's version mapped onto the nearest catalog release at or below it."""

    requested: str
    version: str  # catalog release used for lookups
    note: str | None = None  # older | newer | nearest (i18n: catalog.<note>)


class Entry:
    """One name's history: spans of releases it exists in, and per-field change points."""

    def __init__(self, name: str, raw: dict, catalog: "Catalog"):
        self.name = name
        self._raw = raw
        self._cat = catalog
        self.spans = [(parse(a), parse(b)) for a, b in raw["in"]]

    def exists(self, version: str) -> bool:
        v = self._cat.index_version(version)
        return any(a <= v <= b for a, b in self.spans)

    def within_life(self, version: str) -> bool:
        """Between its first and last release. A gap inside that range is more often an
        extraction miss than a removal and re-addition, so callers that would report a
        launch failure use this instead of `exists`."""
        v = self._cat.index_version(version)
        return self.spans[0][0] <= v <= self.spans[-1][1]

    def field(self, key: str, version: str | None = None) -> Any:
        val = self._raw.get(key)
        if isinstance(val, dict) and "changes" in val:
            changes = val["changes"]
            if version is None:
                return changes[-1][1]
            v = self._cat.index_version(version)
            current = None
            for at, value in changes:
                if parse(at) > v:
                    break
                current = value
            return current
        return val

    @property
    def first(self) -> str:
        return str(self.spans[0][0])

    @property
    def last(self) -> str:
        return str(self.spans[-1][1])

    def removed_in(self) -> str | None:
        """The first catalog release after the name's last appearance, if any."""
        last = self.spans[-1][1]
        later = [v for v in self._cat.versions if v > last]
        return str(later[0]) if later else None


class Catalog:
    def __init__(self, raw: dict):
        self.raw = raw
        self.versions: list[Version] = [parse(v) for v in raw["versions"]]
        self._longs: dict[str, list[str]] = {}
        self._entries: dict[tuple[str, str], Entry] = {}
        # memos: every site asks the same questions of the same few releases
        self._index: dict = {}
        self._by_dest: dict[str, dict[str, list[str]]] = {}
        self._defaults: dict[str, dict[str, Any]] = {}

    @property
    def newest(self) -> str:
        return str(self.versions[-1])

    @property
    def oldest(self) -> str:
        return str(self.versions[0])

    def index_version(self, version: str) -> Version:
        """The catalog release a version is looked up as (nearest at or below, clamped)."""
        hit = self._index.get(version)
        if hit is None:
            v = parse(version)
            below = [c for c in self.versions if c <= v]
            hit = self._index[version] = below[-1] if below else self.versions[0]
        return hit

    def resolve(self, version: str) -> Resolved:
        v = parse(version)
        used = self.index_version(version)
        note = None
        if v < self.versions[0]:
            note = "older"
        elif v > self.versions[-1] and v.release[:2] != self.versions[-1].release[:2]:
            note = "newer"
        elif used.release != v.release:
            note = "nearest"
        return Resolved(requested=str(version), version=str(used), note=note)

    def installed_version(self, release: str | None) -> str | None:
        """The catalog release what an install names is judged as; None where it names no release:
        a build from a checkout or a git commit ("source", engine/scan/source_pins.py) is judged as
        its folder's release, never parsed (Fluder-Paradyne/vllm_inference, eval105: a Dockerfile that
        clones vLLM and runs a script as its ENTRYPOINT lost the script's site to the parse)."""
        return self.resolve(release).version if release and try_parse(release) is not None else None

    def _entry(self, section: str, name: str) -> Entry | None:
        key = (section, name)
        if key not in self._entries:
            raw = self.raw[section].get(name)
            if raw is None:
                return None
            self._entries[key] = Entry(name, raw, self)
        return self._entries[key]

    def arg(self, name: str) -> Entry | None:
        """An EngineArgs field or a serve-only (frontend) argument, by canonical dest name."""
        return self._entry("engine_args", name) or self._entry("frontend_args", name)

    def last_release(self, name: str) -> str | None:
        """The last release with an argument, as an EngineArgs field or a serve option (some
        moved from one to the other, e.g. disable_log_requests)."""
        entries = [e for e in (self._entry("engine_args", name), self._entry("frontend_args", name)) if e]
        return str(max(parse(e.last) for e in entries)) if entries else None

    def engine_arg(self, name: str) -> Entry | None:
        """An EngineArgs/AsyncEngineArgs field only (what a Python call of those classes, or LLM(), accepts)."""
        return self._entry("engine_args", name)

    def server_arg(self, name: str) -> Entry | None:
        """An option of vLLM's OpenAI server only (make_arg_parser), not an engine argument."""
        return self._entry("frontend_args", name)

    def is_engine_arg(self, name: str) -> bool:
        return name in self.raw["engine_args"]

    def flag(self, flag: str) -> Entry | None:
        return self._entry("cli_flags", flag)

    def env(self, name: str) -> Entry | None:
        return self._entry("env_vars", name)

    def enum(self, name: str) -> Entry | None:
        """Allowed values of a vLLM enum (quantization_methods, attention_backends, …)."""
        return self._entry("enums", name) if "enums" in self.raw else None

    def config_field(self, path: str) -> Entry | None:
        """A field inside a JSON config argument, as "compilation_config.mode"."""
        return self._entry("config_fields", path) if "config_fields" in self.raw else None

    def feature(self, name: str, version: str) -> Any:
        """An engine or feature fact in a release (engine.default, engine.v1_fallbacks,
        spec_decode.v1_methods, multiproc.cli_spawn, …); None outside its life."""
        e = self._entry("features", name) if "features" in self.raw else None
        return e.field("value", version) if e is not None and e.exists(version) else None

    def feature_known(self, name: str) -> bool:
        return name in (self.raw.get("features") or {})

    def performance_mode(self, mode: str, version: str) -> dict[str, dict] | None:
        """What a performance_mode does to unset defaults ({arg: {"multiply": 2, …}})."""
        e = self._entry("performance_modes", mode) if "performance_modes" in self.raw else None
        return e.field("effects", version) if e is not None and e.exists(version) else None

    def context_default(self, arg: str, version: str, context: str, gpu: dict | None) -> Any:
        """The value vLLM gives an unset max_num_seqs / max_num_batched_tokens at start-up for
        a usage context (llm | serve | other) on a GPU ({"memory_gib", "name", "capability"});
        None when the release leaves it elsewhere or the GPU is not known and the rows differ."""
        e = self._entry("context_defaults", arg) if "context_defaults" in self.raw else None
        if e is None or not e.exists(version):
            return None
        if context not in ("llm", "serve"):
            rows = [r for r in e.field("rules", version) or [] if "any" in r]
            return rows[-1]["any"] if rows and "when" not in rows[-1] else e.field("other", version)
        for row in e.field("rules", version) or []:
            value = row.get(context, row.get("any"))
            if value is None:
                continue
            hit = gpu_matches(row.get("when") or {}, gpu)
            if hit is None:
                return None  # the GPU decides and it is not known
            if hit:
                return value
        return None

    def allowed_values(self, path: tuple[str, ...], version: str, refused: bool = False) -> tuple[list, str] | None:
        """The values vLLM accepts for an argument (or a key inside a JSON argument) in a
        release, and where that list comes from; None when vLLM does not enumerate them (with
        `refused`: or does not refuse another value at start, ENUM_CHECKED_FROM)."""
        enum_name = ENUM_FOR_PATH.get(path)
        if refused and path in ENUM_CHECKED_FROM and parse(version) < parse(ENUM_CHECKED_FROM[path]):
            return None
        if enum_name:
            e = self.enum(enum_name)
            if e is not None and e.exists(version):
                # an int enum takes its member names too (compilation_config.mode "VLLM_COMPILE")
                return list(e.field("values", version) or []) + list(e.field("names", version) or {}), enum_name
        if len(path) == 2:
            f = self.config_field(".".join(path))
            if f is not None and f.exists(version) and f.field("choices", version):
                return list(f.field("choices", version)) + list(f.field("names", version) or {}), ".".join(path)
        if len(path) == 1:
            e = self.arg(path[0])
            if e is not None and e.exists(version):
                choices = e.field("choices", version)
                if choices:
                    return list(choices), path[0]
        return None

    def release_runs(self, vs: list[str]) -> str:
        """Releases as runs of consecutive catalog releases: `0.9.0 … 0.9.1, 0.24.0 … 0.34.0`."""
        order = {str(v): i for i, v in enumerate(self.versions)}
        runs: list[list[str]] = []
        for v in vs:
            if runs and order[v] == order[runs[-1][-1]] + 1:
                runs[-1].append(v)
            else:
                runs.append([v])
        return ", ".join(r[0] if len(r) == 1 else f"{r[0]} … {r[-1]}" for r in runs)

    def value_history(self, path: tuple[str, ...], value) -> list[str]:
        """Catalog releases in which `value` is allowed for `path`."""
        out = []
        for v in self.versions:
            got = self.allowed_values(path, str(v))
            if got and value in got[0]:
                out.append(str(v))
        return out

    @cached_property
    def arg_names(self) -> frozenset[str]:
        return frozenset(self.raw["engine_args"]) | frozenset(self.raw["frontend_args"])

    @cached_property
    def env_names(self) -> frozenset[str]:
        return frozenset(self.raw["env_vars"])

    def flags_for_dest(self, dest: str, version: str) -> list[str]:
        key = str(self.index_version(version))
        by_dest = self._by_dest.get(key)
        if by_dest is None:
            by_dest = self._by_dest[key] = {}
            for fl in self.raw["cli_flags"]:
                e = self.flag(fl)
                # a flag's dest can change between releases (-O), so ask for the release's own
                if e and e.exists(version):
                    by_dest.setdefault(e.field("dest", version), []).append(fl)
        return list(by_dest.get(dest, ()))

    def expand_abbreviation(self, flag: str, version: str) -> str | None:
        """argparse takes a unique prefix of a long option (`--gpu-memory-util` is
        `--gpu-memory-utilization`; vLLM's parser keeps allow_abbrev on): the flag it means in a
        release, or None when none or several match."""
        if not flag.startswith("--") or len(flag) < 4:
            return None
        key = str(self.index_version(version))
        longs = self._longs.get(key)
        if longs is None:
            longs = self._longs[key] = sorted(f for f in self.raw["cli_flags"] if f.startswith("--") and (e := self.flag(f)) is not None and e.exists(version))
        hits = [f for f in longs if f.startswith(flag)]
        return hits[0] if len(hits) == 1 else None

    def abbreviation_elsewhere(self, flag: str) -> str | None:
        """The one option `flag` is a unique prefix of in some other release, where the judged one has
        no option it begins (`--disable-log-request` is 0.16.0's `--disable-log-requests`, gone in
        0.17.0): that option's history decides, as for the full spelling, never "no such option"."""
        if not flag.startswith("--") or len(flag) < 4:
            return None
        cands = [f for f in self.raw["cli_flags"] if f.startswith(flag) and self.flag(f) is not None]
        meant = {c for c in cands if any(self.expand_abbreviation(flag, str(v)) == c
                                         for v in self.versions if (e := self.flag(c)) is not None and e.exists(str(v)))}
        return meant.pop() if len(meant) == 1 else None

    def long_flag(self, dest: str, version: str) -> str | None:
        """The canonical long spelling of an argument's flag in a release."""
        flags = [f for f in self.flags_for_dest(dest, version) if f.startswith("--")]
        preferred = "--" + dest.replace("_", "-")
        if preferred in flags:
            return preferred
        return flags[0] if flags else None

    def defaults(self, version: str) -> dict[str, Any]:
        """Every argument's declared default in a release (None where vLLM decides at run time)."""
        key = str(self.index_version(version))
        out = self._defaults.get(key)
        if out is None:
            out = self._defaults[key] = {}
            for section in ("engine_args", "frontend_args"):
                for name in self.raw[section]:
                    e = self._entry(section, name)
                    if e is not None and e.exists(version):
                        out.setdefault(name, e.field("default", version))
        return dict(out)


def gpu_matches(when: dict, gpu: dict | None) -> bool | None:
    """Whether a GPU meets a context-default row's conditions (None: not known)."""
    if not when:
        return True
    if not gpu:
        return None
    mem, name, cap = gpu.get("memory_gib"), str(gpu.get("name") or "").lower(), gpu.get("capability")
    checks = []
    if "min_memory_gib" in when:
        checks.append(None if mem is None else mem >= when["min_memory_gib"])
    if "name_any" in when:
        checks.append(any(n in name for n in when["name_any"]) if name else None)
    if "name_lacks" in when:
        checks.append(not any(n in name for n in when["name_lacks"]) if name else None)
    if "not_capability" in when:
        checks.append(None if cap is None else f"{float(cap):.1f}" != when["not_capability"])
    if False in checks:
        return False
    return None if None in checks else True


@lru_cache(maxsize=1)
def load() -> Catalog:
    return Catalog(json.loads(resources.read_text("knowledge", "vllm", "catalog.json")))
