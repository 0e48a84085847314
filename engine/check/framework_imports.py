"""vLLM names a framework release imports on its rollout / server path that the pinned vLLM release
does not have (knowledge/frameworks/vllm_imports.yaml, read from each release's wheel against
vLLM's sources of every release): Python raises `ImportError: cannot import name 'X' from
'vllm.…'` (or `No module named 'vllm.…'`) when the framework loads its vLLM adapter, before an
engine is built. Returned as compat rows so the L43 check and the nearest-pair search treat them
like any other known break."""
from __future__ import annotations

from typing import Any, Callable

from vllm_kb.engine.kb import compat, versions, vllm_symbols
from vllm_kb.engine.kb import plugins as kb_plugins
from vllm_kb.engine.kb.versions import try_parse


def _value(site, key: str):
    v = (site.framework_keys or {}).get(key)
    if v is None:
        s = (site.settings or {}).get(key)
        v = getattr(s, "value", None) if s is not None and getattr(s, "resolved", True) else None
    return v


def verl_mode(site, fw: str) -> str | None:
    """verl's rollout mode: the site's own `rollout.mode`, else the release's default (framework
    catalog: verl/trainer/config/rollout/rollout.yaml — sync until 0.6.x, async from 0.7.0)."""
    mode = _value(site, "actor_rollout_ref.rollout.mode")
    if mode is not None:
        return str(mode)
    hist = compat.key_history("verl", "actor_rollout_ref.rollout.mode") or {}
    current = None
    for since, value in (hist.get("default") or {}).get("changes") or []:
        pv, ps = try_parse(fw), try_parse(since)
        if pv is not None and ps is not None and pv >= ps:
            current = value
    return current


def entry_loaded(fid: str, entry: str, site, fw: str) -> bool:
    """Whether the site's path loads this entry module (TRL's server or trainer; verl's async server)."""
    if fid == "trl":
        return (entry == "trl vllm-serve") == (site.kind == "trl vllm-serve")
    if fid == "verl" and entry == "async":
        return verl_mode(site, fw) == "async"
    if entry == "llm":  # Xinference's engine for a language model (model/llm/vllm/core.py)
        return str((getattr(site, "launch", None) or {}).get("model_type", "")).lower() in ("", "llm")
    if entry == "omni cli":  # `vllm serve --omni` runs vllm-omni's own CLI and server modules
        return "omni" in (getattr(site, "unknown", None) or {})
    return entry in ("rollout", "plugin", "kv connector", "backend")


# a package named otherwise than its PyPI distribution: Triton's vLLM backend, by Triton release
_WHO = {"triton": "Triton's vLLM backend"}


def _url(fid: str, pkg: str, file: str) -> str:
    if fid == "triton":  # the rYY.MM branch of triton-inference-server/vllm_backend
        return f"https://github.com/triton-inference-server/vllm_backend/blob/{pkg.split('==')[1]}/{file}"
    return f"https://pypi.org/project/{pkg.replace('==', '/')}/"


def breaks(fid: str, fw: str, vllm: str, site) -> list[compat.Row]:
    """One row per import on this site's path that does not resolve in `vllm`: those its adapter runs
    on load, then those inside the functions each run calls (vllm_uses.yaml)."""
    return _load_breaks(fid, fw, vllm, site) + _call_breaks(fid, fw, vllm, site)


def _load_breaks(fid: str, fw: str, vllm: str, site) -> list[compat.Row]:
    table = compat.vllm_imports()
    read = [str(v) for v in table.get("vllm_releases") or []]
    out: list[compat.Row] = []
    rows = [r for code in compat.code_releases(fid, fw) for r in compat.vllm_import_rows(fid, code)]
    for row in rows:
        for imp in row.get("imports") or []:
            if not entry_loaded(fid, imp["entry"], site, fw) or vllm_symbols.resolves_in(imp["vllm"], vllm, read) is not False:
                continue
            if imp["entry"] == "omni cli" and not versions.contains(">=0.20.0", vllm):
                continue  # vLLM's own `vllm` command hands `--omni` to the plugin's CLI from 0.20.0 only
            mod, _, name = imp["import"].rpartition(".")
            where = f"{imp['file']}:{imp['line']}"
            pkg = row["source"]
            spans = " or ".join(imp["vllm"])
            gone = vllm_symbols.missing_module(mod, vllm)
            raised, what = (f"ModuleNotFoundError: No module named '{gone}'", f"{name} from {mod}") if gone else \
                (f"ImportError: cannot import name '{name}' from '{mod}'", "it")
            out.append(compat.Row(fid, row["releases"], "", "known_break", {
                "id": f"{fid}-imports-{imp['import']}", "effect": "error", "scope": "install",
                "error": (f"{raised} — {_WHO.get(fid, pkg.split('==')[0])} {row['releases']} "
                          f"imports {what} ({where}){_gated(imp, spans)}"),
                "where": f"{pkg} {where}",
                "source": {"title": f"{pkg} {imp['file']}", "url": _url(fid, pkg, imp["file"])}}))
            break  # one per row is enough to name the break
    return out


def _gated(imp: dict, spans: str) -> str:
    """Where the import works: a gated one (`if vLLM >= 0.8.3:`) also where its gate keeps it from running."""
    if imp.get("gate"):
        return f" when vLLM is {','.join(imp['gate'])}; it loads with vLLM {spans}"
    return f"; vLLM has it in releases {spans}"


# when a function-level import runs, as its message says (tools/framework_vllm_uses.py `when`)
_WHEN = {"launch": "which runs at launch, before the engine serves",
         "after_start": "which runs once the engine serves (its first request, rollout or weight sync)"}


def _call_breaks(fid: str, fw: str, vllm: str, site) -> list[compat.Row]:
    """The imports inside the functions each run of the adapter calls, and the attributes they read on
    vLLM's engine objects, that `vllm` lacks: one row for the first that refuses the launch and one for
    the first that fails after it starts (`after_start`: framework_compat makes it a P1). An attribute
    only V1's engine lacks carries `needs: v1-engine` (framework_compat.engine_needed)."""
    read = [str(v) for v in compat.vllm_uses().get("vllm_releases") or []]
    out: list[compat.Row] = []
    seen: set[str] = set()
    for row in [r for code in compat.code_releases(fid, fw) for r in compat.vllm_use_rows(fid, code)]:
        for use in sorted(row.get("uses") or [], key=lambda u: u["when"] != "launch"):
            if use["when"] in seen or not entry_loaded(fid, use["entry"], site, fw) or \
                    vllm_symbols.resolves_in(use["vllm"], vllm, read) is not False:
                continue
            v0 = vllm_symbols.resolves_in(use["v0"], vllm, read) if "v0" in use else False
            if v0 is None:
                continue
            seen.add(use["when"])
            where = f"{use['file']}:{use['line']}"
            pkg = row["source"]
            raw = {"id": f"{fid}-calls-{use.get('import') or use.get('attribute') or use['call']}", "effect": "error", "scope": "install",
                   "after_start": use["when"] == "after_start", "where": f"{pkg} {where}",
                   "source": {"title": f"{pkg} {use['file']}", "url": _url(fid, pkg, use["file"])}}
            spans = " or ".join(use["vllm"])
            if "call" in use:
                raw["error"] = _call_error(use, vllm, read, pkg, row["releases"], where, spans)
            elif "attribute" in use:
                owner, *hops = use["attribute"].split(".")
                cls = "LLMEngine" if owner == "LLM" and len(hops) > 1 else \
                    _ENGINE_CLASS.get(owner, owner) if versions.contains(">=0.6.6", vllm) else owner
                raw["error"] = (f"AttributeError: '{cls}' object has no attribute '{hops[-1]}' — {pkg.split('==')[0]} {row['releases']} "
                                f"reads {use['attribute']} in {use['function']} ({where}), {_WHEN[use['when']]}; vLLM's engine has it in releases {spans}")
                if v0:  # V0's engine has it: only a site on the V1 engine meets the miss
                    raw["needs"] = "v1-engine"
            else:
                mod, _, name = use["import"].rpartition(".")
                gone = vllm_symbols.missing_module(mod, vllm)
                raised, what = (f"ModuleNotFoundError: No module named '{gone}'", f"{name} from {mod}") if gone else \
                    (f"ImportError: cannot import name '{name}' from '{mod}'", "it")
                raw["error"] = (f"{raised} — {pkg.split('==')[0]} {row['releases']} imports {what} inside {use['function']} "
                                f"({where}), {_WHEN[use['when']]}; vLLM has it in releases {spans}")
            out.append(compat.Row(fid, row["releases"], "", "known_break", raw))
    return out


def _call_error(use: dict, vllm: str, read: list[str], pkg: str, releases: str, where: str, spans: str) -> str:
    """Python's TypeError for a call of a vLLM function the release's signature refuses
    (vllm_uses.yaml `call`, tools/framework_vllm_calls.py): an unexpected keyword, too many positional
    arguments, or a required one missing."""
    what = next((k for k, at in (use.get("refused") or {}).items() if vllm_symbols.resolves_in(at, vllm, read)), "")
    kind, _, arg = what.rpartition(" ")
    fn = use["call"].rpartition(".")[2]
    if kind == "unbound":  # imported under `try … except ModuleNotFoundError: pass`, and that import failed
        return (f"NameError: name '{arg}' is not defined — {pkg.split('==')[0]} {releases} imports {use['call']} at load under "
                f"a try that passes over a missing module, then calls it in {use['function']} ({where}), {_WHEN[use['when']]}; "
                f"the import works in vLLM releases {spans}")
    raised = f"TypeError: {fn}() got an unexpected keyword argument '{arg}'" if kind == "keyword" else \
        f"TypeError: {fn}() takes {arg.partition('>')[2]} positional arguments but {arg.partition('>')[0]} were given" \
        if kind == "positional" else \
        f"TypeError: {fn}() missing 1 required {kind.split()[-1]} argument: '{arg}'"
    return (f"{raised} — {pkg.split('==')[0]} {releases} calls vLLM's {use['call']} in {use['function']} ({where}), "
            f"{_WHEN[use['when']]}; vLLM's signature takes that call in releases {spans}")


# the class an engine binding holds under V1 (vLLM's default from 0.8.0, the only engine from 0.11.0)
_ENGINE_CLASS = {"AsyncLLMEngine": "AsyncLLM"}


def plugin_compat(site, facts: dict, pin_of: Callable[[str], Any]) -> dict[str, Any]:
    """`plugin_*` launch facts: a vLLM plugin the site uses (it passes the plugin's options) whose
    pinned release imports a vLLM name the pinned vLLM lacks. vLLM logs a plugin that fails to load
    and starts without it, so its options are then unknown (`unrecognized arguments: --omni`)."""
    v = facts.get("vllm") or {}
    vllm = v.get("version")
    if not vllm or not v.get("pinned"):
        return {}
    passed = {"--" + k.replace("_", "-") for k in (site.unknown or {})}
    read = [str(x) for x in compat.vllm_imports().get("vllm_releases") or []]
    for pkg in sorted(site.plugins or ()):
        plugin = kb_plugins.known().get(pkg)
        pin = pin_of(pkg) if plugin is not None and passed & plugin.flags else None
        rel = getattr(pin, "exact", None)
        if not rel or try_parse(rel) is None:
            continue
        rows = _plugin_breaks(pkg, rel, vllm, site)
        if not rows:
            continue
        out = {"plugin": pkg, "plugin_release": rel, "plugin_problem_text": str(rows[0].raw["error"])}
        if pkg == "vllm-omni" and "--omni" in passed and versions.contains(">=0.20.0", vllm):
            # vLLM hands `--omni` to the plugin's CLI (vllm/entrypoints/cli/main.py), which imports the
            # plugin's package first: any break stops the command itself, not only the plugin's load
            out["plugin_entry"] = "omni cli"
        ok = [x for x in read if not _plugin_breaks(pkg, rel, x, site)]
        if ok:
            # the plugin's own version names the vLLM it was built for (vllm-omni 0.14.0 ↔ vLLM 0.14.0)
            here = try_parse(vllm)
            out["plugin_fit_vllm"] = "==" + (rel if rel in ok else min(ok, key=lambda x: abs(read.index(x) - _index(read, here))))
        return out
    return {}


def _plugin_breaks(pkg: str, rel: str, vllm: str, site) -> list[compat.Row]:
    """The imports that do not resolve, then the pairs reported to fail (compat.yaml hand rows)."""
    return breaks(pkg, rel, vllm, site) + [r for r in compat.problems(pkg, rel, vllm) if r.kind == "known_break"]


def _index(read: list[str], version) -> int:
    """Where a version falls among the read releases."""
    return sum(1 for x in read if try_parse(x) is not None and version is not None and try_parse(x) < version)
