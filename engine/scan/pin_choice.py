"""The one vLLM release a folder's pins choose (docs/pins.md: the precedence as a whole): the best-ranked
pin, else a bounded range's newest release that fits the project's torch pin, else a bare name; and
what a site's own install lines say of its vLLM. The pins themselves: engine/scan/pins.py."""
from __future__ import annotations

from dataclasses import dataclass

from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, Version, newest_matching, try_parse
from vllm_kb.engine.scan import source_pins
from vllm_kb.engine.scan.requirement import RANK, Pin, from_requirement


@dataclass
class VersionChoice:
    version: str  # what checks are evaluated against
    pinned: bool
    basis: str  # pin | range | unbounded | none | unreadable | no-match | cli (i18n: version.<basis>)
    pin: Pin | None = None
    among: tuple[str, ...] | None = None  # a range's releases that pip can install beside the project's torch pin
    bare_beside: tuple[str, ...] = ()  # files of the folder that name vLLM without a version (read, set aside)
    bare_apart: bool = False  # those are requirements files of their own (requirements_torch280_vllm.txt beside …260…)

    @property
    def where(self) -> str:
        return f"{self.pin.file}:{self.pin.line}" if self.pin else ""


def choose(pins: list[Pin], known: list[Version], newest: str, beside: list[Pin] | None = None) -> VersionChoice:
    """One version from the pins of one folder (best-ranked file first). `beside`: the project's
    torch pins; pip resolves a vLLM range installed together with an exact one (the same
    requirements file) to the newest release in it whose own torch requirement that pin meets."""
    if not pins:
        return VersionChoice(newest, False, "none")
    # a pin, else a bounded range, else a bare name: `vllm` in one extra says less than `vllm>=0.6` in another,
    # and a bare name in one file never outranks a constraint in another of the folder: both apply to one
    # install (`pip install -r requirements.txt` with a bare `vllm` beside the pyproject's `vllm<=0.6.3`
    # installs a release the pyproject allows; CriticCoT simpleRL-reason)
    # a setup script that installs the project and then vllm==X leaves X in the environment, whatever the
    # project pins; two such scripts that disagree say nothing of which one was run
    # a specifier the audit cannot read (`vllm==${VLLM_VERSION}` with no value in reach) says the install is held
    # somewhere, not where: it never outranks a readable pin of the folder (DB-Opt-R1's install script over its
    # requirements file's vllm==0.11.0), and is chosen over a bare name only
    last = len({p.exact for p in pins if p.last_install and p.exact}) == 1
    # the package's own metadata pinning one release (setup.py's, pyproject's `vllm==0.9.1`) outranks a range of
    # an auxiliary requirements file beside it (`requirements_noflash.txt`'s `vllm<0.9.0`: an install variant,
    # OpenRLHF, eval101)
    meta = any(p.exact and p.kind in ("setup", "pyproject") for p in pins)
    best = sorted(pins, key=lambda p: (not (last and p.last_install and p.exact), is_bare(p), not is_readable(p),
                                       meta and _auxiliary_range(p), RANK.get(p.kind, 9),
                                       p.exact is None, not p.spec.strip(), p.file, p.line))[0]
    if last and best.last_install and (rest := [p for p in pins if not p.last_install and p.spec.strip()]):
        o = sorted(rest, key=lambda p: (RANK.get(p.kind, 9), p.exact is None, p.file, p.line))[0]
        best.replaces = (f"{o.file}:{o.line}", o.text)  # what the report says it stands over
    bare_pins = [p for p in pins if p is not best and is_bare(p) and not is_bare(best)]
    bare = tuple(f"{p.file}:{p.line}" for p in bare_pins)
    # requirements files neither of which reads the other are installs of their own (one per backend or torch),
    # alternatives rather than one install (alibaba/ROLL's requirements_torch{260,280,2100}_vllm.txt, eval85)
    apart = bool(bare) and all(p.kind == "requirements" and p.included_in is None and (p is best or p.file != best.file)
                               for p in [best, *bare_pins])
    if best.source:  # built from vLLM's sources: the release is known only from a development version
        span = source_pins.span_of(best.exact, known) if best.source == "dev" else None
        return VersionChoice(source_pins.release_of(best.exact, known, newest), False, source_pins.BASIS, best,
                             tuple(str(v) for v in span) if span else None)
    if best.exact and try_parse(best.exact):
        return VersionChoice(str(try_parse(best.exact)), True, "pin", best, bare_beside=bare, bare_apart=apart)
    try:
        spec = SpecifierSet(best.spec)
    except InvalidSpecifier:
        return VersionChoice(newest, False, "unreadable", best)
    if not spec:
        return VersionChoice(newest, False, "unbounded", best)
    fitting = _with_torch(known, best, beside or [])
    # install instructions name one release (engine/scan/extra_pins.py docs_floors): judged as it
    hit = _oldest_matching(spec, fitting) if best.kind == "docs" else newest_matching(spec, fitting)
    if hit is None and fitting is not known:  # no release of the range fits that torch: pip fails (L115's business)
        fitting, hit = known, newest_matching(spec, known)
    if hit is None:
        return VersionChoice(newest, False, "no-match", best)
    return VersionChoice(str(hit), False, "range", best, tuple(str(v) for v in fitting) if fitting is not known else None,
                         bare_beside=bare, bare_apart=apart)


def _auxiliary_range(p: Pin) -> bool:
    """A range in a requirements file other than the folder's plain requirements.txt/.in."""
    name = p.file.rsplit("/", 1)[-1].lower()
    return p.kind == "requirements" and not p.exact and not p.source and name not in ("requirements.txt", "requirements.in")


def is_bare(p: Pin) -> bool:
    return not p.spec.strip() and not p.exact and not p.source


def is_readable(p: Pin) -> bool:
    """An exact pin, a source build, or a specifier packaging reads (a bare name reads as no bound)."""
    if p.exact or p.source or not p.spec.strip():
        return True
    try:
        SpecifierSet(p.spec)
    except (InvalidSpecifier, ValueError):
        return False
    return True


def _oldest_matching(spec: SpecifierSet, known: list[Version]) -> Version | None:
    hits = [v for v in known if spec.contains(str(v))]
    return min(hits) if hits else None


def _with_torch(known: list[Version], best: Pin, beside: list[Pin]) -> list[Version]:
    """The releases pip can install beside an exact torch pin of the same requirements file (pip
    backtracks past a release whose exact torch requirement the pin contradicts); all of them when
    there is no such pin or none of them fits (pip then fails, which check L115 judges)."""
    from vllm_kb.engine.kb import dependency_pins

    exact = next((p.exact for p in beside if p.package == "torch" and p.file == best.file and p.exact
                  and best.kind in ("requirements", "conda") and ";" not in p.text and try_parse(p.exact)), None)
    if exact is None:
        return known
    # a release that states no torch requirement (or one this audit cannot read) is not ruled out
    return [v for v in known if dependency_pins.admits_torch(str(v), exact) is not False] or known


def site_install(found: list[Pin], known: list[Version] | None = None, newest: str | None = None) -> tuple[str, str, str] | None:
    """What a site's own install lines (a serving image's RUN, SkyPilot `setup:`, Modal's
    `pip_install`) say of its vLLM, as Site.installed: (release, "file:line", requirement) of the
    last bounded vLLM requirement: an exact pin as written, a range as the newest known release in
    it (the rule of a requirements file's range, choose). None where they name no vLLM, only a bare
    `vllm`, or a source build (engine/scan/source_pins.py reads that)."""
    named = [p for p in found if p.package == "vllm" and not p.source and p.spec.strip()]
    if not named:
        return None
    p = named[-1]
    if p.exact:
        return p.exact, f"{p.file}:{p.line}", p.text
    if known is None or newest is None:
        from vllm_kb.engine.kb import catalog

        known, newest = catalog.load().versions, catalog.load().newest
    c = choose([p], known, newest)
    return (c.version, f"{p.file}:{p.line}", p.text) if c.basis == "range" else None


def installed_range(installed: tuple[str, str, str], known: list[Version], newest: str) -> VersionChoice | None:
    """The range a site's own install allows (`pip install "vllm>=0.10,<0.12"` in SkyPilot's
    setup), chosen as a requirements file's range is: a failure that only some releases in it have
    is no P0. None for an exact release."""
    _, where, text = installed
    f, _, ln = where.rpartition(":")
    p = from_requirement(f, int(ln) if ln.isdigit() else 0, text.strip("'\""), "image")
    if p is None or p.package != "vllm" or p.exact or p.source or not p.spec.strip():
        return None
    c = choose([p], known, newest)
    return c if c.basis == "range" else None
