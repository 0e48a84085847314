"""A pasted error: one line, a Python traceback, or a whole log. What a launch failure is named by
sits in three places, in this order of weight: the exception lines (`ValueError: …`, the chained
ones of "During handling …" included), the source lines of the frames (`assert
is_fa_version_supported(…)` above a bare `AssertionError`), and anything else in the log (an NCCL
warning, a framework's own message). Log prefixes (`ERROR 05-14 21:20:46 [core.py:396]`,
`(EngineCore_0 pid=1422836)`, `[rank0]:`) are dropped before reading.

The text is bounded (the tail is kept: the exception closes a traceback) and what is echoed back
is one exception line, redacted and without control characters."""
from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CHARS = 200_000
MAX_LINES = 4_000
ECHO = 200

_PREFIXES = (
    re.compile(r"^\s*\((?:[A-Za-z_][\w.\-]*\s+)?pid=\d+(?:,\s*ip=[^)]*)?\)\s?"),  # (EngineCore_0 pid=…) (RayWorker pid=…, ip=…)
    re.compile(r"^\s*(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\d\d-\d\d\s+\d\d:\d\d:\d\d(?:\.\d+)?\s+(?:\[[^\]]*\]\s*)?"),
    re.compile(r"^\s*\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s*(?:\|?\s*(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s*\|?)?\s*"),
    re.compile(r"^\s*\[rank\d+\]:\s?"),
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?\s*$')
# IPython's frames (Jupyter, Colab): `File /p/vllm/x.py:193, in LLM.__init__(self, …)` (IPython 8) or
# `/p/vllm/x.py in from_engine_args(cls, …)` (IPython 7; Colab links the path: `[/p/x.py](https://…) in f(…)`),
# the line that raised marked below by `--> 193`
_IPY_FRAME = re.compile(r"^\s*(?:File\s+)?\[?((?:[A-Za-z]:)?[^\s\[\]()\"]+\.py)\]?(?:\([^)\s]*\))?(?::(\d+))?,?\s+in\s+(?:[\w.]+\.)?(\w+)\(")
_IPY_ARROW = re.compile(r"^\s*-+>\s*(\d+)\s+(.*)$")
_EXCEPTION = re.compile(r"^([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*(?:Error|Exception|Exit|Interrupt|Warning|Failure)|AssertionError|StopIteration)(?::\s?(.*))?$")


@dataclass(frozen=True)
class Frame:
    file: str
    line: int
    function: str
    code: str


@dataclass(frozen=True)
class Parsed:
    text: str  # the bounded text, prefixes dropped
    exceptions: tuple[str, ...]  # exception lines with their continuation, last (the raised one) last
    frames: tuple[Frame, ...]

    @property
    def last(self) -> str:
        return self.exceptions[-1] if self.exceptions else ""


def clean_line(line: str) -> str:
    line = _ANSI.sub("", line)
    for rx in _PREFIXES:
        line = rx.sub("", line, count=1)
    return _CONTROL.sub(" ", line).rstrip()


def parse(text: str) -> Parsed:
    text = text[-MAX_CHARS:]
    lines = [clean_line(x) for x in text.splitlines()[-MAX_LINES:]]
    frames: list[Frame] = []
    exceptions: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _FRAME.match(line)
        if m:
            code = lines[i + 1].strip() if i + 1 < len(lines) and not _FRAME.match(lines[i + 1]) else ""
            frames.append(Frame(m.group(1), int(m.group(2)), m.group(3) or "", code))
            i += 2 if code else 1
            continue
        m = _IPY_FRAME.match(line)
        if m:
            arrow = next((a for a in (_IPY_ARROW.match(x) for x in lines[i + 1:i + 16]) if a), None)
            frames.append(Frame(m.group(1), int(m.group(2) or (arrow.group(1) if arrow else 0)), m.group(3),
                                arrow.group(2).strip() if arrow else ""))
            i += 1
            continue
        e = _EXCEPTION.match(line.strip())
        if e and not line.startswith((" ", "\t")):
            block = [line.strip()]
            # a message that goes on over the next lines, up to a blank line or the next traceback part
            j = i + 1
            while j < len(lines) and lines[j].strip() and not _FRAME.match(lines[j]) and not lines[j].startswith("Traceback") \
                    and not _EXCEPTION.match(lines[j].strip()) and len(block) < 20:
                block.append(lines[j].strip())
                j += 1
            exceptions.append(" ".join(block))
            i = j
            continue
        i += 1
    return Parsed("\n".join(lines), tuple(exceptions), tuple(frames))


def echo(parsed: Parsed, original: str) -> str:
    """The line to show as "what was matched": the raised exception, or the text's first line."""
    from vllm_kb.engine.kb.redact import redact_text

    line = parsed.last or next((x for x in parsed.text.splitlines() if x.strip()), "") or original.strip()
    return redact_text(_CONTROL.sub(" ", line).strip())[:ECHO]
