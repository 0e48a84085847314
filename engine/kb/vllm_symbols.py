"""Whether `from vllm.X import Y` works in a vLLM release, and since which release it does, from
knowledge/frameworks/vllm_symbols.json (tools/vllm_public_imports.py: vLLM's importable names per
release, for the modules the frameworks import from). Every answer is `None` where the table
cannot tell: a module it does not hold, a name no release read has (bound at run time, or in a
compiled extension), a release where the module has a star import or a module `__getattr__` that
may build the name, or a release it did not read at the edge of a run."""
from __future__ import annotations

import json
from functools import lru_cache

from vllm_kb.engine.kb import resources, versions
from vllm_kb.engine.kb.versions import try_parse


@lru_cache(maxsize=1)
def table() -> dict:
    return json.loads(resources.read_text("knowledge", "frameworks", "vllm_symbols.json"))


def read_releases() -> list[str]:
    return [str(v) for v in table().get("vllm_releases") or []]


def resolves_in(specs: list[str], vllm: str, read: list[str]) -> bool | None:
    """Whether `vllm` falls in one of the runs `specs` (one specifier per run of read releases);
    None when the table cannot tell (a release it did not read that lies at the edge of a run:
    the name may have come or gone in it)."""
    def ok(v: str) -> bool:
        return any(versions.contains(s, v) for s in specs)
    if vllm in read:
        return ok(vllm)
    pv = try_parse(vllm)
    if pv is None:
        return None
    parsed = [(v, try_parse(v)) for v in read]
    below = [v for v, p in parsed if p is not None and p < pv]
    above = [v for v, p in parsed if p is not None and p > pv]
    if not below or not above or ok(below[-1]) != ok(above[0]):
        return None
    return ok(vllm)


def spans(module: str, name: str | None) -> list[str] | None:
    """The runs of releases where the import works; None when the table does not judge it."""
    entry = (table().get("modules") or {}).get(module)
    if entry is None:
        return None
    if name is None:
        return list(entry.get("module") or [])
    for key, names in (entry.get("names") or {}).items():
        if name in names:
            return key.split(" | ")
    return None  # no release read binds it: set at run time or compiled, not judged


# Filled in when a wheel is built, absent from the sources the table is read from: the flash-attention
# package copied from its own build, setuptools-scm's version file, the compiled extensions.
BUILT = ("vllm.vllm_flash_attn", "vllm._version")


def built(module: str, name: str | None = None) -> bool:
    """A module (or a name of it) only a built wheel has: never judged from the sources."""
    full = f"{module}.{name}" if name else module
    return any(full == b or full.startswith(b + ".") for b in BUILT) or \
        any(p.startswith("_") and p.endswith("_C") for p in full.split("."))


def resolves(module: str, name: str | None, vllm: str) -> bool | None:
    """True or False where the table knows; None where it does not."""
    if built(module, name):
        return None
    got = spans(module, name)
    if got is None:
        return None
    read = read_releases()
    entry = table()["modules"][module]
    if entry.get("open") and resolves_in(entry["open"], vllm, read) is not False:
        return None  # a star import there: any name may come through it
    # every package on the way must exist too
    parts = module.split(".")
    for i in range(2, len(parts)):
        above = spans(".".join(parts[:i]), None)
        if above is not None and resolves_in(above, vllm, read) is False:
            return False
    ok = resolves_in(got, vllm, read)
    if ok is False and entry.get("lazy") and resolves_in(entry["lazy"], vllm, read) is not False:
        return None  # the module's __getattr__ may build the name
    return ok


def missing_module(module: str, vllm: str) -> str | None:
    """The first module on the way to `module` (itself included) that `vllm` provably lacks: what
    Python names in `No module named '…'`."""
    parts = module.split(".")
    for i in range(2, len(parts) + 1):
        got = spans(".".join(parts[:i]), None)
        if got is not None and resolves_in(got, vllm, read_releases()) is False:
            return ".".join(parts[:i])
    return None


def first_release(module: str, name: str | None) -> str | None:
    """The first read release where the import works (`>=0.9.0` → 0.9.0)."""
    got = spans(module, name)
    if not got:
        return None
    return got[0].split(",")[0].removeprefix(">=") or None


def judged_module(module: str) -> tuple[str, str | None]:
    """(module, name) to judge for `import module`: the module itself where the table holds it,
    else the deepest package above it that the table holds and the next part as a name of it (a
    submodule is a name of its package): `vllm.model_executor.models.llama` is judged as the name
    `llama` of `vllm.model_executor.models`."""
    mods = table().get("modules") or {}
    if module in mods:
        return module, None
    parts = module.split(".")
    for i in range(len(parts) - 1, 1, -1):
        if ".".join(parts[:i]) in mods:
            return ".".join(parts[:i]), parts[i]
    return module, None


def holders(name: str, vllm: str, limit: int = 12) -> list[str] | None:
    """The modules `name` can be imported from in `vllm`, shortest path first; None when more than
    `limit` do (a name as common as `Optional` moved nowhere in particular)."""
    read = read_releases()
    out = []
    for mod, entry in (table().get("modules") or {}).items():
        for key, names in (entry.get("names") or {}).items():
            if name in names:
                if resolves_in(key.split(" | "), vllm, read) and resolves_in(entry.get("module") or [], vllm, read):
                    out.append(mod)
                break
        if len(out) > limit:
            return None
    return sorted(out, key=lambda m: (m.count("."), m))

