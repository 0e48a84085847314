"""A framework's own launch command in a shell script (`verl` / `easyr1` Hydra overrides, `llamafactory-cli`,
`swift`, `trl vllm-serve`, NeMo-RL): the site its arguments and config file make, with the
variables the command line sets before it."""
from __future__ import annotations

import dataclasses
import re

from vllm_kb.engine.kb import frameworks
from vllm_kb.engine.scan import framework_site, fw_launch, nemo_rl_config, swift_adapters, trl_section, vendored, verl_copy_config, verl_rollout_names
from vllm_kb.engine.scan.cli_args import ArgParser, args_from_words
from vllm_kb.engine.scan.context import ScanContext
from vllm_kb.engine.scan.shell_builtins import command_env
from vllm_kb.engine.scan.site import Setting, Site


def framework_launch_site(ctx: ScanContext, rel: str, version: str, cmd, launch: fw_launch.FwLaunch, exported, ex) -> Site | None:
    words = cmd.words
    fw = frameworks.get(launch.framework)
    fw_version = ctx.framework_version(rel, fw.package)
    env = command_env(exported, launch.env, words, ex, rel)
    if launch.serve:
        site = _trl_serve_site(ctx, rel, version, cmd, launch, fw, fw_version)
    else:
        found, positionals, opaque = fw_launch.entries(words, launch, rel)
        config = _framework_config(ctx, rel, launch, found, positionals) or launch.config
        flatten = launch.framework in ("verl", "easyr1")
        bases = [] if config != launch.config else launch.base_configs
        part = None
        if launch.framework == "nemo-rl":  # `defaults:` inheritance and `${…}` over the overrides
            entries = nemo_rl_config.entries(ctx, config, [e for e in found if e.written.lstrip("-") != "config"], launch.command)
        else:
            part = trl_section.section(ctx, rel, launch.script, config) if launch.script and config else None
            entries = [e for b in bases for e in fw_launch.config_entries(ctx, b, launch.framework, flatten=flatten)]
            if part and launch.script and config:  # the section over the parent the config names (`extends:`), as the script's loader reads it
                entries += trl_section.section_entries(ctx, rel, launch.script, config, part, _section_reader(ctx, launch.framework, flatten))
            elif config:
                entries += fw_launch.config_entries(ctx, config, launch.framework, flatten=flatten)
            entries += found
            if launch.script and not config and (got := _trl_configs(ctx, rel, launch, words)) is not None:
                part, read = got  # `--config configs/grpo_${CONDITION}.yaml`: the section over every file it may be
                entries = read + found
        if launch.script and config:
            entries = _trl_own_keys(ctx, rel, launch.script, entries)
        if launch.command == "generate":
            fw_launch.generation_keys(entries)
        if launch.framework == "verl":
            entries, own_rollout = _own_vllm_rollout(ctx, entries, vendored.lacks_module(
                ctx.framework_copies, rel, "verl", launch.module, ctx.file_set()))
            if not config and (base := verl_copy_config.launched_config(ctx.framework_copies, rel, launch.module, ctx.file_set(), ctx.read)):
                ctx.referenced.add(base)  # the copy's trainer config under these overrides: no site of its own
        site = framework_site.build_site(fw, entries, file=rel, line=cmd.line, end_line=cmd.end_line,
                                     syntax="hydra-override" if launch.style == "hydra" else "cli", kind=launch.kind,
                                     version=fw_version, command=launch.command, commit=ctx.framework_commit(rel, fw.package),
                                     source={"words": words, "launch": _as_launch(launch), "arg_style": launch.style})
        if site is None:
            return None
        if launch.framework == "verl" and own_rollout:
            site.mode_evidence += f" (rollout.name {own_rollout})"
        site.config_file = config
        if launch.module:
            site.launch["module"] = launch.module
        if part:
            site.source["config_section"] = ".".join(part)  # a key it lacks goes there (engine/fix/changes.py)
        swift_adapters.resolve(ctx, rel, site)
        for w in opaque:
            site.opaque.append({"code": "forwards-args" if w.is_all_args else "unresolved", "what": w.raw, "where": f"{rel}:{w.line}"})
    if site is None:
        return None
    site.env = {**env, **site.env}
    if launch.command == "vllm_infer" and launch.args_start > 0 and (path := words[launch.args_start - 1].value) \
            and (copy := ctx.resolve_ref(rel, path)) is not None:
        # the project's own copy of LLaMA-Factory's scripts/vllm_infer.py: its LLM() is this launch (project.py)
        site.launch["runs_file"] = copy
    framework_site.device_tp(site)
    if not launch.serve:  # `trl vllm-serve` takes both spellings: keep the one the script uses
        site.flag_style = "snake"
    return site


def _trl_own_keys(ctx, rel: str, script: str, entries: list) -> list:
    """`python train.py --config cfg.yaml`: the keys the script's own dataclasses take are its fields,
    not TRL's (engine/scan/trl_parsers.py); a script whose parser has only such dataclasses keeps none."""
    from vllm_kb.engine.kb import frameworks
    from vllm_kb.engine.scan import trl_parsers, trl_script

    ref = trl_script.script_ref(ctx, rel, script)
    if ref is None:
        return entries
    fw = frameworks.get("trl")
    keys = {e.written.lstrip("-").replace("-", "_") for e in entries} - {"config"}
    own = trl_parsers.own_keys(ctx, keys, {k for k in keys if fw.key(k) is not None}, script=ref,
                               current=trl_parsers.current_keys(fw, keys))
    return entries if own is None else [e for e in entries if e.written.lstrip("-").replace("-", "_") not in own]


def _trl_configs(ctx, rel: str, launch, words) -> tuple[tuple, list] | None:
    """A TRL script's `--config` whose word is partly unknown, where the script hands one section of the
    file to its config class and every project file the word may name holds that section."""
    after = [w for w in words[launch.args_start:]]
    word = next((after[i + 1] for i, w in enumerate(after[:-1]) if w.text == "--config"), None)
    configs = trl_section.candidates(ctx, rel, word.text if word is not None else None)
    parts = {trl_section.section(ctx, rel, launch.script, c) for c in configs}
    part = parts.pop() if len(parts) == 1 else None
    if not configs or part is None:
        return None

    def read(config, sect):
        return trl_section.section_entries(ctx, rel, launch.script, config, sect, _section_reader(ctx, launch.framework, False))
    return part, trl_section.merged_entries(ctx, configs, part, read)


def _section_reader(ctx, framework: str, flatten: bool):
    return lambda config, sect: fw_launch.config_entries(ctx, config, framework, flatten=flatten, section=sect)


def _as_launch(fw: fw_launch.FwLaunch):
    """The part of a launch the shell editors need: where the arguments start."""
    from vllm_kb.engine.scan.launchers import Launch

    return Launch(fw.kind, fw.args_start, False, fw.env, fw.program_start)


def _framework_config(ctx, rel, launch, found, positionals) -> str | None:
    """The config file a framework command reads: --config (TRL), the first positional (LLaMA-Factory,
    ms-swift), --config-path/--config-name (verl/Hydra)."""
    ref = None
    named = {e.written.lstrip("-"): e.setting for e in found}
    if launch.framework == "verl" and "config-name" in named:
        base = named.get("config-path")
        name = str(named["config-name"].value or "").strip("'\"")
        name = name if name.endswith((".yaml", ".yml")) else name + ".yaml"
        if base is not None and not base.value:
            # --config-path="$PROJECT_DIR/config": the folder's own name is still written
            tail = re.sub(r".*[/}]", "", (base.raw or "").strip("'\""))
            for up in ("", "../", "../../"):
                found_ref = tail and ctx.resolve_ref(rel, f"{up}{tail}/{name}")
                if found_ref:
                    return found_ref
            return None
        ref = f"{base.value}/{name}" if base is not None else name
    elif "config" in named and named["config"].value:
        ref = str(named["config"].value)
    elif launch.framework in ("llamafactory", "ms-swift") and positionals:
        first = positionals[0].value or ""
        if first.endswith((".yaml", ".yml", ".json")):
            ref = first
    if not ref:
        return None
    return ctx.resolve_ref(rel, ref)


def _trl_serve_site(ctx, rel, version, cmd, launch, fw, fw_version) -> Site | None:
    """`trl vllm-serve`: vLLM's own flag names (with TRL's renames); TRL ≥1.0 execs `vllm serve`
    and adds weight transfer, processed logprobs and the dev endpoints."""
    words = cmd.words
    serve = fw.raw.get("serve", {})
    renames = serve.get("renames", {})
    argv = args_from_words(words[launch.args_start:], launch.args_start)
    for a in argv:
        if a.text and a.text.startswith("--"):
            key = a.text[2:].split("=", 1)[0].replace("-", "_")
            if key in renames:
                a.text = "--" + renames[key] + a.text[2 + len(key):]
    parsed = ArgParser(ctx.catalog, version, rel).parse(argv, positional_model=False)
    site = Site(file=rel, line=cmd.line, syntax="cli", kind=launch.kind, mode=serve.get("mode", "rlhf_server"),
                mode_evidence=f"{rel}:{words[launch.program_start].line}", framework="trl", end_line=cmd.end_line)
    site.source = {"words": words, "launch": _as_launch(launch), "parsed": parsed}
    site.flag_style = parsed.flag_style
    site.settings = dict(parsed.settings)
    site.unknown = dict(parsed.unknown)
    site.model = parsed.model
    site.framework_version = fw_version
    def applies(item) -> bool:  # an unpinned TRL is read as the newest: what older releases alone did is left out
        spec = item.get("trl")
        return frameworks.version_matches(spec, fw_version) if fw_version else "<" not in (spec or "")

    site.fixed = {f["arg"]: f["value"] for f in serve.get("own_fixed", []) + serve.get("fixed", []) if applies(f)}
    site.framework_defaults = {d["arg"]: d["value"] for d in serve.get("defaults", []) if applies(d) and d["arg"] not in site.settings}
    for e in serve.get("env", []):
        if applies(e):
            site.env[e["name"]] = Setting(e["name"], e["value"], True, rel, cmd.line, e["name"], e["value"], "cli", "set by trl vllm-serve")
    return site


_ROLLOUT_NAME = "actor_rollout_ref.rollout.name"


def _own_vllm_rollout(ctx: ScanContext, entries: list, not_run: str | None = None) -> tuple[list, str | None]:
    """A rollout name other than `vllm` that the project's own verl copy builds a vLLM rollout for
    (engine/scan/verl_rollout_names.py): read as `vllm` for the site's mode, its words kept. `not_run`: the
    root of a copy that lacks the launched module (another checkout runs: its rollout names are not this copy's)."""
    at = [i for i, e in enumerate(entries) if e.written.lstrip("+~") == _ROLLOUT_NAME]
    for i in at[-1:]:  # the last one written wins (a config file's, then the command line's)
        e = entries[i]
        s = e.setting
        if not s.resolved or not isinstance(s.value, str) or s.value == "vllm":
            continue
        where = verl_rollout_names.vllm_rollout(
            [c for c in ctx.framework_copies if not_run is None or c.root != not_run], ctx.files, ctx.read, s.value)
        if where is None:
            return entries, None
        said = f"{s.value!r}: the project's verl copy builds a vLLM rollout for it at {where}"
        return entries[:i] + [dataclasses.replace(e, setting=dataclasses.replace(s, value="vllm", note=said))] + entries[i + 1:], said
    return entries, None
