"""Changes to a package's pinned version (a fix op `pin`: vLLM, or the RL framework that drives
it), written where the project pins it — the requirement line, the pyproject entry, the image tag
— or, without a pin, as the line to add."""
from __future__ import annotations

import re

from vllm_kb.engine.fix.changes import PRIORITY_ORDER, Change, Fixable
from vllm_kb.engine.fix.edits import TextEdit
from vllm_kb.engine.kb.textpos import LineIndex
from vllm_kb.engine.kb.versions import InvalidSpecifier, SpecifierSet
from vllm_kb.engine.scan.pins import Pin
from vllm_kb.engine.scan.site import Site

# an image tag's release with its suffix (`v0.6.3.post1`, `v0.9.0rc2`), replaced whole; a CUDA variant's
# `-cu129` goes with it: the release the change names is judged by its default build (cuda_builds.yaml)
_TAG = re.compile(r"(:v?)(\d+(?:\.\d+)+(?:\.?(?:post|rc|dev)\d*)?)(?:-cu1\d\d(?![\w.]))?")
_VERSION = re.compile(r"\d+(?:\.\d+)+(?:\.?(?:post|rc|dev)\d*)?")


_URL_REQ = re.compile(r"(?i)://|^(?:git|hg|svn|bzr)\+|\s@\s|\.(?:whl|tar\.gz|zip)(?:$|[#?])")


def _exact(spec: str) -> str | None:
    m = re.fullmatch(r"\s*===?\s*([0-9][0-9A-Za-z.+]*)\s*", spec or "")
    return m.group(1) if m else None


def _rewrite(pin, spec: str) -> str:
    """The pin as written, with its version specifier replaced."""
    if pin.kind == "image":
        # a range names the release nearest the one the tag has first (`>=0.6.4,<=0.12.0` → 0.6.4)
        found = _VERSION.search(spec)
        v = _exact(spec) or (found.group(0) if found else re.sub(r"^[^0-9]*", "", spec))
        return _TAG.sub(lambda m: m.group(1) + v, pin.text, count=1)
    found = _VERSION.search(spec)
    bound = re.fullmatch(r"\s*[<>]=\s*(" + _VERSION.pattern + r")\s*", spec or "")
    if pin.exact and bound:
        # an exact pin stays exact: the release the one bound names is the nearest that holds
        # (`vllm==0.10.1` → `vllm==0.11.1`, not an open `>=0.11.1` that would float to the newest)
        return _rewrite(pin, "==" + bound.group(1))
    if pin.kind == "dockerfile" and not _exact(spec) and found:
        # a RUN line (or a notebook's %pip line) is shell: an unquoted `vllm>=0.6.4,<=0.12.0` would be
        # a redirection there, so the pin names the release of the range nearest the one it had
        spec = "==" + found.group(0)
    if pin.spec and pin.spec in pin.text:
        return pin.text.replace(pin.spec, spec, 1)
    return f"{pin.text}{spec}"


def pin_changes(site, items: list[Fixable], pins: list, choice) -> list[Change]:
    """One change per package asked for (the highest priority wins), at the pin the site's
    folder uses: the version choice's own pin for vLLM, else the nearest pin of that package."""
    out: dict[str, Change] = {}
    other: list[Change] = []  # pins marked `alternative`: said, never written (engine/fix/alternatives.py)
    for item in sorted(items, key=lambda x: PRIORITY_ORDER.get(x.priority, 3)):
        for op, value in item.ops:
            if op.kind != "pin" or not value:
                continue
            if op.target == "vllm" and _submodule(choice):
                continue
            if op.alternative:
                ch = _pin_change(site, op.target, value, pins, choice)
                ch.checks, ch.priority, ch.safe, ch.blocked = [item.id], item.priority, False, "alternative"
                other.append(ch)
                continue
            if op.target in out:
                prev = out[op.target]
                both = _both(str(prev.value), str(value))
                if both is not None and both != prev.value:
                    # two ranges that hold together (`>=0.6.4` for the architecture and `>=0.6.4,<=0.12.0`
                    # for an option) make one pin that satisfies both
                    ch = _pin_change(site, op.target, both, pins, choice)
                    ch.checks, ch.priority, ch.safe = prev.checks + [item.id], prev.priority, False
                    out[op.target] = ch
                elif item.id not in prev.checks and (prev.value == value or both == prev.value):
                    prev.checks.append(item.id)
                continue
            ch = _pin_change(site, op.target, value, pins, choice)
            ch.checks.append(item.id)
            ch.priority, ch.safe = item.priority, False
            out[op.target] = ch
    # an alternative pin of a package the changes already pin is said only where the one check that asks for
    # both gives it (L133: the release with the fix, or the last one before the regression); another
    # check's pin of the package may need what the alternative would undo
    return list(out.values()) + [c for c in other if c.target not in out or (out[c.target].checks == c.checks and c.value != out[c.target].value)]


def _submodule(choice) -> bool:
    """vLLM built from a git submodule (engine/scan/fork_source.py: Tencent-Hunyuan/Hunyuan-A13B's
    quinnrong94/vllm fork at inference/vllm): `.gitmodules` is no dependency file, and a release pin would
    replace the project's own vLLM; the advice says what the release needs, no pin is written (eval119)."""
    return choice is not None and choice.pin is not None and choice.pin.file.rsplit("/", 1)[-1] == ".gitmodules"


def _pin_change(site, target: str, value, pins: list, choice) -> Change:
    if target == "vllm" and site.launch.get("release_alternatives") and choice is not None and choice.basis == "range":
        # one requirements file per backend (engine/scan/pin_alternatives.py): the range the site is judged over
        # is theirs together, written in none of them; which file to move is the user's choice: named, not edited
        return Change("pin", target, value, choice.pin.file if choice.pin else site.file, "pin", None, None, f"{target}{value}")
    pin = choice.pin if target == "vllm" and choice is not None and choice.pin is not None else _nearest(site, pins, target, value)
    if pin is not None and getattr(pin, "package", "vllm") not in (target, None) and pin.kind != "image":
        pin = None
    if pin is not None and pin.kind == "image" and not _tag_is_release(pin):
        # a worker image whose tag is its own release (runpod/worker-v1-vllm:v1.5.0 installs
        # vLLM 0.6.2): no tag to write; the change is named, not edited
        return Change("pin", target, value, pin.file, "pin", None, None, f"{target}{value}")
    if pin is None and (beside := _beside_install(site, target, str(value))) is not None:
        return beside
    if pin is None:
        return Change("pin", target, value, site.file, "pin", None, None, f"{target}{value}")
    if pin.kind != "image" and _URL_REQ.search(pin.text or ""):
        # a VCS or archive install (`git+https://…/transformers.git`) takes no version specifier: the change
        # is named, not written (`…transformers.git<5` would be a broken requirement)
        return Change("pin", target, value, pin.file, "pin", None, None, f"{target}{value}")
    # an image pin's line is the launch's; its text is found where the image is written
    ch = Change("pin", target, value, pin.file, "pin", None if pin.kind == "image" else pin.line, pin.text,
                _rewrite(pin, value))
    if pin.kind == "image" and pin.file == site.file:
        # the same image may start several launches of the file: the tag edited is this one's
        ch.near = (site.line, max(site.end_line or site.line, site.line))
    return ch


# packages a --no-deps install is known to need beside it (L155: transformers 5's huggingface_hub 1.x); another
# package put into such a command would come without its own requirements, so it is only named
_BESIDE = frozenset({"huggingface-hub"})


def _beside_install(site, target: str, value: str) -> Change | None:
    """A package the site's own command does not install, where that command installs others with --no-deps
    before vLLM starts (L155: transformers 5 over an image's huggingface_hub 0.x): the requirement goes into the
    same pip command, beside the last of them and quoted as it is (a bare one takes `~=` for a bounded range)."""
    got = (site.launch.get("image_installs") or []) + (site.launch.get("entry_installs") or [])  # a build's RUN, then the command
    if target not in _BESIDE or any(i["package"] == target for i in got):
        return None
    last = next((i for i in reversed(got) if i.get("no_deps") and i.get("quote") is not None), None)
    if last is None:
        return None
    q, written = last["quote"], f"{target}{value}"
    if not q and re.search(r"[<>]", value):
        m = re.fullmatch(r">=(\d+)\.(\d+)(?:\.\d+)?,<(\d+)\.0", value)
        if m is None or int(m.group(3)) <= int(m.group(1)):
            return None
        written = f"{target}~={m.group(1)}.{m.group(2)}"  # >=1.5.0,<2.0 without the shell's redirections
    before = f"{q}{last['text']}{q}"
    ch = Change("pin", target, value, last.get("file") or site.file, "pin", None, before, f"{before} {q}{written}{q}")
    ch.near = tuple(last["lines"]) if last.get("lines") else (site.line, max(site.end_line or site.line, site.line))
    return ch


def _both(a: str, b: str) -> str | None:
    """One specifier for two version ranges when a release either names satisfies both; None when
    they do not hold together."""
    for one, other in ((a, b), (b, a)):
        release = _exact(one)
        if release:  # an exact release the other range allows is the pin
            try:
                if SpecifierSet(other).contains(release):
                    return one
            except InvalidSpecifier:
                return None
    clauses: list[str] = []
    for part in f"{a},{b}".split(","):
        if part.strip() and part.strip() not in clauses:
            clauses.append(part.strip())
    lower = [c for c in clauses if c.startswith(">")]
    upper = [c for c in clauses if c.startswith("<")]
    if len(lower) > 1 or len(upper) > 1 or len(lower) + len(upper) != len(clauses):
        return None  # bounds on one side pull apart (the more urgent stays); only a plain range is made
    try:
        both = SpecifierSet(",".join(clauses))
    except InvalidSpecifier:
        return None
    if not any(both.contains(v) for v in _VERSION.findall(f"{a} {b}")):
        return None
    return ",".join(clauses)


def _tag_is_release(pin) -> bool:
    """The image's tag is the vLLM release the pin stands for (not a worker's or vendor's own)."""
    m = _TAG.search(pin.text or "")
    return bool(m and pin.exact and m.group(2) == pin.exact)


def _nearest(site, pins: list, package: str, value=None):
    folder = site.file.rsplit("/", 1)[0] if "/" in site.file else ""
    mine = [p for p in pins if getattr(p, "package", None) == package]
    if value:
        # a pin that already reads as the change would write it is no change to make: the one that
        # differs is the pin the finding is about (a Makefile's `torch==2.8.0` beside setup.py's
        # `torch==2.6.0`, for a vLLM that requires 2.8.0); stable, so the order holds otherwise
        mine.sort(key=lambda p: bool(getattr(p, "text", None)) and _rewrite(p, str(value)) == p.text)
    same = [p for p in mine if p.folder == (folder or ".") or p.folder == folder]
    if same:
        return same[0]
    # else the nearest folder above the site's that pins it (a root requirements.txt, or its requirements/ folder);
    # a sibling project's file is another install's (RUCAIBox: STILL-3-TOOL's script, VERL-STILL's pyproject)
    for up in _ancestors(folder):
        got = [p for p in mine if (p.folder or ".") == up or (p.folder or "").rsplit("/", 1)[0] in (up,) and
               (p.folder or "").rsplit("/", 1)[-1].startswith("requirements")
               or up == "." and (p.folder or "").startswith("requirements") and "/" not in (p.folder or "")]
        if got:
            return got[0]
    return None


def _ancestors(folder: str) -> list[str]:
    """The folders above `folder` (itself excluded), nearest first, ending with the project root "."."""
    parts = [x for x in folder.split("/") if x] if folder and folder != "." else []
    return ["/".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)] + ["."]


def pin_edit(ch: Change, text: str) -> TextEdit | None:
    """Replace the pin's text on its line."""
    if not ch.before or not ch.after:
        return None
    if ch.line is None:  # written once in the file (or once in the launch's lines), or not edited
        lo, hi = 0, len(text)
        if ch.near is not None:
            lines = LineIndex(text)
            first, last = ch.near
            lo = lines.line_start(first)
            hi = lines.line_start(last + 1) if last < len(lines.starts) else len(text)
        at = text.find(ch.before, lo, hi)
        if at < 0 and ch.near is not None:
            lo, hi = 0, len(text)  # the image is written outside the launch's lines (a variable set above)
            at = text.find(ch.before)
        if at < 0 or text.find(ch.before, at + 1, hi) >= 0:
            return None
        if ch.before[:1] in "'\"" and text[at - 1:at] in ("\\", ch.before[0]):
            return None  # quotes escaped or doubled by the file around them (a YAML or JSON string): not rewritten here
        return TextEdit(at, at + len(ch.before), ch.after)
    lines = LineIndex(text)
    start = lines.line_start(ch.line)
    end = lines.line_start(ch.line + 1) if ch.line < len(lines.starts) else len(text)
    at = text.find(ch.before, start, end)
    if at < 0:
        return None
    return TextEdit(at, at + len(ch.before), ch.after)

# --- `vllm-kb upgrade --bump-pins`: every place the project states its vLLM release, at once ---
# (a site's pin change above covers the one pin its version came from; an upgrade moves all of
# them: each requirement line's specifier, each vLLM image tag, each build's pip install).

_IMAGE_TAG = re.compile(r"(vllm/vllm-openai(?:-[a-z0-9]+)?:)(v?)(\d+(?:\.\d+)+(?:\.post\d+)?)([A-Za-z0-9_.-]*)")
_INSTALL = re.compile(r"(vllm(?:\[[^\]]*\])?\s*==\s*)(\d+(?:\.\d+)+(?:\.post\d+)?)")


def _line_span(text: str, line: int) -> tuple[int, int] | None:
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    if not 1 <= line <= len(starts):
        return None
    start = starts[line - 1]
    end = text.find("\n", start)
    return start, len(text) if end < 0 else end


def bump_pin_edits(pins: list[Pin], target: str, read) -> dict[str, list[TextEdit]]:
    """`vllm==0.9.2` → `vllm==T`, a range → `==T`, each on its own line."""
    out: dict[str, list[TextEdit]] = {}
    for p in pins:
        if p.package != "vllm" or p.kind == "lock" or p.extras:
            continue
        text = read(p.file)
        span = _line_span(text, p.line) if text is not None else None
        if span is None or not p.spec:
            continue
        line = text[span[0]:span[1]]
        at = line.find(p.text)
        if at < 0:
            continue
        inner = p.text.rfind(p.spec) if p.spec in p.text else -1
        if inner < 0 or p.spec.strip() == f"=={target}":
            continue
        start = span[0] + at + inner
        out.setdefault(p.file, []).append(TextEdit(start, start + len(p.spec), f"=={target}"))
    return out


def bump_image_edits(sites: list[Site], target: str, read) -> dict[str, list[TextEdit]]:
    """Image tags and `pip install vllm==X` in the files of the sites that run them."""
    out: dict[str, list[TextEdit]] = {}
    files = {s.file for s in sites if s.image} | {s.installed[1].rpartition(":")[0] for s in sites if s.installed}
    for f in sorted(files):
        text = read(f)
        if text is None:
            continue
        edits = []
        for m in _IMAGE_TAG.finditer(text):
            if m.group(3) != target:
                edits.append(TextEdit(m.start(3), m.end(3), target))
        if not edits:  # Helm values: `repository: vllm/vllm-openai` and `tag: v0.10.2` apart
            for s in sites:
                tag = _IMAGE_TAG.match(s.image or "") if s.file == f else None
                if tag and tag.group(3) != target and "vllm/vllm-openai" in text:
                    for t in re.finditer(rf"^\s*tag:\s*[\"']?v?({re.escape(tag.group(3))})\b", text, re.M):
                        edits.append(TextEdit(t.start(1), t.end(1), target))
        for s in sites:
            if s.installed and s.installed[1].rpartition(":")[0] == f:
                span = _line_span(text, int(s.installed[1].rpartition(":")[2]))
                inst = _INSTALL.search(text[span[0]:span[1]]) if span else None
                if span and inst and inst.group(2) != target:
                    edits.append(TextEdit(span[0] + inst.start(2), span[0] + inst.end(2), target))
        if edits:
            out[f] = sorted(set(edits), key=lambda e: e.start)
    return out
