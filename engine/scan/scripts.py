"""Shell scripts → sites: every `vllm serve …` / `python -m vllm.entrypoints.openai.api_server …`
command, with the script's exported env vars and its `--config` file merged in."""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from vllm_kb.engine.kb.knowledge import FixOp
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan import argv_entry, kv_positional, shell_choices, switch_value, entry_env, entry_flags, entry_installs, evalscope_launch, fw_launch, mounted_config, script_installs, serve_config, shell_prefix, tool_launch, xinference_rest
from vllm_kb.engine.scan import images as deploy_common
from vllm_kb.engine.scan.cli_args import ArgParser, args_from_words, coerce
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.launchers import executable_release, find_launch, gpu_count_idiom, program_start
from vllm_kb.engine.scan.script_frameworks import framework_launch_site
from vllm_kb.engine.scan import shell_flat
from vllm_kb.engine.scan.shell import Command, ShellSyntaxError
from vllm_kb.engine.scan.shell_budget import TooComplex
from vllm_kb.engine.scan.shell_builtins import command_env, env_setting
from vllm_kb.engine.scan.shell_run import Candidate, Runner
from vllm_kb.engine.scan.site import Finding, Setting, Site

SHELL_SUFFIXES = {".sh", ".bash", ".zsh", ".ksh", ".slurm", ".sbatch", ".pbs", ".bsub"}
# batch-job files of HPC schedulers, shell scripts only where their shebang says so (sbatch wants one)
BATCH_SUFFIXES = {".job", ".qsub", ".lsf", ".batch", ".jobscript"}
SHEBANG = ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash", "#!/usr/bin/env sh", "#!/bin/zsh", "#!/usr/bin/env zsh", "#!/bin/dash", "#!/bin/ksh")


# `--model <model_name> \`: a placeholder the reader fills in, which bash would read as two redirections
# (the next word, `1` after `--tensor_parallel_size`, then taken for the model); read as an unset variable
_PLACEHOLDER = re.compile(r"(?<=[ \t])<([A-Za-z_][\w-]*)>(?=[ \t]|$)", re.M)


def _as_variable(m: re.Match) -> str:
    """`<model_name>` as `$model_name ` — the same length, so every offset after it still holds."""
    return "$" + m.group(1).replace("-", "_") + " "


def is_shell(rel: str, head: str) -> bool:
    if PurePosixPath(rel).suffix.lower() in SHELL_SUFFIXES:
        return True
    first = head.split("\n", 1)[0].strip()
    return first.startswith("#!") and any(first.startswith(s) for s in SHEBANG)


def scan(ctx: ScanContext, rel: str, text: str, *, state=None, anchor_lines: bool = True, version: str | None = None) -> list[Site]:
    """The vLLM sites a shell script starts (see shell_run for how the script is walked); `version`:
    the release it runs, when not its folder's (an image that copies the file in)."""
    version = version or ctx.version_for(rel)
    sites: dict[str, Site] = {}
    placed: dict[tuple, str] = {}  # (anchor, the command's own lines) → the id of the site they gave
    anchors: dict[str, list] = {}  # anchor → the commands' lines read there
    first_shape: dict[tuple, tuple] = {}  # (anchor, command lines) → what its first reading gave

    def emit(c: Candidate) -> None:
        site = ctx.one_launch(rel, c.line, site_for, ctx, rel, version, c)
        if site is None:
            return
        at = c.own or (c.line, c.end_line)
        if (site.id, at) in placed:
            if "branch" in c.via:  # the same launch through another branch's array
                shell_choices.merge_site(sites[placed[(site.id, at)]], site)
            return
        anchor, seen = site.id, anchors.setdefault(site.id, [])
        shape = _shape(site)
        if seen and (twin := next((o for o in seen if first_shape.get((anchor, o)) == shape), None)) is not None:
            # the same launch written twice (`setsid vllm serve …` or, without setsid, `vllm serve …`)
            placed[(anchor, at)] = placed[(anchor, twin)]
            if "branch" in c.via and placed[(anchor, at)] in sites:
                shell_choices.merge_site(sites[placed[(anchor, at)]], site)
            return
        first_shape[(anchor, at)] = shape
        if seen:
            # another command the same call runs (the arms of a dispatcher's `case`, each a function with
            # its own `vllm serve`): each is its own launch, at its own line, never one union of them
            if len(seen) == 1:
                _reanchor(sites, placed, anchor, seen[0])
            site.line, site.end_line = at
            site.launch["call"] = anchor  # which of them runs is not known: none runs beside another (colocation)
        seen.append(at)
        if site.id not in sites:
            sites[site.id] = site
        placed[(anchor, at)] = site.id

    initial = state.copy() if state is not None else None  # what a reading without control flow starts from
    runner = Runner(ctx, rel, emit, state=state)
    try:
        runner.run_text(_PLACEHOLDER.sub(_as_variable, text))
        runner.finish()
    except ShellSyntaxError as e:
        if (ran := shell_prefix.before_error(text, e.line)) is not None:  # bash ran the commands above it
            ctx.skip(rel, "shell-partial", ran[1], f"{e} (line {e.line})")
            _run_prefix(ctx, rel, ran[0], emit, state, initial)
        else:
            ctx.skip(rel, "shell-syntax", e.line, str(e))
    except RecursionError:
        ctx.skip(rel, "parse-error", detail="nesting too deep")
    except TooComplex as e:
        # past its budget (shell_budget): what the walk found so far is dropped, the file read again,
        # each command once at its own line, and the report says it was read so
        for table in (sites, placed, anchors, first_shape):
            table.clear()
        ctx.skip(rel, "shell-too-complex", None, str(e))
        shell_flat.read_flat(ctx, rel, _PLACEHOLDER.sub(_as_variable, text), emit, initial)
    script_installs.adopt(ctx, rel, text, sites.values())  # `pip install vllm==X` on the way to the launch
    return list(sites.values())


def _shape(s: Site) -> tuple:
    """The program and its arguments as written, as read the first time."""
    return s.kind, s.model.raw if s.model else None, sorted((n, v.raw, str(v.value)) for n, v in s.settings.items())


def _reanchor(sites: dict, placed: dict, anchor: str, at: tuple) -> None:
    """The site first read at `anchor` moved to its command's own lines `at`."""
    key = placed.get((anchor, at))
    first = sites.get(key) if key is not None else None
    if first is None or (first.line, first.end_line) == at or f"{first.file}:{at[0]}" in sites:
        return
    del sites[first.id]
    first.line, first.end_line = at
    first.launch["call"] = anchor
    sites[first.id] = first
    placed[(anchor, at)] = first.id


def _run_prefix(ctx: ScanContext, rel: str, text: str, emit, state, initial) -> None:
    runner = Runner(ctx, rel, emit, state=state)
    try:
        runner.run_text(_PLACEHOLDER.sub(_as_variable, text))
        runner.finish()
    except (ShellSyntaxError, RecursionError):
        pass  # the error the whole file gave is already recorded
    except TooComplex as e:
        ctx.skip(rel, "shell-too-complex", None, str(e))
        shell_flat.read_flat(ctx, rel, _PLACEHOLDER.sub(_as_variable, text), emit, initial)


def site_for(ctx: ScanContext, rel: str, version: str, c: Candidate, syntax: str = "cli") -> Site | None:
    """The site a command starts, if it starts vLLM (directly or through a framework)."""
    _note_helm(ctx, rel, c.words)
    cmd = Command(c.words, c.line, c.end_line)
    image = (c.container or {}).get("image")
    if image and (tag := deploy_common.image_version(image)):
        version = ctx.catalog.resolve(tag).version
    launch = find_launch(c.words)
    if syntax == "cli" and not c.container and (start := program_start(c.words)) is not None:
        entry_env.note(ctx, rel, c.words, start[0], _prefix_env(c, start[1], rel), c.line)  # a Python file it runs
        entry_flags.note(ctx, rel, c.words, start[0], c.line)  # and the options it gives that file's own parser
    site: Site | None
    if launch is not None:
        named = executable_release(c.words, launch)
        site = _site(ctx, rel, ctx.catalog.resolve(named).version if named else version, cmd, launch, c.env, c.ex, syntax=syntax)
        if named:
            site.installed = (named, f"{rel}:{c.line}", c.words[launch.program_start].value or "")
    elif (ep := argv_entry.find(c.words, ctx, rel)) is not None:
        site = _entry_site(ctx, rel, version, cmd, ep, c, syntax)
    elif (fw := fw_launch.find(c.words, ctx=ctx, rel=rel)) is not None:
        site = framework_launch_site(ctx, rel, version, cmd, fw, c.env, c.ex)
    elif (tl := tool_launch.find(c.words)) is not None:
        site = tool_launch.site(ctx, rel, version, cmd, tl, _prefix_env(c, tl.env, rel), syntax)
    elif (body := xinference_rest.curl_body(ctx, rel, c.words)) is not None:
        site = xinference_rest.site(ctx, rel, version, cmd, body, c.env)
    elif (served := evalscope_launch.server_argv(c.words)) is not None:
        trust = evalscope_launch.trust_state(ctx.framework_pin(rel, "evalscope"))
        if trust == "absent":
            served = evalscope_launch.server_argv(c.words, trust=False) or served
        site = _evalscope_site(ctx, rel, version, Command(served, c.line, c.end_line), c, syntax, trust)
    else:
        site = None
    if site is not None and "ssh" in c.via:
        site.launch["remote"] = True  # another machine's install runs it, unless the script installs one (check/site_release.py)
    if site is not None and "loop" in c.via:
        site.launch["in_loop"] = True  # once per item of a `for` (check/balanced.py: instances on one GPU when backgrounded)
    if site is not None and c.container:
        site.image = image
        site.container = {k: v for k, v in c.container.items() if k in ("ipc", "shm_size", "gpus", "runtime", "env_file", "mounts", "env_names", "env_opaque", "detach",
                                                                        "name", "ports", "network", "run_at", "program", "device_opts", "options_unknown",
                                                                        "device_platform")}
        site.container["tool"] = c.container.get("tool") or "docker run"
        if c.container.get("image_at"):  # a project build that keeps its base image (engine/scan/own_images.py)
            site.launch["image_at"] = c.container["image_at"]
        if c.container.get("entry_installs"):  # what `bash -c "pip install … && vllm serve"` installs first
            site.launch["entry_installs"] = c.container["entry_installs"]
            entry_installs.adopt_vllm(site)
        if (rep := c.container.get("repeats_entrypoint")) is not None:
            site.remarks.append(Finding("stray-positional", msg("finding.entrypoint_repeated", words=rep[0], entrypoint=rep[1]),
                                        rel, c.line, "P0"))
        site.gpu_request = c.container.get("gpu_count")
        mounted_config.merge(ctx, site, site.container.get("mounts"), version)  # `--config /cfg/x.yaml` a `-v` holds
    return site


def _evalscope_site(ctx: ScanContext, rel: str, version: str, cmd, c: Candidate, syntax: str, trust: str | None = None) -> Site | None:
    """The server `evalscope perf --api local_vllm` starts (engine/scan/evalscope_launch.py): its
    arguments and environment are EvalScope's, the tensor-parallel size the GPUs it sees."""
    launch = find_launch(cmd.words)
    if launch is None:
        return None
    env = {**c.env, **{k: Setting(k, v, True, rel, c.line, k, v, syntax, "set by evalscope perf", implied=True)
                       for k, v in evalscope_launch.env_for(trust).items()}}
    site = _site(ctx, rel, version, cmd, launch, env, c.ex, syntax=syntax)
    site.tool = "evalscope"
    if trust is not None:  # whether its launcher passes --trust-remote-code depends on the evalscope release (L50)
        site.launch = {**site.launch, "evalscope_trust": trust, "evalscope_trust_since": evalscope_launch.TRUST_SINCE}
    for s in site.settings.values():
        s.implied = s.implied or s.name != "model"
    site.settings["tensor_parallel_size"] = Setting("tensor_parallel_size", None, False, rel, c.line, "", "", syntax,
                                                    evalscope_launch.TP_NOTE, implied=True)
    site.device_args = (*site.device_args, "tensor_parallel_size")
    return site


def _entry_site(ctx: ScanContext, rel: str, version: str, cmd, found, c: Candidate, syntax: str) -> Site:
    """`python server.py --tensor-parallel-size 2`: a project script that hands its command line to
    vLLM's own parser (engine/scan/argv_entry.py); read like `vllm serve`, less the script's options."""
    launch, entry = found
    site = _site(ctx, rel, version, cmd, launch, c.env, c.ex, syntax=syntax)
    site.mode = entry.mode
    argv_entry.narrow(site, entry, entry.file, ctx.catalog, version)
    for name in entry.unknown:
        if name not in site.settings:  # what the module passes itself depends on its release, which is not read
            site.settings[name] = Setting(name, None, False, rel, c.line, "", "", syntax, f"set by {entry.file} in some of its releases")
    for name, (value, line) in entry.adds.items():
        if name not in site.settings and name != "model":  # a launcher's own words after what it passes on
            e = ctx.catalog.arg(name)
            if isinstance(value, str) and e is not None:  # written as text in the argv: vLLM's parser types it
                value = coerce(value, e.field("type", version if e.exists(version) else e.last) or "str")
            site.settings[name] = Setting(name, value, value is not None, entry.file, line, "--" + name.replace("_", "-"),
                                          "" if value is None else str(value), "python-argv", f"added by {entry.file}",
                                          known=e is not None and e.exists(version), implied=value is None)
    argv_entry.apply_assigns(site, entry, ctx.catalog, version)
    if site.model is None and entry.model_default is not None:
        value, line = entry.model_default
        site.model = Setting("model", value, True, entry.file, line, "model", repr(value), "python-call", "default of the script")
    return site


def _prefix_env(c: Candidate, prefix, rel: str) -> dict:
    env = dict(c.env)
    for name, val, _idx in prefix:
        c.ex.expand(val)
        env[name] = env_setting(name, val, rel)
    return env


def _note_helm(ctx: ScanContext, rel: str, words) -> None:
    """`helm install|upgrade NAME vllm/vllm-stack --version X -f values.yaml`: the chart release that
    renders those values (the production-stack scanner reads it)."""
    vals = [w.value for w in words]
    if not vals or (vals[0] or "").rsplit("/", 1)[-1] != "helm" or len(vals) < 3 or vals[1] not in ("install", "upgrade", "template"):
        return
    if not any(v and v.endswith("vllm-stack") for v in vals):
        return
    version, files = None, []
    for k, v in enumerate(vals):
        nxt = vals[k + 1] if k + 1 < len(vals) else None
        if v == "--version" and nxt:
            version = nxt.lstrip("v")
        elif v and v.startswith("--version="):
            version = v.split("=", 1)[1].lstrip("v")
        elif v in ("-f", "--values") and nxt:
            files.append(nxt)
    for f in files:
        target = ctx.resolve_ref(rel, f)
        if target and version:
            ctx.chart_versions[target] = version


_VAR_REF = re.compile(r'^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::?[-=][^}]*)?\}?"?$')


def mark_sourced(s, origins: dict[str, str], rel: str) -> None:
    """A value that is one variable set in another file (`source .env`, an image's ENV, compose's
    .env) is that file's: a fix names where to change it rather than writing a literal over `$TP`."""
    m = _VAR_REF.match(s.raw or "")
    where = origins.get(m.group(1)) if m and s.resolved else None
    if m and where and where.rpartition(":")[0] != rel:
        s.pos = {**(s.pos or {}), "from_env": f"{m.group(1)} at {where}"}


def _site(ctx: ScanContext, rel: str, version: str, cmd, launch, exported, ex, syntax: str = "cli", source: dict | None = None) -> Site:
    """A `vllm serve` / api_server site. Also used by the container scanners (Dockerfile, compose,
    Kubernetes, Helm), which hand in their argv as words and say how the site writes arguments."""
    words = cmd.words
    argv = args_from_words(words[launch.argv_start:], launch.argv_start)
    parsed = ArgParser(ctx.catalog, version, rel, syntax).parse(argv, positional_model=launch.positional_model)
    mode_evidence = f"{rel}:{words[launch.program_start].line}"
    site = Site(file=rel, line=cmd.line, syntax=syntax, kind=launch.kind, mode="standalone_serve",
                mode_evidence=mode_evidence, end_line=cmd.end_line)
    site.source = dict(source or {}, words=words, launch=launch, parsed=parsed)
    site.flag_style = parsed.flag_style
    site.env = command_env(exported, launch.env, words, ex, rel)
    if parsed.config_path is not None:
        site.config_file = _merge_config(ctx, site, rel, version, parsed)
    for name, s in parsed.settings.items():
        mark_sourced(s, ex.origins, rel)
        site.set(s)  # the command line wins over the config file
    site.unknown.update(parsed.unknown)
    if parsed.model is not None:
        site.model = parsed.model
    site.launch = {**site.launch, **_argv_facts(parsed, launch, site)}
    for a in parsed.extra_args:
        if a.unresolved and a.unresolved in ("$@", "$*"):
            site.opaque.append({"code": "forwards-args", "what": a.raw, "where": f"{rel}:{a.line}"})
        elif a.unresolved and a.raw.startswith("*") and a.unresolved == a.raw:  # a Python argv's `*spec.args`
            site.opaque.append({"code": "run-time-args", "what": a.raw, "where": f"{rel}:{a.line}"})
        elif a.unresolved:
            site.opaque.append({"code": "unresolved", "what": a.raw, "where": f"{rel}:{a.line}"})
    site.device_args = (*site.device_args, *(n for n, st in parsed.settings.items() if not st.resolved and gpu_count_idiom(st.note)))
    before = {b.index: b for b in argv}
    for i, a in enumerate(parsed.positionals):
        # `\ ` (a backslash before a space, not before the line's end) is a word of one space: shown quoted
        shown = repr(a.text) if a.text is not None and a.text.isspace() else a.raw
        text = switch_value.words(ctx.catalog, version, before.get(a.index - 1), a.text)
        kv = None if text is not None or (i == 0 and launch.kind == "api_server") else kv_positional.finding(ctx.catalog, version, a, rel, syntax)
        text = text or (kv[0] if kv else None) or msg("finding.stray_positional", arg=shown)
        if i == 0 and launch.kind == "api_server":  # the OpenAI server's `model_tag` takes it from 0.10.0
            site.source[MODEL_TAG] = [a.line, text["en"]]
            if a.text is not None and not _NOT_A_MODEL.fullmatch(a.text):
                # and ignores it (only `vllm serve` copies it to model): the site's model stays unknown, never
                # this word; check serve-model-arg (L33) tells it and writes it as `--model` in its place
                site.launch["model_tag"] = a.text
                site.source[MODEL_TAG_WORD] = Setting("model", a.text, True, rel, a.line, "", a.raw, syntax, span=(a.index, a.index))
        fix = []
        if kv and kv[2]:  # the word rewritten into the flag it was meant as (engine/fix/changes.py _rename)
            target = f"{kv_positional.NOTE}:{a.index}"
            site.source.setdefault(kv_positional.NOTE, {})[target] = kv[1]
            fix = [(FixOp("rename", target), kv[2])]
        site.remarks.append(Finding("stray-positional", text, rel, a.line, "P0", fix=fix,
                                    vllm=_swallowed_until(ctx.catalog, before.get(a.index - 1))))
    return site


# From 0.10.0 make_arg_parser gives `python -m vllm.entrypoints.openai.api_server` an optional positional
# `model_tag` (0.10.0 openai/cli_args.py; 0.34.0 common/cli_args.py:440) that only `vllm serve` reads: one
# stray word there (`--enforce-eager True`) is taken and ignored, not refused (check/entrypoint_findings.py)
# where the audit knows the release (engine/audit.py); of an image of unknown release it stays a P0
MODEL_TAG = "stray_model_tag"
MODEL_TAG_WORD = "model_tag_word"
_NOT_A_MODEL = re.compile(r"(?i)true|false|yes|no|on|off|-?\d+(?:\.\d+)?")  # a switch's stray value (`--enforce-eager True`)


def _swallowed_until(cat, prev) -> str | None:
    """The releases a word after `prev` is a stray positional in, when older ones took it as the
    option's optional value (StoreBoolean `--enable-chunked-prefill true`, 0.5.3-0.8.4; a negatable
    switch from 0.8.5): `>=` the release the option last stopped taking one (settle_priorities)."""
    e = cat.flag(prev.text.split("=", 1)[0]) if prev is not None and prev.text and prev.text.startswith("--") else None
    changes = (e._raw.get("kind") or {}).get("changes") if e is not None and isinstance(e._raw.get("kind"), dict) else None
    if not changes or not any(k == "value" for _, k in changes) or changes[-1][1] == "value":
        return None
    return f">={changes[-1][0]}"


def _argv_facts(parsed, launch, site: Site) -> dict:
    """How the model reaches vLLM's argument parser (knowledge/checks/L.yaml, serve-model-arg):
    positionally, by `--model`, from the --config file, swallowed by a list option, or not at all."""
    out: dict = {"first_arg_option": parsed.first_is_option, "config_flag": parsed.config_path is not None,
                 "served_name_flag": "served_model_name" in parsed.settings, "model_positional": parsed.model_positional}
    if parsed.model_flag:
        out["model_flag"] = parsed.model_flag
        flagged = parsed.model_flagged
        if parsed.model_positional and flagged is not None and flagged.resolved and flagged.value is not None:
            out["model_flag_value"] = str(flagged.value)  # beside the positional: 0.5.2–0.5.4 ignore it (L33)
    if site.model is not None and site.model.resolved and site.model.value is not None:
        out["model_arg"] = str(site.model.value)
    if parsed.swallowed and launch.positional_model and not parsed.model_positional:
        flag, items = parsed.swallowed
        out["swallowed_by"] = flag
        if items[-1].text is not None:
            out["model_arg"] = out.get("model_arg") or items[-1].text
            out["swallowed_rest"] = [x.text for x in items[:-1]]
    return out


def _merge_config(ctx, site: Site, rel: str, version: str, parsed) -> str | None:
    a = parsed.config_path
    if a is None or a.text is None:
        site.opaque.append({"code": "unresolved", "what": f"--config {a.raw if a else ''}", "where": f"{rel}:{a.line if a else site.line}"})
        return None
    target = ctx.resolve_ref(rel, a.text)
    if target is None:
        site.opaque.append({"code": "config-missing", "what": f"--config {a.text}", "where": f"{rel}:{a.line}"})
        return None
    got = serve_config.read_config(ctx, target, version)
    if got is None:
        site.opaque.append({"code": "config-unreadable", "what": f"--config {target}", "where": f"{rel}:{a.line}"})
        return target
    settings, unknown, model, style = got
    site.config_key_style = style
    for s in settings.values():
        site.set(s)
    site.unknown.update(unknown)
    site.launch["model_in_config"] = model is not None  # read: the file says whether it names the model
    if model is not None and site.model is None:
        site.model = model
    return target
