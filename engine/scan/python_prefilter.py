"""Which Python files the scanner parses: cheap text tests that every file holding a site passes
(most of a large tree is never parsed). Each test is a necessary condition of what
engine/scan/python_calls.py reads as a site, so dropping a file never changes a report."""
from __future__ import annotations

import re
from functools import lru_cache

from vllm_kb.engine.scan import container_spec, docker_sdk, lazy_config, python_argv, python_subclass, python_text, python_tools, words

TARGETS = {
    "LLM": ("LLM()", "standalone_offline"),
    "EngineArgs": ("EngineArgs()", "standalone_offline"),
    "AsyncEngineArgs": ("AsyncEngineArgs()", "standalone_serve"),
}
# TRL trainer configs whose use_vllm / vllm_* keys drive a vLLM engine (trl ≥0.14 layout).
TRL_CONFIGS = {"GRPOConfig", "RLOOConfig", "OnlineDPOConfig", "GKDConfig", "XPOConfig", "NashMDConfig", "DistillationConfig"}


# A site is a call of one of these classes, imported from vllm or trl under its own name (an
# alias still names it in the import): a file that never spells one as a word is never parsed.
# Each pattern starts with a literal (the names share three endings) and checks what precedes
# it afterwards: a leading \b would make the regex engine try every position of the file
# (vLLM's own tree: 3 s instead of 0.1 s).
def _word_ending(ending: str, names: list[str]) -> re.Pattern:
    by_width: dict[int, list[str]] = {}
    for n in names:
        by_width.setdefault(len(n), []).append(n)
    behind = "|".join(f"(?<={'|'.join(ns)})(?<!\\w.{{{w}}})" for w, ns in sorted(by_width.items()))
    return re.compile(f"{ending}(?!\\w)(?:{behind})")


_CLASS_WORDS = [(end, _word_ending(end, [n for n in sorted(set(TARGETS) | TRL_CONFIGS) if n.endswith(end)]))
                for end in ("LLM", "EngineArgs", "Config")]


def could_hold_site(text: str) -> bool:
    """The prefilter: False only for a file that cannot hold a site — it names neither a vLLM/TRL
    class nor a tool call that starts vLLM (engine/scan/python_tools.py), or never calls a name a
    site is a call of (a file that only imports or annotates with `LLM`). Python reads identifiers
    NFKC-normalised (`ＬＬＭ` is `LLM`), so a file that is not ASCII is tested as Python reads it."""
    if not words.python_candidate(text) and not _section_spread(text):  # TRL configs use vllm_* / use_vllm keys too
        return False
    text = _as_python_reads(text)
    if container_spec.mentions(text):
        return True  # a container spec built as a dict literal is no call (engine/scan/container_spec.py)
    if not (any(end in text and rx.search(text) for end, rx in _CLASS_WORDS) or any(w in text for w in python_tools.WORDS)):
        return False
    # …and calls one of the names a site is a call of (the scan keeps only those calls), defines
    # BentoML's `__command__`, or a class on LLM (whose calls are sites): vLLM's own tree, 556
    # files parsed before, 349 after
    return (_calls_a_callee(text, _NOT_SPAWN_ORDER) or (_calls_a_callee(text, _SPAWN_ORDER) and _may_spawn(text))
            or "__command__" in text or any("LLM" in b for _, b in python_text.class_heads(text)))


_TRL_SPREAD = re.compile(r"\b(?:" + "|".join(sorted(TRL_CONFIGS)) + r")\(")


def _section_spread(text: str) -> bool:
    """A TRL config built from a section of a file the script loads itself (`GRPOConfig(**cfg["grpo"])`,
    engine/scan/trl_section.py): the vLLM keys are in that file, not in the script."""
    return "**" in text and ("yaml" in text or "json.load" in text or "OmegaConf" in text) and _TRL_SPREAD.search(text) is not None


_SPAWN_MODULES = frozenset(("subprocess", "os", "asyncio"))


def _may_spawn(text: str) -> bool:
    """Whether a call named like a subprocess function (`run`, `call`, `system` …) can be a site:
    python_argv.Spawners reads it only as `M.fn(…)` with `M` bound by `import subprocess|os|asyncio
    [as M]`, or as `fn(…)` bound by an import (`from subprocess import run`, or anything imported
    `as run`); SageMaker's test reads any candidate's keywords. `run(` alone (`self.run(`,
    `trainer.run(`) sent files of tests and kernels to the parser for nothing — vLLM's own tree:
    20 files, 0.74 MB. The imports are read from the text (python_text: every word after
    `import`, a module "" where unsure); unreadable imports pass."""
    if "image_uri" in text or "PrimaryContainer" in text or any(w in text for w in docker_sdk.WORDS):
        return True  # a Docker client's `containers.run(` / python-on-whales' `docker.run(`
    bound = python_text.imports(text)
    if bound is None or any(name in python_argv.SPAWN_NAMES for name, _ in bound):
        return True
    modules = _SPAWN_MODULES | {name for name, module in bound if module in _SPAWN_MODULES or module == ""}
    return _spawn_attr(frozenset(modules)).search(text) is not None


@lru_cache(maxsize=64)
def _spawn_attr(modules: frozenset[str]) -> re.Pattern:
    """`M.fn` for a module name `M` and a subprocess function `fn`, with what Python allows between
    them: the `)` of `(M)`, white space, line continuations, comments."""
    names, fns = "|".join(map(re.escape, sorted(modules))), "|".join(sorted(python_argv.SPAWN_NAMES))
    return re.compile(rf"(?<![\w.])(?:{names})(?:[ \t\f\r\n\\)]|#[^\n\r]*(?![^\n\r]))*\.(?:[ \t\f\r\n\\]|#[^\n\r]*(?![^\n\r]))*(?:{fns})(?!\w)")


def _as_python_reads(text: str) -> str:
    global _last_read
    if not text.isascii():
        last = _last_read  # read once: another thread may set it meanwhile
        if last[0] is text:
            return last[1]
        import unicodedata

        out = unicodedata.normalize("NFKC", text) if not unicodedata.is_normalized("NFKC", text) else text
        _last_read = (text, out)
        return out
    return text


# the last text outside ASCII and its normal form: could_hold_site and may_call_wrapper ask for it
# for the same file one after the other (held by identity: the text is kept, so its id is not reused)
_last_read: tuple = (None, None)


def _callees() -> frozenset[str]:
    return frozenset(TARGETS) | TRL_CONFIGS | python_tools.CALLEES


# What may stand between a callee's name and the `(` of its call: the `)` of a parenthesised
# callee, white space, a line continuation, a comment that ends its line.
_TO_PAREN = re.compile(r"(?:[ \t\f\r\n)\\]|#[^\n\r]*(?![^\n\r])[\n\r])*\(")


def may_call_wrapper(text: str, wrapper_words: set[str]) -> bool:
    """For a file `could_hold_site` drops, whether a wrapper's name in it (a public wrapper's
    class, the project's subclass of LLM) could still make a site — the `VLLM` of every
    `VLLM_…` variable sent 1,350 more files of vLLM's own tree to the parser. A site is a call
    whose callee's name is a target, a wrapper or a class of the file on LLM, or BentoML's
    `__command__` (or a wrapper's building method). In a file that names vLLM, `could_hold_site` failing means that no target
    class or tool word is spelled in it (each call of one spells it) or that no callee is called:
    what is left is a wrapper called by its name, or imported under a callee's name (`W as
    LLM`). A text that is not ASCII is tested as Python reads its names, NFKC-normalised."""
    if not wrapper_words:
        return False
    text = _as_python_reads(text)
    if "__command__" in text or any("LLM" in b for _, b in python_text.class_heads(text)):
        return True
    # a wrapper called, or the method that builds one (`FastLanguageModel.from_pretrained(…)`)
    if _calls_a_callee(text, sorted(wrapper_words | python_subclass.methods(wrapper_words))):
        return True
    if lazy_config.named(text, wrapper_words):  # `dict(type=VLLM, …)`: a config its runner calls later
        return True
    if words.python_candidate(text) and not any(python_text.word_with(text, w, _AS) for w in wrapper_words):
        return False
    return _calls_a_callee(text)


# `W as X`: what may stand between an import's name and its `as`, then the `as`
_AS = re.compile(r"(?:[ \t\f\r\n\\]|#[^\n\r]*(?![^\n\r]))+as(?!\w)")


def _calls_a_callee(text: str, names: list[str] | None = None) -> bool:
    """Whether a name a site is a call of stands as a word before a call's `(` (str.find per
    name: a regex that tries the names at every position of the file took seconds on vLLM's tree)."""
    for name in _CALLEE_ORDER if names is None else names:
        i = text.find(name)
        if i < 0:
            continue
        # past the first, only the places followed by what may lead to a `(` (`LLM` of `VLLM_…`
        # is not: hundreds of them in a file of vLLM's tree); found from the next position on,
        # as str.find would (a name's places may overlap)
        rx = _followed(name)
        while True:
            before = text[i - 1] if i else " "
            if not (before.isalnum() or before == "_") and _TO_PAREN.match(text, i + len(name)):
                return True
            m = rx.search(text, i + 1)
            if m is None:
                break
            i = m.start()
    return False


@lru_cache(maxsize=None)
def _followed(name: str) -> re.Pattern:
    """The name followed by a character `_TO_PAREN` can start with."""
    return re.compile(re.escape(name) + r"(?=[ \t\f\r\n)\\#(])")


CALLEES = _callees()
_CALLEE_ORDER = sorted(CALLEES, key=lambda n: (-len(n), n))
# `create`, `to_thread`, `run_in_executor` are callees only around a Docker client's container (engine/scan/docker_sdk.py):
# tested like a spawn, or every file that calls an OpenAI client's `.create(` beside `subprocess` is parsed
_SPAWNISH = python_argv.SPAWN_NAMES | set(docker_sdk.CALLEES)
_SPAWN_ORDER = [n for n in _CALLEE_ORDER if n in _SPAWNISH]
_NOT_SPAWN_ORDER = [n for n in _CALLEE_ORDER if n not in _SPAWNISH]
