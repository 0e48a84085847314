"""vLLM releases a project implies where it pins none, instead of the newest judged as if pinned:

- a framework installed with vLLM as its own requirement (`trl[vllm]==0.18.0`, a release whose
  wheel requires vLLM outright): the range that release declares (knowledge/frameworks/compat.yaml
  `declared`, read from each release's wheel METADATA);
- a tutorial whose instructions install one (`pip install vllm==0.4.0.post1` in a Markdown file
  beside the scripts, or a list of the versions it was run with: `- vllm==0.8.4`): that release or a later one, a floor only, so it can demote a P0 that the
  newest release alone would give and never make one. The site is judged as the release the
  instructions name (engine/scan/pins.py `choose`), not the newest: what only later releases
  refuse is no finding for a project whose README installs an older one (understand-r1-zero's
  `LLM(swap_space=…)` under `pip install vllm==0.8.4`), and a P0 stays P0 only where every
  release from it on fails;
- `vllm` without a version beside an exact torch pin that pip resolves with it (one requirements
  file, one pyproject, one pip command): every vLLM wheel pins torch exactly
  (knowledge/vllm/dependency_pins.yaml), so pip installs the newest release whose pin admits that
  torch (`torch==2.4.0` → 0.5.4–0.6.3.post1, of which pip takes 0.6.3.post1). The range is judged
  like a requirement's: a P0 stays P0 only where it holds in each release of it."""
from __future__ import annotations

import re

from vllm_kb.engine.kb import compat, dependency_pins, frameworks, transformers_requires
from vllm_kb.engine.kb.versions import try_parse
from vllm_kb.engine.scan import pins as pins_mod, sub_projects
from vllm_kb.engine.scan.pins import Pin, package_name

_PIP = re.compile(r"^\s*(?:[$>]\s*)?(?:!|%)?(?:pip3?|uv\s+pip|python3?\s+-m\s+pip)\s+install\s.*\bvllm==", re.I)
# a list of the versions a launcher expects or was tested with (`- \`vllm==0.8.4\``, a requirements
# block's own line): the release it names, as an install line would (eval81, maxent-grpo's README)
_LISTED = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?`?(vllm==\d+(?:\.\d+)+(?:\.post\d+)?)`?\s*(?:[,;(#:]|--|—|$)", re.I)


def vllm_ranges(pins: list[Pin]) -> list[Pin]:
    """A vLLM pin (the declared range) for each exactly pinned framework in a folder with no vLLM pin."""
    by_package = {package_name(fw.package): fw.id for fw in frameworks.load_all().values()}
    pinned = {p.folder for p in pins if p.package == "vllm"}
    out = []
    for p in pins:
        fid = by_package.get(p.package)
        if fid is None or p.folder in pinned or not p.exact or p.own:
            continue
        rows = [r for r in compat.rows() if r.framework == fid and r.kind == "declared" and r.vllm and r.covers(p.exact)
                and ("vllm" in p.extras or 'extra == "' not in str(r.raw.get("where", "")))]
        if len(rows) != 1:
            continue
        out.append(Pin(p.file, p.line, f"{p.text} (declares vllm{rows[0].vllm})", rows[0].vllm, p.kind, None, "vllm",
                       above=p.above))
    return out


def docs_floors(ctx, files: list[str], pins: list[Pin]) -> list[Pin]:
    """`pip install … vllm==X` lines of the project's Markdown files, as `vllm>=X` of their folder,
    when nothing else in the project pins vLLM — or only sub-projects with their own manifest do, whose pins
    stay under their own roots (sub_projects.siblings_only): then the Markdown outside them still speaks."""
    own = {p.folder for p in pins if p.package == "vllm"}
    everywhere = not own or sub_projects.siblings_only(files, dict.fromkeys(own))
    out = []
    for rel in files:
        if not rel.lower().endswith(".md") or any(rel.startswith(f + "/") for f in own):
            continue
        if not everywhere and not _apart(rel, own):
            continue
        text = ctx.read(rel) or ""
        if "vllm==" not in text.lower():
            continue
        lines = ["RUN " + ln.strip().lstrip("$>!% ") if _PIP.match(ln) else
                 f"RUN pip install {m.group(1)}" if (m := _LISTED.match(ln)) else "" for ln in text.splitlines()]
        for p in pins_mod.dockerfile_pins(rel, "\n".join(lines)):  # the pip lines read as a Dockerfile's
            if p.package == "vllm" and p.exact:
                out.append(Pin(rel, p.line, f"{p.text} ({rel})", f">={p.exact}", "docs", None, "vllm"))
    return out


def _apart(rel: str, pinned: set) -> bool:
    """A Markdown file below the root whose folder has no vLLM pin at, above or below it (RUCAIBox
    STILL-3-TOOL/README.md's `pip install vllm==0.6.5` beside the repository's other, pinned projects):
    its install line speaks for its own folder's scripts, which no pin file reaches."""
    here = rel.rpartition("/")[0]
    return bool(here) and not any(f == "" or f == here or here.startswith(f + "/") or f.startswith(here + "/") for f in pinned)


# pins pip resolves together when they share the file; elsewhere (a Dockerfile RUN, a script's pip
# line) only when they share the command's line
_ONE_RESOLUTION = ("requirements", "pyproject", "setup", "conda")


def torch_ranges(deps: list[Pin], pins: list[Pin], known: list) -> list[Pin]:
    """For a `vllm` written without a version, the releases the torch and transformers pinned beside it
    admit (see the module's doc), as a range pin on the vllm line itself; `via` names those pins."""
    by_folder: dict[str, list[Pin]] = {}
    for p in pins:
        if p.package == "vllm":
            by_folder.setdefault(p.folder, []).append(p)
    out = []
    for folder, mine in by_folder.items():
        if any(p.spec.strip() or p.source or p.exact for p in mine):
            continue  # the project bounds vLLM itself
        for v in mine:
            def beside(d: Pin) -> bool:
                return d.file == v.file and (v.kind in _ONE_RESOLUTION or d.line == v.line) and ";" not in d.text
            torch = next((d for d in deps if d.package == "torch" and d.exact and beside(d)), None)
            # of a pyproject, one extra's transformers need not be installed with another extra's vLLM
            tf = next((d for d in pins if d.package == "transformers" and d.spec.strip() and not d.source and beside(d)
                       and d.group in ("", v.group)), None)
            tests = [(d, f) for d, f in ((torch, _torch_test(torch)), (tf, transformers_requires.admits(tf) if tf else None)) if d is not None and f]
            span = _admitted(lambda r: all(f(r) is not False for _, f in tests), known) if tests else None
            if span is None:
                continue
            via = " + ".join(f"{d.text} ({d.file}:{d.line})" for d, f in tests if _admitted(f, known) is not None)
            spec = f"<={span[1]}" if span[0] == str(known[0]) else f">={span[0]},<={span[1]}"  # no floor where the run starts at the first release
            out.append(Pin(v.file, v.line, v.text, spec, v.kind, None, "vllm", v.extras, v.above, via=via))
            break
    return out


def _torch_test(torch: Pin | None):
    if torch is None or not torch.exact or try_parse(torch.exact.split("+", 1)[0]) is None:
        return None
    return lambda release: dependency_pins.admits_torch(release, torch.exact) is True  # one stating none is not counted


def _admitted(admits, known: list) -> tuple[str, str] | None:
    """(first, last) of the newest run of releases `admits` (a release it cannot judge, None, is not
    ruled out); None when the newest release is admitted (the pin says nothing the newest release
    does not) or none is."""
    run: list = []
    for v in known:
        if admits(str(v)) is not False:
            run = run + [v] if run and run[-1] == _before(v, known) else [v]
    if not run or run[-1] == known[-1]:
        return None
    return str(run[0]), str(run[-1])


def _before(v, known: list):
    i = known.index(v)
    return known[i - 1] if i > 0 else None
