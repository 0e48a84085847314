"""Conditions and branches in a shell script read statically: `[ … ]`, `[[ … ]]` and `test` decided
when their operands are known (or only assumed, from a default), and the variables of branches
that cannot be decided merged — equal values stay, values that differ become unknown, and a
variable only an outside input sets stays an outside input."""
from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

from vllm_kb.engine.scan import shell_choices
from vllm_kb.engine.scan.shell import Word
from vllm_kb.engine.scan.shell_expand import Expander, hole, holes, is_known, shown


@dataclass
class Truth:
    value: bool | None  # None: cannot be decided
    assumed: bool = False  # decided only from a default (${X:-d}), an input the caller may give

    def negate(self) -> "Truth":
        return Truth(None if self.value is None else not self.value, self.assumed)


UNKNOWN = Truth(None)


def evaluate(words: list[Word], ex: Expander, exists=None) -> Truth:
    """A test command's truth. `exists(path)` tells whether a file is in the project (None:
    unknown)."""
    if not words:
        return UNKNOWN
    head = words[0].value
    if head in ("true", ":"):
        return Truth(True)
    if head == "false":
        return Truth(False)
    if head == "[" and words[-1].value == "]":
        return _expr(words[1:-1], ex, exists)
    if head == "[[" and words[-1].value == "]]":
        return _expr(words[1:-1], ex, exists)
    if head == "test":
        return _expr(words[1:], ex, exists)
    return UNKNOWN


def is_test(words: list[Word]) -> bool:
    return bool(words) and words[0].value in ("[", "[[", "test", "true", "false", ":")


def _expr(args: list[Word], ex: Expander, exists) -> Truth:
    for op in ("||", "-o"):
        parts = _split(args, op)
        if len(parts) > 1:
            return _fold([_expr(p, ex, exists) for p in parts], any_=True)
    for op in ("&&", "-a"):
        parts = _split(args, op)
        if len(parts) > 1:
            return _fold([_expr(p, ex, exists) for p in parts], any_=False)
    if args and args[0].value == "!":
        return _expr(args[1:], ex, exists).negate()
    if len(args) == 2 and args[0].value in ("-z", "-n"):
        t = _emptiness(args[1], ex)
        return t if args[0].value == "-z" else t.negate()
    if len(args) == 2 and args[0].value in ("-f", "-e", "-d", "-r", "-s"):
        path = args[1].value
        if path is None or exists is None:
            return UNKNOWN
        got = exists(path)
        return UNKNOWN if got is None else Truth(got)
    if len(args) == 1:
        return _emptiness(args[0], ex).negate()
    if len(args) == 3:
        a, op, b = args[0], args[1].value or "", args[2]
        if a.value is None or b.value is None:
            return UNKNOWN
        assumed = bool(a.assumed or b.assumed)
        x, y = a.value, b.value
        if op in ("=", "=="):
            return Truth(fnmatch.fnmatchcase(x, y) if _is_pattern(b) else x == y, assumed)
        if op == "!=":
            return Truth(not (fnmatch.fnmatchcase(x, y) if _is_pattern(b) else x == y), assumed)
        if op == "=~":
            try:
                return Truth(re.search(y, x) is not None, assumed)
            except re.error:
                return UNKNOWN
        nums = {"-eq": lambda p, q: p == q, "-ne": lambda p, q: p != q, "-gt": lambda p, q: p > q,
                "-ge": lambda p, q: p >= q, "-lt": lambda p, q: p < q, "-le": lambda p, q: p <= q}
        if op in nums:
            try:
                return Truth(nums[op](int(x), int(y)), assumed)
            except ValueError:
                return UNKNOWN
    return UNKNOWN


def _is_pattern(w: Word) -> bool:
    """`[[ $x == *" "* ]]`: unquoted glob characters make the right side a pattern."""
    return any(s.kind == "lit" and not s.quoted and re.search(r"[*?\[]", s.text) for s in w.segs)


def _emptiness(w: Word, ex: Expander) -> Truth:
    """-z: known values decide; a variable nothing in the script sets is assumed unset."""
    if w.value is not None:
        return Truth(w.value == "", bool(w.assumed))
    text = w.text or ""
    if _HOLE_FREE.sub("", text).strip():
        return Truth(False)  # some known text: not empty whatever the rest is
    parts = holes(text)
    if len(parts) == 1:
        m = re.fullmatch(r"\$\{?([A-Za-z_]\w*)\}?", parts[0])
        if m and m.group(1) not in ex.vars and m.group(1) not in ex.arrays and m.group(1) not in ex.unset:
            return Truth(True, assumed=True)
    return UNKNOWN


_HOLE_FREE = re.compile("\ue000[^\ue001]*\ue001")


def _split(args: list[Word], op: str) -> list[list[Word]]:
    out: list[list[Word]] = []
    cur: list[Word] = []
    for a in args:
        if a.value == op:
            out.append(cur)
            cur = []
        else:
            cur.append(a)
    out.append(cur)
    return out


def _fold(truths: list[Truth], any_: bool) -> Truth:
    assumed = any(t.assumed for t in truths)
    vals = [t.value for t in truths]
    if any_:
        if any(v is True for v in vals):
            return Truth(True, assumed)
        return Truth(False, assumed) if all(v is False for v in vals) else UNKNOWN
    if any(v is False for v in vals):
        return Truth(False, assumed)
    return Truth(True, assumed) if all(v is True for v in vals) else UNKNOWN


def case_matches(subject: str, patterns: list[Word]) -> bool:
    return any(p.value is not None and fnmatch.fnmatchcase(subject, p.value) for p in patterns)


_MISSING = object()


def _alternatives(name: str, state) -> list[str]:
    """What a variable may hold on one path; a value that is itself "one of …" (a loop or an
    earlier branch) is flattened."""
    if state[0] not in ("value", "input"):
        return ["(unset)"]
    text = shown(state[1])
    prefix = f"${name}: one of "
    return text[len(prefix):].split(" | ") if text.startswith(prefix) else [text]


def merge(base: Expander, branches: list[Expander], choices: dict | None = None) -> None:
    """Fold the states of the paths a script may take into `base` (in place); `choices`: the script's
    table of what each branch held where a merged array is unknown (engine/scan/shell_choices.py)."""
    if not branches:
        return
    names = set(base.vars) | set(base.arrays) | {n for b in branches for n in (*b.vars, *b.arrays, *b.unset)}
    for name in names:
        if _untouched(base, branches, name):
            continue  # every path still holds base's own value: the merge would put it back as it is
        states = [_state(b, name) for b in branches]
        first = states[0]
        # an array of unknown length in any branch stays of unknown length
        unsized = any(name in b.unsized for b in branches) or len({len(s[1]) for s in states if s[0] == "array"}) > 1
        if all(s == first for s in states):
            _put(base, name, first, branches[0])
            (base.unsized.add if unsized else base.unsized.discard)(name)
            continue
        kinds = {s[0] for s in states}
        if kinds <= {"external", "unset", "input"}:
            _put(base, name, ("external",), branches[0])
            continue
        if kinds == {"array"}:
            lists = [s[1] for s in states]
            common = _common_prefix(lists)
            alts = sorted({" ".join(shown(t) for t in lst[len(common):]) for lst in lists})
            rest: list[tuple[str, Word | None]] = [(hole("one of: " + " | ".join(a or "(nothing)" for a in alts)), None)]
            base.arrays[name] = [next(e for e in branches[0].arrays[name] if e[0] == t) for t in common] + rest
            if len({len(lst) for lst in lists}) == 1:  # one length on every path: element by element
                base.arrays[name] = [branches[0].arrays[name][k] if len({lst[k] for lst in lists}) == 1 else
                                     (hole("one of: " + " | ".join(sorted({shown(lst[k]) for lst in lists}))), None)
                                     for k in range(len(lists[0]))]
            else:  # the differing tails stand as one element, of unknown length
                unsized = True
                shell_choices.record(choices, rest[0][0], [b.arrays[name][len(common):] for b in branches])
            base.vars.pop(name, None)
            (base.unsized.add if unsized else base.unsized.discard)(name)
            continue
        if (default := _default(states)) is not None:
            _put(base, name, default, branches[0])
            base.unknown.discard(name)
            continue
        alts = sorted({a for s in states for a in _alternatives(name, s)})
        base.vars[name] = hole(f"${name}: one of " + " | ".join(alts))
        if all(s[0] == "value" for s in states):  # each path's command line, should `$NAME` run it
            shell_choices.record_text(choices, base.vars[name], [s[1] for s in states])
        base.arrays.pop(name, None)
        base.notes.pop(name, None)
        base.unset.discard(name)
    for b in branches:
        base.exported |= b.exported


def _untouched(base: Expander, branches: list[Expander], name: str) -> bool:
    """No path changed the variable: each holds base's very string (a copy shares it), no array, no
    note and the same unset and unsized marks — most of a long script's variables at each branch,
    which _state's regular expressions would otherwise read once per path (harbor.sh, eval111). A
    variable with a note or an array takes the full merge, which may rewrite them."""
    value = base.vars.get(name, _MISSING)
    if name in base.arrays or name in base.notes:
        return False
    unset, unsized = name in base.unset, name in base.unsized
    return all(b.vars.get(name, _MISSING) is value and name not in b.arrays and name not in b.notes
               and (name in b.unset) == unset and (name in b.unsized) == unsized for b in branches)


def _default(states: list[tuple]) -> tuple | None:
    """One known value on the paths the script takes by itself, what the caller supplies on the others
    (`B=vllm; while …; case $1 in --backend) B="$2";; esac; done`, `getopts` … `B=$OPTARG`): the value,
    a default as `${B:-vllm}` is one (Gary-code/CADReview's vllm_deploy.sh, eval99)."""
    values = {s[1] for s in states if s[0] == "value"}
    if len(values) != 1 or not {s[0] for s in states} <= {"value", "input"}:
        return None
    if not all(_from_caller(h) for s in states if s[0] == "input" for h in holes(s[1])):
        return None  # `$m` of `for m in $LIST`, a line `read` gives: values the script goes through, not a choice
    text = next(iter(values))
    if not is_known(text):
        return None
    inputs = sorted({shown(s[1]) for s in states if s[0] == "input"})
    # the same value on every path, a default on some (an earlier merge): still that default
    notes = sorted({s[2] for s in states if s[0] == "value" and s[2]})
    if inputs:
        notes = [f"default of the script; {' | '.join(inputs)} may set it otherwise"]
    return ("value", text, notes[0] if notes else None)


def _state(ex: Expander, name: str) -> tuple:
    if name in ex.arrays:
        return ("array", [t for t, _ in ex.arrays[name]])
    if name in ex.vars:
        text = ex.vars[name]
        if not is_known(text) and not _HOLE_FREE.sub("", text).strip() and all(_is_input(h) for h in holes(text)):
            return ("input", text)
        return ("value", text, ex.notes.get(name))
    if name in ex.unset:
        return ("unset",)
    return ("external",)


def _from_caller(what: str) -> bool:
    """What the caller of the script gives: an argument, getopts' OPTARG, an environment variable
    (upper-case, as they are written)."""
    return bool(re.fullmatch(r"\$\{?([0-9@*]|OPTARG|[A-Z_][A-Z0-9_]*)\}?", what))


def _is_input(what: str) -> bool:
    """A hole that stands for something the caller supplies: a positional parameter, OPTARG, an
    environment variable, or what `read` reads."""
    return bool(re.fullmatch(r"\$\{?([0-9@*]|OPTARG|[A-Za-z_]\w*)\}?|read", what))


def _put(base: Expander, name: str, state: tuple, src: Expander) -> None:
    base.arrays.pop(name, None)
    base.vars.pop(name, None)
    base.notes.pop(name, None)
    base.unset.discard(name)
    if state[0] == "array":
        base.arrays[name] = list(src.arrays[name])
    elif state[0] in ("value", "input"):
        base.vars[name] = state[1]
        if len(state) > 2 and state[2]:
            base.notes[name] = state[2]
    elif state[0] == "unset":
        base.unset.add(name)


def _common_prefix(lists: list[list[str]]) -> list[str]:
    out = []
    for items in zip(*lists):
        if all(x == items[0] for x in items):
            out.append(items[0])
        else:
            break
    return out


def _var_name(w: Word) -> str | None:
    """The variable a word is nothing but (`$X`, `"${X}"`), or None."""
    parts = [g for g in w.segs if not (g.kind == "lit" and g.text == "")]
    if len(parts) == 1 and parts[0].kind == "var" and not parts[0].op and not parts[0].index and re.fullmatch(r"[A-Za-z_]\w*", parts[0].name):
        return parts[0].name
    return None


def _literal(w: Word) -> str | None:
    """A word that is plain text, no expansion and no glob pattern."""
    if all(g.kind == "lit" for g in w.segs) and not _is_pattern(w):
        return "".join(g.text for g in w.segs)
    return None


def proves(cond: list) -> tuple[str, str] | None:
    """(variable, value) where a condition holds only with the variable at that value: `[ "$V" = lit ]`,
    `[[ $V == lit ]]`, `test lit = "$V"` — the branch it guards runs with that value (eval89
    inference-engineering-portfolio: `start_server "--disable-radix-cache"` in the sglang branch reaches the
    helper's sglang launch, not its vLLM one)."""
    if not cond:
        return None
    words = getattr(cond[-1], "words", None) or []
    if len(words) == 5 and (words[0].raw, words[4].raw) in (("[", "]"), ("[[", "]]")):
        args = words[1:4]
    elif len(words) == 4 and words[0].raw == "test":
        args = words[1:]
    else:
        return None
    if args[1].raw not in ("=", "=="):
        return None
    for v, lit in ((args[0], args[2]), (args[2], args[0])):
        name, value = _var_name(v), _literal(lit)
        if name is not None and value is not None:
            return name, value
    return None


def arm_proves(subject: Word, patterns: list[Word]) -> tuple[str, str] | None:
    """(variable, value) for a `case $V in lit)` arm of one plain pattern."""
    name = _var_name(subject)
    value = _literal(patterns[0]) if len(patterns) == 1 else None
    return (name, value) if name is not None and value is not None else None
