"""vLLM plugins and the flags they add (knowledge/vllm/plugins.yaml): a flag a plugin adds is not a
vLLM option, and a project that installs a plugin may pass flags no vLLM release has."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from vllm_kb.engine.kb import resources, yamlio

# a package named vllm-* / vllm_* written as a word of its own (not the tail of `vllm/vllm-openai`)
# a name a single `=` follows is an environment assignment (`VLLM_USE_PRECOMPILED=1 pip install -e .`), not a package
_PACKAGE = re.compile(r"(?<![\w./:-])vllm[-_]([a-z0-9][a-z0-9_-]*[a-z0-9])(?![\w-])(?!=(?!=))", re.I)


@dataclass(frozen=True)
class Plugin:
    package: str
    flags: frozenset[str]
    markers: frozenset[str]
    images: tuple[str, ...]
    source: str
    env: frozenset[str] = frozenset()  # the VLLM_* variables its own envs.py reads
    env_prefixes: tuple[str, ...] = ()  # a namespace of its own (VLLM_ASCEND_): no vLLM variable lies there
    quantization: frozenset[str] = frozenset()  # the quantization methods it registers
    registers_models: str | None = None  # its vllm.general_plugins entry point that registers model classes
    call_imports: tuple[dict, ...] = ()  # the vLLM modules that entry point imports when vLLM calls it


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, Plugin], frozenset[str]]:
    data = yamlio.load_cached(resources.read_text("knowledge", "vllm", "plugins.yaml")).data
    known = {p["package"]: Plugin(p["package"], frozenset(p["flags"]), frozenset(p["markers"]), tuple(p["images"]), p["source"],
                                  frozenset(p.get("env") or ()), tuple(p.get("env_prefixes") or ()),
                                  frozenset(p.get("quantization") or ()), p.get("registers_models"),
                                  tuple(p.get("call_imports") or ()))
             for p in data["plugins"]}
    return known, frozenset(data["not_plugins"])


def known() -> dict[str, Plugin]:
    return _table()[0]


def _installing(text: str) -> str:
    """A Dockerfile's FROM instructions and the RUN instructions that install (continuation lines joined):
    a CMD's value (`--log-dir vllm_logs`, eval79 yanglinfang/research_chats) installs nothing."""
    out, cur = [], []
    for line in text.splitlines() + [""]:
        cur.append(line)
        if line.rstrip().endswith("\\"):
            continue
        instr, cur = "\n".join(cur), []
        word = instr.split(None, 1)[0].upper() if instr.strip() else ""
        if word == "FROM" or word == "RUN" and "install" in instr.lower():
            out.append(instr + "\n")
    return "".join(out)


def packages_in(text: str, dockerfile: bool = False) -> set[str]:
    """Plugin packages a pin file, Dockerfile or script installs or whose image it runs: every
    vllm-* package name that is not a build of vLLM or a tool, plus a known plugin's image. Of a
    Dockerfile only what its FROM and installing RUN instructions name."""
    table, not_plugins = _table()
    text = _installing(text) if dockerfile else text
    out = set()
    for m in _PACKAGE.finditer(text):
        name = "vllm-" + m.group(1).lower().replace("_", "-")
        if name not in not_plugins and not name.startswith(("vllm-nccl", "vllm-flash")):
            out.add(name)
    low = text.lower()
    for p in table.values():
        if any(f"/{img}:" in low or f"/{img}\n" in low or f"/{img} " in low or f"/{img}@" in low for img in p.images):
            out.add(p.package)
    return out


def images_in(text: str) -> set[str]:
    """The known plugins whose image the text names (a script's `docker run quay.io/ascend/vllm-ascend:v0.10.0rc1 bash`):
    the project's own code runs in that container."""
    low = text.lower()
    return {p.package for p in known().values()
            if any(f"/{img}:" in low or f"/{img}\n" in low or f"/{img} " in low or f"/{img}@" in low for img in p.images)}


def owner(flag: str, installed: set[str] | frozenset[str], passed: set[str]) -> tuple[str, bool] | None:
    """The known plugin that adds `flag` (--long-form), and whether the site uses it: installed
    by the project or named by a marker flag the same launch passes (`--omni`)."""
    for p in known().values():
        if flag in p.flags:
            return p.package, p.package in installed or bool(p.markers & passed)
    return None


def env_owner(name: str, installed: set[str] | frozenset[str]) -> str | None:
    """The known plugin whose own variable `name` is: under its prefix (VLLM_ASCEND_*, whatever the site
    installs), or one its envs.py reads (VLLM_VERSION) where the site uses the plugin."""
    for p in known().values():
        if p.env_prefixes and name.startswith(p.env_prefixes) or name in p.env and p.package in installed:
            return p.package
    return None


def model_registrar(installed: set[str] | frozenset[str]) -> str | None:
    """Where an installed plugin registers model classes with vLLM (`registers_models`: vllm-omni's
    vllm_omni_register_models entry point), for the architecture check's plugin rule; None where none does."""
    return next((f"the {p.package} plugin's vllm.general_plugins entry point {p.registers_models}"
                 for p in known().values() if p.registers_models and p.package in installed), None)
