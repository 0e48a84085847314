"""Changes to a package's pinned version (a fix op `pin`: vLLM, or the RL framework that drives
it), written where the project pins it — the requirement line, the pyproject entry, the image tag
— or, without a pin, as the line to add."""
from __future__ import annotations

import re

from vllm_kb.engine.fix.changes import PRIORITY_ORDER, Change, Fixable
from vllm_kb.engine.fix.edits import TextEdit
from vllm_kb.engine.kb.textpos import LineIndex

_TAG = re.compile(r"(:v?)(\d+(?:\.\d+)+)")


def _exact(spec: str) -> str | None:
    m = re.fullmatch(r"\s*===?\s*([0-9][0-9A-Za-z.+]*)\s*", spec or "")
    return m.group(1) if m else None


def _rewrite(pin, spec: str) -> str:
    """The pin as written, with its version specifier replaced."""
    if pin.kind == "image":
        v = _exact(spec) or re.sub(r"^[^0-9]*", "", spec)
        return _TAG.sub(lambda m: m.group(1) + v, pin.text, count=1)
    if pin.spec and pin.spec in pin.text:
        return pin.text.replace(pin.spec, spec, 1)
    return f"{pin.text}{spec}"


def pin_changes(site, items: list[Fixable], pins: list, choice) -> list[Change]:
    """One change per package asked for (the highest priority wins), at the pin the site's
    folder uses: the version choice's own pin for vLLM, else the nearest pin of that package."""
    out: dict[str, Change] = {}
    for item in sorted(items, key=lambda x: PRIORITY_ORDER.get(x.priority, 3)):
        for op, value in item.ops:
            if op.kind != "pin" or not value:
                continue
            if op.target in out:
                if item.id not in out[op.target].checks and out[op.target].value == value:
                    out[op.target].checks.append(item.id)
                continue
            pin = choice.pin if op.target == "vllm" and choice is not None and choice.pin is not None else _nearest(site, pins, op.target)
            if pin is not None and getattr(pin, "package", "vllm") not in (op.target, None) and pin.kind != "image":
                pin = None
            if pin is None:
                ch = Change("pin", op.target, value, site.file, "pin", None, None, f"{op.target}{value}")
            else:
                # an image pin's line is the launch's; its text is found where the image is written
                ch = Change("pin", op.target, value, pin.file, "pin", None if pin.kind == "image" else pin.line, pin.text,
                            _rewrite(pin, value))
            ch.checks.append(item.id)
            ch.priority, ch.safe = item.priority, False
            out[op.target] = ch
    return list(out.values())


def _nearest(site, pins: list, package: str):
    folder = site.file.rsplit("/", 1)[0] if "/" in site.file else ""
    mine = [p for p in pins if getattr(p, "package", None) == package]
    same = [p for p in mine if p.folder == (folder or ".") or p.folder == folder]
    return (same or mine or [None])[0]


def pin_edit(ch: Change, text: str) -> TextEdit | None:
    """Replace the pin's text on its line."""
    if not ch.before or not ch.after:
        return None
    if ch.line is None:  # written once in the file, or not edited
        at = text.find(ch.before)
        if at < 0 or text.find(ch.before, at + 1) >= 0:
            return None
        return TextEdit(at, at + len(ch.before), ch.after)
    lines = LineIndex(text)
    start = lines.line_start(ch.line)
    end = lines.line_start(ch.line + 1) if ch.line < len(lines.starts) else len(text)
    at = text.find(ch.before, start, end)
    if at < 0:
        return None
    return TextEdit(at, at + len(ch.before), ch.after)
