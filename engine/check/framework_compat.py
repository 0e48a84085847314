"""Whether the framework release a site runs under goes with the vLLM release the project pins,
from knowledge/frameworks/compat.yaml (engine/kb/compat.py): what says the pair does not go
together, and the nearest pair that does — the vLLM release closest to the pinned one that the
framework release accepts, and the framework releases that accept the pinned vLLM."""
from __future__ import annotations

import re
from typing import Any

from vllm_kb.engine.check import framework_copy, framework_git, framework_imports, framework_kwargs, framework_range, memory
from vllm_kb.engine.check.memory.runtime import v1_certain
from vllm_kb.engine.kb import compat, versions
from vllm_kb.engine.kb.versions import contains as spec_contains, try_parse


def _feature_used(row: compat.Row, site, facts: dict) -> bool:
    """A feature-scope break counts only where the site uses that feature."""
    rid = row.raw.get("id")
    if rid in ("trl-vllm-serve-worker-extension", "trl-vllm-serve-v0-worker-on-v1", "trl-vllm-serve-collective-rpc-082",
               "trl-vllm-serve-collective-rpc-pre-070"):
        return site.kind == "trl vllm-serve"
    if rid == "ms-swift-infer-v0-engine-attr":  # VllmEngine._batch_infer_stream: the batch inference of `swift infer`
        return site.framework_command == "infer"
    if rid in ("ms-swift-rollout-worker-extension", "ms-swift-rollout-get-open-port"):
        return site.framework_command == "rollout"
    if rid == "ms-swift-grpo-v0-engine-path":
        # the trainer's own engine, colocated or (before 3.5.0) on the GPUs training leaves: both load
        # weights through the V0 path; only an external rollout server is out of it
        return site.framework_command == "rlhf" and site.mode in ("rlhf_colocate", "standalone_offline")
    if rid == "openrlhf-nccl-cumem-weight-sync":
        # the policy actor sets NCCL_CUMEM_ENABLE=0 only with vLLM engines and the nccl sync backend (its default)
        keys = site.framework_keys or {}
        engines, backend = keys.get("vllm.num_engines"), keys.get("vllm.sync_backend", "nccl")
        return isinstance(engines, int) and not isinstance(engines, bool) and engines > 0 and backend == "nccl"
    if rid in ("llamafactory-multimodal-limit", "easyr1-mm-preprocessor-cache"):
        return framework_kwargs.multimodal(site, facts)
    if rid in ("trl-vllm-serve-dp-dense", "trl-vllm-serve-dp-one-device"):
        dp = site.settings.get("data_parallel_size")
        try:
            many = dp is not None and dp.resolved and int(dp.value) > 1
        except (TypeError, ValueError):
            many = False
        model = facts.get("model") or {}
        # moe is false by default for a model nothing describes: dense only where the catalog or a config says so
        dense = model.get("moe") is False and bool(model.get("family") or model.get("arch_source"))
        return site.kind == "trl vllm-serve" and many and (dense or rid.endswith("one-device"))
    return False


def engine_needed(row: compat.Row, vllm: str, facts: dict) -> bool:
    """A break that needs vLLM's V1 engine (`needs`) holds only where this vLLM runs V1 for the site
    (VLLM_USE_V1=0 before 0.11, or a GPU below compute capability 8.0 before 0.10.2, select V0),
    and for `v1-multiprocessing` only while VLLM_ENABLE_V1_MULTIPROCESSING stays on: without it
    the V1 LLMEngine keeps its model_executor (vllm/v1/engine/llm_engine.py, 0.8.x); `v1-unset`
    only while VLLM_USE_V1 is left unset (a serving package then picks its engine path itself)."""
    need = row.raw.get("needs")
    if not need:
        return True
    env = facts.get("env") or {}
    # VLLM_USE_V1=1 opts 0.6.6-0.7.x into the V1 engine (`AsyncLLMEngine = AsyncLLM`, 0.6.6
    # vllm/engine/async_llm_engine.py:1265), which the memory model does not size
    opted = str(env.get("VLLM_USE_V1", "")).strip() == "1" and versions.contains(">=0.6.6", vllm)
    if not opted and not memory.runtime(vllm, env, (facts.get("gpu") or {}).get("compute_capability"),
                                        architecture=(facts.get("model") or {}).get("architecture")).v1:
        return False
    if need == "v1-unset":
        return "VLLM_USE_V1" not in env
    return need != "v1-multiprocessing" or str(env.get("VLLM_ENABLE_V1_MULTIPROCESSING", "")).strip() != "0"


def _v1_guessed(row: compat.Row, vllm: str, facts: dict) -> compat.Row:
    """A break that needs V1 where V1 is only the default (the GPU or the model that decides it in
    0.8-0.10 not known): marked, so L43 says it at P1."""
    env = facts.get("env") or {}
    if not row.raw.get("needs") or v1_certain(
            vllm, env, (facts.get("gpu") or {}).get("compute_capability"), (facts.get("model") or {}).get("architecture"),
            facts):
        return row
    return compat.Row(row.framework, row.releases, row.vllm, row.kind, {**row.raw, "v1_guess": True})


def _bypassed(text: str, env_name: str, facts: dict) -> bool:
    """LLaMA-Factory's check_version (0.9.2 on) returns at once under DISABLE_VERSION_CHECK=1
    (llamafactory/extras/misc.py, `is_env_enabled`); its bare require_version before never did."""
    value = str((facts.get("env") or {}).get(env_name, "")).strip().lower()
    return bool(env_name) and value in ("1", "true", "y", "yes") and not text.startswith("require_version(")


def _gate_rows(gate, vllm: str, facts: dict) -> list:
    """The vendored copy's own gate as a compat row, when it refuses this vLLM."""
    if gate.allows(vllm) or _bypassed("", gate.bypass_env, facts):
        return []
    return [compat.Row(gate.framework, "", "", "runtime_check", {
        "effect": "error", "scope": "install", "error": gate.message(vllm), "where": gate.where(),
        "source": {"title": f"{gate.framework} copy in this project", "url": gate.where()}})]


def _errors(fid: str, fw: str | None, vllm: str, site, facts: dict, cat=None, gate=None, copy=None) -> list:
    # a pre-release (0.9.2.dev0) is read as the release its line became
    code = compat.code_release(fw) if fw else ""
    rows = compat.problems(fid, code, vllm, "install") if fw else []
    if fw and code != fw and gate is None and copy is None:
        rows = _between(fid, fw, code, vllm, rows)
    if gate is not None:  # the copy in the tree runs its own gate, not the release's declared range and gates
        rows = [r for r in rows if r.kind == "known_break"] + _gate_rows(gate, vllm, facts)
    elif site.framework_fork_vllm:  # the project is the framework's fork and its setup pins vLLM: its own pair
        rows = [r for r in rows if r.kind != "declared"]
    elif fid == "llamafactory":
        rows = [r for r in rows if not (r.kind == "runtime_check" and _bypassed(str(r.raw.get("error", "")), "DISABLE_VERSION_CHECK", facts))]
    if fw:
        rows += _feature_breaks(fid, code, vllm, site, facts)
    rows = [_v1_guessed(r, vllm, facts) for r in rows if engine_needed(r, vllm, facts)]
    if copy is not None:  # a copy in the tree whose code no longer holds a break's cause runs without it
        rows = [r for r in rows if str(r.raw.get("id")) not in copy.cleared]
    if fw and cat is not None:  # the arguments the release passes first: they name the file and line
        # …after the release's own version gate, which raises on import before any argument is passed
        # (verl 0.2's dispatch refuses 0.6.3.post1 before its rollout could pass enable_sleep_mode)
        own = [r for r in rows if r.kind == "runtime_check" and r.effect == "error"]
        commit = getattr(copy, "kwargs", None)  # what the installed git commit itself passes, where read
        kw = framework_kwargs.breaks(fid, fw, vllm, site, facts, cat, commit)
        if commit is not None and copy.moving:  # a branch's newest commit stands for it: a P1 naming the date
            kw = [compat.Row(r.framework, r.releases, r.vllm, r.kind, {**r.raw, "moving": True}) for r in kw]
        rows = own + kw + [r for r in rows if r not in own]
    if fw and code != fw and getattr(copy, "ref", ""):
        # a git commit of a development line (0.17.0.dev0): the rows of the release that line became
        # (its declared range, the arguments it passes) may not hold yet at that commit, a P1 at most;
        # the arguments read from the commit itself hold for it, and so does a row whose releases hold
        # both the release before the line and the one it became: every commit between runs it (as
        # _between reads a dev version without a commit; ms-swift 3.5.0.dev0 at dd37cbb1 with vLLM 0.7.3:
        # `swift rollout` passes worker_extension_cls from 3.4.0 on, ms-swift#4202)
        before = compat.code_releases(fid, fw)[1:]
        span = f"{before[0]} … {code}" if before else code
        mine = kw if fw and cat is not None and getattr(copy, "kwargs", None) is not None else []
        if copy.moving:
            rows = [r if r in mine or _both_ends(r, before, code) else
                    compat.Row(r.framework, r.releases, r.vllm, r.kind, {**r.raw, "between": span}) for r in rows]
        else:
            # a fixed commit: what only one of the releases around it does is no verdict on it, and the
            # range its own setup declares stands for the release's (TinyZero-TRL, eval105: trl at e751a16,
            # 0.17.0.dev0, declares vllm>=0.7.0 and passes worker_cls, which vLLM 0.7.2 takes; 0.17.0's
            # vllm>=0.8.3 and worker_extension_cls gave 7 false P1s)
            rows = [r for r in rows if (r in mine or _both_ends(r, before, code))
                    and not (copy.declared is not None and r.kind == "declared")] + _declared_row(copy, fid, vllm)
    # the imports its adapter runs on load last: a version gate of its own speaks first, in its words;
    # a copy in the tree runs its own imports, not the release's
    if copy is not None:
        rows += framework_copy.breaks(copy, fw, vllm, site)
    elif fw:
        # an attribute only V1's engine lacks holds where the site runs V1 (`needs`)
        rows += [_v1_guessed(r, vllm, facts) for r in framework_imports.breaks(fid, fw, vllm, site) if engine_needed(r, vllm, facts)]
    return rows


# the first release with the command a site runs: an older release is no pair to propose
# (ms-swift 3.4.0 swift/cli/main.py ROUTE_MAPPING adds 'rollout', 3.3.1 has none; trl 0.16.0 trl/cli.py adds vllm-serve)
_COMMAND_SINCE = {("ms-swift", "swift rollout"): "3.4.0", ("trl", "trl vllm-serve"): "0.16.0"}


def _has_command(fid: str, release: str, site) -> bool:
    since = _COMMAND_SINCE.get((fid, site.kind))
    return since is None or not versions.contains(f"<{since}", release)


def _feature_breaks(fid: str, code: str, vllm: str, site, facts: dict) -> list:
    return [r for r in compat.problems(fid, code, vllm, "feature")
            if (r.kind == "known_break" and _feature_used(r, site, facts)) or (r.kind == "runtime_check" and _gate_reached(r, site))]


def _gate_reached(row: compat.Row, site) -> bool:
    """A version gate the framework runs only for some launches (`when` on its framework keys: ms-swift
    2.2.x checks vllm>=0.5 only for the model types with a vllm_config); a key not read reaches none."""
    keys, when = site.framework_keys or {}, row.raw.get("when") or {}
    return bool(when) and all(str(keys.get(k, "")).lower() in [str(v).lower() for v in vals] for k, vals in when.items())


def _between(fid: str, fw: str, code: str, vllm: str, rows: list) -> list:
    """A development build (0.9.1.dev0) runs the range check of its commit, which lies between the
    release before its line and the release the line became: where both refuse this vLLM, so does
    every commit; where only one does, the rows are marked `between` (which commit decides)."""
    before = compat.code_releases(fid, fw)[1:]
    if not before:
        return rows
    prev = compat.problems(fid, before[0], vllm, "install")
    if bool(rows) == bool(prev):
        return rows
    span = f"{before[0]} … {code}"
    return [compat.Row(r.framework, r.releases, r.vllm, r.kind, {**r.raw, "between": span}) for r in rows or prev]


def _declared_row(copy, fid: str, vllm: str) -> list:
    """The range a git commit's own setup declares, as a row, where it does not take this vLLM."""
    if copy.declared is None or versions.contains(copy.declared, vllm):
        return []
    return [compat.Row(fid, "", copy.declared, "declared", {"commit_declared": True, "source": {"title": copy.label}})]


def _both_ends(row: compat.Row, before: list, code: str) -> bool:
    """A row with a release range (not a copy's own gate) that covers the release before a development
    line and the release the line became."""
    return bool(before and row.releases and row.covers(before[0]) and row.covers(code))


def _fits(fid: str, fw: str | None, vllm: str, site, facts: dict, cat=None, gate=None, copy=None) -> bool:
    return not _errors(fid, fw, vllm, site, facts, cat, gate, copy)


def framework_compat(site, facts: dict, cat, pin, gate=None, copy=None) -> dict[str, Any]:
    """`fw_*` launch facts for a framework site whose framework and vLLM are both pinned.
    `pin`: the framework's own pin (scan/pins.Pin) for the site's folder; `gate`: the version gate
    of a copy of the framework inside the tree (scan/vendored.Gate), which is what runs; `copy`:
    that copy's vLLM imports (scan/framework_source.SourceCopy), which run instead of a release's."""
    fid = site.framework
    vllm = (facts.get("vllm") or {}).get("version")
    copy = copy or framework_git.copy_for(pin)  # a framework installed from git at a commit or a branch
    if fid in (None, "none") or (pin is None and gate is None and copy is None) or not (facts.get("vllm") or {}).get("pinned"):
        return {}
    fw = (gate.version if gate is not None and (pin is None or getattr(pin, "own", False) or not pin.exact) else None) \
        or (pin.exact if pin is not None else None)
    fw = fw or (copy.version if copy is not None else None)
    if fw and try_parse(fw) is None:
        fw = None
    if vllm and not fw and gate is None and copy is None and site.framework_spec:
        return _range(site, facts, cat, pin, vllm)
    if not vllm or (not fw and gate is None and copy is None):
        return {}
    shown = fw or f"({(gate or copy).package}/)"
    if copy is not None and copy.ref:  # installed from git: the ref, beside the version its commit says
        shown = f"{fw} ({copy.ref})" if fw else copy.ref
    return _pair(site, facts, cat, pin, fw, shown, vllm, gate, copy)


def _range(site, facts: dict, cat, pin, vllm: str) -> dict[str, Any]:
    """A framework pin that allows a range (`trl>=0.14.0`): every release it allows (beside this vLLM, where
    its vllm extra is installed: engine/check/framework_range.py) is a pair of its own. Where each of them
    refuses this vLLM, the newest stands for them (a fresh install resolves it); where only some do, the
    newest of those, said at P1 with the releases that refuse (`fw_problem` range)."""
    span = framework_range.releases(site, vllm)
    extra = "vllm" in getattr(pin, "extras", ())
    fails = [r for r in span if refuses(site, r, vllm, facts, cat, extra)]
    if not fails:
        return {}
    shown = f"{span[0]}–{span[-1]} (`{site.framework_range}`)" if len(span) > 1 else span[0]
    if len(fails) == len(span):
        return _pair(site, facts, cat, pin, fails[-1], shown, vllm)
    out = _pair(site, facts, cat, pin, fails[-1], fails[-1], vllm)
    if out.get("fw_problem") not in ("error", "declared"):
        return {}
    out.update(fw_problem="range", fw_range_pin=site.framework_range, fw_range_span=f"{span[0]}–{span[-1]}",
               fw_range_fails=framework_range.runs(span, fails), fw_range_newest_fails=span[-1] in fails)
    return out


def refuses(site, release: str, vllm: str, facts: dict, cat, extra: bool = False) -> bool:
    """Whether this framework release stops the launch beside the pinned vLLM (its own gate, a known break,
    an argument it passes that vLLM lacks); `extra`: installed with its vllm extra, whose declared range pip keeps."""
    return any(x.effect == "error" and not x.raw.get("after_start") and not x.raw.get("v1_guess") or extra and x.kind == "declared"
               for x in _errors(site.framework, release, vllm, site, facts, cat))


def _pair(site, facts: dict, cat, pin, fw: str | None, shown: str, vllm: str, gate=None, copy=None) -> dict[str, Any]:
    """The `fw_*` facts of one framework release (or copy) beside the pinned vLLM."""
    fid = site.framework
    extras = frozenset(getattr(pin, "extras", ()))
    out: dict[str, Any] = {"fw_release": shown, "fw_extra": "vllm" in extras}
    # pip holds the pair to the range only where the release's metadata requires vLLM under an extra the pin
    # names, or outright: ms-swift's README table and LLaMA-Factory 0.9.4's example file bind nothing
    if fw and gate is None and copy is None and not site.framework_fork_vllm:
        out["fw_pip_refuses"] = not compat.installs_beside(fid, compat.code_release(fw), vllm, extras)
    elif copy is not None and copy.declared is not None and not copy.moving:  # a fixed commit's own setup, with the extra
        out["fw_pip_refuses"] = "vllm" in extras and not spec_contains(copy.declared, vllm)
    declared = [r.vllm for r in compat.rows() if fw and gate is None and not site.framework_fork_vllm and r.framework == fid and r.kind == "declared"
                and r.covers(compat.code_release(fw)) and r.vllm]
    own = copy.declared if copy is not None and not copy.moving else None  # a fixed commit's own setup
    if own or declared:
        out["fw_declared"] = own or declared[0]
    rows = _errors(fid, fw, vllm, site, facts, cat, gate, copy)
    if not rows:
        return out
    # a branch's newest known commit stands for whatever was installed from it: a P1 that names the date
    moving = [r for r in rows if r.raw.get("moving")]
    placed = [r for r in rows if not r.raw.get("moving") and not r.raw.get("between")]
    # a break the framework meets only once the engine runs (its first batch): the launch starts, a P1
    later = [r for r in placed if r.effect == "error" and r.raw.get("after_start")]
    guessed = [r for r in placed if r.effect == "error" and r.raw.get("v1_guess") and r not in later]
    hard = [r for r in placed if r.effect == "error" and r not in later and r not in guessed]
    reported = [r for r in placed if r.kind == "known_break" and r not in later]
    between = sorted((r for r in rows if r.raw.get("between")), key=lambda r: r.effect != "error")
    out["fw_problem"] = "error" if hard else ("moving" if moving else "between" if between else "after_start" if later
                                              else "v1_guess" if guessed else "reported" if reported else "declared")
    r = (hard or moving or between or later or guessed or reported or rows)[0]
    if r.raw.get("between"):
        out["fw_between"] = r.raw["between"]
    text = str(r.raw.get("error") or f"{fid} {fw} declares vllm{r.vllm}")
    # {package_version} → the pinned one; the sentence the message sits in brings its own full stop
    out["fw_problem_text"] = re.sub(r"\{[^{}]*version[^{}]*\}", vllm, text).rstrip(".")
    out["fw_problem_text_zh"] = re.sub(r"\{[^{}]*version[^{}]*\}", vllm, _zh_text(r, fid, fw)).rstrip(".。")
    out["fw_problem_source"] = str((r.raw.get("source") or {}).get("url") or "")
    versions = [str(v) for v in cat.versions]
    here = cat.index_version(vllm)
    ok = [v for v in versions if _fits(fid, fw, v, site, facts, cat, gate, copy)]
    # among them, those that also implement the model's architecture (L21): a pin the framework
    # takes but the model does not run on would only trade one refusal for another
    runs = [v for v in ok if _runs_model(facts, v)]
    ok = runs or ok
    if ok:
        at = versions.index(str(here))
        # the closest release, a newer one on a tie (breaks are fixed forward more often)
        best = min(ok, key=lambda v: (abs(versions.index(v) - at), versions.index(v) < at))
        out["fw_fit_vllm"] = "==" + best
    # releases whose adapter also passes only what this vLLM takes
    good = [v for v in compat.supporting(fid, vllm, at_least=None)
            if not framework_kwargs.breaks(fid, v, vllm, site, facts, cat) and not framework_imports.breaks(fid, v, vllm, site)
            and not [r for r in _feature_breaks(fid, v, vllm, site, facts) if engine_needed(r, vllm, facts)] and _has_command(fid, v, site)]
    if not good and fw and gate is None and copy is None and not out["fw_extra"]:
        good = _undeclared(site, fw, vllm, facts, cat)
    if good:
        out["fw_fit_framework"] = "==" + _nearest_release(good, fw or good[-1])
    if fw and "fw_fit_framework" in out:
        out["fw_fit_first"] = _first(fid, fw, out["fw_fit_framework"][2:], vllm, out.get("fw_fit_vllm"), versions)
    return out


def _zh_text(r: compat.Row, fid: str, fw: str | None) -> str:
    """The problem as a Chinese report says it: a row's own `error_zh`; else the raised error
    verbatim, without the English explanation after it (eval105: L43's zh text kept whole English
    sentences); a declared range in Chinese."""
    if r.raw.get("error_zh"):
        return str(r.raw["error_zh"])
    if not r.raw.get("error"):
        return f"{fid} {fw} 声明依赖 vllm{r.vllm}"
    return str(r.raw["error"]).split(" — ", 1)[0]


def _undeclared(site, fw: str, vllm: str, facts: dict, cat) -> list[str]:
    """Newer releases whose only word against this vLLM is the range their vllm extra declares, where the
    site installs the framework without that extra (pip then does not hold it to the range): OpenRLHF 0.9.5's
    extra pins vllm==0.17.0, and its code is the fix for 0.9.4's break with 0.16 (OpenRLHF #1193)."""
    cur = try_parse(compat.code_release(fw))
    out = []
    for v in compat.releases(site.framework):
        pv = try_parse(v)
        if cur is None or pv is None or pv <= cur or compat.code_release(v) != v or not _has_command(site.framework, v, site):
            continue
        rows = _errors(site.framework, v, vllm, site, facts, cat)
        if rows and all(r.kind == "declared" for r in rows):
            out.append(v)
    return out


def _first(fid: str, fw: str, fit_fw: str, vllm: str, fit_vllm: str | None, versions: list[str]) -> str:
    """Which change L43 proposes first. A later framework release, where vLLM would move back or move on by a
    larger step (more major.minor lines crossed, then more releases, each on its own package's list; the
    framework on a tie: it keeps the vLLM every other check judged the site against); an older framework
    release only as the alternative (a break is fixed in a later release, and a downgrade drops what the
    project may use). verl 0.8.0 on vLLM 0.25.1: verl 0.9.0, not vLLM 0.12.0; trl 0.17.0 on vLLM 0.7.3:
    vLLM 0.8.3, trl 0.16.1 the alternative."""
    if not fit_vllm:
        return "framework"
    cur_fw, cur_v, to_v = compat.code_release(fw), str(vllm), fit_vllm.lstrip("=")
    if not _parse_or(fit_fw) > _parse_or(cur_fw):
        return "vllm"
    if _parse_or(to_v) < _parse_or(cur_v):
        return "framework"
    fits = [r for r in compat.releases(fid) if try_parse(r) is not None]
    fw_step = (_lines(cur_fw, fit_fw), abs(_index(fits, fit_fw) - _index(fits, cur_fw)))
    v_step = (_lines(cur_v, to_v), abs(_index(versions, to_v) - _index(versions, cur_v)))
    return "vllm" if v_step < fw_step else "framework"


def _lines(a: str, b: str) -> int:
    """How many major.minor release lines lie between two releases (0.9.1 → 0.9.2: 0; 0.12.0 → 0.24.0: 12)."""
    pa, pb = (_parse_or(x).release[:2] for x in (a, b))
    if pa[0] != pb[0]:
        return 100 * abs(pa[0] - pb[0])
    return abs(pa[1] - pb[1]) if len(pa) > 1 and len(pb) > 1 else 0


def _parse_or(v: str):
    return try_parse(v) or try_parse("0")


def _index(seq: list[str], v: str) -> int:
    """Where a release sits among the known ones (an unknown one: where it would be inserted)."""
    pv = _parse_or(v)
    return sum(1 for x in seq if _parse_or(x) < pv)


def _runs_model(facts: dict, version: str) -> bool:
    from vllm_kb.engine.check.startup_arch import arch_facts
    from vllm_kb.engine.kb.knowledge import load

    table = load().doc("vllm", "architectures.yaml").data
    return arch_facts(facts.get("model") or {}, table, version).get("arch_registered") is not False


def _nearest_release(options: list[str], current: str) -> str:
    cur = try_parse(current)
    parsed = [(v, try_parse(v)) for v in options]
    newer = [v for v, pv in parsed if pv is not None and cur is not None and pv >= cur]
    return newer[0] if newer else options[-1]
