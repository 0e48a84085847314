"""A model's name as the catalog reads it (engine/kb/models.py): the publisher/name part of a Hub id
or a local path, with ModelScope's `___` and a version's `_`/`-` read as its dot and a folder named
after a Hub id read as that id; the family the name starts with; whether the catalog entries it
matches describe this very model (its generation and size) or only its family; a test checkpoint's
name."""
from __future__ import annotations

import re
from functools import lru_cache

from vllm_kb.engine.kb import regex_cache

# a generation written in the name: a point release after the family word (Qwen3.6, Llama-3.1,
# v0.3 — not a size such as 0.6B) or a date suffix (-2507, -0528)
_GEN_DOTTED = re.compile(r"(?i)(?<=[a-z])([-_]?\d+\.)(\d+)(?![\d.]*\s*[bmk](?![a-z]))")
_GEN_DATE = re.compile(r"(?<=[-_])(\d{4})(?=$|[-_/])")
# a quantization's bit width written in the name (`-AWQ-4bit`, `bnb-8bit`, `_4-bit`): no parameter count,
# though a size rule `-4b` would read one (cpatonn/Qwen3-VL-32B-Instruct-AWQ-4bit is the 32B model)
_BIT_WIDTH = re.compile(r"(?i)(?<=[-_.])(\d+)(?=[-_]?bits?(?![a-z]))")


def sized_view(short: str) -> str:
    """The name as size rules read it: bit widths masked, each digit kept in place (spans stay true)."""
    return _BIT_WIDTH.sub(lambda m: "N" * len(m.group(1)), short)

@lru_cache(maxsize=256)
def knowledge_rx(pattern: str) -> re.Pattern:
    return regex_cache.knowledge(pattern)


def family_of(short: str, families: list[dict]) -> dict | None:
    """The family the model's own name starts with: of the families whose pattern names it as a
    whole word — not inside a longer name (PaliGemma and CodeGemma are not Gemma 3), not running
    on into a size or another name (`gemma-3b` is a 3B Gemma, `gemma-3n` is Gemma 3n) — the one
    named first in the name after the organisation (LLaVA-Video-7B-Qwen2 is a LLaVA model on a
    Qwen2 backbone, not Qwen2); the catalog's order breaks ties. The organisation is read only when the name itself names none."""
    org, _, own = short.rpartition("/")
    for offset in (len(short) - len(own), 0) if org else (0,):
        best: tuple[int, int] | None = None
        for i, fam in enumerate(families):
            for m in knowledge_rx(fam["match"]).finditer(short):
                if m.start() < offset:
                    continue
                before = short[m.start() - 1] if m.start() > 0 else ""
                after = short[m.end()] if m.end() < len(short) else ""
                if m.group(0)[:1].isalnum() and before.isalnum():
                    continue
                if m.group(0)[-1:].isdigit() and after.isalnum():  # gemma-3b, gemma-3n, qwen3vl: another name
                    continue
                if best is None or (m.start(), i) < best:
                    best = (m.start(), i)
                break
        if best is not None:
            return families[best[1]]
    return None


# a family's version written with `_` or `-` for its dot in a local folder's name (qwen2_5-7b-instruct,
# Qwen2-5-VL-7B, glm-4-5-air, llama3_1-8b): a letter, a digit, the separator, one digit, then a
# separator or the end — never a size (Qwen2-7B, Qwen-1_8B-Chat, internlm2-1_8b: after a `-` the
# digit that an `_` and a digit follow starts a size written with `_`, while qwen2_5_14b, written with
# `_` throughout, is Qwen2.5 at 14B) or a date (R1-0528)
_VERSION_SEP = re.compile(r"(?<=[A-Za-z])(-?\d)(?:_(\d)(?=[-_/]|$)|-(\d)(?=[-/]|_(?!\d)|$))")


# Qwen's point releases written without their dot in a folder's name (qwen25_32b_instruct, Qwen15_14B_Chat):
# only before a separator, so a size (Qwen-14B) or another generation (Qwen3) never reads as one
_QWEN_RUN_TOGETHER = re.compile(r"(?i)(?<![a-z0-9])(qwen)(1|2)(5)(?=[-_])")


TOY = re.compile(r"(?i)tiny[-_]?random|random[-_]?tiny|internal[-_]testing|(?:^|/)tiny-\w+For(?:Causal|Conditional)|(?:^|[/_-])dummy(?:[/_-]|$)")


def short_name(name: str) -> str:
    """The last two path parts (publisher/name), with ModelScope's "___" read as "." (its
    downloads spell Qwen3.6-35B-A3B as Qwen3___6-35B-A3B) and a version's `_`/`-` as its dot."""
    base = name.rstrip("/").replace("___", ".").rsplit("/", 2)
    short = "/".join(base[-2:]) if len(base) > 1 else base[0]
    short = _QWEN_RUN_TOGETHER.sub(lambda m: f"{m.group(1)}{m.group(2)}.{m.group(3)}", short)
    return _VERSION_SEP.sub(lambda m: f"{m.group(1)}.{m.group(2) or m.group(3)}", short)


def org_joined(short: str, families: list[dict], publishers: list[str] | None) -> str:
    """A folder named after a Hub id with its slash replaced (`Qwen_Qwen3-30B-A3B-FP8`, `Qwen--Qwen3-8B`:
    the `local_dir=repo_id.replace("/", "_")` of download scripts) is read as that id, as the same id
    written as two path parts (`…/Qwen/Qwen3-30B-A3B-FP8`) is: only where the part before the
    separator is a catalogued publisher and the rest names a catalogued family by itself."""
    head, _, last = short.rpartition("/")
    for org in publishers or ():
        for sep in ("_", "--"):
            rest = last[len(org) + len(sep):]
            if last.lower().startswith(org.lower() + sep) and rest and family_of(rest, families) is not None:
                return f"{org}/{rest}"
    return short


def matched_entries(short: str, families: list[dict]) -> tuple[str | None, tuple[int, ...]]:
    fam = family_of(short, families)
    if fam is None:
        return None, ()
    sized = sized_view(short)
    return fam["id"], tuple(i for i, s in enumerate(fam.get("sizes", [])) if knowledge_rx(s["match"]).search(sized))


def exact_entry(short: str, families: list[dict]) -> bool:
    """Whether the catalog entries the name matches describe this very model rather than its
    family: a family with sizes needs one of them to match, and every generation the name
    writes (Qwen3.6, -2507) must be one the entries tell apart or the config.json they were read
    from names — a name whose generation could be changed without changing what it matches
    (Qwen3.6-35B-A3B matches Qwen3-MoE's entries just as Qwen3.9-35B-A3B would) takes the family's
    values as a default, not as its own. A version written before the family's own word is the
    fine-tune's (dolphin-2.9-llama3-8b, OpenHermes-2.5-Mistral-7B): it names no generation of the base."""
    fam, sizes = matched_entries(short, families)
    entry = next((f for f in families if f["id"] == fam), None)
    whole = entry is not None and (entry.get("arch") or {}).get("num_hidden_layers")  # one model, not a range
    if entry is None or (entry.get("sizes") and not sizes and not whole):
        return False
    matched = [entry, *(entry["sizes"][i] for i in sizes)]
    sources = " ".join(str(e.get("source", "")) for e in matched).lower()
    known = {str(g).lower() for e in matched for g in e.get("generations", [])}
    own = short.rfind("/") + 1
    word = next((m.start() for m in knowledge_rx(entry["match"]).finditer(short) if m.start() >= own), own)
    for rx, repl in ((_GEN_DOTTED, lambda m: m.group(1) + "987"), (_GEN_DATE, lambda m: "9999")):
        for m in rx.finditer(short):
            if own <= m.start() and m.end() <= word:
                continue  # the fine-tune's own version, before the base family's word
            said = m.group(0).lstrip("-_").lower()
            if said in known or re.search(r"(?<![\d.])" + re.escape(said) + r"(?![\d.])", sources):
                continue
            other = short[:m.start()] + repl(m) + short[m.end():]
            if matched_entries(other, families) == (fam, sizes):
                return False
    return True
