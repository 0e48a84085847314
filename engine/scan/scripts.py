"""Shell scripts → sites: every `vllm serve …` / `python -m vllm.entrypoints.openai.api_server …`
command, with the script's exported env vars and its `--config` file merged in."""
from __future__ import annotations

from pathlib import PurePosixPath

from ..messages import msg
from ..site import Finding, Setting, Site
from . import serve_config
from .cli_args import ArgParser, args_from_words
from .context import ScanContext
from .launchers import find_launch
from .shell import Expander, ShellSyntaxError, parse, split_assignment

SHELL_SUFFIXES = {".sh", ".bash", ".zsh", ".ksh", ".slurm", ".sbatch", ".pbs", ".bsub"}
SHEBANG = ("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash", "#!/usr/bin/env sh", "#!/bin/zsh", "#!/usr/bin/env zsh", "#!/bin/dash", "#!/bin/ksh")


def is_shell(rel: str, head: str) -> bool:
    if PurePosixPath(rel).suffix.lower() in SHELL_SUFFIXES:
        return True
    first = head.split("\n", 1)[0].strip()
    return first.startswith("#!") and any(first.startswith(s) for s in SHEBANG)


def scan(ctx: ScanContext, rel: str, text: str) -> list[Site]:
    try:
        commands = parse(text)
    except ShellSyntaxError as e:
        ctx.skip(rel, "shell-syntax", e.line, str(e))
        return []
    version = ctx.version_for(rel)
    ex = Expander()
    exported: dict[str, Setting] = {}
    sites: list[Site] = []
    for cmd in commands:
        words = cmd.words
        head = words[0].raw if words else ""
        # Assignments and exports update the variables later commands expand against.
        if head in ("export", "declare", "typeset", "local", "readonly"):
            names = [w for w in words[1:] if not w.raw.startswith("-")]
            where = {"kind": "export", "cmd": (words[0].start, words[-1].end), "count": len(names)}
            for w in names:
                a = split_assignment(w)
                if a:
                    name, val = a
                    ex.assign(name, val)
                    if head == "export":
                        exported[name] = _env_setting(name, val, rel, dict(where, word=(w.start, w.end)))
                elif w.raw in ex.vars and head == "export":
                    exported[w.raw] = Setting(w.raw, ex.vars[w.raw], True, rel, w.line, w.raw, ex.vars[w.raw], "cli",
                                              pos=dict(where, word=(w.start, w.end)))
            continue
        if all(split_assignment(w) for w in words):
            for w in words:
                name, val = split_assignment(w)
                ex.assign(name, val)
                if name in exported:
                    exported[name] = _env_setting(name, val, rel, {"kind": "assign", "word": (w.start, w.end), "cmd": (words[0].start, words[-1].end), "count": len(words)})
            continue
        if head == "unset":
            for w in words[1:]:
                ex.vars.pop(w.raw, None)
                exported.pop(w.raw, None)
            continue
        for w in words:
            ex.expand(w)
        if head == ":":
            continue
        launch = find_launch(words)
        if launch is None:
            continue
        sites.append(_site(ctx, rel, version, cmd, launch, exported, ex))
    return sites


def _env_setting(name, val, rel, pos=None) -> Setting:
    return Setting(name, val.value, val.value is not None, rel, val.line, name, val.raw, "cli", val.assumed or val.unresolved, pos=pos)


def _site(ctx: ScanContext, rel: str, version: str, cmd, launch, exported, ex) -> Site:
    words = cmd.words
    argv = args_from_words(words[launch.argv_start:], launch.argv_start)
    parsed = ArgParser(ctx.catalog, version, rel).parse(argv, positional_model=launch.positional_model)
    mode_evidence = f"{rel}:{words[launch.program_start].line}"
    site = Site(file=rel, line=cmd.line, syntax="cli", kind=launch.kind, mode="standalone_serve",
                mode_evidence=mode_evidence, end_line=cmd.end_line)
    site.source = {"words": words, "launch": launch, "parsed": parsed}
    site.flag_style = parsed.flag_style
    env = dict(exported)
    for name, val, idx in launch.env:
        ex.expand(val)
        env[name] = _env_setting(name, val, rel, {"kind": "prefix", "word": (words[idx].start, words[idx].end)})
    site.env = env
    if parsed.config_path is not None:
        site.config_file = _merge_config(ctx, site, rel, version, parsed)
    for name, s in parsed.settings.items():
        site.set(s)  # the command line wins over the config file
    site.unknown.update(parsed.unknown)
    if parsed.model is not None:
        site.model = parsed.model
        if not parsed.model_positional and launch.kind == "vllm serve":
            # 0.5.5–0.11.0 reject `vllm serve --model X`; from 0.11.1 it only warns
            fails = ctx.catalog.index_version(version) < ctx.catalog.index_version("0.11.1")
            site.remarks.append(Finding("model-flag", msg("finding.model_flag_error" if fails else "finding.model_flag"),
                                        rel, parsed.model.line, "P0" if fails else "P2"))
    for a in parsed.extra_args:
        if a.unresolved and a.unresolved in ("$@", "$*"):
            site.opaque.append({"code": "forwards-args", "what": a.raw, "where": f"{rel}:{a.line}"})
        elif a.unresolved:
            site.opaque.append({"code": "unresolved", "what": a.raw, "where": f"{rel}:{a.line}"})
    for a in parsed.positionals:
        site.remarks.append(Finding("stray-positional", msg("finding.stray_positional", arg=a.raw), rel, a.line, "P0"))
    return site


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
    if model is not None and site.model is None:
        site.model = model
    return target
