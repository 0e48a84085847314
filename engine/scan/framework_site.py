"""A framework's keys as a vLLM site: the scanners read the keys as written (`Entry`), the
framework's knowledge (engine/kb/frameworks.py) maps them to engine arguments, defaults,
args fixed in code, implied args and the usage mode."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.kb import yamlio
from vllm_kb.engine.kb.frameworks import Framework, normalise_key
from vllm_kb.engine.scan.site import Setting, Site


@dataclass
class Entry:
    """One framework key as a scanner read it."""

    written: str  # as in the file: `--vllm_gpu_memory_utilization`, `actor_rollout_ref.rollout.name`
    setting: Setting  # value and provenance; its name is replaced by the engine argument
    lines: dict[str, int] = field(default_factory=dict)  # a mapping value: the line of each of its keys


def build_site(fw: Framework, entries: list[Entry], *, file: str, line: int, syntax: str, kind: str,
               version: str | None, command: str | None = None, source: Any = None, end_line: int = 0,
               commit: str | None = None) -> Site | None:
    """The vLLM site a framework config describes, or None when it does not use vLLM."""
    values: dict[str, Any] = {}
    passthrough = None
    settings: dict[str, Setting] = {}
    unknown: dict[str, Setting] = {}
    unmapped: dict[str, Setting] = {}
    written: dict[str, Setting] = {}  # framework key → its setting, as read
    model = None
    pt = fw.passthrough
    every: dict[str, Setting] = {}
    changed: list[str] = []
    renamed: list[tuple[Any, Setting]] = []  # keys whose argument depends on the release (and on other keys)
    for e in entries:
        key = fw.key(e.written)
        s = e.setting
        if s.resolved and interpolated(s.value):
            # left by a reader that does not resolve it (NeMo-RL's and ROLL's resolve `${a.b}` first)
            s.resolved, s.value, s.note = False, None, f"{s.raw} (an interpolation the audit cannot read)"
        every.setdefault(e.written, s)
        if key is None and pt and normalise_key(e.written).startswith(normalise_key(pt["key"]) + "."):
            # engine_kwargs.vllm.X=… / vllm_config.X: a vLLM argument passed straight through
            arg = normalise_key(e.written)[len(normalise_key(pt["key"])) + 1:]
            if pt.get("drops_null") and _null(s.value, s.raw):
                unmapped[e.written] = s  # verl: `None` leaves vLLM's default (never reaches vLLM)
                continue
            s.name = arg
            settings[arg] = s
            continue
        if key is None and pt and normalise_key(e.written) == normalise_key(pt["key"]) and isinstance(s.value, dict):
            for arg, v in s.value.items():
                if pt.get("drops_null") and v is None:
                    continue
                # a YAML mapping: each key on its own line; a JSON string (--vllm_config '{…}'): the flag's
                nested = str(arg) in e.lines
                pos = {"yaml": [s.pos["yaml"][0], list(s.pos["yaml"][1]) + [str(arg)]]} if nested and s.pos and "yaml" in s.pos else None
                known = not interpolated(v)
                settings[str(arg)] = Setting(str(arg), v if known else None, known, s.file, e.lines.get(str(arg), s.line),
                                             str(arg) if nested else s.key, repr(v), s.syntax, pos=pos)
            values[pt["key"]] = s.value
            passthrough = s
            continue
        if key is None:
            continue
        if s.resolved:
            values[key.key] = s.value
        written[key.key] = s
        if not fw.key_versions_hold(key, version):
            unmapped[key.key] = s  # this release of the framework ignores (or rejects) the key
            continue
        if (command or "") in key.not_read_by:
            unmapped[key.key] = s  # this command's code never reads the key (vllm_infer.py: vllm_max_lora_rank)
            continue
        if key.role == "model_config" and s.resolved and s.value not in (None, "", False):
            changed.append(key.key)  # applied to the model config vLLM is given, not an engine argument
            continue
        if key.passed_as:
            renamed.append((key, s))
        elif key.arg == "model":
            s.name = "model"
            model = s
        elif key.arg:
            s.name = key.arg
            settings[key.arg] = s
    for key, s in renamed:
        _pass_renamed(fw, key, s, settings, unmapped, values, version, command)
    named = fw.named_model(values, version) if model is None else None
    if named is not None and named[0] in written:
        # the model named by a registry key (ms-swift 2.x --model_type): the id its table maps it to
        given = written[named[0]]
        model = Setting("model", named[1], True, given.file, given.line, given.key, given.raw, given.syntax,
                        note=f"{named[0]}={values.get(named[0])!r} names {named[1]} ({fw.name}'s model registry)", implied=True)
    # a framework installed from a commit has no release, but the commit's place in the history names the
    # line of code it is on: enough to know which mode a default picks (open-r1's trl@1bca4951: server)
    mode_rule = fw.mode_rule(values, version or _commit_version(fw.id, commit), command)
    mode, client = (mode_rule["mode"], bool(mode_rule.get("client"))) if mode_rule is not None else ("none", False)
    if mode == "none":
        return None
    site = Site(file=file, line=line, syntax=syntax, kind=kind, mode=mode, mode_evidence=f"{file}:{line}",
                framework=fw.id, end_line=end_line or line)
    implied_defaults = {}
    for rule, value in fw.implied(values, version, command, commit):
        if rule["arg"] in settings:
            continue
        if any(k in written and k not in values for k in rule["from"]):
            continue  # derived from a value the audit cannot read (`data.max_prompt_length=$LEN`): unknown
        src = [written[k] for k in rule["from"] if k in written]
        if not src:  # derived from the framework's own defaults only
            implied_defaults[rule["arg"]] = value
            continue
        first = src[0]
        settings[rule["arg"]] = Setting(rule["arg"], value, True, first.file, first.line, first.key, first.raw, first.syntax,
                                        note="implied by " + " + ".join(f"{k}={values[k]!r}" for k in rule["from"] if k in values),
                                        implied=True)
    # a commit of the main branch (no release placed: framework_unplaced) takes the defaults of the
    # version its code says, not the newest release's (LLaMA-Factory 9ee416a8 had no vllm_gpu_util: 0.9, not 0.7)
    own = fw.defaults(version or _commit_version(fw.id, commit), command)
    defaults = {k: v for k, v in {**own, **implied_defaults}.items() if k not in settings}
    resolved = {a: st.value for a, st in settings.items() if st.resolved and not st.implied}
    for arg in fw.dropped({**defaults, **resolved}, values, version, command):
        # verl 0.6–0.9.0 build vLLM's command line from the config and skip a False switch:
        # vLLM's default holds, as if the key were not written
        defaults.pop(arg, None)
        if arg in resolved:
            st = settings.pop(arg)
            unmapped[st.key or arg] = st
    site.settings = settings
    site.unknown = unknown
    site.unmapped = unmapped
    site.framework_written = every
    site.model = model
    site.source = source
    site.framework_version = version
    site.framework_defaults = defaults
    site.fixed = fw.fixed(mode, version)
    site.framework_keys = values
    site.framework_command = command
    site.passthrough = passthrough
    site.engine_elsewhere = client
    if changed:
        # the config fields the keys override, by their own names beside the framework's keys (NeMo-RL's
        # policy.hf_config_overrides.max_position_embeddings): L14 asks for the field, as ms-swift's adapter writes it
        fields = [f for f in ("rope_scaling", "max_position_embeddings")
                  if any(f in k.split(".") or (f == "rope_scaling" and f in k) for k in changed) and f not in changed]
        site.launch["model_config_keys"] = [*changed, *fields]
    if isinstance(own.get("gpu_memory_utilization"), (int, float)):
        # what leaving the key out gives: the framework's share, not vLLM's default (B1)
        site.launch["framework_gpu_share"] = float(own["gpu_memory_utilization"])
    device = next((values[k.key] for k in fw.keys if k.role == "device" and isinstance(values.get(k.key), str)), None)
    if device:  # the accelerator the framework's workers run on (verl trainer.device=npu): facts.py's platform
        site.launch["framework_device"] = device.strip().lower()
    if mode_rule is not None and mode_rule.get("device"):  # the mode's rule: `rule` above is an implied one's
        site.launch.update(engine_device(mode_rule["device"], values))
        site.launch["engine_device_by"] = f"{fw.name} {version}"
    return site


def _null(value: Any, raw: str) -> bool:
    """A value written as null (`swap_space: null`, `…swap_space=null`), not one the audit could not read."""
    return value is None and (raw or "").rsplit("=", 1)[-1].strip().strip("'\"").lower() in ("null", "none", "~")


def _pass_renamed(fw: Framework, key, s: Setting, settings: dict, unmapped: dict, values: dict, version: str | None,
                  command: str | None) -> None:
    """A key the release hands vLLM under another name (knowledge: `passed_as`): verl 0.7's
    rollout.cudagraph_capture_sizes is vLLM's cuda_graph_sizes, 0.9's a field of compilation_config.
    Where the config also passes a compilation_config of its own, that one is read as written."""
    arg, fld = fw.passed_as(key, values, version, command)
    if arg is None:
        unmapped[key.key] = s
    elif fld is None:
        s.name = arg
        settings[arg] = s
    elif arg not in settings:
        note = f"{fw.name} {version or '(newest)'} passes {key.key} as {arg}.{fld}"
        settings[arg] = Setting(arg, {fld: s.value} if s.resolved else None, s.resolved, s.file, s.line, s.key, s.raw,
                                s.syntax, note=note, implied=True)


def _commit_version(fid: str, commit: str | None) -> str | None:
    from vllm_kb.engine.kb import framework_history

    got = framework_history.commit(fid, commit) if commit else None
    return got[0].get("version") if got is not None else None


def engine_device(rule: dict, values: dict) -> dict:
    """Where a framework that builds the engine in its training process puts it (knowledge: a mode's
    `device`): the GPU its key names (cuda:N), else the one after the training processes."""
    import re

    named = values.get(rule.get("key", ""))
    m = re.fullmatch(r"\s*cuda:(\d+)\s*", named) if isinstance(named, str) else None
    if m:
        return {"engine_device": int(m.group(1)), "engine_device_key": rule["key"]}
    if named not in (None, "auto"):
        return {}  # cpu, an unresolved value: no GPU index to compare
    return {"engine_device": rule["after"], "engine_device_key": rule.get("key", ""), "engine_device_auto": True,
            "engine_device_shares_single": bool(rule.get("share_single"))}


def device_tp(site: Site | None) -> None:
    """A framework that sizes an engine argument by the GPUs its process sees (knowledge:
    `device_tp`): the count CUDA_VISIBLE_DEVICES gives, else unknown here — it is a fact of the
    machine that runs it, which the audit takes from --gpu, never from the machine auditing."""
    if site is None or site.framework == "none":
        return
    from vllm_kb.engine.kb import frameworks

    spec = frameworks.get(site.framework).raw.get("device_tp")
    if not spec or spec["arg"] in site.settings or (spec.get("commands") and site.framework_command not in spec["commands"]):
        return
    arg = spec["arg"]
    site.framework_defaults.pop(arg, None)
    cvd = site.env.get("CUDA_VISIBLE_DEVICES")
    ids = [x.strip() for x in str(cvd.value).split(",") if x.strip()] if cvd is not None and cvd.resolved else None
    if cvd is not None and ids and all(x.isdigit() for x in ids):
        site.settings[arg] = Setting(arg, len(ids), True, cvd.file or site.file, cvd.line or site.line, "CUDA_VISIBLE_DEVICES",
                                     cvd.raw, site.syntax, f"the number of GPUs CUDA_VISIBLE_DEVICES shows ({spec['source']})",
                                     implied=True)
        return
    site.settings[arg] = Setting(arg, None, False, site.file, site.line, "", "", site.syntax,
                                 f"the number of GPUs the process sees on the machine that runs it ({spec['source']})", implied=True)
    site.device_args = (*site.device_args, arg)


def mapping_entries(data: dict, doc: yamlio.Document, rel: str, flatten: bool, base: tuple = (), strip: int = 0) -> list[Entry]:
    """A config mapping's keys as entries (nested paths joined with dots when `flatten`), each at its line;
    `strip`: how many leading keys of the path (a section the script hands on) the names leave out."""
    out = []
    for k, v in data.items():
        path = base + (str(k),)
        if flatten and isinstance(v, dict):
            out += mapping_entries(v, doc, rel, flatten, path, strip)
            continue
        key = ".".join(path[strip:])
        raw = json.dumps(v) if isinstance(v, (dict, list)) else ("true" if v is True else "false" if v is False else str(v))
        lines = {str(sk): doc.line_of(path + (sk,)) for sk in v} if isinstance(v, dict) else {}
        out.append(Entry(key, Setting(key, v, v is not None, rel, doc.line_of(path), str(k) if not flatten else key, raw, "framework-config",
                                      pos=doc.pos(path)), lines))
    return out


def interpolated(value: Any) -> bool:
    """An OmegaConf/Hydra interpolation (`${oc.env:ROLLOUT_TP,4}`, `${data.max_prompt_length}`): its value is
    decided when the framework loads the config (an environment variable may be set, another key
    overridden on the command line), so it is unknown here, never a string vLLM would be given nor a default."""
    return isinstance(value, str) and "${" in value
