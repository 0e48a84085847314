"""A transformers pin that the vLLM release's own requirement excludes.

vLLM's setup.py turns requirements/common.txt into the wheel's dependencies, and from 0.11.1 the
transformers line carries an upper bound or exclusions (`<5` in 0.11.1–0.19.0, `!=5.0.*…!=5.5.0` in
0.19.1–0.23.0, `<5.18.0`…`<5.23.0` from 0.31.0): releases vLLM's maintainers found to break it. A
pin whose every allowed release lies outside that range is judged here (knowledge/vllm/model_types.yaml
`vllm_requires`, the release's requirement as its sdist writes it):
- installed by the same pip command as vLLM (one requirements file, one `RUN pip install`), pip
  stops with ResolutionImpossible and installs nothing (`tf_range_same`);
- installed apart, after vLLM, pip only warns ("vllm X requires transformers…, but you have
  transformers Y which is incompatible") and vLLM then runs with a transformers it excludes;
- installed before vLLM, vLLM's own install moves transformers back into its range: nothing to say.
The names vLLM imports (transformers_gone.py) and reads (transformers_since.py) are judged first:
they know the exact failure; this says what the requirement alone establishes.
The change proposed is a transformers of the release's own time (the newest minor out by the day the
release was, inside its requirement): a requirement that sets only a floor was written before later
transformers existed, and vLLM 0.2.1 beside transformers 4.57 is three years apart (eval104, vllm#1458).
Where the project also holds tokenizers or huggingface-hub back in that install, raising transformers
drags them along; the newest vLLM release whose requirement admits the pinned transformers is then the
change that leaves every pin standing (`tf_range_held`, `tf_range_vllm_fix`).
"""
from __future__ import annotations

import re
from typing import Any, Callable

from vllm_kb.engine.check.dependency_pins import install_order
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet, parse, try_parse, written_versions

_FINAL = re.compile(r"\d+(?:\.\d+)*(?:\.post\d+)?")


_HELD = re.compile(r"^[^#\n]*?\b(tokenizers|huggingface[-_]hub)\s*(==|~=|<=|<)\s*([0-9][\w.]*)", re.I | re.M)


def transformers_range(choice: Any, pin: Any, requires: str | None, scanned: list[str],
                       read: Callable[[str], str | None], dates: tuple[dict, dict] = ({}, {}),
                       requires_of: dict | None = None) -> dict[str, Any]:
    """launch.tf_range* when no transformers release the project's pin allows is one that the site's
    vLLM release (`requires`, its transformers specifier) accepts. `dates`: the day each vLLM release
    and each transformers minor (X.Y.0) came out; `requires_of`: each vLLM release's requirement."""
    vpin = getattr(choice, "pin", None)
    spec = getattr(pin, "spec", None) if pin is not None else None
    if not spec or not requires or vpin is None or getattr(choice, "basis", "") not in ("pin", "image") or vpin.source:
        return {}
    try:
        # both read as pip reads a requirement: `<5` excludes 5.0.0rc1 and 5.0.0.dev0 (PEP 440), and so
        # does uv; the knowledge's release gates keep the plain order (engine/kb/versions.py)
        mine, theirs = SpecifierSet(spec, pip=True), SpecifierSet(requires, pip=True)
    except InvalidSpecifier:
        return {}  # a specifier the audit cannot read claims nothing
    # the final releases scanned, and the releases the pin names (==5.0.0rc1 is a pin of that build alone)
    probes = [v for v in dict.fromkeys([*(v for v in scanned if _FINAL.fullmatch(v)), *written_versions(spec)])
              if try_parse(v) is not None]
    allowed = [v for v in probes if mine.contains(v)]
    if not allowed or any(theirs.contains(v) for v in allowed):
        return {}  # a pin of releases the audit never read, or one pip can satisfy beside vLLM
    order = install_order(vpin, pin, read)
    if order == "before":
        return {}
    out: dict[str, Any] = {"tf_range": pin.text, "tf_range_at": f"{pin.file}:{pin.line}",
                           "tf_range_requires": requires, "tf_range_same": order == "same"}
    ok = [v for v in scanned if theirs.contains(v)]
    if ok:
        # a transformers the release accepts (of its own time: _of_its_time), as a pin pip can satisfy beside it,
        # in the major line of the lowest it accepts: a requirement without an upper bound (0.10.2's `>=4.55.2`) was written before the next
        # major existed, and a major release removes what older vLLM imports (transformers 5 and
        # all_special_tokens_extended: transformers_gone.py), so 5.x is no fix for it (eval75 Neelectric/open-r1_safety)
        line = parse(min(ok, key=parse)).release[0]
        ok = [v for v in ok if parse(v).release[0] == line]
        out["tf_range_fix"] = "==" + _of_its_time(ok, str(vpin.exact or ""), dates)
    if ok and max(allowed, key=parse) < min(ok, key=parse):  # the change raises transformers (an earlier vLLM
        # that admits a newer transformers by an open requirement, 0.11.0's `>=4.55.2` with 5.x, is no way out)
        out.update(_held(pin, read, allowed, requires_of or {}, str(vpin.exact or "")))
    return out


def _of_its_time(ok: list[str], release: str, dates: tuple[dict, dict]) -> str:
    """Of the accepted transformers (last patches of their minors), the newest whose minor was out by the
    day the vLLM release was; without a date, the lowest accepted (the release's own floor)."""
    vday, tdays = dates
    day = vday.get(release)
    p = try_parse(release)
    if day is None and p is not None:  # a post release is dated with its base
        day = vday.get(".".join(str(n) for n in p.release))
    out = [v for v in ok if day and str(tdays.get("%d.%d.0" % parse(v).release[:2], "9999")) <= str(day)]
    return max(out, key=parse) if out else min(ok, key=parse)


def _held(pin: Any, read: Callable[[str], str | None], allowed: list[str], requires_of: dict,
          release: str) -> dict[str, Any]:
    """tf_range_held / tf_range_vllm_fix: a tokenizers or huggingface-hub bound in the pin's own file, and the
    newest vLLM release before the site's whose requirement admits every transformers the pin allows."""
    m = _HELD.search(read(pin.file) or "")
    here = try_parse(release)
    if m is None or here is None:
        return {}
    fits = []
    for v, spec in requires_of.items():
        pv = try_parse(v)
        try:
            if pv is not None and pv < here and all(SpecifierSet(spec, pip=True).contains(a) for a in allowed):
                fits.append(v)
        except InvalidSpecifier:
            continue
    if not fits:
        return {}
    text = f"{m.group(1)}{m.group(2)}{m.group(3)}"
    return {"tf_range_held": text, "tf_range_vllm_fix": "==" + max(fits, key=parse)}
