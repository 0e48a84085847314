"""`vllm-kb upgrade`: the project audited at the release each site runs and again at the target
release, and per site what changes between the two (engine/advise/upgrade.py); with `--fix`, the
mechanical part written by the fix stage (engine/fix/apply.py, engine/fix/pins.py): options,
values and variables the target refuses taken out, renamed ones carried to their new name, and,
when asked, the vLLM pins and image tags bumped. Every other setting stays as it is written."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from vllm_kb.engine.advise import upgrade as plan_mod
from vllm_kb.engine.audit import audit
from vllm_kb.engine.check.host_compat import PACKAGES as HOST_PACKAGES
from vllm_kb.engine.check.host_compat import host_of
from vllm_kb.engine.fix import apply as apply_mod
from vllm_kb.engine.fix import edits as edits_mod
from vllm_kb.engine.fix.changes import plan
from vllm_kb.engine.fix.pins import bump_image_edits, bump_pin_edits
from vllm_kb.engine.kb import catalog as catalog_mod
from vllm_kb.engine.kb.errors import UsageError
from vllm_kb.engine.kb.versions import parse, try_parse
from vllm_kb.engine.report.results import AuditReport


@dataclass
class UpgradeResult:
    target: str
    now: AuditReport
    then: AuditReport
    plans: list[plan_mod.SitePlan] = field(default_factory=list)

    @property
    def kb(self):
        return self.now.kb


def _target(target: str | None) -> str:
    cat = catalog_mod.load()
    target = target or cat.newest
    v = try_parse(target)
    if v is None:
        raise UsageError(f"--to {target!r} is not a version number")
    if v < parse(cat.oldest):
        raise UsageError(f"--to {target}: the catalog starts at vLLM {cat.oldest}")
    return str(cat.resolve(target).version) if v <= parse(cat.newest) else cat.newest


def upgrade(path: str | Path, target: str | None = None, *, gpu: str | None = None, nvml=None,
            exclude: Callable[[str], bool] | None = None, overlay: dict[str, str] | None = None) -> UpgradeResult:
    target = _target(target)
    cat = catalog_mod.load()
    now = audit(path, gpu=gpu, nvml=nvml, exclude=exclude, overlay=overlay)
    then = audit(path, gpu=gpu, nvml=nvml, exclude=exclude, overlay=overlay, vllm_version=target)
    by_key = {_key(sr): sr for sr in then.sites}
    res = UpgradeResult(target, now, then)
    for sr in now.sites:
        other = by_key.get(_key(sr))
        if other is None:
            continue
        res.plans.append(plan_mod.plan_site(sr.site, (sr.results, sr.remarks, sr.facts), (other.results, other.remarks, other.facts),
                                            sr.lookup_version, target, cat, now.kb, _host_release(now, sr.site)))
    return res


def _host_release(rep: AuditReport, site) -> str | None:
    """The pinned release of the serving package (FastChat, Xinference, Ray) that starts the site."""
    host = host_of(site)
    pin = rep.ctx.framework_pin(site.file, HOST_PACKAGES[host]) if host else None
    return getattr(pin, "exact", None)


def _key(sr) -> tuple:
    """One site in both audits: the scan is the same, only the release differs."""
    return (sr.site.file, sr.site.line, sr.site.kind, sr.site.framework)


def fix(path: str | Path, target: str | None = None, *, gpu: str | None = None, nvml=None, bump_pins: bool = False,
        exclude: Callable[[str], bool] | None = None) -> apply_mod.FixResult:
    """The mechanical part of the upgrade as a FixResult (nothing written; apply.write does that)."""
    base = upgrade(path, target, gpu=gpu, nvml=nvml, exclude=exclude)
    target = base.target
    cat = catalog_mod.load()
    p0_now = {_key(sr): {r.check.id for r in sr.results if r.needs_change and r.priority == "P0"} for sr in base.now.sites}
    seen_now = {_key(sr): {f.id for f in sr.remarks} for sr in base.now.sites}

    def audit_at_target(overlay: dict[str, str]) -> AuditReport:
        rep = audit(path, gpu=gpu, nvml=nvml, exclude=exclude, overlay=overlay, vllm_version=target)
        for sr in rep.sites:
            items = plan_mod.breaks(sr.site, sr.results, sr.remarks, p0_now.get(_key(sr), set()), seen_now.get(_key(sr), set()),
                                    cat, rep.kb, target)
            fixables = [it[4] for it in items if it[4] is not None]
            sr.changes = plan(sr.site, fixables, cat, target)
        return rep

    res = apply_mod.run(audit_at_target, unsafe=False)
    if bump_pins:
        read = lambda rel: res.texts.get(rel, base.now.ctx.read(rel))  # noqa: E731
        extra = bump_pin_edits(base.now.pins, target, read)
        for f, es in bump_image_edits([sr.site for sr in base.now.sites], target, read).items():
            extra.setdefault(f, []).extend(es)
        for f, es in extra.items():
            text = read(f)
            if text is None:
                continue
            res.originals.setdefault(f, base.now.ctx.read(f) or text)
            res.texts[f] = edits_mod.apply(text, es)
            res.applied += [apply_mod.Applied(f, None, "pin", "vllm", None, target, [], True) for _ in es]
    return res
