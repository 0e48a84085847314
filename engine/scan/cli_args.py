"""Reads vLLM command-line arguments the way vLLM's FlexibleArgumentParser does: `--a_b` is
`--a-b`, `--k=v`, `--no-x`, short aliases (`-tp`), `-O3`, dotted JSON keys
(`--compilation-config.mode 3`), JSON values, list flags, and `--config FILE`."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from vllm_kb.engine.kb.catalog import Catalog
from vllm_kb.engine.scan.shell import Word
from vllm_kb.engine.scan.site import Setting

_NUMBER = re.compile(r"^-?\d+(\.\d+)?([eE][-+]?\d+)?$")
_KVS = re.compile(r"\w+=\d+(,\w+=\d+)*")
_HUMAN = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")


NO_VALUE = "flag has no value"

@dataclass
class Arg:
    """One argument as it will reach vLLM: text, line, and whether it was resolvable."""

    text: str | None
    line: int
    raw: str
    note: str | None = None
    unresolved: str | None = None
    index: int = 0
    flag_text: str | None = None  # `--flag=$UNKNOWN`: the flag part is known even if the value is not
    emptied: str | None = None  # the expansion after it that gave no argument (shell.Word.emptied)

    @classmethod
    def from_word(cls, w: Word, index: int) -> "Arg":
        flag = None
        if w.value is None and w.text and w.text.startswith("-") and "=" in w.text:
            head = w.text.split("=", 1)[0]
            if "\ue000" not in head:
                flag = head
        return cls(text=w.value, line=w.line, raw=w.raw, note=w.assumed, unresolved=w.unresolved, index=index, flag_text=flag,
                   emptied=w.emptied)


@dataclass
class Parsed:
    settings: dict[str, Setting] = field(default_factory=dict)
    unknown: dict[str, Setting] = field(default_factory=dict)
    model: Setting | None = None
    model_positional: bool = False
    config_path: Arg | None = None
    extra_args: list[Arg] = field(default_factory=list)  # "$@", unresolved flags
    positionals: list[Arg] = field(default_factory=list)  # positionals beyond the model: argparse rejects them
    flag_style: str = "kebab"
    flag_count: int = 0
    model_flag: str | None = None  # "flag" (`--model X`) or "equals" (`--model=X`), as vLLM's own checks tell them apart
    model_flagged: Setting | None = None  # the `--model` value itself, beside a positional (which one vLLM keeps is L33's)
    first_is_option: bool = False  # the first word after the program is an option (vLLM 0.17+ and --config care)
    swallowed: tuple[str, list] | None = None  # (flag, items): a list option took the words up to the next option


def _is_flag(text: str | None) -> bool:
    """A word that starts an option (`-x`, `--y`) rather than a value; a negative number is a
    value, and an unresolved word is not known to be a flag."""
    return text is not None and text.startswith("-") and not _NUMBER.match(text)


def normalise_flag(flag: str) -> tuple[str, str | None]:
    """`--gpu_memory_utilization` → (`--gpu-memory-utilization`, None);
    `--compilation-config.mode` → (`--compilation-config`, 'mode')."""
    if flag.startswith("--"):
        body = flag[2:]
        head, dot, rest = body.partition(".")
        return "--" + head.replace("_", "-"), (rest or None) if dot else None
    head, dot, rest = flag.partition(".")
    return head, (rest or None) if dot else None


def coerce(text: str, typ: str) -> Any:
    """A flag's text as the Python value vLLM would get (best effort; text when unsure)."""
    t = text.strip()
    if typ == "json":
        try:
            return json.loads(t)
        except ValueError:
            return t
    if typ == "bool":
        low = t.lower()
        if low in ("true", "1", "yes"):
            return True
        if low in ("false", "0", "no"):
            return False
        return t
    if typ == "int":
        hr = _HUMAN.fullmatch(t)
        if hr:  # 16k, 1K, 25.6k (vLLM's human_readable_int, 0.8.5+)
            num, suffix = hr.groups()
            mult = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}[suffix]
            return int(float(num) * mult)
        try:
            return int(t)
        except ValueError:
            try:
                f = float(t)
                return int(f) if f.is_integer() else f
            except ValueError:
                return t
    if typ == "float":
        try:
            return float(t)
        except ValueError:
            return t
    if typ in ("dict", "list"):
        if t[:1] in "{[":
            try:
                return json.loads(t)
            except ValueError:
                return t
        if typ == "list":
            return [coerce(x, "int") if _NUMBER.match(x) else x for x in t.split(",")] if "," in t else [coerce(t, "int") if _NUMBER.match(t) else t]
        if _NUMBER.match(t):
            return coerce(t, "int")
        return t
    return t


def _set_nested(d: dict, dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    cur = d
    for k in keys[:-1]:
        nxt = cur.get(k)
        if not isinstance(nxt, dict):
            nxt = cur[k] = {}
        cur = nxt
    cur[keys[-1]] = value


class ArgParser:
    def __init__(self, catalog: Catalog, version: str, file: str, syntax: str = "cli"):
        self.cat = catalog
        self.version = version
        self.file = file
        self.syntax = syntax

    def _kvs_allowed(self) -> bool:
        from vllm_kb.engine.kb.versions import parse

        return parse(self.version) < parse("0.10.0")

    def _compile_key(self) -> str:
        from vllm_kb.engine.kb.versions import parse

        return "mode" if parse(self.version) >= parse("0.11.1") else "level"

    def _lookup(self, flag: str):
        """(dest, kind, exists-in-version) for a normalised flag, or None when vLLM never had it."""
        e = self.cat.flag(flag)
        if e is None:
            full = self.cat.expand_abbreviation(flag, self.version)
            e = self.cat.flag(full) if full else None
        if e is None:
            return None
        exists = e.exists(self.version)
        kind = e.field("kind", self.version if exists else e.last)
        return e.field("dest", self.version if exists else e.last), kind, exists

    def parse(self, args: list[Arg], *, positional_model: bool) -> Parsed:
        out = Parsed()
        i = 0
        styles = {"kebab": 0, "snake": 0}
        positional: Setting | None = None
        flagged: Setting | None = None
        first = next((a for a in args if not _forwarded(a)), None)
        out.first_is_option = first is not None and (first.text or first.raw or "").startswith("-")
        while i < len(args):
            a = args[i]
            if a.text is None and a.flag_text is not None:
                info = self._lookup(normalise_flag(a.flag_text)[0])
                if info is not None:  # `--flag=$UNKNOWN`: the flag is known, its value is not
                    dest, _kind, exists = info
                    s_ = Setting(dest, None, False, self.file, a.line, a.flag_text, a.raw, self.syntax, a.unresolved,
                                 known=exists, span=(a.index, a.index))
                    if dest == "model":  # given by the option, its value unknown: not "no model"
                        flagged = s_
                        out.model_flag = "equals"
                    else:
                        out.settings[dest] = s_
                    out.flag_count += 1
                    i += 1
                    continue
            if a.text is None and (_forwarded(a) or a.raw.startswith("-") or not positional_model or positional is not None):
                out.extra_args.append(a)
                i += 1
                continue
            text = a.text
            if text is None or not text.startswith("-") or text == "-" or _NUMBER.match(text):
                # argparse fills the model positional with the first word no option takes, wherever it is
                if positional_model and positional is None:
                    positional = Setting("model", text, text is not None, self.file, a.line, "", a.raw, self.syntax,
                                         a.note if text is not None else a.unresolved, span=(a.index, a.index))
                else:
                    out.positionals.append(a)
                i += 1
                continue
            out.flag_count += 1
            value_text: str | None = None
            value_arg: Arg | None = None
            if text.startswith("-O") and not text.startswith("--") and text != "-O":
                flag, value_text = "-O", text[3:] if text[2:3] == "=" else text[2:]
                value_arg = a
                if value_text.startswith("."):
                    # -O.mode=3 is --compilation-config.mode=3
                    flag = "--compilation-config"
                    key, _, v = value_text[1:].partition("=")
                    value_text = v
                    flag = flag + "." + key
            elif "=" in text and text.startswith("-"):
                flag, value_text = text.split("=", 1)
                value_arg = a
            else:
                flag = text
            if flag.startswith("--") and "_" in flag.partition(".")[0]:
                styles["snake"] += 1
            elif flag.startswith("--") and "-" in flag[2:].partition(".")[0]:
                styles["kebab"] += 1
            base, sub = normalise_flag(flag)
            opt_level = self.cat.flag("--optimization-level") if base == "-O" else None
            if opt_level is not None and opt_level.exists(self.version):
                base = "--optimization-level"
            if base == "--config":
                if value_text is None and i + 1 < len(args):
                    out.config_path = args[i + 1]
                    i += 2
                else:
                    out.config_path = value_arg
                    i += 1
                continue
            negated = False
            info = self._lookup(base)
            if info is None and base.startswith("--no-"):
                pos = self._lookup("--" + base[5:])
                if pos is not None and pos[1] in ("negatable", "switch"):
                    info, negated = pos, True
            start = a.index
            if info is None:
                # vLLM never had this flag: keep it, take a value if one follows.
                dest = base.lstrip("-").replace("-", "_")
                nxt = args[i + 1].text if i + 1 < len(args) else None
                if value_text is None and nxt is not None and not _is_flag(nxt):
                    value_arg = args[i + 1]
                    value_text = value_arg.text
                    i += 1
                out.unknown[dest] = Setting(dest, value_text, True, self.file, a.line, flag, value_arg.raw if value_arg else "", self.syntax, known=False, span=(start, (value_arg or a).index))
                i += 1
                continue
            dest, kind, exists = info
            entry = self.cat.arg(dest)
            typ = entry.field("type", self.version if entry and entry.exists(self.version) else (entry.last if entry else None)) if entry else "str"
            unresolved = None
            note = a.note
            end = a.index
            if negated:
                value: Any = False
                raw = ""
            elif kind in ("switch", "negatable") and value_text is None:
                value, raw = True, ""
            elif kind == "value" and typ == "bool" and value_text is None and (i + 1 >= len(args) or _is_flag(args[i + 1].text)):
                # StoreBoolean with nargs="?" and const "True" (--enable-chunked-prefill 0.5.3-0.8.4): alone, it is on
                value, raw = True, ""
            elif kind == "values" and value_text is None:
                items = []
                j = i + 1
                while j < len(args) and not _is_flag(args[j].text):
                    if args[j].text is None:
                        unresolved = args[j].unresolved
                    items.append(args[j])
                    j += 1
                value = [coerce(x.text, "int") if x.text and _NUMBER.match(x.text) else x.text for x in items]
                raw = " ".join(x.raw for x in items)
                if len(items) > 1:
                    out.swallowed = (flag, items)
                end = items[-1].index if items else a.index
                i = j - 1
            else:
                if value_text is None:
                    # its value was an expansion that gave nothing: argparse takes no next option as the value
                    gone = a.emptied and (i + 1 >= len(args) or _is_flag(args[i + 1].text))
                    if i + 1 >= len(args) or gone:
                        note = f"{NO_VALUE}: {a.emptied} expands to nothing" if gone else NO_VALUE
                        out.unknown.setdefault(dest, Setting(dest, None, False, self.file, a.line, flag, "", self.syntax, note, known=exists, span=(start, start)))
                        i += 1
                        continue
                    value_arg = args[i + 1]
                    i += 1
                    end = value_arg.index
                    value_text = value_arg.text
                    unresolved = value_arg.unresolved
                    note = note or value_arg.note
                raw = value_arg.raw if value_arg is not None else ""
                if value_arg is a and a.unresolved:
                    unresolved = a.unresolved
                if value_text is None or unresolved:
                    value = None
                elif kind in ("switch", "negatable"):
                    value = coerce(value_text, "bool")
                elif dest == "compilation_config" and not sub and _NUMBER.match(value_text.strip()):
                    # ≤0.11: `-O3` / `--compilation-config 3` set the level (0.11.1+: the mode)
                    value = {self._compile_key(): int(float(value_text))}
                elif dest == "optimization_level":
                    value = _opt_level(value_text)
                elif not sub and typ in ("dict", "json") and _KVS.fullmatch(value_text.strip()) and self._kvs_allowed():
                    # `image=16,video=2`: the key=value form of a JSON flag, accepted up to vLLM 0.9
                    value = {k.strip().lower(): int(v) for k, v in (p.split("=") for p in value_text.strip().split(","))}
                else:
                    value = coerce(value_text, "json" if sub else typ)
                    if kind == "values" and not isinstance(value, list):
                        value = [value]  # `--served-model-name=x`: nargs '+' still gives a list
            resolved = unresolved is None and value is not None
            if sub:
                prev = out.settings.get(dest)
                container = dict(prev.value) if prev and isinstance(prev.value, dict) else {}
                if resolved:
                    _set_nested(container, sub, value)
                s = Setting(dest, container, resolved and (prev is None or prev.resolved), self.file, a.line, base + "." + sub, raw, self.syntax, note, known=exists, span=(start, end))
            else:
                s = Setting(dest, value if resolved else None, resolved, self.file, a.line, flag, raw, self.syntax, note if resolved else (unresolved or note), known=exists, span=(start, end))
            if dest == "model":
                flagged = s
                out.model_flag = "equals" if "=" in text else "flag"
            else:
                out.settings[dest] = s
            i += 1
        out.flag_style = "snake" if styles["snake"] > styles["kebab"] else "kebab"
        out.model = positional or flagged
        out.model_positional = positional is not None
        out.model_flagged = flagged
        return out


def _forwarded(a: Arg) -> bool:
    """`"$@"`, `$*`, and a Python argv's `*spec.args` (python_argv: its hole word's raw text is its
    reason): whatever the caller passes, any number of words, unseen."""
    return a.text is None and ((a.unresolved or "") in ("$@", "$*") or (a.raw.startswith("*") and a.unresolved == a.raw))


def _opt_level(text: str):
    t = text.strip().upper().removeprefix("O")
    return int(t) if t.isdigit() else text


def args_from_words(words: list[Word], start: int = 0) -> list[Arg]:
    return [Arg.from_word(w, start + k) for k, w in enumerate(words)]
