"""Requirements files that are alternatives, one per backend, not one install: alibaba/ROLL keeps
requirements_torch260_vllm.txt (vllm==0.8.4), requirements_torch280_vllm.txt (vllm==0.10.2) and
requirements_torch2100_vllm.txt (a bare vllm from the nightly index) beside each other, and each of its
configs runs whichever one the user installed. A site of such a project is judged as a range over those
releases (a bare name: the newest), so a failure of only some of them is a P1 that names them (the
checks' settle_priorities, the catalog's settle_range), while one of all of them stays a P0. A site gets
them from its scanner (Site.launch["release_alternatives"]: a framework that names its own files)."""
from __future__ import annotations

import re

from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, try_parse
from vllm_kb.engine.scan import req_chains, req_file
from vllm_kb.engine.scan.pin_choice import VersionChoice, choose
from vllm_kb.engine.scan.requirement import Pin

_ALTERNATIVE = re.compile(r"(?:^|/)requirements[_-][\w.-]*vllm[\w.-]*\.txt$", re.I)
# a requirements folder's file named for the vLLM release it goes with (RLinf requirements/agentic/
# vllm_0.8.5_cu12.txt, vllm_0.23.0_cu13.txt), read only where the file itself names that release
_NAMED = re.compile(r"(?:^|/)requirements/(?:[\w.-]+/)*vllm[_-]v?(\d+\.\d+\.\d+(?:\.post\d+)?)(?:[_-][\w.-]*)?\.txt$", re.I)


def files(ctx, rel: str) -> list[str]:
    """The requirements files named for a vLLM variant (`requirements_torch280_vllm.txt`) of the
    nearest folder at or above `rel` that has any."""
    found = _index(ctx)
    folder = rel.rpartition("/")[0]
    while True:
        if folder in found:
            return found[folder]
        if not folder:
            return []
        folder = folder.rpartition("/")[0]


def _index(ctx) -> dict[str, list[str]]:
    """folder → its variant requirements files, sorted: built once per project (ROLL has a config per
    pipeline, 117 sites, and each asked for a walk of all its files)."""
    got = ctx.alternatives_index
    if got is None or got[0] is not ctx.files or got[1] != len(ctx.files):
        found: dict[str, list[str]] = {}
        for f in ctx.files:
            if _ALTERNATIVE.search(f):
                found.setdefault(f.rpartition("/")[0], []).append(f)
        got = ctx.alternatives_index = (ctx.files, len(ctx.files), {k: sorted(v) for k, v in found.items()})
    return got[2]


def releases(ctx, names: list[str]) -> list[tuple[str, Pin]] | None:
    """(release, pin) of each file's vLLM requirement; None unless two or more releases differ. A range
    (`vllm>=0.8,<0.10`) gives every release it allows that pip can install beside the file's own exact
    torch pin (pin_choice.choose's reading of a range): which of them an install got depends on the day
    and the index, so each is an alternative. A specifier the audit cannot read gives none."""
    cat = ctx.catalog
    out = []
    for rel in names:
        pins = list(_file_pins(ctx, rel))
        p = next((p for p in pins if p.package == "vllm"), None)
        if p is None or p.source:
            continue
        if p.exact and try_parse(p.exact):
            out.append((str(cat.index_version(p.exact)), p))
        elif not p.spec.strip():
            out.append((str(cat.newest), p))
        else:
            got = choose([p], cat.versions, cat.newest, [q for q in pins if q.package == "torch"])
            if got.basis == "range":
                spec = SpecifierSet(p.spec)
                out += [(str(v), p) for v in (got.among or cat.versions) if spec.contains(str(v))]
    return out if len({v for v, _ in out}) > 1 else None


def named(ctx, cat) -> list[tuple[str, Pin]] | None:
    """(release, pin) of each requirements-folder file named for a vLLM release, where its own text names
    that release too: RLinf's install.sh installs `sed -n 's/^# engine: //p'` of the file it picks by
    engine and release (requirements/install.sh:1034-1046, https://github.com/RLinf/RLinf a3816b59), so
    `# engine: vllm==0.8.5` or a wheel URL `…/vllm-0.23.0%2Bcu129-…whl` on a line of vllm_0.23.0_cu12.txt is
    what it installs; a file that names no vLLM (vllm_0.23.0_common.txt, the shared dependencies) is none.
    None unless two or more releases differ (one is the folder's pin's business) or where a file's name
    and text disagree."""
    got = ctx.__dict__.get("_named_alternatives")
    if got is None or got[0] is not ctx.files:
        got = ctx.__dict__["_named_alternatives"] = (ctx.files, _named(ctx, cat))
    return got[1]


def _named(ctx, cat) -> list[tuple[str, Pin]] | None:
    out: list[tuple[str, Pin]] = []
    for rel in ctx.files:
        m = _NAMED.search(rel)
        if m is None or try_parse(m.group(1)) is None:
            continue
        v = m.group(1)
        said = re.compile(rf"\bvllm(?:==|-){re.escape(v)}(?![\d.])", re.I)
        text = ctx.read(rel) or ""
        at = next((n for n, line in enumerate(text.splitlines(), 1) if said.search(line)), None)
        if at is None:
            if re.search(r"\bvllm(?:==|-)\d", text, re.I):
                return None  # the file installs another release than its name says: no reading
            continue  # a shared part (vllm_0.23.0_common.txt: the dependencies, no vLLM of its own)
        out.append((str(cat.index_version(v)), Pin(rel, at, f"vllm=={v}", f"=={v}", "requirements", v)))
    return out if len({v for v, _ in out}) > 1 else None


def choice(site, cat) -> VersionChoice | None:
    """The range a site's alternatives span, judged at the newest of them."""
    alts = site.launch.get("release_alternatives")
    if not alts:
        return None
    vs = sorted({v for v, _ in alts}, key=cat.index_version)
    newest = max(alts, key=lambda a: cat.index_version(a[0]))
    spec = f">={vs[0]},<={vs[-1]}"
    # the report names every alternative: `vllm==0.8.4 | vllm==0.10.2 | vllm`
    text = " | ".join(dict.fromkeys(p.text for _, p in sorted(alts, key=lambda a: cat.index_version(a[0]))))
    pin = Pin(newest[1].file, newest[1].line, text, spec, "requirements", None)
    return VersionChoice(vs[-1], False, "range", pin, tuple(vs))


def among_them(site, pin: Pin | None) -> bool:
    """The folder's pin is one of the site's alternative files (a range there: the others count too)."""
    return pin is not None and any(p.file == pin.file for _, p in site.launch.get("release_alternatives") or ())


def pin_in(ctx, site, package: str) -> Pin | None:
    """`package`'s exact pin in the file of the release the site is judged at (the newest alternative):
    requirements_torch2100_vllm.txt's transformers==5.2.0 goes with its nightly vLLM, not the other files'."""
    alts = site.launch.get("release_alternatives")
    if not alts:
        return None
    judged = max(alts, key=lambda a: ctx.catalog.index_version(a[0]))[1]
    return next((p for p in _file_pins(ctx, judged.file) if p.package == package), None)


def _file_pins(ctx, rel: str) -> list[Pin]:
    """The pins pip installs from the file: its own lines (engine/scan/req_file.py), then those of the
    files it includes with -r/-c (requirements_common.txt), the file's own first."""
    text = ctx.read(rel) or ""
    out = req_file.pins(rel, text)
    for inc in req_chains.included(ctx, rel, text):
        out += req_file.pins(inc, ctx.read(inc) or "")
    return out


def installs(ctx, choice: VersionChoice, cat) -> VersionChoice | None:
    """A range that only an optional extra of the project declares (verl's setup.py `extras_require["vllm"]`
    `vllm>=0.8.5,<=0.12.0`) is no install; the project's own images install what they pin. eval89
    bdsaglam/docvqa-verl (https://github.com/bdsaglam/docvqa-verl): docker/Dockerfile.stable.vllm installs
    vllm==0.20.2 beside the extra's range — its launches are judged over both (a failure of only the
    extra's newest release is a P1 that names them), as files per backend are (choice above)."""
    pin = choice.pin
    if choice.basis != "range" or pin is None or not pin.group:
        return None
    try:
        among = choice.among or tuple(str(v) for v in cat.versions if SpecifierSet(pin.spec).contains(str(v)))
    except InvalidSpecifier:
        return None
    got = [(str(cat.index_version(p.exact)), p) for p in getattr(ctx, "image_installs", ()) if try_parse(p.exact)]
    got = [(v, p) for v, p in got if v not in among]
    if not among or not got:
        return None
    vs = sorted({*among, *(v for v, _ in got)}, key=cat.index_version)
    text = " | ".join(dict.fromkeys([pin.text, *(p.text for _, p in sorted(got, key=lambda a: cat.index_version(a[0])))]))
    return VersionChoice(vs[-1], False, "range", Pin(pin.file, pin.line, text, f">={vs[0]},<={vs[-1]}", pin.kind, None), tuple(vs))
