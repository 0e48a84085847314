"""Turns recommended fixes into changes in the site's own syntax — a flag for a shell command, a
kwarg for Python, a key for a `--config` YAML — and renders each touched command, call or file."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.fix.literals import as_written_value, py_literal, shell_word, yaml_scalar
from vllm_kb.engine.fix.alternatives import alternatives
from vllm_kb.engine.fix.release_valid import mark_invalid, release_form
from vllm_kb.engine.fix import collisions, engine_count, harness_pairs, syntax as site_syntax
from vllm_kb.engine.fix.spelling import cli_text, merge_value, yaml_key  # noqa: F401 — merge_value re-exported
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.guards import guards_access
from vllm_kb.engine.check.evaluate import Result
from vllm_kb.engine.scan import dynamo_run, kv_positional
from vllm_kb.engine.scan.site import Setting, Site

PRIORITY_ORDER = {"P0": 0, "P1": 1, "P2": 2}


@dataclass
class Change:
    op: str  # set | unset | env | unset_env | pin | rename (value: the new argument name, key: as written)
    target: str
    value: Any
    file: str
    syntax: str  # cli | python-call | yaml-config
    line: int | None  # of the setting changed or removed; None when added
    before: str | None
    after: str | None  # None for a removal
    checks: list[str] = field(default_factory=list)
    priority: str = "P2"
    safe: bool = False
    setting: Setting | None = field(default=None, repr=False, compare=False)
    blocked: str | None = None  # why it cannot be written at this site: fixed | not_exposed | from_env | from_default | device_count | engine_count
    container: str | None = None  # the framework mapping (vllm_config, vllm_engine_kwargs) this sets a key of
    key: str | None = None  # a new key as the file writes keys (dotted for a nested YAML path), when one is added
    positional: bool = False  # `vllm serve MODEL`: the model goes first after `serve`, not as `--model`
    env_name: str | None = None  # the env var an env-configured worker image reads for this argument (the edit's)
    near: tuple[int, int] | None = field(default=None, repr=False, compare=False)  # lines of the launch an image pin is written in

    def to_json(self) -> dict:
        return {"op": self.op, "target": self.target, "value": self.value, "file": self.file, "syntax": self.syntax,
                "line": self.line, "before": self.before, "after": self.after, "checks": self.checks,
                "priority": self.priority, "safe": self.safe, "blocked": self.blocked,
                **({"origin": self.key} if self.blocked in ("from_env", "from_default", "fixed_newer", "not_exposed_newer", "in_section") and self.key else {})}


# --- planning --------------------------------------------------------------------------------

@dataclass
class Fixable:
    """Anything that asks for changes: a check's recommendation or a finding."""

    id: str
    priority: str
    safe: bool
    ops: list  # [(FixOp, concrete value)]


def fixables(results: list[Result], findings: list) -> list[Fixable]:
    out = [Fixable(r.check.id, r.priority or "P2", r.safe, r.fix) for r in results if r.needs_change and r.fix]
    out += [Fixable(f.id, f.priority or "P2", f.safe, f.fix) for f in findings if f.fix]
    return out


def plan(site: Site, items: list[Fixable], cat: Catalog, version: str) -> list[Change]:
    """The changes of the site's fixes in its own syntax. An item that loses one setting to a
    more urgent item's other value proposes none of its changes here: half of "TP 1 with DP 3"
    beside another check's TP 2 is neither fix (it asks for more GPUs than the site has); it is
    judged again once the winner's change is made, so `--fix` settles in one run."""
    changes: dict[tuple[str, str], Change] = {}
    lost: set[str] = set()
    asked: dict[tuple[str, str], tuple[str, Any]] = {}
    for item in sorted(items, key=lambda x: PRIORITY_ORDER.get(x.priority, 3)):
        for op, value in item.ops:
            if op.kind in ("pin", "container") or op.alternative:
                continue  # a package pin (engine/fix/pins.py), a `docker run` option (container_edits.py); an alternative (below)
            key = ("env" if op.is_env else "arg", op.target)
            if key in asked:
                prev_kind, prev_value = asked[key]
                if op.kind == prev_kind == "set" and isinstance(value, dict) and isinstance(prev_value, dict) \
                        and not set(value) & set(prev_value) and key in changes:
                    # two keys of one JSON argument (e.g. two old flags carried into speculative_config)
                    merged = {**prev_value, **value}
                    ch = _change(site, op.kind, op.target, merged, cat, version)
                    if ch is not None:
                        ch.checks, ch.priority, ch.safe = changes[key].checks + [item.id], changes[key].priority, changes[key].safe
                        changes[key] = ch
                        asked[key] = ("set", merged)
                    continue
                # Two of one priority that move a number the same way: the one that moves it
                # further satisfies both (max_model_len within the model's limit and the KV cache).
                stricter = collisions.stricter(site, op.target, prev_value, value, cat, version) \
                    if op.kind == prev_kind == "set" and key in changes and changes[key].priority == item.priority else None
                if stricter is not None and stricter != prev_value:
                    ch = _change(site, op.kind, op.target, stricter, cat, version)
                    if ch is not None:
                        ch.checks, ch.priority, ch.safe = [item.id] + changes[key].checks, item.priority, item.safe
                        changes[key] = ch
                        asked[key] = ("set", stricter)
                    continue
                if op.kind == "rename" and prev_kind == "set" and key in changes and (
                        ch := collisions.renamed(changes[key], _rename(site, op.target, value, cat, version))) is not None:
                    changes[key], ch.checks = ch, ch.checks + [item.id]  # one edit: the new value under the renamed key
                    continue
                # The same change asked for by another item is credited to it too; a different value loses to the higher priority.
                if (asked[key] == (op.kind, value) or stricter is not None) and key in changes and item.id not in changes[key].checks:
                    changes[key].checks.append(item.id)
                elif asked[key] != (op.kind, value) and stricter is None:
                    lost.add(item.id)
                continue
            asked[key] = (op.kind, value)
            ch = _change(site, op.kind, op.target, value, cat, version)
            if ch is None:
                continue
            ch.checks.append(item.id)
            ch.priority = item.priority
            ch.safe = item.safe
            changes[key] = ch
    if lost:
        return plan(site, [i for i in items if i.id not in lost], cat, version)
    out = _merge_containers(site, [*changes.values(), *alternatives(items, changes, lambda op, v: _change(site, op.kind, op.target, v, cat, version),
                                                                    (site.source or {}).get("env_names"))])
    out = collisions.absorbed(out, kv_positional.NOTE, lambda p: PRIORITY_ORDER.get(p, 3))
    out += engine_count.paired(site, out, Change, _as_written)  # engines × TP kept (OpenRLHF's --vllm_num_engines)
    mark_invalid(out, items, site.kind, cat, version)
    if site.launch.get("runs_script"):
        # a deployment of the project's image (engine/scan/deploy/image_entry.py deployed): its command
        # line is the script's, which other deployments share; the change is named there, not written
        for ch in out:
            if ch.op != "pin" and not ch.blocked:
                ch.blocked, ch.key = "from_env", site.launch["runs_script"]
    for ch in out:  # removing what guards access (an API key, TLS, allowed origins, a token) is never safe
        if ch.op in ("unset", "unset_env") and (guards_access(ch.target) or guards_access(ch.setting.key if ch.setting else None)):
            ch.safe = False
    return out


def _rename(site: Site, target: str, new: str, cat: Catalog, version: str) -> Change | None:
    """A misspelt option renamed to the one meant: only the key's own bytes change."""
    existing = site.unknown.get(target) or site.settings.get(target) or ((site.source or {}).get(kv_positional.NOTE) or {}).get(target)
    if existing is None or not existing.key or existing.implied:
        return None
    if existing.note == kv_positional.NOTE:  # `trust_remote_code=True` as a word: the whole word becomes the flag
        return Change("rename", target, existing.name, existing.file, existing.syntax, existing.line, existing.key, new,
                      setting=existing, key=new)
    old = existing.key.split("=", 1)[0]
    if existing.syntax in ("cli", *site_syntax.DEPLOY_SYNTAXES) and old.startswith("-"):
        key = cat.long_flag(new, version) or "--" + new.replace("_", "-")
        if "_" in old and "-" not in old.lstrip("-") or site.tool == "xinference":  # Xinference: the keyword as written
            key = "--" + key[2:].replace("-", "_")
    elif existing.syntax == "yaml-config":
        key = new.replace("_", "-") if "-" in old else new
    elif existing.syntax == "python-call":
        key = new
    else:
        return None
    before = _as_written(existing)
    return Change("rename", target, new, existing.file, existing.syntax, existing.line, before,
                  before.replace(old, key, 1), setting=existing, key=key)


def _change(site: Site, op: str, target: str, value: Any, cat: Catalog, version: str) -> Change | None:
    if op == "rename":
        return _rename(site, target, value, cat, version)
    if site.tool == "xinference" and target == "n_gpu" and op == "set":
        # Xinference's own launch option (engine/scan/xinference_engine.py), not an engine keyword
        option = {"python-call": f"n_gpu={value}", "kwargs-json": f'"n_gpu": {value}'}.get(site.syntax, f"--n-gpu {value}")
        return Change("set", target, value, site.file, site.syntax, None, None, option)
    if site.kind == "dynamo run" and op == "set":  # its own clap options, else the --extra-engine-args JSON (scan/dynamo_run.py)
        flag = next((f for f, (name, _) in dynamo_run.ENGINE.items() if name == target), None)
        told = f"{flag} {value}" if flag else f'--extra-engine-args args.json  # args.json: {{"{target}": {json.dumps(value)}}}'
        return Change("set", target, value, site.file, site.syntax, None, None, told)
    if op in ("env", "unset_env"):
        existing = site.env.get(target)
        if op == "unset_env" and existing is None:
            return None
        file = existing.file if existing else site.file
        # a variable set where the site is started (a launcher script's VLLM_USE_V1=0) is written in that file's syntax
        own = existing.syntax if existing is not None and existing.file != site.file else site.syntax
        syntax = own if own in ("python-call", *site_syntax.DEPLOY_SYNTAXES) else "cli"
        if site.tool == "ray-serve" and site.syntax in ("kwargs-yaml", "python-call"):
            # Ray starts vLLM in its own processes: the variable belongs in the LLMConfig's runtime_env
            syntax = "ray-env-" + site.syntax
        after = site_syntax.env_text(syntax, target, value, (site.source or {}).get("env_style")) if op == "env" else None
        before = (f'os.environ["{target}"] = {existing.raw}' if syntax == "python-call" else f"{target}: {json.dumps(existing.raw)}"
                  if syntax == "ray-env-kwargs-yaml" else f"{target}={existing.raw}") if existing else None
        return Change(op, target, value, file, syntax, existing.line if existing else None, before, after, setting=existing)
    if op in ("set", "unset") and (name := site_syntax.worker_env(site, target)):
        # an image its env configures (knowledge/deploy/env_images.yaml): the argument is the env var
        # the worker reads; a `command:` would replace the worker's own
        # the change stays the argument's (what a reader and a report compare); its edit is the env var's
        ec = _change(site, "unset_env" if op == "unset" else "env", name, site_syntax.worker_env_value(value), cat, version)
        if ec is None:
            return None
        return Change(op, target, None if op == "unset" else value, ec.file, ec.syntax, ec.line, ec.before, ec.after,
                      setting=ec.setting, env_name=name)
    existing = site.settings.get(target) or site.unknown.get(target) or (site.model if target == "model" else None)
    if op == "unset" and existing is not None and existing.implied and existing.syntax in site_syntax.DEPLOY_SYNTAXES:
        # nothing written to remove (the chart emits --no-enable-prefix-caching itself): write the default
        default = cat.defaults(version).get(target)
        if default is None and isinstance(existing.value, bool):
            default = not existing.value  # undoing what the chart does when the key is absent
        if default is None:
            return None
        after = site_syntax.deploy_text(site, target, default, cat.long_flag(target, version))
        return Change("set", target, default, site.file, site.syntax, None, None, after)
    pos = (existing.pos or {}) if existing is not None else {}
    # an env file's value (the edit belongs on its line), or one the call only passes on (a caller's,
    # a parameter's, argparse's or the environment's default): a literal at the call would override it
    held = "from_env" if pos.get("from_env") and op in ("set", "unset") else \
        "from_default" if pos.get("from_default") and op == "set" and existing and existing.syntax == "python-call" else None
    if held and existing is not None:
        return Change(op, target, value, existing.file, existing.syntax, existing.line, _as_written(existing), None,
                      setting=existing, blocked=held, key=pos[held])
    if op == "unset":
        if existing is None:
            return None
        if site.tool in harness_pairs.TOOLS:
            return Change("unset", target, None, existing.file, existing.syntax, existing.line,
                          harness_pairs.text(site, op, target, None, existing)[0], None, setting=existing)
        return Change("unset", target, None, existing.file, existing.syntax, existing.line, _as_written(existing), None, setting=existing)
    if op == "set" and existing is not None and not existing.resolved and target in site.device_args:
        # `$(nvidia-smi -L | wc -l)`: the script follows the machine it runs on; a literal would
        # silently drop that, so the value is said, not written
        return Change("set", target, value, existing.file, existing.syntax, existing.line, _as_written(existing), None,
                      setting=existing, blocked="device_count")
    if target == "model" and op == "set" and site.kind == "vllm serve" and site.syntax == "cli":
        # vLLM's own form is the positional right after `serve` (a `--model X` there is moved to it)
        existing = site.model if site.model is not None and site.model.syntax == "cli" else None
        return Change("set", target, value, site.file, "cli", existing.line if existing else None,
                      _as_written(existing) if existing else None, shell_word(value), setting=existing, positional=True)
    if target == "model" and op == "set" and site.kind == "api_server" and existing is None \
            and (tag := (site.source or {}).get("model_tag_word")) is not None and tag.value == value:
        # the word the api_server module takes as `model_tag` and ignores (check L33): `--model X` in its place
        after = cli_text(cat, version, site, target, value, None) if site.syntax == "cli" else site_syntax.deploy_text(site, target, value, cat.long_flag(target, version), None)
        return Change("set", target, value, tag.file, site.syntax, tag.line, _as_written(tag), after, setting=tag)
    if existing is not None and existing.resolved and not existing.implied and existing.value == merge_value(value, existing) \
            and not isinstance(value, (dict, list)):
        # already so: nothing to write (a dict or list asked for again is a text vLLM cannot parse as JSON
        # that the scan read as the value it meant: `--allowed-origins *` read as ["*"], option-not-json)
        return None
    if site.tool in harness_pairs.TOOLS and op == "set" and target != "model":
        before, after, blocked = harness_pairs.text(site, op, target, value, existing)
        return Change("set", target, value, existing.file if existing else site.file, site.syntax,
                      existing.line if existing else None, before, after, setting=existing, blocked=blocked)
    if site.kind == "trl vllm-serve" and existing is None and not _serve_accepts(site, target):
        return Change("set", target, value, site.file, site.syntax, None, None, None, blocked="not_exposed")
    if site.framework != "none" and site.kind != "trl vllm-serve":
        return _framework_change(site, target, value, existing)
    if site.syntax in site_syntax.ARGV_SYNTAXES and (existing is None or existing.syntax in site_syntax.ARGV_SYNTAXES):
        after = site_syntax.deploy_text(site, target, release_form(target, merge_value(value, existing), version, site.syntax),
                                        cat.long_flag(target, version), existing)
        return Change("set" if after else "unset", target, value, existing.file if existing else site.file, site.syntax,
                      existing.line if existing else None, _as_written(existing) if existing else None, after, setting=existing)
    syntax = existing.syntax if existing else ("yaml-config" if site.config_file else site.syntax)
    file = existing.file if existing else (site.config_file or site.file)
    if syntax == "cli":
        after = cli_text(cat, version, site, target, value, existing)
        if after is None and existing is None:
            return None
        op_kind = "set" if after else "unset"
    elif syntax in ("yaml-config", "kwargs-yaml"):
        key = target if syntax == "kwargs-yaml" else yaml_key(site, target, existing)
        after = f"{key}: {yaml_scalar(as_written_value(site.source, merge_value(value, existing)))}"
        op_kind = "set"
    elif syntax == "env-file":  # an application server's own .env: its variable for the argument, if it has one
        env_name = ((site.source or {}).get("env_names") or {}).get(target)
        if env_name is None:
            return Change("set", target, value, site.file, syntax, None, None, None, blocked="not_exposed")
        after = f"{env_name}={merge_value(value, existing)}"
        op_kind = "set"
    elif syntax == "python-dict":  # a config module's dict of engine fields (Langchain-Chatchat's worker)
        after = f'"{target}": {py_literal(merge_value(value, existing))}'
        op_kind = "set"
    elif syntax == "kwargs-json":  # Triton's model.json: EngineArgs fields as JSON keys
        after = f'"{target}": {json.dumps(merge_value(value, existing))}'
        op_kind = "set"
    elif (existing is None or existing.implied or not existing.pos) and (wd := (site.source or {}).get("wrapper_dict")):
        own = (site.source or {}).get("wrapper_keys", {}).get(target)
        if own and not (existing and existing.implied):  # its own keyword for it (unsloth's max_seq_length)
            return Change("set", target, value, file, syntax, existing.line if existing else None,
                          _as_written(existing) if existing else None, f"{own}={py_literal(merge_value(value, existing))}",
                          setting=existing)
        if wd[0] is None or wd[1] or existing is not None:  # no mapping to put it in, one already there, or derived
            return Change("set", target, value, site.file, syntax, None, None, None, blocked="not_exposed")
        after = f'{wd[0]}={{"{target}": {py_literal(value)}}}'
        op_kind = "set"
    else:  # a subclass's own keyword for it (`tp=` handed on as tensor_parallel_size) is the one rewritten
        key = existing.key if existing is not None and (existing.key or "").isidentifier() else target
        after = f"{key}={py_literal(merge_value(value, existing))}"
        op_kind = "set"
    return Change(op_kind, target, value, file, syntax, existing.line if existing else None,
                  _as_written(existing) if existing else None, after, setting=existing,
                  key=yaml_key(site, target, existing) if syntax == "yaml-config" else None)


def _serve_accepts(site: Site, target: str) -> bool:
    """`trl vllm-serve` takes its own list of vLLM flags; recent releases forward the rest."""
    from vllm_kb.engine.kb.frameworks import get, version_matches

    serve = get("trl").raw["serve"]
    return target in serve.get("args", ()) or version_matches(serve.get("forwards_unknown"), site.framework_version)


def _framework_change(site: Site, target: str, value: Any, existing: Setting | None) -> Change:
    """A change written in the framework's own keys, or marked blocked with the reason."""
    if existing is not None and existing.implied:
        existing = None  # sleep_level=1 is not how to write enable_sleep_mode=false
    if existing is not None:
        after = site_syntax.framework_text(site, existing.key, merge_value(value, existing), existing, existing.syntax)
        return Change("set" if after else "unset", target, value, existing.file, existing.syntax, existing.line,
                      _as_written(existing), after, setting=existing)
    if target in site.fixed:
        return _not_here(site, target, value, "fixed")
    if section := (site.source or {}).get("config_section"):
        # the script hands only that section of its config to TRL (engine/scan/trl_section.py): a new key
        # belongs there, and its own argparse may refuse it as a flag
        return Change("set", target, value, site.file, site.syntax, None, None, None, blocked="in_section",
                      key=f"`{section}:`" + (f" ({site.config_file})" if site.config_file else ""))
    got = site_syntax.framework_key(site, target, value)
    if got is None:
        return _not_here(site, target, value, "unplaced" if site.framework_unplaced and not site.framework_version else "not_exposed")
    key, val = got
    own = next((s for w, s in (site.framework_written or {}).items() if w.lstrip("-") == key and not s.implied), None)
    if own is not None and not isinstance(val, dict):  # the deriving key already written (`--sleep_level 0`): rewritten
        after = site_syntax.framework_text(site, own.key, val, own, own.syntax)
        return Change("set", target, val, own.file, own.syntax, own.line, _as_written(own), after, setting=own)
    pt = site.passthrough
    container = key if isinstance(val, dict) and key == (frameworks_passthrough(site) or "") else None
    if pt is not None and _same_key(key, pt.key):
        after = site_syntax.framework_text(site, key, val, pt, pt.syntax)
        return Change("set", target, val, pt.file, pt.syntax, pt.line, _as_written(pt), after, setting=pt, container=container)
    after = site_syntax.framework_text(site, key, val, None, site.syntax)
    return Change("set", target, val if container else value, site.file, site.syntax, None, None, after, container=container,
                  key=key)


def _not_here(site: Site, target: str, value: Any, why: str) -> Change:
    """A change the pinned framework release has no key for (it fixes the argument itself, or reads
    no key for it): said, never written; where a later release has the key, it is named — never
    the key itself, which this release would ignore or reject."""
    from vllm_kb.engine.kb.frameworks import get

    newer = get(site.framework).newer_key(target, site.framework_version, site.framework_command)
    if newer is None:
        return Change("set", target, value, site.file, site.syntax, None, None, None, blocked=why)
    return Change("set", target, value, site.file, site.syntax, None, None, None, blocked=f"{why}_newer",
                  key=f"`{newer[0]}` ({get(site.framework).name} {newer[1]}+)")


def _same_key(a: str, b: str) -> bool:
    return a.lstrip("-+").replace("-", "_") == b.lstrip("-+").replace("-", "_")


def frameworks_passthrough(site: Site) -> str | None:
    from vllm_kb.engine.kb.frameworks import get

    pt = get(site.framework).passthrough
    return pt["key"] if pt else None


def _merge_containers(site: Site, changes: list[Change]) -> list[Change]:
    """Several keys of one mapping (`--vllm_engine_kwargs '{…}'`, `vllm_config: {…}`) become one
    change: written twice, the second would replace the first."""
    out: list[Change] = []
    first: dict[tuple[str, str], Change] = {}
    for ch in changes:
        if ch.container is None or ch.blocked:
            out.append(ch)
            continue
        k = (ch.file, ch.container)
        if k not in first:
            first[k] = ch
            out.append(ch)
            continue
        base = first[k]
        base.value = {**base.value, **{t: v for t, v in ch.value.items() if t not in base.value or t == ch.target}}
        base.target = f"{base.target}, {ch.target}"
        base.checks += [c for c in ch.checks if c not in base.checks]
        if PRIORITY_ORDER.get(ch.priority, 3) < PRIORITY_ORDER.get(base.priority, 3):
            base.priority = ch.priority
        base.safe = base.safe and ch.safe
        base.after = site_syntax.framework_text(site, ch.container, base.value, base.setting, base.setting.syntax if base.setting else site.syntax)
    return out


def _as_written(s: Setting) -> str:
    if s.syntax == "python-argv":
        return site_syntax.argv_written(s)
    if s.syntax == "cli" or (s.syntax in site_syntax.DEPLOY_SYNTAXES and s.key.startswith("-")):
        return s.raw or s.key if not s.raw or s.raw.startswith(s.key) else f"{s.key} {s.raw}"  # a switch, `--k=v` whole
    if s.syntax == "yaml-config" or (s.syntax == "helm-values" and not s.key.startswith("-")):
        return f"{s.key}: {s.raw}"
    if s.key and (s.raw or "").startswith(s.key + "="):  # a Hydra override's raw is the whole `key=value` word
        return s.raw
    return f"{s.key}={s.raw}" if s.key else s.raw
