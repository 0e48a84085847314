"""Recognise a launch failure by vLLM's own words: every check's `error_text` wordings (V0 and V1,
old and new releases) compiled into patterns that tolerate what differs between one log and
another — the values vLLM fills into `{placeholders}`, line breaks and indentation, a log prefix
(`ERROR 05-12 10:01:02 [core.py:412]`, `(EngineCore_0 pid=…)`), quoting around a KeyError — a
message cut short after its opening sentence, and one quoted from a later sentence on (people
often quote only the sentence that tells them what to do: "You can use float16 instead …")."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from vllm_kb.engine.kb.versions import SpecifierSet

_PLACEHOLDER = re.compile(r"\{[A-Za-z_][^{}]*\}")
# A message cut short still identifies itself when this much of its text is there.
_MIN_LITERAL = 36
_VALUE = r"[\s\S]{0,400}?"
# A later sentence quoted alone needs more: the generic ones ("Input should be less than or equal
# to 1", "1 validation error for CompilationConfig") are shorter than this.
_MIN_SEGMENT = 45
# `{name:int}`: a value vLLM always prints as a whole number (divide()'s numerator and denominator),
# so a sentence that only shares the words around it ("The page size of the layer is not divisible
# by the maximum page size") is not taken for it
_INT = r"-?\d+"


@dataclass(frozen=True)
class Wording:
    check_id: str
    text: str
    vllm: SpecifierSet | None
    origin: str
    pattern: re.Pattern
    prefixes: tuple[tuple[re.Pattern, int], ...]  # (pattern of an opening part, literal characters in it)
    literal: int  # literal characters in the whole text
    shared: bool = False  # words several causes print: a candidate, not a recognition
    generic: bool = False  # words a more specific check prints too: kept only when nothing else matched
    # (pattern, literal characters, normalised text) of each run of later sentences long enough to
    # be specific: the message quoted from its second (third …) sentence on
    segments: tuple[tuple[re.Pattern, int, str], ...] = ()


@dataclass(frozen=True)
class Match:
    check_id: str
    text: str  # the wording that matched
    vllm: SpecifierSet | None
    origin: str
    score: int  # literal characters matched
    whole: bool  # the whole wording, not only its opening
    shared: bool = False  # the wording is printed for several causes (error_text `shared`)
    generic: bool = False  # the wording gives way to any other that matched (error_text `generic`)


def _literal_regex(s: str) -> str:
    parts = re.split(r"\s+", s)
    # a backtick is optional: an issue or a page renders `name` as code and the copied text loses the marks
    # (transformers' "`rope_scaling` must be a dictionary…" pasted as "rope_scaling must be…", eval104)
    return r"\s+".join(re.escape(p).replace("`", "`?") for p in parts if p != "") if s.strip() else (r"\s*" if s else "")


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    for m in _PLACEHOLDER.finditer(text):
        if m.start() > pos:
            out.append(("lit", text[pos:m.start()]))
        out.append(("ph", m.group(0)))
        pos = m.end()
    if pos < len(text):
        out.append(("lit", text[pos:]))
    return out


def _regex(tokens: list[tuple[str, str]]) -> str:
    out = []
    for kind, s in tokens:
        if kind == "ph":
            out.append(_INT if s.endswith(":int}") else _VALUE)
        else:
            lead, trail = s[:1].isspace(), s[-1:].isspace()
            body = _literal_regex(s.strip())
            out.append((r"\s*" if lead else "") + body + (r"\s*" if trail and body else ""))
    return "".join(out)


def _inner(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The tokens without the placeholders and white space at either end: each of those may
    match nothing, so a text holds a pattern (`search`) exactly when it holds the pattern without
    them, and kept, a leading one is tried at every position of the text, up to 400 characters
    each (a 300 KB log line took seconds per wording)."""
    def empty(t: tuple[str, str]) -> bool:
        return (t[0] == "ph" and not t[1].endswith(":int}")) or (t[0] == "lit" and not t[1].strip())

    i, j = 0, len(tokens)
    while i < j and empty(tokens[i]):
        i += 1
    while j > i and empty(tokens[j - 1]):
        j -= 1
    out = list(tokens[i:j])
    if out and out[0][0] == "lit":
        out[0] = ("lit", out[0][1].lstrip())
    if out and out[-1][0] == "lit":
        out[-1] = ("lit", out[-1][1].rstrip())
    return out


def compile_wording(check_id: str, raw: dict) -> Wording:
    text = str(raw["text"])
    tokens = _tokens(text)
    literal = sum(len(s.strip()) for k, s in tokens if k == "lit")
    flags = re.IGNORECASE
    prefixes = []
    seen = 0
    # openings that end at a sentence or a placeholder, long enough to be specific
    cuts: list[tuple[int, int | None]] = []
    for i, (kind, s) in enumerate(tokens):
        if kind == "ph":
            cuts.append((i, None))
            continue
        for m in re.finditer(r"[.:;!?](?=\s|$)|\n", s):
            cuts.append((i, m.end()))
    for i, end in cuts:
        head = tokens[:i] + ([("lit", tokens[i][1][:end])] if end is not None else [])
        n = sum(len(s.strip()) for k, s in head if k == "lit")
        if n >= min(_MIN_LITERAL, literal) and n > seen and n < literal:
            seen = n
            prefixes.append((re.compile(_regex(_inner(head)).rstrip(), flags), n))
    whole = _regex(_inner(tokens))
    # a message quoted without its closing full stop (an issue title, a line pasted from a log viewer)
    whole += "?" if whole.endswith(r"\.") else ""
    return Wording(check_id, text, SpecifierSet(raw["vllm"]) if raw.get("vllm") else None, raw.get("origin", "vllm"),
                   re.compile(whole, flags), tuple(prefixes), literal, bool(raw.get("shared")), bool(raw.get("generic")),
                   _segments(tokens, [c for c in cuts if c[1] is not None], literal, flags))


def _slice(tokens: list[tuple[str, str]], start: tuple[int, int], end: tuple[int, int] | None) -> list[tuple[str, str]]:
    """The tokens from a cut (token index, offset in it) up to another cut, or to the end."""
    i, a = start
    if end is None:
        return ([("lit", tokens[i][1][a:])] if a < len(tokens[i][1]) else []) + tokens[i + 1:]
    j, b = end
    if i == j:
        return [("lit", tokens[i][1][a:b])]
    return [("lit", tokens[i][1][a:])] + tokens[i + 1:j] + [("lit", tokens[j][1][:b])]


def _segments(tokens, cuts, literal: int, flags) -> tuple[tuple[re.Pattern, int, str], ...]:
    """From each sentence end, the shortest run of the following sentences that holds _MIN_SEGMENT
    literal characters: a message quoted from there on still names its check. The opening
    sentence is the prefixes' job; a run that is the whole rest of a short message is kept too."""
    out = []
    for k, start in enumerate(cuts):
        for end in cuts[k + 1:] + [None]:
            part = _inner(_slice(tokens, start, end))
            n = sum(len(s.strip()) for kind, s in part if kind == "lit")
            if n >= _MIN_SEGMENT and n < literal:
                key = " ".join("".join(s for _, s in part).lower().split())
                out.append((re.compile(_regex(part).rstrip(), flags), n, key))
                break
    return tuple(out)


_CACHE: dict[int, tuple[object, tuple[Wording, ...]]] = {}


def wordings(kb) -> tuple[Wording, ...]:
    hit = _CACHE.get(id(kb))
    if hit is None or hit[0] is not kb:
        compiled = [compile_wording(c.id, raw) for c in kb.checks for raw in c.error_text]
        # a later sentence two causes both print ("Please check the logs …") names neither
        owners: dict[str, set[str]] = {}
        for w in compiled:
            for _, _, key in w.segments:
                owners.setdefault(key, set()).add(w.check_id)
        compiled = [replace(w, segments=tuple(sg for sg in w.segments if len(owners[sg[2]]) == 1)) for w in compiled]
        hit = _CACHE[id(kb)] = (kb, tuple(compiled))
    return hit[1]


def match(kb, text: str, version: str | None = None) -> list[Match]:
    """The checks whose wording occurs in `text`, best first (most literal text matched; a whole
    wording before an opening). `version`: prefer wordings printed by that release."""
    hits: dict[str, Match] = {}
    for w in wordings(kb):
        got = None
        if w.pattern.search(text):
            got = Match(w.check_id, w.text, w.vllm, w.origin, w.literal, True, w.shared, w.generic)
        else:
            for rx, n in reversed(w.prefixes):
                if rx.search(text):
                    got = Match(w.check_id, w.text, w.vllm, w.origin, n, False, w.shared, w.generic)
                    break
            else:
                for rx, n, _ in w.segments:
                    if rx.search(text):
                        got = Match(w.check_id, w.text, w.vllm, w.origin, n, False, w.shared, w.generic)
                        break
        if got is None:
            continue
        if version and w.vllm is not None and not w.vllm.contains(version):
            got = replace(got, score=got.score // 2)
        best = hits.get(w.check_id)
        if best is None or (got.whole, got.score) > (best.whole, best.score):
            hits[w.check_id] = got
    return sorted(hits.values(), key=lambda m: (not m.whole, -m.score))
