"""An array the branches of an undecided `if`/`case` set to lists of different lengths
(`if [ "$MODE" = cli ]; then ARGS=(vllm serve "$M" …); else ARGS=(python -m vllm.entrypoints.openai.api_server
--model "$M" …); fi; "${ARGS[@]}"`, Agentic-Scene-Generation/Task3.2's start_vllm.sh, eval66). The merged
state keeps the differing tails as one unknown element (engine/scan/shell_cond.merge); the script's
table of choices keeps what each branch had there. A command that expands it is read once per branch,
and the launch they give is one site: what every branch gives stays, a setting only some branches give,
or give otherwise, is unknown — one of the branches' values, never one branch's. The branches' words
have no place in the command's line (each lives in its own branch), so `--fix` writes nothing there."""
from __future__ import annotations

import dataclasses

from vllm_kb.engine.scan.shell import Seg, Word
from vllm_kb.engine.scan.shell_expand import HOLE_CLOSE, HOLE_OPEN, holes, shown
from vllm_kb.engine.scan.site import Setting, Site

MAX_READS = 8  # argv read at most this many ways; beyond, the unknown element stays as it is


def record(choices: dict | None, hole_text: str, tails: list[list[tuple[str, Word | None]]]) -> None:
    """Note what each branch held where the merged array has the unknown element `hole_text`."""
    if choices is None:
        return
    seen: list[list[str]] = []
    kept = []
    for tail in tails:
        texts = [t for t, _ in tail]
        if texts not in seen:
            seen.append(texts)
            kept.append(list(tail))
    choices[hole_text] = kept


def record_text(choices: dict | None, hole_text: str, values: list[str]) -> None:
    """A scalar the branches set to different command lines (`CMD="vllm serve M …"` / `CMD="python -m
    vllm.entrypoints.openai.api_server …"`, run as `$CMD`): each branch's text."""
    if choices is not None and all(" " in v for v in values) and len(values) <= MAX_READS:
        choices[hole_text] = ("text", sorted(set(values)))


def alternatives(fields: list[Word], choices: dict) -> list[list[Word]]:
    """The argv once per branch for each element a branch chose; [fields] when there is none."""
    out = [fields]
    for _ in range(4):  # an element chosen within a chosen element: a few levels
        nxt: list[list[Word]] = []
        for argv in out:
            k = next((i for i, f in enumerate(argv) if f.value is None and f.text in choices), None)
            if k is None:
                nxt.append(argv)
                continue
            entry, at = choices[argv[k].text], argv[k]
            if isinstance(entry, tuple):  # a scalar's texts: split as an unquoted `$CMD` is, one word when quoted
                reads = [[_word(t, None, at) for t in (_fields_of(x) if at.bare_var else [x])] for x in entry[1]]
            else:
                reads = [[_word(t, o, at) for t, o in tail] for tail in entry]
            nxt += [argv[:k] + words + argv[k + 1:] for words in reads]
        if len(nxt) > MAX_READS:
            return out
        if nxt == out:
            break
        out = nxt
    return out


def _fields_of(text: str) -> list[str]:
    """Word splitting that keeps an unknown part (a hole) whole."""
    out, cur, depth = [], "", 0
    for c in text:
        depth += (c == HOLE_OPEN) - (c == HOLE_CLOSE)
        if c in " \t\n" and depth == 0:
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += c
    return out + ([cur] if cur else [])


def _word(text: str, origin: Word | None, at: Word) -> Word:
    """An element as "${A[@]}" gives it, with no place in the file (start -1: not edited)."""
    w = Word(raw=origin.raw if origin is not None else shown(text), line=(origin or at).line,
             segs=[Seg("lit", shown(text), quoted=True)], start=-1, end=-1)
    hs = holes(text)
    w.value, w.text = (None if hs else text), text
    w.unresolved = hs[0] if hs else None
    return w


def merge_site(into: Site, other: Site) -> None:
    """`other`, the same launch read through another branch, folded into `into`."""
    for name in set(into.settings) | set(other.settings):
        got = _either(into.settings.get(name), other.settings.get(name))
        if got is not None:
            into.settings[name] = got
    if (m := _either(into.model, other.model)) is not None:
        into.model = m
    into.unknown.update({k: v for k, v in other.unknown.items() if k not in into.unknown})
    kinds = into.launch.setdefault("branch_kinds", [into.kind])
    if other.kind not in kinds:
        kinds.append(other.kind)


_ONE_OF = "one of the branches: "


def _either(a: Setting | None, b: Setting | None) -> Setting | None:
    """None when both branches agree; else the setting, unknown, naming what each branch gives."""
    if a is None and b is None:
        return None
    if a is not None and b is not None and a.resolved == b.resolved and a.value == b.value and (a.resolved or a.raw == b.raw):
        return None
    base = a if a is not None else b
    assert base is not None
    alts = sorted(_values(a) | _values(b))
    return dataclasses.replace(base, value=None, resolved=False, note=_ONE_OF + " | ".join(alts), pos=None)


def _values(s: Setting | None) -> set[str]:
    if s is None:
        return {"(not given)"}
    if not s.resolved and s.note and s.note.startswith(_ONE_OF):
        return set(s.note[len(_ONE_OF):].split(" | "))
    return {str(s.value) if s.resolved else (s.raw or "?")}
