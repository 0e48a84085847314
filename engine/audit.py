"""One audit, end to end: walk the project, read pins, scan every file for sites, build each
site's facts, run the checks, plan the changes in the site's syntax."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable

from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb import hardware as hw
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.check.evaluate import Result, evaluate_all
from vllm_kb.engine.check.facts import site_facts
from vllm_kb.engine.fix.changes import Change, diffs, fixables, plan
from vllm_kb.engine.kb.knowledge import FixOp
from vllm_kb.engine.kb.knowledge import Knowledge, load
from vllm_kb.engine.kb.messages import msg
from vllm_kb.engine.scan import pins as pins_mod
from vllm_kb.engine.scan import configs, deploy, python_calls, scripts
from vllm_kb.engine.scan.context import ScanContext, Skipped
from vllm_kb.engine.scan.walk import walk
from vllm_kb.engine.scan.site import Finding, Site
from vllm_kb.engine.kb.versions import try_parse


@dataclass
class SiteReport:
    site: Site
    facts: dict[str, Any]
    results: list[Result]
    changes: list[Change]
    after: list[dict]
    version: pins_mod.VersionChoice
    lookup_version: str
    lookup_note: str | None
    remarks: list[Finding] = field(default_factory=list)
    key: str = ""  # file|kind|n, what fingerprints are made of (engine/check/baseline.py)
    suppressed: list = field(default_factory=list)  # engine/suppressions.Suppressed


@dataclass
class AuditReport:
    root: Path
    sites: list[SiteReport]
    skipped: list[Skipped]
    hardware: hw.Hardware
    files_scanned: int
    pins: list[pins_mod.Pin]
    default_version: pins_mod.VersionChoice
    kb: Knowledge
    files: list[str] = field(default_factory=list)  # what was read, relative to root
    ctx: ScanContext | None = None
    findings: list[Finding] = field(default_factory=list)  # about no site (engine/check/suppressions.py)


def resolve_hardware(kb: Knowledge, gpu: str | None, nvml=None) -> hw.Hardware:
    if gpu and gpu.lower() != "auto":
        return hw.parse_spec(gpu, kb.gpus)
    return hw.probe(kb.gpus, nvml=nvml)


@dataclass
class Scan:
    """What reading a project found, before any check runs (shared by audit and detect)."""

    root: Path
    files: list[str]
    ctx: ScanContext
    pins: list
    sites: list[Site]
    choices: dict
    default: pins_mod.VersionChoice


def audit(path: str | Path, *, gpu: str | None = None, vllm_version: str | None = None, nvml=None,
          kb: Knowledge | None = None, exclude: Callable[[str], bool] | None = None,
          overlay: dict[str, str] | None = None, progress: Callable[[str, int], None] | None = None) -> AuditReport:
    """`exclude(rel)` drops files before they are read; `overlay` gives files' texts instead of
    the disk's (how --diff sees the project after earlier fixes); `progress(phase, n)` is told of
    each file read and each site checked."""
    kb = kb or load()
    cat = catalog_mod.load()
    sc = scan_project(path, vllm_version=vllm_version, exclude=exclude, overlay=overlay, progress=progress)
    hardware = resolve_hardware(kb, gpu, nvml)
    reports = []
    for site in sc.sites:
        choice = _choice_for(site.file, sc.choices, sc.default)
        try:
            reports.append(_site_report(site, choice, hardware, kb, cat, sc.ctx))
        except Exception as e:  # noqa: BLE001 — one site's bug must not cost the report of the others
            sc.ctx.skip(site.file, "scanner-error", site.line, f"{type(e).__name__}: {e}"[:160])
        if progress is not None:
            progress("check", len(sc.sites))
    return AuditReport(root=sc.root, sites=reports, skipped=sc.ctx.skipped, hardware=hardware, files_scanned=len(sc.files),
                       pins=sc.pins, default_version=sc.default, kb=kb, files=list(sc.files), ctx=sc.ctx)


def replan(rep: AuditReport, sr: SiteReport) -> None:
    """Plan a site's changes again after its results or findings were filtered (config,
    suppressions, baseline): what is hidden is not changed either."""
    cat = catalog_mod.load()
    sr.changes = plan(sr.site, fixables(sr.results, sr.remarks), cat, sr.lookup_version)
    urgent = [c for c in sr.changes if c.priority in ("P0", "P1")]
    sr.after = diffs(sr.site, urgent, rep.ctx.read)


def scan_project(path: str | Path, *, vllm_version: str | None = None, exclude: Callable[[str], bool] | None = None,
                 overlay: dict[str, str] | None = None, progress: Callable[[str, int], None] | None = None) -> Scan:
    cat = catalog_mod.load()
    root = Path(path)
    if not root.exists():
        raise UsageError(f"no such file or folder: {path}")
    single = None
    if root.is_file():
        single, root = root.name, root.parent
    if vllm_version is not None and try_parse(vllm_version) is None:
        raise UsageError(f"--vllm-version {vllm_version!r} is not a version number")
    files = [single] if single else walk(root)
    ctx = ScanContext(root=root.resolve(), catalog=cat, default_version=cat.newest)
    for rel, code, detail in getattr(files, "skipped", ()):
        ctx.skip(rel, code, detail=detail)
    if exclude is not None:
        files = [rel for rel in files if not exclude(rel)]
    if overlay:
        ctx._cache.update(overlay)

    all_pins: list[pins_mod.Pin] = []
    for rel in files:
        if pins_mod.is_pin_file(rel):
            text = ctx.read(rel)
            if text is not None:
                all_pins += _guarded(ctx, rel, pins_mod.scan, text)
    known = _known_releases(cat)
    by_folder: dict[str, list[pins_mod.Pin]] = {}
    for p in all_pins:
        if p.package == "vllm":
            by_folder.setdefault(p.folder, []).append(p)
    ctx.framework_pins = {(p.folder, p.package): p for p in sorted(all_pins, key=lambda p: (pins_mod.RANK.get(p.kind, 9), p.exact is None)) [::-1] if p.package != "vllm"}
    if vllm_version:
        forced = pins_mod.VersionChoice(vllm_version, True, "cli")
        choices = {"": forced}
        default = forced
    else:
        choices = {folder: pins_mod.choose(ps, known, cat.newest) for folder, ps in by_folder.items()}
        if "" in choices:
            default = choices[""]
        elif len({c.version for c in choices.values()}) == 1 and choices:
            default = next(iter(choices.values()))
        else:
            default = pins_mod.choose([], known, cat.newest)
    ctx.default_version = cat.resolve(default.version).version
    ctx.versions_by_dir = {f: cat.resolve(c.version).version for f, c in choices.items()}

    sites: list[Site] = []
    yaml_files = []
    for rel in files:
        if progress is not None:
            progress("scan", len(files))
        suffix = _suffix(rel)
        if suffix == ".py":
            text = ctx.read(rel)
            if text is not None:
                sites += _guarded(ctx, rel, python_calls.scan, text)
        elif deploy.is_dockerfile(rel):
            text = ctx.read(rel)
            if text is not None:
                sites += _guarded(ctx, rel, deploy.scan_dockerfile, text)
        elif suffix in (".yaml", ".yml", ".json"):
            yaml_files.append(rel)
        elif suffix in scripts.SHELL_SUFFIXES or suffix == "":
            text = ctx.read(rel) if suffix else _head_if_script(ctx, rel)
            if text is not None and ("vllm" in text or _framework_words(text)) and scripts.is_shell(rel, text):
                sites += _guarded(ctx, rel, scripts.scan, text)
    # after the commands, so that a config a command already read is not read again
    for rel in yaml_files:
        if rel in ctx.referenced or pins_mod.is_pin_file(rel):
            continue
        text = ctx.read(rel)
        if text is None or not _yaml_candidate(text):
            continue
        docs = _load_yaml_docs(ctx, rel, text)
        sites += _guarded(ctx, rel, deploy.scan_yaml, text, docs) + _guarded(ctx, rel, configs.scan, docs)
    pair_peers(sites)
    return Scan(root, files, ctx, all_pins, sites, choices, default)


def _guarded(ctx: ScanContext, rel: str, scanner, *args) -> list:
    """A scanner's findings in one file. A scanner bug (tests/test_fuzz.py hunts for them) costs
    that file, reported as skipped with the error, never the audit."""
    try:
        return scanner(ctx, rel, *args)
    except RecursionError:
        ctx.skip(rel, "parse-error", detail="nesting too deep")
    except Exception as e:  # noqa: BLE001 — the boundary: every other file is still audited
        ctx.skip(rel, "scanner-error", detail=f"{type(e).__name__}: {e}"[:160])
    return []


def pair_peers(sites: list[Site]) -> None:
    """Link each trainer that is a client of a rollout server (TRL/ms-swift server mode) with the
    server it most likely talks to: same file, then same folder, then the same port. Ambiguous
    pairs stay unlinked."""
    servers = [s for s in sites if s.mode == "rlhf_server" and not s.engine_elsewhere and s.framework in ("trl", "ms-swift")]
    for c in (s for s in sites if s.engine_elsewhere):
        cands = [s for s in servers if s.framework == c.framework]
        port = c.framework_keys.get("vllm_server_port")
        for narrow in (lambda s: s.file == c.file, lambda s: _folder(s.file) == _folder(c.file),
                       lambda s: port is not None and _port(s) == port):
            hit = [s for s in cands if narrow(s)]
            if hit:
                cands = hit
                break
        if len(cands) > 1 and all(s.file == c.file for s in cands):
            cands = [min(cands, key=lambda s: abs(s.line - c.line))]
        if len(cands) == 1:
            c.peer = cands[0].id
            cands[0].peer = cands[0].peer or c.id


def _suffix(rel: str) -> str:
    """PurePosixPath(rel).suffix.lower(), without building a path per file."""
    name = rel.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


def _folder(f: str) -> str:
    return PurePosixPath(f).parent.as_posix()


def _port(s: Site):
    st = s.settings.get("port")
    return st.value if st is not None else s.framework_keys.get("port")


# Words a script must contain to be worth lexing; a script that launches a training script
# through a launcher may name vLLM only in the recipe it passes (accelerate launch x.py --config r.yaml).
_FRAMEWORK_WORDS = ("verl.", "openrlhf.cli", "llamafactory-cli", "lmf ", "swift ", "trl ", "use_vllm", "rollout.name",
                    "accelerate", "torchrun", "deepspeed", "vllm_infer", "--config")


def _framework_words(text: str) -> bool:
    return any(w in text for w in _FRAMEWORK_WORDS)


def _yaml_candidate(text: str) -> bool:
    """Cheap test before parsing: only YAML that could configure vLLM is read."""
    return any(w in text for w in ("vllm", "use_vllm", "actor_rollout_ref", "infer_backend", "servingEngineSpec"))


def _load_yaml_docs(ctx: ScanContext, rel: str, text: str) -> list:
    import json

    from vllm_kb.engine.kb import yamlio

    try:
        if rel.endswith(".json"):
            data = json.loads(text)
            if _too_deep(data, yamlio.MAX_DEPTH):  # the scanners walk what they get
                raise ValueError("nesting too deep")
            return [yamlio.Document(data=data)]
        return yamlio.load_all(text)
    except yamlio.YamlError as e:
        ctx.skip(rel, "yaml-error", e.line, str(e))
    except ValueError as e:
        ctx.skip(rel, "parse-error", detail=str(e)[:120])
    except RecursionError:  # json.loads on [[[[…]]]]
        ctx.skip(rel, "parse-error", detail="nesting too deep")
    return []


def _too_deep(data, limit: int) -> bool:
    stack = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return False


def _head_if_script(ctx: ScanContext, rel: str) -> str | None:
    try:
        with open(ctx.root / rel, "rb") as f:
            head = f.read(64)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    return ctx.read(rel)


def _known_releases(cat) -> list:
    from vllm_kb.engine.kb.versions import parse

    return [parse(v) for v in cat.raw.get("releases", cat.raw["versions"])]


def _choice_for(file: str, choices: dict, default):
    parts = PurePosixPath(file).parent.parts
    for depth in range(len(parts), -1, -1):
        key = "/".join(parts[:depth])
        if key in choices:
            return choices[key]
    return default


def _site_report(site: Site, choice, hardware, kb: Knowledge, cat, ctx: ScanContext) -> SiteReport:
    tag = deploy.image_version(site.image)
    if tag and choice.basis != "cli":
        choice = pins_mod.VersionChoice(tag, True, "image", pins_mod.Pin(site.file, site.line, site.image, f"=={tag}", "image", tag))
    elif site.installed and choice.basis != "cli":
        v, where, text = site.installed
        f, _, ln = where.rpartition(":")
        choice = pins_mod.VersionChoice(v, True, "build", pins_mod.Pin(f, int(ln), text, f"=={v}", "image", v))
    resolved = cat.resolve(choice.version)
    facts = site_facts(site, hardware, choice.version, choice.pinned, kb, cat, root=ctx.root)
    unresolved = {n: f"{s.key or n} = {s.raw} ({s.where})" for n, s in site.settings.items() if not s.resolved}
    results = evaluate_all(kb, facts, unresolved, site.engine_elsewhere)
    handled = {op.target for r in results if r.needs_change for op, _ in r.fix if op.kind in ("unset", "unset_env")}
    remarks = (list(site.remarks) + _version_remarks(site, cat, resolved.version, handled, kb)
               + _value_remarks(site, cat, resolved.version, handled) + _env_remarks(site, cat, resolved.version, handled, kb))
    remarks += _framework_remarks(site, choice.version)
    if site.kind == "api_server" and cat.index_version(choice.version) >= cat.index_version("0.29.0"):
        remarks.append(Finding("deprecated-entrypoint", msg("finding.api_server_deprecated", version=choice.version), site.file, site.line, "P2"))
    changes = plan(site, fixables(results, remarks), cat, resolved.version)
    urgent = [c for c in changes if c.priority in ("P0", "P1")]
    after = diffs(site, urgent, ctx.read)
    return SiteReport(site, facts, results, changes, after, choice, resolved.version, resolved.note, remarks)


def _framework_remarks(site: Site, vllm_version: str) -> list[Finding]:
    if site.framework == "none":
        return []
    from vllm_kb.engine.kb import frameworks

    fw = frameworks.get(site.framework)
    out = []
    for f in fw.findings(site.framework_keys, site.framework_version, site.framework_command, vllm_version):
        text = {lang: f["text"][lang].replace("{vllm_version}", vllm_version) for lang in ("en", "zh")}
        out.append(Finding(f"{site.framework}-{f['code']}", text, site.file, site.line, f["priority"], subject=""))
    return out


def _version_remarks(site: Site, cat, version: str, handled: set[str], kb: Knowledge) -> list[Finding]:
    """Options the site passes that its vLLM version does not have (launch fails)."""
    from vllm_kb.engine.scan.cli_args import normalise_flag

    out = []
    for s in list(site.settings.values()) + list(site.unknown.values()):
        if s.known or s.name in handled:
            continue
        key = s.key or s.name
        entry = cat.arg(s.name) if s.syntax == "python-call" else None
        flag_entry = cat.flag(normalise_flag(key if key.startswith("-") else "--" + key)[0]) if s.syntax in ("cli", "yaml-config") else None
        e = entry or flag_entry
        if e is not None and e.within_life(version):
            continue
        fix = [(FixOp("unset", s.name), None)]
        if e is not None:
            removed = e.removed_in() if cat.index_version(version) > cat.index_version(e.last) else None
            extra = msg("finding.removed_in", removed=removed) if removed else msg("finding.added_in", first=e.first)
            rename = kb.renames.get((False, s.name)) if removed else None
            text = {lang: msg("finding.not_in_version", key=key, version=version, extra=extra[lang])[lang] for lang in ("en", "zh")}
            if rename:
                text = {lang: text[lang] + kb.t("finding.replaced_by", lang, what=rename["replacement"][lang]) for lang in ("en", "zh")}
                fix += _carry(rename, s.value, cat, version)
            out.append(Finding("not-in-version", text, s.file, s.line, "P0", fix=fix, safe=True, subject=s.name))
        else:
            guess = _did_you_mean(s, cat, version)
            hint = msg("finding.did_you_mean", guess=guess) if guess else {"en": "", "zh": ""}
            text = {lang: msg("finding.unknown_option", key=key, hint=hint[lang])[lang] for lang in ("en", "zh")}
            out.append(Finding("unknown-option", text, s.file, s.line, "P0", fix=fix, safe=True, subject=s.name))
    return out


def _carry(rename: dict, value, cat, version: str) -> list:
    """Move an old option's value to the argument that replaced it, when that one exists."""
    if not rename.get("carry") or value is None:
        return []
    head, _, key = rename["carry"].partition(".")
    e = cat.arg(head)
    if e is None or not e.exists(version):
        return []
    return [(FixOp("set", head), {key: value} if key else value)]


def _value_remarks(site: Site, cat, version: str, handled: set[str]) -> list[Finding]:
    """Values vLLM does not accept in this release (`--quantization fp8_per_block` on 0.19)."""
    out = []
    for s in site.settings.values():
        if not s.resolved or not s.known or s.name in handled or s.value is None:
            continue
        candidates = [((s.name,), s.value)]
        if isinstance(s.value, dict):
            candidates = [((s.name, k), v) for k, v in s.value.items()]
        for path, value in candidates:
            if isinstance(value, (dict, list, bool)) or value is None:
                continue
            allowed = cat.allowed_values(path, version)
            if not allowed or not allowed[0]:
                continue
            values, _ = allowed
            if str(value) in {str(v) for v in values}:
                continue
            what = ".".join(path)
            history = cat.value_history(path, value) or cat.value_history(path, str(value))
            if history:
                first, last = history[0], history[-1]
                when = msg("finding.value_available", first=first, last=last)
                text = {lang: msg("finding.value_not_in_version", value=value, what=what, version=version, when=when[lang])[lang] for lang in ("en", "zh")}
                out.append(Finding("value-not-in-version", text, s.file, s.line, "P0", subject=f"{what}={value}"))
                continue
            guess = difflib.get_close_matches(str(value), [str(v) for v in values], n=1, cutoff=0.75)
            if guess:
                hint = msg("finding.did_you_mean", guess=guess[0])
                text = {lang: msg("finding.value_unknown", value=value, what=what, version=version)[lang] + hint[lang] for lang in ("en", "zh")}
                fix = [(FixOp("set", s.name), {path[1]: guess[0]} if len(path) == 2 else guess[0])]
                out.append(Finding("value-unknown", text, s.file, s.line, "P0", fix=fix, subject=f"{what}={value}"))
            else:
                text = msg("finding.value_unlisted", value=value, what=what, version=version)
                out.append(Finding("value-unlisted", text, s.file, s.line, "P1", subject=f"{what}={value}"))
    return out


def _env_remarks(site: Site, cat, version: str, handled: set[str], kb: Knowledge) -> list[Finding]:
    """VLLM_* variables the site's vLLM does not know: ignored (and warned about from 0.17)."""
    out = []
    for name, s in site.env.items():
        if not name.startswith("VLLM_") or name in handled:
            continue
        e = cat.env(name)
        if e is not None and e.exists(version):
            continue
        if e is not None:
            removed = e.removed_in() if cat.index_version(version) > cat.index_version(e.last) else None
            extra = msg("finding.removed_in", removed=removed) if removed else msg("finding.added_in", first=e.first)
        else:
            extra = {"en": "", "zh": ""}
        text = {lang: msg("finding.env_not_in_version", name=name, version=version, extra=extra[lang])[lang] for lang in ("en", "zh")}
        fix = [(FixOp("unset_env", name), None)]
        rename = kb.renames.get((True, name))
        if rename:
            text = {lang: text[lang] + kb.t("finding.replaced_by", lang, what=rename["replacement"][lang]) for lang in ("en", "zh")}
            fix += _carry(rename, s.value, cat, version)
        out.append(Finding("env-not-in-version", text, s.file, s.line, "P2", fix=fix, safe=True, subject=name))
    return out


def _did_you_mean(s, cat, version: str) -> str | None:
    """The closest real option, spelled the way the site writes options."""
    names = [n for n in cat.arg_names if cat.arg(n).exists(version)]
    hit = difflib.get_close_matches(s.name, names, n=1, cutoff=0.75)
    if not hit:
        return None
    if s.syntax == "cli":
        return cat.long_flag(hit[0], version) or "--" + hit[0].replace("_", "-")
    if s.syntax == "yaml-config":
        return hit[0].replace("_", "-") if "-" in s.key else hit[0]
    return hit[0]
