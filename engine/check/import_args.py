"""Launch arguments whose value vLLM imports by dotted path, or loads by file path, at start-up (check L289).

What each release does with the value (read in /work/sdists/src/<release>/):
- `--middleware a.b.c` (0.3.0+): build_app splits on the last dot and runs
  `getattr(importlib.import_module("a.b"), "c")` before the server listens (0.3.0 vllm/entrypoints/openai/api_server.py:199,
  0.9.0.1 :1130, 0.28.0 :316; 0.29.0-0.34.0 vllm/entrypoints/serve/middleware/register.py:67).
- `worker_cls` (0.6.5+, "auto" is the platform's own) and `worker_extension_cls` (0.8.0+): each worker resolves them with
  resolve_obj_by_qualname — import_module of the part before the last dot, getattr of the rest (0.8.0
  vllm/worker/worker_base.py:558/572, 0.34.0 vllm/v1/worker/worker_base.py:315/327).
- `scheduler_cls` (0.7.3+): the engine core resolves a string the same way (0.9.0.1 vllm/v1/engine/core.py:87; 0.34.0
  vllm/config/scheduler.py:291). vLLM's own default "vllm.core.scheduler.Scheduler" is swapped for the V1 scheduler
  by EngineArgs (0.9.0.1 vllm/engine/arg_utils.py:1472), so that value is never judged.
- `distributed_executor_backend` given as a class path (0.10.2+): resolve_obj_by_qualname (0.34.0
  vllm/v1/executor/abstract.py:94); the named backends (ray, mp, uni, external_launcher) import nothing.
- `logits_processors` (0.10.1+): each `module:Class` string is imported when the model runner builds its processors
  (0.10.1 vllm/v1/sample/logits_processor/__init__.py:115, a RuntimeError wrapping the ModuleNotFoundError).
- `--tool-parser-plugin` (0.6.3+) and `--reasoning-parser-plugin` (0.11.1+): a file path; a failed import is only
  logged ("Failed to load module …", 0.9.0.1 vllm/entrypoints/openai/tool_parsers/abstract_tool_parser.py:158-163,
  0.34.0 vllm/utils/import_utils.py:88-98), and the parser it would register is then unknown: never a P0 here.

A value under `vllm.` is judged against vLLM's importable modules and names per release
(knowledge/frameworks/vllm_symbols.json, the table L139 reads): P0 only where every release the site may run
(the pin, the image tag) lacks it — and for a module no release ever had (projects drop their own modules
into vLLM's tree: a fork, an overlay copied into site-packages), only in the stock vllm/vllm-openai image with
nothing mounted over its packages; a project holding the module's file itself is a fork and not judged. Any other value names the project's own code or an installed package: a P1 when
the project holds no such module or file, nothing when it does."""
from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from vllm_kb.engine.kb import vllm_symbols
from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan.site import Setting, Site

# argument → (first release that imports it, how: "qualname" a.b.C, "colon" a.b:C, "file" a path)
ARGS: dict[str, tuple[str, str]] = {
    "middleware": ("0.3.0", "qualname"),
    "worker_cls": ("0.6.5", "qualname"),
    "worker_extension_cls": ("0.8.0", "qualname"),
    "scheduler_cls": ("0.7.3", "qualname"),
    "distributed_executor_backend": ("0.10.2", "qualname"),
    "logits_processors": ("0.10.1", "colon"),
    "tool_parser_plugin": ("0.6.3", "file"),
    "reasoning_parser_plugin": ("0.11.1", "file"),
}
_STOCK = re.compile(r"^(?:docker\.io/)?vllm/vllm-openai(?:-rocm|-cpu)?:")
# values vLLM treats as its own and never imports as written
_SKIP = {"worker_cls": {"auto"}, "scheduler_cls": {"vllm.core.scheduler.Scheduler"},
         "distributed_executor_backend": {"ray", "mp", "uni", "external_launcher"}}


def _values(s: Setting) -> list[str]:
    v = s.value
    items = v if isinstance(v, (list, tuple)) else [v]
    return [x.strip() for x in items if isinstance(x, str) and x.strip()]


def _split(value: str, how: str) -> tuple[str, str] | None:
    if how == "colon":
        if value.count(":") != 1:
            return None
        module, name = value.split(":")
        return (module, name.split(".")[0]) if module and name else None
    if "." not in value or ":" in value or "/" in value:
        return None
    module, name = value.rsplit(".", 1)
    return (module, name) if module and name else None


def _missing(module: str, release: str) -> str | None:
    """The first module on the way to `module` that `release` lacks; "" when every one is there; None where the
    table cannot tell. The table holds every module of every release but the model files, so a path it never
    saw is a module no release had."""
    read = vllm_symbols.read_releases()
    parts = module.split(".")
    for i in range(2, len(parts) + 1):
        prefix = ".".join(parts[:i])
        if vllm_symbols.built(prefix) or prefix.startswith("vllm.model_executor.models."):
            return None
        got = vllm_symbols.spans(prefix, None)
        if got is None:
            return prefix
        inside = vllm_symbols.resolves_in(got, release, read)
        if inside is None:
            return None
        if inside is False:
            return prefix
    return ""


def _vllm_fails(module: str, name: str, release: str) -> str | None:
    """Python's error where `release` provably lacks the module or the name; None where it has both or the
    table cannot tell."""
    gone = _missing(module, release)
    if gone:
        return f"ModuleNotFoundError: No module named '{gone}'"
    if gone == "" and vllm_symbols.resolves(module, name, release) is False \
            and vllm_symbols.spans(f"{module}.{name}", None) is None:
        return f"AttributeError: module '{module}' has no attribute '{name}'"
    return None


def _project_has_module(module: str, tops: frozenset[str], ending) -> tuple[bool, bool]:
    """(the first part is a module of the project, the project holds the module itself)."""
    path = module.replace(".", "/")
    has = bool(ending(path + ".py") or ending(path + "/__init__.py"))
    return module.split(".")[0] in tops, has


def _shown(s: Setting, value: str) -> str:
    key = s.key or s.name
    spelled = f"{key} {value}" if key.startswith("-") else f"{key}={value!r}"
    return f"`{spelled}` ({s.file}:{s.line})" if s.file else f"`{spelled}`"


def import_arg_facts(site: Site, version: str, certain: list[str], tops: frozenset[str], ending) -> dict[str, Any]:
    """`launch.import_arg*` for the first argument whose value fails to import (L289). `certain`: the releases
    a failure must hold in to be certain (engine/check/project_facts.py _certain); `tops` the project's top-level
    module names, `ending` its files ending with a path."""
    v = try_parse(version)
    if v is None:
        return {}
    for name, (since, how) in ARGS.items():
        s = site.settings.get(name)
        if s is None or not s.resolved or s.implied or v < try_parse(since):  # type: ignore[operator]
            continue
        for value in _values(s):
            if value in _SKIP.get(name, ()):
                continue
            got = _judge(name, value, how, version, certain, tops, ending, site.image,
                         str((site.container or {}).get("mounts") or ""))
            if got:
                return {"import_arg": _shown(s, value), "import_arg_name": name} | got
    return {}


def _patched(module: str, ending) -> bool:
    """The project holds the module's file itself: a vLLM fork or an overlay it copies in."""
    path = module.replace(".", "/")
    return bool(ending(path + ".py") or ending(path + "/__init__.py"))


def _stock_image(image: str | None, mounts: str) -> bool:
    return bool(image and _STOCK.match(image)) and not any(w in mounts for w in ("packages", "/vllm"))


def _judge(name: str, value: str, how: str, version: str, certain: list[str], tops, ending,
           image: str | None = None, mounts: str = "") -> dict[str, Any]:
    if how == "file":
        if "/" not in value and not value.endswith(".py"):
            return {}  # a module name (0.34.0's import_plugin tries import_module first): an installed package's
        base = PurePosixPath(value).name
        if ending(base):
            return {}
        return {"import_arg_kind": "plugin", "import_arg_error": f"Failed to load module '{base[:-3] if base.endswith('.py') else base}' from {value}"}
    parts = _split(value, how)
    if parts is None:
        return {}
    module, attr = parts
    if module == "vllm" or module.startswith("vllm."):
        error = _vllm_fails(module, attr, version)
        if error is None or _patched(module, ending):
            return {}
        sure = bool(certain) and all(_vllm_fails(module, attr, r) is not None for r in certain)
        out: dict[str, Any] = {"import_arg_kind": "vllm", "import_arg_error": error}
        gone = _missing(module, version)
        if gone and vllm_symbols.spans(gone, None) is None:
            # no release ever had it: projects drop their own modules into vLLM's tree (a fork, an overlay
            # copied into site-packages: `--scheduler-cls vllm.v1.core.sched.tau_batch.TauScheduler`), so
            # only the stock image, with nothing mounted over its packages, certainly lacks it
            out["import_arg_never"] = True
            sure = sure and _stock_image(image, mounts)
        out["import_arg_certain"] = sure
        spans = vllm_symbols.spans(module, attr) or vllm_symbols.spans(module, None)
        if spans:
            out["import_arg_have"] = " or ".join(spans)
        return out
    own_top, has = _project_has_module(module, tops, ending)
    if has:
        return {}
    return {"import_arg_kind": "project" if own_top else "installed",
            "import_arg_error": f"ModuleNotFoundError: No module named '{module}'"}
