"""Findings drawn from the vLLM catalog rather than from a check's CEL: an option, value or
environment variable that the site's vLLM release does not have, the deprecated API-server
entry point, and a framework's own pitfalls. Each code is registered in `CODES` (id → default
priority) and reaches the same rule registry as the YAML checks (engine/check/rules.py), so
`vllm-kb checks show not-in-version` works like `checks show B3`."""
from __future__ import annotations

import re

from vllm_kb.engine.check import chat_template_path, cli_choices, config_keys, empty_values, entrypoint_findings, framework_args, framework_range, json_values, unknown_flags, value_findings
from vllm_kb.engine.check.removed_moves import carry as _carry, safe_removal
from vllm_kb.engine.kb import deploy_tools, plugins
from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.kb.knowledge import FixOp, Knowledge
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan.cli_args import normalise_flag
from vllm_kb.engine.scan.images import is_vllm_image
from vllm_kb.engine.scan.site import Finding, Site

DEPLOY_SYNTAXES = unknown_flags.DEPLOY_SYNTAXES

# What each finding means lives in knowledge/i18n.yaml as `sarif.rule.<code>`.
CODES = {
    "not-in-version": "P0",
    "unknown-option": "P0",
    "plugin-option": "P2",
    "value-not-in-version": "P0",
    "value-unknown": "P0",
    "value-unlisted": "P1",
    "env-not-in-version": "P2",
    "deprecated-entrypoint": "P2",
    **entrypoint_findings.CODES,
    **chat_template_path.CODES,
    **empty_values.CODES,
    **json_values.CODES,
    framework_args.CODE: "P0",
    config_keys.CODE: "P0",
}
# The release from which `python -m vllm.entrypoints.openai.api_server` warns that it is deprecated.
API_SERVER_DEPRECATED = "0.29.0"


def site_findings(site: Site, cat: Catalog, version: str, lookup: str, handled: set[str], kb: Knowledge,
                  urgent: set[str] | None = None, claimed: set[tuple[str, str]] | None = None, pinned: bool = True) -> list[Finding]:
    """Every catalog finding of one site. `version` is the release the project uses, `lookup`
    the catalogued release it resolves to; `handled` names settings a check already removes,
    `urgent` those a P0 check removes (only they hide a refusal; None: every one in `handled`),
    `claimed` the (argument, key) pairs of JSON arguments a P0 check rewrites; `pinned`: the project pins that
    vLLM (a framework's vllm extra then narrows the releases of a range pin that pip installs beside it)."""
    demo, covered = entrypoint_findings.site_findings(site, kb, version)
    refused = (handled if urgent is None else urgent) | covered
    handled = handled | covered
    # vLLM as released: a pin, or vLLM's own image (a vendor's image may carry its own patched build)
    stock = pinned and (site.image is None or is_vllm_image(site.image))
    values = value_findings.value_remarks(site, cat, lookup, refused, kb, stock)
    said = {f.subject for f in values}
    values += [f for f in cli_choices.findings(site, kb, lookup) if f.subject not in said and f.subject.partition("=")[0] not in refused]
    values += config_keys.findings(site, cat, lookup, refused, claimed or set())
    values += json_values.findings(site, cat, lookup, refused)
    out = demo + (_version_remarks(site, cat, lookup, refused, kb) + values
           + _env_remarks(site, cat, lookup, handled, kb) + _framework_remarks(site, version, pinned)) + empty_values.findings(site)
    if site.kind == "api_server" and cat.index_version(version) >= cat.index_version(API_SERVER_DEPRECATED):
        out.append(Finding("deprecated-entrypoint", msg("finding.api_server_deprecated", version=version), site.file, site.line, "P2"))
    return out


def _framework_remarks(site: Site, vllm_version: str, pinned: bool = True) -> list[Finding]:
    if site.framework == "none":
        return []
    from vllm_kb.engine.kb import frameworks

    fw = frameworks.get(site.framework)
    # TRL's rollout server is a command of its own (`trl vllm-serve`), not a trainer's subcommand
    command = site.framework_command or ("vllm-serve" if site.kind == "trl vllm-serve" else None)
    out = []
    # what the project says around the site: the plain server on a client's port (plain_server), the
    # process count the launcher of the file gives (launcher_processes: `accelerate launch --num_processes 3`)
    peer = {k: v for k, v in (site.launch or {}).items() if k in ("plain_server", "launcher_processes")}
    unread = {k.key for n, s in (site.framework_written or {}).items() if not s.resolved and (k := fw.key(n)) is not None}
    written_as = "call" if site.syntax == "python-call" else "config" if site.syntax == "framework-config" else ""
    ranged = set()  # codes said at P1 because only some releases a range pin allows have them (check/framework_range.py)
    for f, release, more in framework_range.findings(fw, site, command, vllm_version, pinned, peer=peer, unread=unread,
                                                     source=site.framework_source, written_as=written_as):
        text = {lang: f["text"][lang].replace("{vllm_version}", vllm_version).replace("{framework_version}", release)
                .replace("{plain_server}", str(peer.get("plain_server", ""))) + (more[lang] if more else "") for lang in ("en", "zh")}
        if more:
            ranged.add(f"{site.framework}-{f['code']}")
        if f["priority"] == "P0" and site.framework_unplaced and _reads_release(f):
            # a git commit or branch: the release the finding rests on is a guess (scan/framework_unplaced.py)
            more = msg("finding.fw_unplaced", framework=fw.name, pin=site.framework_unplaced)
            text = {lang: text[lang] + more[lang] for lang in ("en", "zh")}
            f = dict(f, priority="P1", fix=[])
        fix = [(FixOp.of(x), v) for x in f.get("fix", [])
               if (v := fw.fix_value(x, site.framework_keys, site.framework_version, command)) is not None or "value_from" not in x]
        # a P0's change is what makes the launch start: safe, like a P0 rule's (schema/checks.schema.json)
        file, line = _presence_at(site, f) if f.get("presence") else (site.file, site.line)
        out.append(Finding(f"{site.framework}-{f['code']}", text, file, line, f["priority"], fix=fix,
                           safe=bool(fix) and f["priority"] == "P0", subject="", vllm=f.get("vllm")))
    # a dropped key the framework's own pitfall already names (ms-swift removed-flag, TRL legacy-key) is said once
    dropped_said = any(c.endswith(("-removed-flag", "-legacy-key")) and (f.priority == "P0" or c in ranged) for f in out for c in [f.code])
    refused = [(r, release, more) for r, release, more in framework_range.refusals(site, vllm_version, pinned)
               if r.first is not None or not dropped_said]
    some = [x for x in refused if x[2]]
    out += [_key_refused(site, r, fw.name, release, more) for r, release, more in refused if not more or len(some) < 2]
    if len(some) > 1:
        out.append(_keys_refused(site, fw.name, some, vllm_version, pinned))
    return out


def _keys_refused(site: Site, name: str, some: list, vllm_version: str, pinned: bool) -> Finding:
    """Several keys only some releases of a range pin refuse (`ms-swift>=2.0` gave one P1 a key): one P1 for the
    site that names each, with the range said once over the releases that refuse any of them (each stops the
    launch); it stands at the first key's line and carries no change, as the P1 of one key does not."""
    each = [_key_refused(site, r, name, release, None) for r, release, _ in some]
    span = framework_range.releases(site, vllm_version if pinned else None)
    union = [v for v in span if any(v in more["holds"] for _, _, more in some)]
    more = framework_range.note(name, site, span, union, vllm_version if pinned else None)
    first = min(each, key=lambda f: (f.file, f.line))
    text = {lang: " ".join(f.message[lang] for f in each) + more[lang] for lang in ("en", "zh")}
    return Finding(framework_args.CODE, text, first.file, first.line, "P1", subject=",".join(f.subject for f in each))


def _presence_at(site: Site, f: dict) -> tuple[str, int]:
    """Where a finding about written keys points: the first such key as written (the keyword line
    of GRPOConfig(...), the YAML key), else the site."""
    from vllm_kb.engine.kb import cel, frameworks

    fw = frameworks.get(site.framework)
    named = {p[1] for p in cel.compile(f["when"]).paths if len(p) > 1 and p[0] == "keys"}
    got = [s for w, s in (site.framework_written or {}).items() if (k := fw.key(w)) is not None and k.key in named and s.line]
    first = min(got, key=lambda s: s.line, default=None)
    return (first.file or site.file, first.line) if first is not None else (site.file, site.line)


def _reads_release(f: dict) -> bool:
    """Whether a framework finding's condition reads the framework's release."""
    from vllm_kb.engine.kb import cel

    return any(p[:2] == ("framework", "version") for p in cel.compile(f["when"]).paths)


def _key_refused(site: Site, r, name: str, release: str, more: dict | None) -> Finding:
    """A framework key the pinned framework release's parser refuses (engine/check/framework_args.py); `more`:
    only some releases a range pin allows refuse it (`trl>=0.14.0`, engine/check/framework_range.py), a P1."""
    words = framework_args.refusal_words(site, r)
    when = (msg("finding.fw_key_added", first=r.first) if r.first else msg("finding.fw_key_dropped", last=r.last) if r.last
            else msg("finding.fw_key_never", parser=r.parser))
    instead = msg("finding.fw_key_instead", instead=r.instead) if r.instead else {"en": "", "zh": ""}
    text = {lang: msg("finding.fw_key_refused", framework=name, release=release, key=r.written,
                      parser=r.parser, when=when[lang], words=words, instead=instead[lang])[lang] + (more[lang] if more else "")
            for lang in ("en", "zh")}
    return Finding(framework_args.CODE, text, r.setting.file or site.file, r.setting.line or site.line, "P1" if more else "P0",
                   subject=r.key)


def _version_remarks(site: Site, cat: Catalog, version: str, handled: set[str], kb: Knowledge) -> list[Finding]:
    """Options the site passes that its vLLM version does not have (launch fails)."""
    out = []
    to_class = site.kind in ENGINE_CLASS_KINDS and site.syntax == "python-call" or site.tool in KWARG_TOOLS
    for s in list(site.settings.values()) + list(site.unknown.values()):
        if s.name in handled or (s.pos or {}).get("attribute") or (s.pos or {}).get("probed"):
            # an attribute set on a built EngineArgs (python_attr_sets), or a keyword a wrapper passes only where
            # the release has it (llm_wrappers.yaml probed): a field it lacks is no error
            continue
        if to_class and (f := _server_only(s, site, cat, version, kb)):
            out.append(f)
            continue
        if site.tool in KWARG_TOOLS and (f := _dashed_keyword(s, site, cat)):  # a server option is out either way (above)
            out.append(f)
            continue
        key = s.key or s.name
        if s.known:
            # known when scanned, at the release the scan read it with (an image's tag); the audit's
            # release may be another (an upgrade's target), where the option may be gone
            e = lifecycle_entry(s, key, cat, version) if not _not_one_option(key) and not s.implied else None
            if e is not None and not e.within_life(version):
                out.append(_passed_as(site, s, _lifecycle_finding(s, key, e, cat, version, kb, site)))
            continue
        if _not_one_option(key):
            # a whole `${VLLM_ARGS}` string or an unexpanded variable read as one word: what it
            # holds is not known, so it is no evidence of a bad option — except an item of a list
            # argv (compose/Kubernetes lists, exec-form JSON, a Python argv list), never split
            if (f := _one_item(site, s, key)) is not None:
                out.append(f)
            continue
        e = None if _single_dash_word(key, cat, version) else lifecycle_entry(s, key, cat, version)
        if e is not None and e.within_life(version):
            continue
        if e is not None:
            out.append(_lifecycle_finding(s, key, e, cat, version, kb, site))
        else:
            out.append(unknown_flags.finding(site, s, key, cat, version))
    return out


def _passed_as(site: Site, s, f: Finding) -> Finding:
    """A framework key vLLM knows by another name (verl 0.7's rollout.cudagraph_capture_sizes reaches it
    as cuda_graph_sizes): the finding names both."""
    if site.framework == "none" or not s.key or s.key.split("=", 1)[0].lstrip("+-~").rsplit(".", 1)[-1] == s.name:
        return f
    more = msg("finding.fw_passed_as", framework=site.framework, arg=s.name)
    f.message = {lang: f.message[lang] + more[lang] for lang in ("en", "zh")}
    return f


def _single_dash_word(key: str, cat: Catalog, version: str) -> bool:
    """`-language-model-only`: argparse maps no single-dash word to its `--` option; with no flag
    of that spelling and no short option `-l` to take the rest as its value, it stops with
    "unrecognized arguments" (argparse _parse_optional / _get_option_tuples)."""
    if not key.startswith("-") or key.startswith("--") or len(key) <= 2 or cat.flag(key) is not None:
        return False
    short = cat.flag(key[:2])
    return short is None or not short.within_life(version)


def lifecycle_entry(s, key: str, cat: Catalog, version: str | None = None):
    """The catalog's history of the option a setting names, on every surface: a Python keyword or a
    key of a framework/kwargs file by its dest, an argv word (script, Dockerfile, compose, Kubernetes
    args, Helm values) or a YAML --config key by its flag; a flag first where the site writes flags.
    A unique prefix of a release's long option is that option (argparse allow_abbrev, which no
    release turns off): `--served-model` is 0.2.0's `--served-model-name`."""
    spelled = normalise_flag(key if key.startswith("-") else "--" + key)[0] if key else None
    flag = cat.flag(spelled) if spelled else None
    if flag is None and spelled and key.startswith("--") and version is not None:
        full = cat.expand_abbreviation(spelled, version) or cat.abbreviation_elsewhere(spelled)
        flag = cat.flag(full) if full else None
    if s.syntax in ("python-call", "kwargs-json"):
        # a keyword, or a Triton model.json key (vllm_backend: AsyncEngineArgs(**model_json)): the
        # dataclass field decides, not a CLI flag that outlived it (--disable-log-requests in 0.10.1+)
        return cat.arg(s.name) or flag
    return flag or _arg_at(cat, s.name, version)


def _arg_at(cat: Catalog, name: str, version: str | None):
    """An argument by dest, from the section (EngineArgs or the server's own) that has it in the
    release: served_model_name was a server option up to 0.4.1 and an EngineArgs field after."""
    entry = cat.arg(name)
    if version is None or entry is None or entry.within_life(version):
        return entry
    other = cat.server_arg(name)
    return other if other is not None and other.within_life(version) else entry


def _lifecycle_finding(s, key: str, e, cat: Catalog, version: str, kb: Knowledge, site: Site | None = None) -> Finding:
    """An option some release has but the site's release does not (vllm/engine/arg_utils.py and the
    server's cli_args.py of each release, knowledge/vllm/catalog.json): `not-in-version`, with the
    releases that have it. Added later: the option is what the launch asks for, so the change is the
    first release that has it, never its removal. Removed earlier: its removal (and the successor,
    renames.yaml), except for an option that selects what the launch serves (`selects`): removing
    that serves something else, so the change is the last release that has it."""
    later = cat.index_version(version) < cat.index_version(e.first)
    removed = None if later else e.removed_in()
    bounded = e.removed_in() is not None
    if later:
        extra = msg("finding.only_in", first=e.first, last=e.last) if bounded else msg("finding.added_in", first=e.first)
    else:
        extra = msg("finding.removed_in_span", removed=removed, first=e.first, last=e.last)
    text = {lang: msg("finding.not_in_version", key=key, version=version, extra=extra[lang])[lang] for lang in ("en", "zh")}
    rename = None if later else kb.renames.get((False, s.name))
    mapped = _successor_args(rename, s, cat, version) if rename and rename.get("selects") else None
    if later:
        fix = [(FixOp("pin", "vllm"), f">={e.first},<={e.last}" if bounded else f">={e.first}")]
    elif rename and rename.get("selects") and mapped is None:
        fix = [(FixOp("pin", "vllm"), f"<={e.last}")]
    else:
        fix = [(FixOp("unset", s.name), None)] + [(FixOp("set", k), v) for k, v in (mapped or {}).items()]
    if rename:
        text = {lang: text[lang] + kb.t("finding.replaced_by", lang, what=rename["replacement"][lang]) for lang in ("en", "zh")}
        if not rename.get("selects"):
            fix += _carry(rename, s.value if s.resolved else None, cat, version, frozenset(site.settings) if site else frozenset())
    return Finding("not-in-version", text, s.file, s.line, "P0", fix=fix, safe=safe_removal(rename, fix), subject=s.name)


def _successor_args(rename: dict, s, cat: Catalog, version: str) -> dict | None:
    """What serves the same as the removed option's value (renames.yaml `carry_values`, the hints
    vLLM's own deprecation gave), when the release has those arguments; None when not known."""
    mapped = (rename.get("carry_values") or {}).get(str(s.value)) if s.resolved else None
    if mapped is None or not all((a := cat.arg(k)) is not None and a.exists(version) for k in mapped):
        return None
    return dict(mapped)


# Python calls whose keywords become EngineArgs/AsyncEngineArgs fields (LLM() hands its **kwargs to
# EngineArgs): an option of the OpenAI server is no field there and the call raises TypeError
ENGINE_CLASS_KINDS = ("LLM()", "EngineArgs()", "AsyncEngineArgs()")
# tools that hand the options of their own command to AsyncEngineArgs as keywords (knowledge/deploy/
# xinference.yaml: `xinference launch … --key value` → VLLMModel's engine kwargs)
KWARG_TOOLS = ("xinference",)


def _dashed_keyword(s, site: Site, cat: Catalog) -> Finding | None:
    """`xinference launch … --limit-mm-per-prompt '{"image": 5}'`: Xinference hands each extra `--key value`
    pair on as the keyword `key` exactly as written (deploy/cmdline.py model_launch, `ctx.args[i][2:]`,
    every release from 0.11.0 to 4.1.0), and VLLMModel.load passes it to AsyncEngineArgs(**model_config):
    no dataclass field has a hyphen, so the load stops with "AsyncEngineArgs.__init__() got an
    unexpected keyword argument 'limit-mm-per-prompt'" (xorbitsai/inference#3054) in every vLLM."""
    key = (s.key or "").split("=", 1)[0]
    if s.syntax == "python-call" and not s.implied and "-" in s.name and key == s.name:
        # launch_model(**{"limit-mm-per-prompt": …}): the client sends the key as written and VLLMModel.load
        # hands it to AsyncEngineArgs(**model_config) the same way (xorbitsai/inference#3778)
        word = s.name.replace("-", "_")
        if cat.arg(word) is None or word in _tool_keys(site.tool):
            return None
        text = msg("finding.xinference_dashed_kwarg", key=s.name, fixed=word)
        return Finding("unknown-option", text, s.file, s.line, "P0", fix=[(FixOp("rename", s.name), word)], safe=True, subject=s.name)
    if s.syntax == "python-call" or s.implied or not key.startswith("--") or "-" not in key[2:] or _not_one_option(key):
        return None
    word = key[2:].replace("-", "_")
    if s.name != word:
        return None
    if word in _tool_keys(site.tool):
        # `--download-hub modelscope`, as Xinference's web UI copies a launch as a command: the key is
        # Xinference's own (`download_hub`, `reasoning_content`), but only with underscores; the hyphen
        # form is handed on to the engine like any other pair (xorbitsai/inference#3469, #3734)
        text = msg("finding.xinference_dashed_own_key", key=key, word=key[2:], fixed="--" + word)
        return Finding("unknown-option", text, s.file, s.line, "P0", fix=[(FixOp("rename", s.name), s.name)], safe=True,
                       subject=s.name)
    if cat.arg(word) is None:
        return None  # no engine argument under either spelling: the unknown-option finding says so
    text = msg("finding.xinference_dashed_key", key=key, word=key[2:], fixed="--" + word)
    return Finding("unknown-option", text, s.file, s.line, "P0", fix=[(FixOp("rename", s.name), s.name)], safe=True, subject=s.name)


def _tool_keys(tool: str | None) -> set[str]:
    """The keywords a serving tool keeps for itself (knowledge/deploy/xinference.yaml `python_keys`)."""
    return set(deploy_tools.load(tool).get("python_keys") or []) if tool else set()


def _server_only(s, site: Site, cat: Catalog, version: str, kb: Knowledge) -> Finding | None:
    """`AsyncEngineArgs(enable_auto_tool_choice=True)`: a server option given to the engine class
    (vllm/engine/arg_utils.py is a dataclass of the engine fields only; the server's options are
    added by vllm/entrypoints/openai/cli_args.py make_arg_parser). A keyword the engine class had
    in earlier releases and lost to the server (disable_log_requests after 0.10.0, max_log_len
    after 0.5.2) is `not-in-version`: the keyword was removed, with the release and its successor."""
    engine, server = cat.engine_arg(s.name), cat.server_arg(s.name)
    if server is None or not server.within_life(version) or (engine is not None and engine.within_life(version)):
        return None
    flag = cat.long_flag(s.name, version) or "--" + s.name.replace("_", "-")
    cls = {"LLM()": "LLM → EngineArgs", "EngineArgs()": "EngineArgs", "AsyncEngineArgs()": "AsyncEngineArgs"}.get(
        site.kind, "AsyncEngineArgs")
    if engine is not None and cat.index_version(version) > cat.index_version(engine.last):
        f = _lifecycle_finding(s, s.key or s.name, engine, cat, version, kb, site)
        now = msg("finding.server_only_now", name=s.name, flag=flag, cls=cls, version=version)
        f.message = {lang: f.message[lang] + now[lang] for lang in ("en", "zh")}
        return f
    text = msg("finding.server_only_option", key=s.key or s.name, name=s.name, flag=flag, cls=cls, version=version)
    return Finding("unknown-option", text, s.file, s.line, "P0", fix=[(FixOp("unset", s.name), None)], safe=True,
                   subject=s.name)


# argv written as a list: each item reaches vLLM as one argument, whatever spaces it holds
LIST_ARGV = ("yaml-list", "json", "argv")
_OPTION_AND_VALUE = re.compile(r"^--?[A-Za-z][\w.-]*\s+\S")


def _one_item(site: Site, s, key: str) -> Finding | None:
    """`- --dtype auto` in a compose/Kubernetes list, `"--host 127.0.0.1"` in a subprocess argv:
    argparse takes a word with a space for a positional (`_parse_optional`: "if it contains a space,
    it was meant to be a positional") and vLLM stops with "unrecognized arguments"."""
    if (site.source or {}).get("argv_style") not in LIST_ARGV or "$" in key or not _OPTION_AND_VALUE.match(key):
        return None
    flag, _, value = key.partition(" ")
    value = value.strip()
    several = re.search(r"\s-", value) is not None  # `--model X --tensor-parallel-size 2`: options of their own too
    text = msg("finding.options_in_one_item" if several else "finding.option_in_one_item", item=key, flag=flag, value=value)
    return Finding("stray-positional", text, s.file, s.line, "P0", subject=s.name)


def _not_one_option(key: str) -> bool:
    return any(c.isspace() for c in key) or "${" in key or "$(" in key or key.lstrip("-").startswith("$")


def _env_remarks(site: Site, cat, version: str, handled: set[str], kb: Knowledge) -> list[Finding]:
    """VLLM_* variables the site's vLLM does not know: ignored (and warned about from 0.17). `--fix`
    drops one only where stock vLLM is known to have removed it before the site's release: a variable no
    release reads may be a fork's (opea/vllm-gaudi's VLLM_SKIP_WARMUP, read by the HabanaAI build:
    GenAIExamples, eval117), a plugin's or the project's own, and one a later release adds is meant for
    that release — dropping either gains nothing and can take what the deployment relies on."""
    out = []
    for name, s in site.env.items():
        if not name.startswith("VLLM_") or name in handled or plugins.env_owner(name, site.plugins):
            continue  # a plugin's own variable (vllm-ascend's VLLM_ASCEND_*) is not vLLM's to know
        e = cat.env(name)
        if e is not None and e.exists(version):
            continue
        removed = e.removed_in() if e is not None and cat.index_version(version) > cat.index_version(e.last) else None
        extra = (msg("finding.removed_in", removed=removed) if removed else msg("finding.added_in", first=e.first)) \
            if e is not None else {"en": "", "zh": ""}
        text = {lang: msg("finding.env_not_in_version", name=name, version=version, extra=extra[lang])[lang] for lang in ("en", "zh")}
        fix = [(FixOp("unset_env", name), None)]
        rename = kb.renames.get((True, name))
        if rename:
            text = {lang: text[lang] + kb.t("finding.replaced_by", lang, what=rename["replacement"][lang]) for lang in ("en", "zh")}
            fix += _carry(rename, s.value, cat, version)
        vendor = site.image is not None and not is_vllm_image(site.image)
        kept = "env_kept_unknown" if e is None else "env_kept_newer" if not removed else "env_kept_removed" if vendor else None
        if kept:
            text = {lang: text[lang] + msg(f"finding.{kept}")[lang] for lang in ("en", "zh")}
        out.append(Finding("env-not-in-version", text, s.file, s.line, "P2", fix=fix, safe=kept is None, subject=name))
    return out
